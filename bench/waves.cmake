add_executable(tessera_bench_waves ${CMAKE_CURRENT_LIST_DIR}/wave_bench.cpp)
target_link_libraries(tessera_bench_waves PRIVATE tessera_asm tessera_rtl_fabric fmt::fmt)
target_compile_definitions(tessera_bench_waves PRIVATE
                           TESSERA_BENCH_PROGRAMS="${CMAKE_CURRENT_LIST_DIR}/programs")

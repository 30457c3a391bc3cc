add_executable(tessera_bench_ce ${CMAKE_CURRENT_LIST_DIR}/ce_bench.cpp)
target_link_libraries(tessera_bench_ce PRIVATE tessera_asm tessera_ce tessera_func
                      tessera_rtl_fabric fmt::fmt)
target_compile_definitions(tessera_bench_ce PRIVATE
                           TESSERA_BENCH_PROGRAMS="${CMAKE_CURRENT_LIST_DIR}/programs")

add_executable(tessera_bench_noc ${CMAKE_CURRENT_LIST_DIR}/noc_bench.cpp)
target_link_libraries(tessera_bench_noc PRIVATE fmt::fmt)

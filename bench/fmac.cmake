# FMAC throughput: the functional model vs the RTL datapath, f32 and f16 fused multiply-add on the
# same random operands (bench/fmac_bench.cpp). Included from bench/CMakeLists.txt.
add_executable(tessera_bench_fmac ${CMAKE_CURRENT_LIST_DIR}/fmac_bench.cpp)
target_link_libraries(tessera_bench_fmac PRIVATE tessera_fp tessera_rtl_fp CLI11::CLI11 fmt::fmt)

# Runs one command and checks its exit status and what it prints (stdout and stderr together):
#   cmake -DCMD="prog|arg|arg" -DEXPECT_CODE=1 -DEXPECT_0=regex [-DEXPECT_1=regex ...]
#         -P expect_output.cmake
# CMD separates its words with '|' (a CMake list does not survive add_test). Every EXPECT_<i>
# must match. Used by the failure-path tests of `tessera fpcheck`.
if(NOT DEFINED CMD OR NOT DEFINED EXPECT_CODE)
  message(FATAL_ERROR "expect_output.cmake: CMD and EXPECT_CODE are required")
endif()
string(REPLACE "|" ";" argv "${CMD}")
execute_process(COMMAND ${argv} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT "${code}" STREQUAL "${EXPECT_CODE}")
  message(FATAL_ERROR "exit status ${code}, expected ${EXPECT_CODE}")
endif()
foreach(i RANGE 0 9)
  if(DEFINED EXPECT_${i} AND NOT all MATCHES "${EXPECT_${i}}")
    message(FATAL_ERROR "output does not match: ${EXPECT_${i}}")
  endif()
endforeach()

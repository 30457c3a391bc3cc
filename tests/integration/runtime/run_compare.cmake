# Like ../fp/expect_output.cmake (CMD, EXPECT_CODE, EXPECT_<i>), then checks that each file the
# command wrote equals its golden copy: -DCOMPARE="written=golden|written=golden", with
# -DGOLDEN_DIFF=tessera_golden_diff, which names the first differing element, line or byte.
include(${CMAKE_CURRENT_LIST_DIR}/../fp/expect_output.cmake)
if(DEFINED COMPARE AND NOT COMPARE STREQUAL "")
  if(NOT DEFINED GOLDEN_DIFF)
    message(FATAL_ERROR "run_compare.cmake: GOLDEN_DIFF is required with COMPARE")
  endif()
  string(REPLACE "|" ";" pairs "${COMPARE}")
  foreach(pair ${pairs})
    string(REPLACE "=" ";" files "${pair}")
    list(GET files 0 written)
    list(GET files 1 golden)
    execute_process(COMMAND ${GOLDEN_DIFF} ${written} ${golden}
                    RESULT_VARIABLE differ ERROR_VARIABLE why)
    if(differ)
      message(FATAL_ERROR "${why}")
    endif()
  endforeach()
endif()

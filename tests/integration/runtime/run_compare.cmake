# Like ../fp/expect_output.cmake (CMD, EXPECT_CODE, EXPECT_<i>), then checks that each file the
# command wrote equals its golden copy: -DCOMPARE="written=golden|written=golden".
include(${CMAKE_CURRENT_LIST_DIR}/../fp/expect_output.cmake)
if(DEFINED COMPARE)
  string(REPLACE "|" ";" pairs "${COMPARE}")
  foreach(pair ${pairs})
    string(REPLACE "=" ";" files "${pair}")
    list(GET files 0 written)
    list(GET files 1 golden)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${written} ${golden}
                    RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "${written} differs from the golden ${golden}")
    endif()
  endforeach()
endif()

# Runs a command that must fail with a given exit code and print a given message.
#   cmake -DCMD="a;b;c" -DCODE=2 -DMATCH="regex" -P expect_failure.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL CODE)
  message(FATAL_ERROR "expected exit code ${CODE}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\nstdout:\n${out}\nstderr:\n${err}")
endif()

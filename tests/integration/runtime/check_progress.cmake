# The progress line of a long run (host/runtime/progress.h): drawn on a terminal, absent when
# output is not one. The terminal is a pseudo-terminal from util-linux `script`; without it the
# test is skipped (its message matches the test's SKIP_REGULAR_EXPRESSION). Arguments:
# -DTESSERA=... -DIMAGE=...
find_program(SCRIPT script)
if(NOT SCRIPT)
  message("SKIPPED: script (util-linux) not found")
  return()
endif()
string(ASCII 27 esc)
# 300,000 RTL cycles of a PE counting down (spin.s) take well over the 250 ms before the first
# redraw; the run ends at its limit.
set(cmd "${TESSERA} run ${IMAGE} --backend rtl --launch main --max-cycles 300000")
execute_process(COMMAND ${SCRIPT} -qec "${cmd}" /dev/null OUTPUT_VARIABLE tty RESULT_VARIABLE rc)
if(NOT tty MATCHES "\r${esc}\\[K  [0-9]+ cycles \\| [0-9.]+k? cycles/s \\| [0-9.]+ s")
  message(FATAL_ERROR "no progress line on a terminal; the output was:\n${tty}")
endif()
if(NOT tty MATCHES "\r${esc}\\[Krtl: cycle limit after 300000 cycles")
  message(FATAL_ERROR "the progress line was not cleared before the result:\n${tty}")
endif()
separate_arguments(argv UNIX_COMMAND "${cmd}")
execute_process(COMMAND ${argv} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "exit status ${rc}, expected 1 (cycle limit)")
endif()
if(out MATCHES "cycles/s" OR err MATCHES "cycles/s")
  message(FATAL_ERROR "a progress line without a terminal:\n${out}${err}")
endif()

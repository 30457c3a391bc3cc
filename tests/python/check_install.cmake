# Installs the component `python` under DESTDIR=DEST and imports the module from there alone.
file(REMOVE_RECURSE ${DEST})
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${DEST}
                        ${CMAKE_COMMAND} --install ${BUILD} --component python
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed:\n${out}")
endif()
file(GLOB installed ${DEST}${SITE}/tessera*.so)
if(NOT installed)
  message(FATAL_ERROR "no tessera module under ${DEST}${SITE} after cmake --install:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${DEST}${SITE} ${PYTHON} -c
                        "import tessera, sys; assert tessera.__file__.startswith('${DEST}'), tessera.__file__; print(tessera.__file__)"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed module does not import:\n${out}")
endif()
message(STATUS "installed and imported: ${out}")

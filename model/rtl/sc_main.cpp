// libsystemc.so's own main() calls sc_main, so every program that links libsystemc must define
// it, whether or not it uses the SystemC fabric. Tessera programs have their own main() and drive
// the kernel through sc_start, so SystemC's main never runs. This file is an object library that
// tessera_rtl_fabric hands to every program linking it (model/rtl/CMakeLists.txt): in an archive
// the symbol would be left out of programs that need nothing else from sc_fabric.cpp.
#include <cstdio>

// SystemC declares it with C linkage (sysc/kernel/sc_externs.h).
extern "C" int sc_main(int, char**);

int sc_main(int, char**) {
  std::fprintf(stderr, "tessera: SystemC's main() is not an entry point of this program\n");
  return 2;
}

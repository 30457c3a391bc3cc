// What the runtime says when a run stops without finishing: a deadlock diagnosis in words, read
// from every PE's memory-mapped state through the back door (docs/isa.md 3.2: CeStatus, CeColor,
// UtStatus, UtInfo, TaskActive, TaskBlocked), with pcs named by source line when the image has
// line information.
#pragma once

#include <string>

#include "layout/image.h"
#include "machine/machine.h"

namespace tessera::runtime {

// One entry per PE whose compute engine is not quiet or whose router queues hold wavelets (at most
// `max_pes`, then a count of the rest), e.g.
//   PE(1,0): task 3 running at pc 0x0040 (recv.s:22), stalled: send on color 4 has no credit;
//     microthread 2 (fmovs at pc 0x0038, recv.s:20) waits for data on color 5;
//     CE input queues: color 7: 3 of 16 (head control);
//     router input queues: from W color 5: 3;
//     blocked: task 4 (done)
// `image` may be null (no source lines).
std::string DiagnoseDeadlock(machine::Machine& m, const layout::Image* image, int max_pes = 16);

// A fault in words: a compute-engine fault as docs/isa.md 7 words it ("PE(3,2) fault: misaligned
// 32-bit load at pc 0x0124 (address 0x0103)", from the fault registers, the instruction at the
// faulting pc and the task table), with the cycle and the source line; a router fault as
// fabric::DescribeFault words it.
std::string DescribeFault(machine::Machine& m, const layout::Image* image,
                          const fabric::FaultRecord& f);

// "task 3 (recv)": the task and the label at its entry (TaskCfg), or "task 3" without one.
std::string TaskText(machine::Machine& m, const layout::Image* image, fabric::Coord pe,
                     uint32_t task);

// "0x0040 (recv.s:22)" or "0x0040" without line information.
std::string DescribePc(const layout::Image* image, fabric::Coord pe, uint16_t pc);

}  // namespace tessera::runtime

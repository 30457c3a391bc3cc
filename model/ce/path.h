// The paths through a compute engine's cycle, as policies of its instruction bodies
// (insn_bodies.h: one body per instruction class, the only place an instruction's behaviour is
// written). A body first decides (faults, stalls, and on the plain paths whether the
// instruction would reach beyond the engine), then acts; a path says what deciding and acting
// mean. Which path a cycle takes is Ce::Tick's choice (tick.cpp), and each driver's file says
// when it may run:
//
//   path_cycle.cpp   CyclePath<false>, CyclePath<true>: the whole cycle model (docs/isa.md 6.8),
//                    untraced or traced; always correct, the reference for the others
//   path_plain.cpp   PlainPath: cycles of a running task alone in its engine, many at a time;
//                    ProbePath: whether a cycle's issue stays inside the engine
//   path_bulk.cpp    DSD element steps of microthreads on memory while the task waits for them
//   path_ahead.cpp   cycles run before the fabric reaches them, with the plain and bulk drivers,
//                    and taken back when the run stops earlier
#pragma once

#include <cstdint>

#include "arch/arch.h"
#include "ce/trace.h"

namespace tessera::ce {

// What an instruction body did in the cycle it was issued in.
enum class Issue : uint8_t {
  kDone,   // it issued: its effects are made (probing: it would issue)
  kStall,  // it stalls and issues again in a later cycle; nothing else changed
  kFault,  // it faulted; the fault is recorded (the cycle path only)
  kLeave,  // the plain paths only: it would reach beyond the engine; nothing changed
};

// The whole cycle model: the body takes resources in the order of docs/isa.md 6.8, raises its
// faults, counts its stalls, and leaves its SRAM, register and task-mask writes to the end of
// the cycle (Ce::Commit). Traced: `rec` collects what the retired instruction wrote.
template <bool kT>
struct CyclePath {
  static constexpr bool kTrace = kT;
  static constexpr bool kPlain = false;
  static constexpr bool kProbe = false;
  TraceRecord rec;
};

// A running task alone in its engine (Ce::PlainState: no busy microthread, no owed credit, no
// control wavelet, no fault), so every resource is free and nothing else in the cycle reads the
// SRAM: an instruction that would fault, read or write a memory-mapped register, reach the
// fabric, change the task masks, end the task or start a microthread leaves (Issue::kLeave)
// before it changes anything; a store is written at once.
struct PlainPath {
  static constexpr bool kTrace = false;
  static constexpr bool kPlain = true;
  static constexpr bool kProbe = false;
};

// The plain path's decisions without their effects: whether a cycle's issue would stay inside
// the engine (kDone or kStall) or leave it, and for a stall, its reason and the busy
// microthreads it waits for. Resources count as free: while microthreads are busy the real issue
// may stall on one instead, which stays inside the engine too.
struct ProbePath {
  static constexpr bool kTrace = false;
  static constexpr bool kPlain = true;
  static constexpr bool kProbe = true;
  arch::CeStall stall = arch::CeStall::kNone;
  uint8_t waits = 0;  // the busy microthreads a stall waits for
};

}  // namespace tessera::ce

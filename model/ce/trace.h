// What a compute engine reports for co-simulation and tracing: every retired scalar instruction
// with its writes, every task start, every microthread completion and every fault. The records are
// plain values: two backends agree when their record streams are equal.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/debug_record.h"

namespace tessera::ce {

// One architectural write of an instruction (or of a task start or completion).
struct TraceWrite {
  enum class Kind : uint8_t { kGpr, kDsr, kMem };
  Kind kind = Kind::kGpr;
  uint8_t size = 0;    // kMem: bytes (1, 2, 4)
  uint16_t index = 0;  // register number, or the byte address (SRAM or register)
  uint64_t value = 0;
  bool operator==(const TraceWrite& o) const {
    return kind == o.kind && size == o.size && index == o.index && value == o.value;
  }
  bool operator!=(const TraceWrite& o) const { return !(*this == o); }
};

struct TraceRecord {
  enum class Kind : uint8_t {
    kRetire,     // a scalar instruction issued: pc, word, writes (a scalar FP result included)
    kTaskStart,  // the picker started `task`: writes = r0
    kUtDone,     // microthread `ut` completed the operation issued at pc (fdot: writes = R[S])
    kFault,      // the PE faulted: fault = FaultStatus, FaultPc, FaultAddr, FaultInfo
  };
  static constexpr int kMaxWrites = 2;

  Kind kind = Kind::kRetire;
  uint64_t cycle = 0;
  uint16_t pc = 0;
  uint32_t word = 0;
  uint8_t task = 0;
  uint8_t ut = 0;
  uint8_t num_writes = 0;
  std::array<TraceWrite, kMaxWrites> writes{};
  std::array<uint32_t, 4> fault{};

  void AddWrite(TraceWrite::Kind k, uint16_t index, uint64_t value, uint8_t size = 0) {
    if (num_writes < kMaxWrites) writes[num_writes++] = {k, size, index, value};
  }
  bool operator==(const TraceRecord& o) const;
  bool operator!=(const TraceRecord& o) const { return !(*this == o); }
  // "@120 retire pc 0x0104 0x00032101 r1=0x00000005", "@7 task 3 start r0=0x...",
  // "@88 ut1 done pc 0x0100", "@9 fault cause 2 pc 0x0124 addr 0x00000103 info 0x00000f20".
  std::string ToString() const;
};

// Receives the records of one CE (not owned by it).
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void Record(const TraceRecord& r) = 0;
};

// Keeps every record.
class VectorTraceSink final : public TraceSink {
 public:
  void Record(const TraceRecord& r) override { records.push_back(r); }
  std::vector<TraceRecord> records;
};

// The debug-port record type and its helpers live in model/fabric/debug_record.h (one type for
// every backend); these names keep the compute engine's spelling.
using fabric::AddDebugStore;
using fabric::DebugRecord;
using fabric::FormatDebugValue;

}  // namespace tessera::ce

// What a generated program may contain: categories of code the generator can emit, and mixes
// (named sets of categories) chosen on the command line. `scalar` is everything the RTL compute
// engine runs today; `all` adds the DSD operations (memory and fabric operands, asynchronous
// microthreads with completion tasks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::fuzz {

enum class Category : uint8_t {
  kAlu,        // integer ALU, register and immediate forms
  kMem,        // loads and stores in the data region
  kBranch,     // forward branches and jumps
  kLoop,       // bounded loops (one or two levels)
  kCall,       // calls to subroutines (jal/jalr, ret)
  kFp,         // scalar floating point, f32 and f16
  kDsr,        // descriptor-register moves (ldd, std, dmov, drd, dwr, dsetb, dincb, dsetl)
  kTask,       // local and control tasks: activate, block, unblock, the task registers
  kSend,       // send/sendc through the PE's own router to data and control tasks
  kDebug,      // debug-port writes
  kMmio,       // reads and writes of the memory-mapped registers
  kUtWait,     // utwait
  kFault,      // a small fraction of programs end in a deliberate fault
  kDsdMem,     // DSD operations over mem1d operands
  kDsdFabric,  // DSD operations with fabin/fabout operands looped back through the router
  kDsdAsync,   // asynchronous DSD operations, completion tasks
  kCount
};

inline constexpr int kNumCategories = static_cast<int>(Category::kCount);

const char* CategoryName(Category c);

class Mix {
 public:
  Mix() = default;
  static Mix All();
  static Mix Scalar();  // every category without a DSD operation
  // "all", "scalar", or a comma-separated list of category names ("alu,fp,task"); throws
  // std::invalid_argument naming the unknown word and the choices.
  static Mix Parse(const std::string& text);
  // The names accepted by Parse, for help texts.
  static std::vector<std::string> Names();

  bool Has(Category c) const { return bits_ >> static_cast<int>(c) & 1; }
  Mix& Add(Category c) {
    bits_ |= 1u << static_cast<int>(c);
    return *this;
  }
  Mix& Remove(Category c) {
    bits_ &= ~(1u << static_cast<int>(c));
    return *this;
  }
  bool Empty() const { return bits_ == 0; }
  bool HasDsd() const {
    return Has(Category::kDsdMem) || Has(Category::kDsdFabric) || Has(Category::kDsdAsync);
  }
  // "all", "scalar", or the list of names, as Parse reads it back.
  std::string ToString() const;
  bool operator==(const Mix& o) const { return bits_ == o.bits_; }

 private:
  uint32_t bits_ = 0;
};

}  // namespace tessera::fuzz

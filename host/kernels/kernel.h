// The kernel library's host side (docs/kernels.md): each kernel generates its inputs, builds a
// layout for the fabric it runs on, links the device code of firmware/kernels/NAME, runs it
// through the host runtime on a backend and checks the result against a double-precision host
// reference. `tessera kernel` is its command line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/kernel_io.h"
#include "runtime/device.h"

namespace tessera::kernels {

// What a run of a kernel is asked for. Sizes a kernel does not use stay 0.
struct KernelArgs {
  int m = 0, n = 0, k = 0;
  int nx = 0, ny = 0, nz = 0;      // 3-D grids (the stencil kernels)
  int iters = 0;                   // iteration limit or count; 0: the kernel's default
  int bins = 0;                    // histogram: the number of bins; 0: the kernel's default
  double tol = 0;                  // CG: relative residual; 0: the kernel's default
  int nnz = 0;                     // sparse kernels: nonzeros; 0: the kernel's default
  int fabric_w = 0, fabric_h = 0;  // 0: the kernel's default for the sizes
  std::string dtype = "f32";
  std::string along = "row";  // collectives: row, col or grid
  std::string op = "sum";     // reduce, allreduce: sum or max
  uint64_t seed = 1;
  runtime::Backend backend = runtime::Backend::kFunc;
  std::pair<int, int> tile{0, 0};  // RTL tile shape; {0, 0}: 1x1 (rtl::DefaultCeTile)
  uint64_t max_cycles = 50'000'000;
  int threads = 1;        // host threads of the functional model (runtime::DeviceOptions::threads)
  bool run_ahead = true;  // runtime::DeviceOptions::run_ahead
  bool progress = false;  // runtime::DeviceOptions::progress (a progress line on a terminal)
  bool clock_idle_tiles = false, eval_input_region = false;  // RTL switches, as tessera run's
  std::string firmware_dir;  // where firmware/kernels lives; empty: the source tree's
  // Called when the kernel's device has loaded its image and when it closes (traces, profile).
  std::function<void(runtime::Device&)> on_load, on_close;
  // The user's data (kernel_io.h): inputs that replace the generated ones, by the kernel's input
  // names, and where the outputs go (null: nobody asked).
  const HostArrays* in = nullptr;
  HostArrays* out = nullptr;
};

struct KernelResult {
  bool pass = false;
  std::string status = "quiescent";  // runtime::StatusName, or "above tolerance"
  std::string message;               // why it failed: the fault, the difference, the element
  double max_abs_err = 0, max_rel_err = 0, tolerance = 0;
  uint64_t cycles = 0;          // from the launch to quiescence
  int pes = 0;                  // PEs that take part
  uint64_t useful_ops = 0;      // multiply-adds (or the kernel's FMAC operations) of the problem
  double fmac_utilization = 0;  // useful_ops / (cycles * pes)
  uint64_t link_wavelets = 0;   // cosim: wavelets compared on links
  int fabric_w = 0, fabric_h = 0;
  std::string size;  // "m=100 n=64": what ran
};

struct KernelDef {
  const char* name;
  const char* summary;
  const char* options;  // the options it takes and their limits, for --list
  // Throws std::invalid_argument naming the option for sizes it cannot take (nothing runs).
  KernelResult (*run)(const KernelArgs& args);
  // The data it takes and gives (kernel_io.h), in the order Python takes them; empty: it takes
  // none of the user's (it generates its inputs from --seed).
  std::vector<IoSpec> inputs = {}, outputs = {};
};

// Checks that every input and output the user named is one the kernel has; throws
// std::invalid_argument listing the kernel's names.
void CheckIoNames(const KernelDef& k, const HostArrays* in, const std::vector<std::string>& outs);

const std::vector<KernelDef>& Kernels();
const KernelDef* FindKernel(const std::string& name);

}  // namespace tessera::kernels

// What every kernel does around its own device code (docs/kernels.md): find firmware/kernels,
// link a generated layout, open a device for the fabric, run, turn the run's end into a result,
// and measure errors against a reference.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernel.h"
#include "layout/image.h"
#include "runtime/device.h"

namespace tessera::kernels {

// The folder of a kernel's device code: ARGS.firmware_dir (or the source tree's firmware)
// /kernels/NAME.
std::string KernelDir(const KernelArgs& args, const std::string& name);

// Links layout text whose program paths are relative to `dir`.
layout::Image LinkKernel(const std::string& dir, const std::string& layout_text);

runtime::DeviceOptions DeviceFor(const KernelArgs& args, int w, int h);

// Launches `task` on every PE that exports it and runs to quiescence; fills cycles, status,
// message and link_wavelets. Returns whether the run ended quiescent.
bool RunToEnd(runtime::Device& dev, const KernelArgs& args, const std::string& task,
              KernelResult& out);

// The error of `got` against `ref`: absolute, and relative to scale[i] (the magnitude the
// result is made of, e.g. sum |a_ij x_j| + |b_i|, so that cancellation does not hide or inflate
// errors). Fills max_abs_err and max_rel_err; the first element above `tol` goes to message.
void MeasureError(const std::vector<double>& ref, const std::vector<double>& got,
                  const std::vector<double>& scale, double tol, KernelResult& out);

// f32 and f16 host values: uniform in [-1, 1), and f16 bit patterns (rounded to nearest even)
// with their exact values.
std::vector<float> UniformF32(std::mt19937_64& rng, size_t n);
uint16_t F16Bits(float f);
double F16Value(uint16_t h);
// An f32's bit pattern, and the f32 of one.
uint32_t F32Bits(float f);
float F32Value(uint32_t bits);

// Layout text for a halo exchange with the four neighbours: `let`s of the colors EG0..NG1 (1..8:
// each direction on two colors by the sender's parity, so that a PE's outgoing and incoming
// colors of one direction differ), the per-PE params HW HE HN HS (the neighbour exists) and
// CWO CEO CNO CSO CWI CEI CNI CSI (the colors out to and in from each side) for a region line
// (`Params`), and the routes (`Routes`).
std::string HaloLets();
std::string HaloParams();
std::string HaloRoutes();

// The rows (--m) and columns (--n) of a 2-D board or image and the fabric (--fabric) it is split
// over, from the arguments or the defaults in `b`; each PE gets at least one row and column.
// Throws std::invalid_argument naming the option. `what` names the board in messages.
struct Board {
  int m, n, w, h;
};
Board CheckBoard(const KernelArgs& a, const char* kernel, const char* what, Board b);

// Bytes of PE memory a kernel's data may take (SRAM less room for code and descriptors).
inline constexpr int kDataBytes = 48 * 1024 - 2048;

int CeilDiv(int a, int b);

}  // namespace tessera::kernels

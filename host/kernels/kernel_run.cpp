#include "kernels/kernel_run.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "arch/arch.h"
#include "fp/execute.h"
#include "layout/layout.h"

#ifndef TESSERA_FIRMWARE_DIR
#define TESSERA_FIRMWARE_DIR "firmware"
#endif

namespace tessera::kernels {

std::string KernelDir(const KernelArgs& args, const std::string& name) {
  const std::string root = args.firmware_dir.empty() ? TESSERA_FIRMWARE_DIR : args.firmware_dir;
  const std::string dir = root + "/kernels/" + name;
  if (!std::filesystem::is_directory(dir)) {
    throw std::invalid_argument(fmt::format(
        "--firmware: the device code of kernel {} is not in {} (give the folder that holds "
        "kernels/{})",
        name, dir, name));
  }
  return dir;
}

layout::Image LinkKernel(const std::string& dir, const std::string& layout_text) {
  return layout::Link(layout::ParseLayoutText(dir + "/generated.tlayout", layout_text, dir));
}

runtime::DeviceOptions DeviceFor(const KernelArgs& args, int w, int h) {
  runtime::DeviceOptions o;
  o.backend = args.backend;
  o.width = w;
  o.height = h;
  o.tile = args.tile;
  o.threads = args.threads;
  o.run_ahead = args.run_ahead;
  o.progress = args.progress;
  o.clock_idle_tiles = args.clock_idle_tiles;
  o.eval_input_region = args.eval_input_region;
  o.on_load = args.on_load;
  o.on_close = args.on_close;
  return o;
}

bool RunToEnd(runtime::Device& dev, const KernelArgs& args, const std::string& task,
              KernelResult& out) {
  dev.Launch(task);
  const runtime::RunResult r = dev.Run(args.max_cycles);
  out.cycles = r.cycles();
  out.status = runtime::StatusName(r.status);
  out.message = r.message;
  out.link_wavelets = r.link_wavelets;
  return r.ok();
}

void MeasureError(const std::vector<double>& ref, const std::vector<double>& got,
                  const std::vector<double>& scale, double tol, KernelResult& out) {
  out.tolerance = tol;
  out.max_abs_err = 0;
  out.max_rel_err = 0;
  bool reported = false;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double abs = std::fabs(got[i] - ref[i]);
    const double rel = scale[i] > 0 ? abs / scale[i] : (abs > 0 ? INFINITY : 0.0);
    const bool bad = !(rel <= tol);  // a NaN is bad too
    out.max_abs_err = std::max(out.max_abs_err, abs);
    if (!(out.max_rel_err >= rel)) out.max_rel_err = rel;
    if (bad && !reported) {
      out.message = fmt::format(
          "element {}: {} where the reference is {} (error {:.3g} of {:.3g}, "
          "above the tolerance {:.3g})",
          i, got[i], ref[i], abs, scale[i], tol);
      reported = true;
    }
  }
  out.pass = !reported;
  if (reported) out.status = "above tolerance";
}

std::vector<float> UniformF32(std::mt19937_64& rng, size_t n) {
  // 24 random bits scaled to [-1, 1): the same values on every machine.
  std::vector<float> v(n);
  for (float& f : v) f = static_cast<float>(static_cast<double>(rng() >> 40) / (1 << 23) - 1.0);
  return v;
}

uint16_t F16Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint8_t fl[2];
  return static_cast<uint16_t>(fp::Execute(arch::FpOp::kCvtF2F, arch::FpFmt::kF32, bits, 0, 0, fl));
}

double F16Value(uint16_t h) {
  uint8_t fl[2];
  const uint32_t bits = fp::Execute(arch::FpOp::kCvtF2F, arch::FpFmt::kF16, h, 0, 0, fl);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t F32Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

float F32Value(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

int CeilDiv(int a, int b) { return (a + b - 1) / b; }

Board CheckBoard(const KernelArgs& a, const char* kernel, const char* what, Board b) {
  if (a.m > 0) b.m = a.m;
  if (a.n > 0) b.n = a.n;
  if (a.m < 0 || a.n < 0 || b.m > 100'000 || b.n > 100'000)
    throw std::invalid_argument(
        fmt::format("--m {} --n {}: the {}'s rows and columns may be 1..100000", a.m, a.n, what));
  if (a.fabric_w > 0) {
    b.w = a.fabric_w;
    b.h = a.fabric_h;
  }
  if (b.w < 1 || b.h < 1 || b.w * b.h > 65536)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: 1x1 up to 256x256", b.w, b.h));
  if (b.w > b.n || b.h > b.m) {
    throw std::invalid_argument(fmt::format(
        "--fabric {}x{}: {} needs at least one {} row per PE row and one column per PE column "
        "(--m {} --n {})",
        b.w, b.h, kernel, what, b.m, b.n));
  }
  return b;
}

std::string HaloLets() {
  return "let EG0 = 1\nlet EG1 = 2\nlet WG0 = 3\nlet WG1 = 4\n"
         "let SG0 = 5\nlet SG1 = 6\nlet NG0 = 7\nlet NG1 = 8\n";
}

std::string HaloParams() {
  return "param HW=x>0 param HE=x<FW-1 param HN=y>0 param HS=y<FH-1 \\\n"
         "  param CEO=x%2==0 ? EG0 : EG1 param CWI=x%2==0 ? EG1 : EG0 \\\n"
         "  param CWO=x%2==0 ? WG0 : WG1 param CEI=x%2==0 ? WG1 : WG0 \\\n"
         "  param CSO=y%2==0 ? SG0 : SG1 param CNI=y%2==0 ? SG1 : SG0 \\\n"
         "  param CNO=y%2==0 ? NG0 : NG1 param CSI=y%2==0 ? NG1 : NG0";
}

std::string HaloRoutes() {
  return R"(route color=EG0 at=0..FW-1,0..FH-1 rx=RAMP tx=E when=x%2==0 && x<FW-1
route color=EG1 at=0..FW-1,0..FH-1 rx=RAMP tx=E when=x%2==1 && x<FW-1
route color=EG0 at=0..FW-1,0..FH-1 rx=W tx=RAMP when=x%2==1
route color=EG1 at=0..FW-1,0..FH-1 rx=W tx=RAMP when=x%2==0 && x>0
route color=WG0 at=0..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==0 && x>0
route color=WG1 at=0..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==1
route color=WG0 at=0..FW-1,0..FH-1 rx=E tx=RAMP when=x%2==1 && x<FW-1
route color=WG1 at=0..FW-1,0..FH-1 rx=E tx=RAMP when=x%2==0 && x<FW-1
route color=SG0 at=0..FW-1,0..FH-1 rx=RAMP tx=S when=y%2==0 && y<FH-1
route color=SG1 at=0..FW-1,0..FH-1 rx=RAMP tx=S when=y%2==1 && y<FH-1
route color=SG0 at=0..FW-1,0..FH-1 rx=N tx=RAMP when=y%2==1
route color=SG1 at=0..FW-1,0..FH-1 rx=N tx=RAMP when=y%2==0 && y>0
route color=NG0 at=0..FW-1,0..FH-1 rx=RAMP tx=N when=y%2==0 && y>0
route color=NG1 at=0..FW-1,0..FH-1 rx=RAMP tx=N when=y%2==1
route color=NG0 at=0..FW-1,0..FH-1 rx=S tx=RAMP when=y%2==1 && y<FH-1
route color=NG1 at=0..FW-1,0..FH-1 rx=S tx=RAMP when=y%2==0 && y<FH-1
)";
}

}  // namespace tessera::kernels

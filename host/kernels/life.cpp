// Conway's Game of Life on an M x N board without wrap-around, `--iters` generations, on a
// W x H fabric (docs/kernels.md, "life"; device code firmware/kernels/life/life.s). The board is
// split into W x H blocks (rows and columns as even as possible: the first M % H block rows have
// one row more, and so for columns); each PE exchanges its edges and corners with its neighbours
// every generation. The host runs the same generations and every cell must match.
#include <fmt/format.h>

#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

struct LifePlan {
  int m = 64, n = 64;    // the board
  int w = 4, h = 4;      // the fabric
  int mbx = 0, nbx = 0;  // the largest block
  int s = 0;             // elements per row of a PE's array: nbx + 2 rounded up to 2 mod 4
  int iters = 16;
  // The array with its halo (mbx + 2 rows) and the two work arrays (mbx rows each).
  int Bytes() const { return 4 * s * (mbx + 2) + 2 * 4 * s * mbx + 32; }
};

int RowStride(int nbx) {
  int s = nbx + 2;
  while (s % 4 != 2) ++s;
  return s;
}

LifePlan Plan(const KernelArgs& a) {
  LifePlan p;
  const Board board = CheckBoard(a, "life", "board", {p.m, p.n, p.w, p.h});
  p.m = board.m;
  p.n = board.n;
  p.w = board.w;
  p.h = board.h;
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: life keeps its cells as f32 0 and 1, not '{}'", a.dtype));
  p.iters = a.iters > 0 ? a.iters : 16;
  if (a.iters < 0 || p.iters > 1'000'000)
    throw std::invalid_argument(
        fmt::format("--iters {}: the generations may be 1..1000000", a.iters));
  auto fit = [&](int w, int h) {
    LifePlan t = p;
    t.w = w;
    t.h = h;
    t.mbx = CeilDiv(p.m, h);
    t.nbx = CeilDiv(p.n, w);
    t.s = RowStride(t.nbx);
    return t;
  };
  p = fit(p.w, p.h);
  if (p.Bytes() > kDataBytes) {
    int s = std::max(p.w, p.h);
    while (s < 4096 && fit(s, s).Bytes() > kDataBytes) ++s;
    throw std::invalid_argument(fmt::format(
        "--m {} --n {} on a {}x{} fabric needs {} bytes per PE (blocks of {}x{} cells, about 12 "
        "bytes each with the halo and two work arrays), more than the {} a PE has for data; a "
        "{}x{} fabric would do",
        p.m, p.n, p.w, p.h, p.Bytes(), p.mbx, p.nbx, kDataBytes, s, s));
  }
  return p;
}

// Where the blocks start: block b of `parts` over `size` cells, the first size % parts one
// longer.
int Start(int size, int parts, int b) { return b * (size / parts) + std::min(b, size % parts); }

std::string Layout(const LifePlan& p, int m, int n) {
  // The halo exchange of the stencil kernels: each direction on two colors by the sender's
  // parity (kernel_run.h).
  return fmt::format("fabric {}x{}\n", p.w, p.h) + HaloLets() +
         fmt::format(
             "region at=0,0 size={}x{} program=life.s \\\n"
             "  param MR={}+(y<{}) param NR={}+(x<{}) param MBX={} param S={} "
             "param ITERS={} \\\n  ",
             p.w, p.h, m / p.h, m % p.h, n / p.w, n % p.w, p.mbx, p.s, p.iters) +
         HaloParams() + "\n" + HaloRoutes();
}

KernelResult Run(const KernelArgs& given) {
  KernelArgs args = given;  // the board's size from the user's board, if given
  args.m = SizeFrom(given, given.m, "--m", "board", 0, 2);
  args.n = SizeFrom(given, given.n, "--n", "board", 1, 2);
  const LifePlan p = Plan(args);
  const int M = p.m, N = p.n, W = p.w, H = p.h, S = p.s;
  // A random board, about a third of the cells alive, or the user's (0 dead, 1 alive).
  std::mt19937_64 rng(args.seed);
  std::vector<uint8_t> board(size_t(M) * N);
  if (HasInput(args, "board")) {
    const std::vector<uint32_t> cells = InputCells(args, "board", {size_t(M), size_t(N)});
    for (size_t k = 0; k < cells.size(); ++k) board[k] = static_cast<uint8_t>(cells[k]);
  } else {
    for (uint8_t& c : board) c = (rng() >> 40) % 3 == 0;
  }
  // Per PE (host shape (H, W, per)): the array with its halo, zero outside the block.
  const int per = S * (p.mbx + 2);
  const size_t pes = size_t(W) * H;
  std::vector<float> arr(pes * per, 0.0f);
  auto at = [&](int i, int j) {  // the array element of cell (i, j)
    int py = 0, px = 0;
    while (py + 1 < H && Start(M, H, py + 1) <= i) ++py;
    while (px + 1 < W && Start(N, W, px + 1) <= j) ++px;
    const int r = i - Start(M, H, py) + 1, c = j - Start(N, W, px) + 1;
    return (size_t(py) * W + px) * per + size_t(r) * S + c;
  };
  std::vector<size_t> where(board.size());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      where[size_t(i) * N + j] = at(i, j);
      arr[where[size_t(i) * N + j]] = board[size_t(i) * N + j];
    }

  const layout::Image img = LinkKernel(KernelDir(args, "life"), Layout(p, M, N));
  runtime::Device dev(DeviceFor(args, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("g", arr.data(), arr.size(), all, per);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = static_cast<int>(pes);
  out.size = fmt::format("m={} n={} iters={}", M, N, p.iters);
  // Six FMAC operations per cell and generation: the four adds of the 3 x 3 sum, two compares.
  out.useful_ops = 6ull * M * N * p.iters;
  const bool ok = RunToEnd(dev, args, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(pes)) : 0.0;
  if (!ok) return out;

  // The same generations on the host.
  std::vector<uint8_t> next(board.size());
  for (int gen = 0; gen < p.iters; ++gen) {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int s = 0;
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj) {
            const int ii = i + di, jj = j + dj;
            if ((di || dj) && ii >= 0 && ii < M && jj >= 0 && jj < N)
              s += board[size_t(ii) * N + jj];
          }
        const bool alive = board[size_t(i) * N + j];
        next[size_t(i) * N + j] = s == 3 || (alive && s == 2);
      }
    board.swap(next);
  }
  dev.MemcpyD2H(arr.data(), arr.size(), "g", all, per);
  std::vector<uint8_t> result(size_t(M) * N);
  for (size_t k = 0; k < result.size(); ++k) result[k] = arr[where[k]] != 0.0f;
  OutputU8(args, "board", {size_t(M), size_t(N)}, result);
  out.pass = true;
  out.tolerance = 0;
  for (int i = 0; i < M && out.pass; ++i)
    for (int j = 0; j < N; ++j) {
      const float got = arr[where[size_t(i) * N + j]];
      const uint8_t want = board[size_t(i) * N + j];
      if (got != float(want)) {
        out.pass = false;
        out.status = "differs";
        out.max_abs_err = 1;
        out.message = fmt::format(
            "cell (row {}, column {}) is {} after {} generations; the host's board has it {}", i, j,
            got, p.iters, want ? "alive (1)" : "dead (0)");
        break;
      }
    }
  return out;
}

}  // namespace

KernelDef LifeKernel() {
  return {
      "life",
      "Conway's Game of Life on an M x N board (not a torus), blocks per PE with halo and "
      "corner exchange, checked cell for cell",
      "--m ROWS --n COLS of the board (default 64x64; any, at least one per PE row and "
      "column), --iters "
      "generations (default 16), --fabric WxH (default 4x4)",
      &Run,
      {{"board", "(m, n)", "0/1", "the first generation (bool, uint8, int32 or float32; 1 alive)"}},
      {{"board", "(m, n)", "u8", "the board after the generations"}}};
}

}  // namespace tessera::kernels

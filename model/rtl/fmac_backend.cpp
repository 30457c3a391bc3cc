#include "rtl/fmac_backend.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "Vtessera_fmac.h"
#include "arch/arch.h"
#include "verilated.h"

namespace tessera::rtl {
namespace {

class RtlFpBackend final : public fp::FpBackend {
 public:
  RtlFpBackend()
      : context_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Vtessera_fmac>(context_.get(), "fmac")) {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->en_i = 1;
    top_->valid_i = 0;
    top_->op_i = 0;
    top_->fmt_i = 0;
    top_->a_i = top_->b_i = top_->c_i = 0;
    top_->eval();
    Cycle();
    Cycle();
    top_->rst_ni = 1;
    top_->eval();
  }

  ~RtlFpBackend() override { top_->final(); }

  const char* Name() const override { return "rtl"; }

  void Run(const fp::FpCase* in, fp::FpOut* out, size_t n) override {
    // The case driven before rising edge e is visible on the outputs after edge e + kLatency - 1.
    constexpr size_t kLatency = arch::kFmacLatency;
    size_t done = 0;
    for (size_t edge = 0; done < n; ++edge) {
      if (edge < n) {
        const fp::FpCase& c = in[edge];
        top_->valid_i = 1;
        top_->op_i = static_cast<uint8_t>(c.op);
        top_->fmt_i = static_cast<uint8_t>(c.fmt);
        top_->a_i = c.a;
        top_->b_i = c.b;
        top_->c_i = c.c;
      } else {
        top_->valid_i = 0;
      }
      top_->clk_i = 0;
      top_->eval();
      top_->clk_i = 1;
      top_->eval();
      const bool expect_valid = edge + 1 >= kLatency;
      if (static_cast<bool>(top_->valid_o) != expect_valid) {
        throw std::runtime_error("tessera_fmac: valid_o out of step with FmacLatency (" +
                                 std::to_string(kLatency) + ") at case " + std::to_string(done));
      }
      if (expect_valid) {
        fp::FpOut& o = out[done++];
        o.result = top_->result_o;
        for (uint32_t lane = 0; lane < arch::kF16Lanes; ++lane) {
          o.flags[lane] = static_cast<uint8_t>((top_->flags_o >> (5 * lane)) & 0x1Fu);
        }
      }
    }
    top_->valid_i = 0;
  }

 private:
  void Cycle() {
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
  }

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vtessera_fmac> top_;
};

}  // namespace

std::unique_ptr<fp::FpBackend> MakeRtlFpBackend() { return std::make_unique<RtlFpBackend>(); }

}  // namespace tessera::rtl

#include "kernels/kernel.h"

namespace tessera::kernels {

KernelDef GemvKernel();
KernelDef GemmKernel();
std::vector<KernelDef> CollectiveKernels();
std::vector<KernelDef> StencilKernels();
KernelDef HistogramKernel();
KernelDef MandelbrotKernel();
KernelDef LifeKernel();
KernelDef Heat2dKernel();
KernelDef SpmvHypersparseKernel();
KernelDef FftKernel();

const std::vector<KernelDef>& Kernels() {
  static const std::vector<KernelDef> all = [] {
    std::vector<KernelDef> k = {GemvKernel(), GemmKernel()};
    for (const KernelDef& c : CollectiveKernels()) k.push_back(c);
    for (const KernelDef& c : StencilKernels()) k.push_back(c);
    k.push_back(HistogramKernel());
    k.push_back(MandelbrotKernel());
    k.push_back(LifeKernel());
    k.push_back(Heat2dKernel());
    k.push_back(SpmvHypersparseKernel());
    k.push_back(FftKernel());
    return k;
  }();
  return all;
}

const KernelDef* FindKernel(const std::string& name) {
  for (const KernelDef& k : Kernels())
    if (name == k.name) return &k;
  return nullptr;
}

}  // namespace tessera::kernels

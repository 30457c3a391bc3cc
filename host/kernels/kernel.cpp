#include "kernels/kernel.h"

namespace tessera::kernels {

KernelDef GemvKernel();
KernelDef GemmKernel();
std::vector<KernelDef> CollectiveKernels();
std::vector<KernelDef> StencilKernels();
KernelDef Heat2dKernel();
KernelDef SpmvHypersparseKernel();

const std::vector<KernelDef>& Kernels() {
  static const std::vector<KernelDef> all = [] {
    std::vector<KernelDef> k = {GemvKernel(), GemmKernel()};
    for (const KernelDef& c : CollectiveKernels()) k.push_back(c);
    for (const KernelDef& c : StencilKernels()) k.push_back(c);
    k.push_back(Heat2dKernel());
    k.push_back(SpmvHypersparseKernel());
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

#include "kernels/kernel.h"

namespace tessera::kernels {

KernelDef GemvKernel();

const std::vector<KernelDef>& Kernels() {
  static const std::vector<KernelDef> all = {GemvKernel()};
  return all;
}

const KernelDef* FindKernel(const std::string& name) {
  for (const KernelDef& k : Kernels())
    if (name == k.name) return &k;
  return nullptr;
}

}  // namespace tessera::kernels

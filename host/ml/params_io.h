// An MLP's parameters as files (docs/ml.md, "Saving and loading"): w<l>.npy of shape
// (outputs, inputs) and b<l>.npy of shape (outputs,) per layer l, float32, C order: what
// `tessera ml train-digits --save DIR` writes and `--load DIR` reads (and `ml mlp --load`).
#pragma once

#include <string>
#include <vector>

#include "ml/mlp_spec.h"
#include "runtime/npy.h"

namespace tessera::ml {

// Reads DIR/w<l>.npy and DIR/b<l>.npy for `spec`; throws std::invalid_argument naming the file
// and the shape it has and needs (a transposed matrix is refused, not only a wrong count).
MlpParams LoadParams(const MlpSpec& spec, const std::string& dir);
void SaveParams(const MlpSpec& spec, const MlpParams& params, const std::string& dir);

// One array of `dtype` and exactly `shape` (a vector may also come as one row (1, n)).
template <typename T>
std::vector<T> LoadShaped(const std::string& path, const char* dtype,
                          const std::vector<size_t>& shape);

}  // namespace tessera::ml

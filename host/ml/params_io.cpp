#include "ml/params_io.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tessera::ml {
namespace {
std::string Shape(const std::vector<size_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += fmt::format("{}{}", i ? ", " : "", s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}
}  // namespace

template <typename T>
std::vector<T> LoadShaped(const std::string& path, const char* dtype,
                          const std::vector<size_t>& shape) {
  const runtime::NpyArray a = runtime::ReadNpy(path);
  if (a.dtype != dtype)
    throw std::invalid_argument(fmt::format("{}: the array is {}; give {} of shape {}", path,
                                            a.dtype, dtype, Shape(shape)));
  const bool row =
      shape.size() == 1 && a.shape.size() == 2 && a.shape[0] == 1 && a.shape[1] == shape[0];
  if ((a.shape != shape && !row) || a.fortran_order)
    throw std::invalid_argument(
        fmt::format("{}: shape {}{}; the model needs {} in C order", path, Shape(a.shape),
                    a.fortran_order ? " in Fortran order" : "", Shape(shape)));
  size_t count = 1;
  for (size_t d : shape) count *= d;
  std::vector<T> v(count);
  std::memcpy(v.data(), a.data.data(), count * sizeof(T));
  return v;
}
template std::vector<float> LoadShaped<float>(const std::string&, const char*,
                                              const std::vector<size_t>&);
template std::vector<int32_t> LoadShaped<int32_t>(const std::string&, const char*,
                                                  const std::vector<size_t>&);

MlpParams LoadParams(const MlpSpec& spec, const std::string& dir) {
  MlpParams p;
  for (int l = 0; l < spec.NumLayers(); ++l) {
    p.w.push_back(LoadShaped<float>(fmt::format("{}/w{}.npy", dir, l), "<f4",
                                    {size_t(spec.Out(l)), size_t(spec.In(l))}));
    p.b.push_back(
        LoadShaped<float>(fmt::format("{}/b{}.npy", dir, l), "<f4", {size_t(spec.Out(l))}));
  }
  return p;
}

void SaveParams(const MlpSpec& spec, const MlpParams& params, const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (int l = 0; l < spec.NumLayers(); ++l) {
    runtime::WriteNpy(fmt::format("{}/w{}.npy", dir, l), "<f4",
                      {size_t(spec.Out(l)), size_t(spec.In(l))}, params.w[size_t(l)].data(),
                      params.w[size_t(l)].size() * 4);
    runtime::WriteNpy(fmt::format("{}/b{}.npy", dir, l), "<f4", {size_t(spec.Out(l))},
                      params.b[size_t(l)].data(), params.b[size_t(l)].size() * 4);
  }
}

}  // namespace tessera::ml

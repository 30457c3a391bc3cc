#include "fuzz/mix.h"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace tessera::fuzz {

const char* CategoryName(Category c) {
  switch (c) {
    case Category::kAlu:
      return "alu";
    case Category::kMem:
      return "mem";
    case Category::kBranch:
      return "branch";
    case Category::kLoop:
      return "loop";
    case Category::kCall:
      return "call";
    case Category::kFp:
      return "fp";
    case Category::kDsr:
      return "dsr";
    case Category::kTask:
      return "task";
    case Category::kSend:
      return "send";
    case Category::kDebug:
      return "debug";
    case Category::kMmio:
      return "mmio";
    case Category::kUtWait:
      return "utwait";
    case Category::kFault:
      return "fault";
    case Category::kDsdMem:
      return "dsd";
    case Category::kDsdFabric:
      return "fabric";
    case Category::kDsdAsync:
      return "async";
    case Category::kCount:
      break;
  }
  return "?";
}

Mix Mix::All() {
  Mix m;
  for (int c = 0; c < kNumCategories; ++c) m.Add(static_cast<Category>(c));
  return m;
}

Mix Mix::Scalar() {
  return All().Remove(Category::kDsdMem).Remove(Category::kDsdFabric).Remove(Category::kDsdAsync);
}

std::vector<std::string> Mix::Names() {
  std::vector<std::string> out = {"all", "scalar"};
  for (int c = 0; c < kNumCategories; ++c) out.push_back(CategoryName(static_cast<Category>(c)));
  return out;
}

Mix Mix::Parse(const std::string& text) {
  if (text == "all") return All();
  if (text == "scalar") return Scalar();
  Mix m;
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, ',')) {
    bool found = false;
    for (int c = 0; c < kNumCategories && !found; ++c) {
      if (word == CategoryName(static_cast<Category>(c))) {
        m.Add(static_cast<Category>(c));
        found = true;
      }
    }
    if (!found) {
      std::string names;
      for (int c = 0; c < kNumCategories; ++c)
        names += (c ? ", " : "") + std::string(CategoryName(static_cast<Category>(c)));
      throw std::invalid_argument(
          fmt::format("unknown mix '{}': use all, scalar, or a comma-separated list of {}",
                      word.empty() ? text : word, names));
    }
  }
  if (m.Empty()) throw std::invalid_argument("empty mix: name at least one category");
  return m;
}

std::string Mix::ToString() const {
  if (*this == All()) return "all";
  if (*this == Scalar()) return "scalar";
  std::string out;
  for (int c = 0; c < kNumCategories; ++c) {
    if (Has(static_cast<Category>(c))) {
      if (!out.empty()) out += ",";
      out += CategoryName(static_cast<Category>(c));
    }
  }
  return out;
}

}  // namespace tessera::fuzz

#include "fuzz/mix.h"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "util/enum_names.h"

namespace tessera::fuzz {

constexpr util::EnumName<Category> kCategoryNameTable[] = {
    {Category::kAlu, "alu"},        {Category::kMem, "mem"},    {Category::kBranch, "branch"},
    {Category::kLoop, "loop"},      {Category::kCall, "call"},  {Category::kFp, "fp"},
    {Category::kDsr, "dsr"},        {Category::kTask, "task"},  {Category::kSend, "send"},
    {Category::kDebug, "debug"},    {Category::kMmio, "mmio"},  {Category::kUtWait, "utwait"},
    {Category::kFault, "fault"},    {Category::kDsdMem, "dsd"}, {Category::kDsdFabric, "fabric"},
    {Category::kDsdAsync, "async"},
};

const char* CategoryName(Category c) { return util::NameOf(kCategoryNameTable, c); }

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
    const auto c = util::ParseName(kCategoryNameTable, word, util::NameCase::kExact);
    if (!c) {
      throw std::invalid_argument(
          fmt::format("unknown mix '{}': use all, scalar, or a comma-separated list of {}",
                      word.empty() ? text : word, util::NameList(kCategoryNameTable, ", ", ", ")));
    }
    m.Add(*c);
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

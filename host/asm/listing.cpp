#include "asm/listing.h"

#include <fmt/core.h>

#include "asm/object.h"

namespace tessera::assembler {
namespace {

constexpr size_t kWordsPerRow = 3;

// The bytes as 32-bit little-endian words, then single bytes for a tail, kWordsPerRow a row.
std::vector<std::string> Rows(const std::vector<uint8_t>& bytes) {
  std::vector<std::string> cells;
  size_t k = 0;
  for (; k + 4 <= bytes.size(); k += 4) {
    cells.push_back(fmt::format("{:08x}", uint32_t(bytes[k]) | uint32_t(bytes[k + 1]) << 8 |
                                              uint32_t(bytes[k + 2]) << 16 |
                                              uint32_t(bytes[k + 3]) << 24));
  }
  std::string tail;
  for (; k < bytes.size(); ++k) tail += fmt::format("{:02x}", bytes[k]);
  if (!tail.empty()) cells.push_back(tail);
  std::vector<std::string> rows;
  for (size_t i = 0; i < cells.size(); i += kWordsPerRow) {
    std::string row;
    for (size_t j = i; j < cells.size() && j < i + kWordsPerRow; ++j) {
      row += (row.empty() ? "" : " ") + cells[j];
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::string FormatListing(const std::string& source, const std::vector<ListingEntry>& entries) {
  std::string out = fmt::format("; tessera asm listing of {}\n", source);
  out +=
      fmt::format("; {:>5}  {:<5}  {:<4}  {:<26}  {}\n", "line", "sect", "off", "words", "source");
  for (const ListingEntry& e : entries) {
    const std::string sect = e.section < 0 ? "" : SectionName(SectionId(e.section));
    const std::string off = e.section < 0 ? "" : fmt::format("{:04x}", e.offset);
    std::vector<std::string> rows = Rows(e.bytes);
    if (rows.empty() && e.size > 0) rows.push_back(fmt::format("({} bytes)", e.size));
    if (rows.empty()) rows.push_back("");
    std::string line = e.origin.file == source || e.origin.file.empty()
                           ? std::to_string(e.origin.line)
                           : fmt::format("{}:{}", e.origin.file, e.origin.line);
    out += fmt::format("  {:>5}  {:<5}  {:<4}  {:<26}  {}{}\n", line, sect, off, rows[0],
                       e.expanded ? "+ " : "", e.text);
    constexpr size_t kMaxRows = 4;  // then a summary: long .space and data stay readable
    for (size_t r = 1; r < rows.size(); ++r) {
      if (r == kMaxRows && rows.size() > kMaxRows + 1) {
        out += fmt::format("  {:>5}  {:<5}  {:<4}  ... ({} bytes in all)\n", "", "", "", e.size);
        break;
      }
      out += fmt::format("  {:>5}  {:<5}  {:04x}  {}\n", "", "",
                         e.offset + static_cast<uint32_t>(r * kWordsPerRow * 4), rows[r]);
    }
  }
  return out;
}

}  // namespace tessera::assembler

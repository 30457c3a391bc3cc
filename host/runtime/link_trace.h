// The link trace (`tessera run --link-trace FILE.csv`, the Python module's `link_trace=`): every
// wavelet that crossed a link of the fabric, one CSV row each, in cycle order, streamed to the
// file as the run goes (docs/runtime.md, "Link trace"):
//
//   cycle,x,y,port,direction,color,control,data
//   9,0,0,Ramp,in,3,0,0x00000000
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "runtime/device.h"

namespace tessera::runtime {

class LinkTrace {
 public:
  // Opens `path` and writes the header; throws std::invalid_argument naming `option` and the
  // file if it cannot be written.
  LinkTrace(const std::string& path, const std::string& option);
  LinkTrace(const LinkTrace&) = delete;
  LinkTrace& operator=(const LinkTrace&) = delete;

  // Makes `dev` send its link log here (Device::SetLinkHandler); the trace must outlive the
  // device's runs.
  void Attach(Device& dev);
  // Flushes and closes; throws std::runtime_error naming the option and file if a write failed.
  void Close();

  uint64_t rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_, option_;
  std::ofstream out_;
  uint64_t rows_ = 0;
};

}  // namespace tessera::runtime

// Random programs for a fabric of W x H PEs (`tessera fuzz --fabric WxH`): one program per PE
// from the generator (generator.h), each from its own seed, and traffic between the PEs. The
// plan draws links (PeLinks): colors routed from one PE's RAMP to the RAMPs of neighbours, to two
// at once (multicast) or through a router between, which every program on the path routes itself
// first thing in main. Senders use `send` and fabout to data tasks, or send one stream of a known
// length (perhaps followed by a control wavelet naming no task); receivers run data tasks, or read
// the stream with a fabin operation of exactly its length. PeLinks says why nothing deadlocks.
// At most one PE of a fabric program ends in a deliberate fault.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/generator.h"

namespace tessera::fuzz {

struct FabricProgram {
  uint64_t seed = 0;
  int width = 1, height = 1;
  std::string mix;             // Mix::ToString() of the options
  std::vector<Program> pes;    // PE y * width + x
  std::vector<PeLinks> links;  // each PE's part in the links (the plan; empty when parsed)

  // All sources in one text: a header naming the seed, mix and shape, then each PE's program
  // after a line "; ---- PE(x,y)". What --dump writes and --replay reads.
  std::string Source() const;
};

FabricProgram GenerateFabric(uint64_t seed, int width, int height, const GenOptions& options);

// The PE programs of a text that Source() wrote (each PE's expectation from its header); nullopt
// if the text is not a fabric program. Throws std::invalid_argument if its sections do not match
// its shape.
std::optional<FabricProgram> ParseFabricSource(const std::string& text);

}  // namespace tessera::fuzz

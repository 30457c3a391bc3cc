#include "cosim/tasks.h"

#include <fmt/format.h>

#include "cosim/sequence.h"

namespace tessera::cosim {

std::optional<Difference> CompareCycleTask(const fabric::PeEvents& a, const fabric::PeEvents& b) {
  if (a.task_start == b.task_start && (!a.task_start || a.task == b.task)) return std::nullopt;
  auto text = [](const fabric::PeEvents& e) {
    return e.task_start ? fmt::format("task {}", e.task) : std::string("none");
  };
  return Difference{"task start", text(a), text(b)};
}

std::optional<Mismatch> CompareTasks(const std::vector<fabric::TaskStart>& a,
                                     const std::vector<fabric::TaskStart>& b, const std::string& na,
                                     const std::string& nb) {
  return FirstDifference(
      a, b, na, nb, "task starts",
      [](const fabric::TaskStart& x, const fabric::TaskStart& y) { return x == y; },
      [](const fabric::TaskStart& t) {
        return fmt::format("{} starts task {} at cycle {}", PeText(t.pe), t.task, t.cycle);
      });
}

}  // namespace tessera::cosim

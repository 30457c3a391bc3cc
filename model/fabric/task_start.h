// A task start as the host logs it, whatever the backend: the cycle a PE's compute engine started
// a task. The functional and RTL machines report them, and co-simulation compares their
// sequences (host/cosim/tasks.h).
#pragma once

#include <cstdint>

#include "fabric/fabric.h"

namespace tessera::fabric {

struct TaskStart {
  uint64_t cycle = 0;
  Coord pe;
  int task = 0;
  bool operator==(const TaskStart& o) const {
    return cycle == o.cycle && pe == o.pe && task == o.task;
  }
};

}  // namespace tessera::fabric

// Runs a function on a thread of its own with a stack of a chosen size, and waits for it.
// Recursive walkers (the CSL compiler's comptime interpreter) bound their depth by count; the
// bytes a level takes differ between builds (AddressSanitizer's red zones make frames several
// times larger), so the default 8 MiB main stack is not a bound we can state. Only the pages the
// walk touches are committed. An exception thrown by the function is rethrown in the caller.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace tessera::util {

inline void RunOnStack(size_t stack_bytes, const std::function<void()>& fn) {
  struct Job {
    const std::function<void()>* fn;
    std::exception_ptr error;
  } job{&fn, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t th;
  const int rc = pthread_create(
      &th, &attr,
      [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        try {
          (*j->fn)();
        } catch (...) {
          j->error = std::current_exception();
        }
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    fn();  // no thread to be had: run here, with the stack we have
    return;
  }
  pthread_join(th, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace tessera::util

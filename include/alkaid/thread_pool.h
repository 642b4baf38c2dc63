/// @file
/// A process-wide pool of helper threads for data-parallel loops (body
/// buffer compression and decompression). Threads are started on first use
/// and then kept, so a loop over a few large buffers does not pay for thread
/// creation, and per-thread codec contexts stay warm between batches.
#pragma once

#include <cstdint>
#include <functional>

#include "alkaid/export.h"

namespace alkaid {

/// Runs task(i) for every i in [0, n) on the calling thread and at most
/// `max_threads - 1` pool threads, and returns when every call has returned.
/// The caller always takes part, so nested or concurrent use cannot stall.
ALKAID_EXPORT void RunParallel(int64_t n, int max_threads, const std::function<void(int64_t)>& task);

/// Helper threads started so far (they are never stopped).
ALKAID_EXPORT int ThreadPoolSize();

}  // namespace alkaid

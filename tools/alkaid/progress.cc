#include "progress.h"

#include <unistd.h>

#include <iostream>

#include "sources/source.h"

namespace alkaid::cli {

Progress::Progress(std::string what)
    : what_(std::move(what)), enabled_(::isatty(2) == 1), start_(Clock::now()), last_(start_) {}

void Progress::Update(int64_t batches, int64_t rows, const Input* input) {
  if (!enabled_) return;
  auto now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  std::cerr << "\r" << what_ << ": " << batches;
  if (input != nullptr && input->num_batches() >= 0) std::cerr << " of " << input->num_batches();
  std::cerr << " batches, " << rows << " rows";
  const int64_t bytes = input != nullptr ? input->position() : -1;
  const int64_t total_bytes = input != nullptr ? input->size() : -1;
  if (bytes >= 0 && total_bytes > 0)
    std::cerr << ", " << (bytes >> 20) << " of " << (total_bytes >> 20) << " MiB ("
              << (100 * bytes / total_bytes) << "%)";
  std::cerr << "\x1b[K" << std::flush;
  shown_ = true;
}

void Progress::Finish() {
  if (shown_) std::cerr << "\r\x1b[K" << std::flush;
  shown_ = false;
}

}  // namespace alkaid::cli

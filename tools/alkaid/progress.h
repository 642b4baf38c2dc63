// A line on stderr showing how far a long command got, once it has run for
// a second, when stderr is a terminal; nothing otherwise.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace alkaid::cli {

class Input;

class Progress {
 public:
  explicit Progress(std::string what);
  ~Progress() { Finish(); }

  // `input` tells the totals: batches of a file, bytes of a stream.
  void Update(int64_t batches, int64_t rows, const Input* input);
  // Clears the line (before other output or an error).
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

}  // namespace alkaid::cli

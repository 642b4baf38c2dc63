// The CSV reader's test for null spellings (internal): ReadOptions::
// null_values matched against a field's text, by a length mask first so
// that most values are ruled out without a comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace alkaid::csv::internal {

struct NullMatcher {
  uint64_t length_mask = 0;  // bit L set when some null text has length L < 64
  std::vector<std::string> values;

  explicit NullMatcher(const std::vector<std::string>& v) : values(v) {
    for (const auto& s : v) {
      if (s.size() < 64) length_mask |= uint64_t{1} << s.size();
    }
  }
  __attribute__((always_inline)) bool Match(const char* p, uint32_t n) const {
    if (n >= 64 || !(length_mask >> n & 1)) return false;
    if (n == 0) return true;  // only "" has length 0
    for (const auto& s : values) {
      if (s.size() == n && s[0] == p[0] && std::memcmp(s.data(), p, n) == 0) return true;
    }
    return false;
  }
};

}  // namespace alkaid::csv::internal

// Checks shared by the CSV and JSON Lines fuzz targets.
#pragma once

#include <cstdlib>

#include "alkaid/table.h"
#include "alkaid/validate.h"

// Every chunk of an accepted table must be valid; a table that reads back
// from its own text (with its schema) must come back equal. Either failure
// is a wrong answer the readers or writers gave silently.
inline void CheckValid(const alkaid::Table& table) {
  for (int c = 0; c < table.num_columns(); ++c) {
    for (const auto& chunk : table.column(c)->chunks()) {
      if (!alkaid::ValidateArrayFull(*chunk).ok()) std::abort();
    }
  }
}

inline void CheckSame(const alkaid::Table& original, const alkaid::Table& back) {
  if (!back.Equals(original, alkaid::EqualOptions::Defaults().with_nans_equal())) std::abort();
}

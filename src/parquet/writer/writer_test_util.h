// Test-only helpers of the Parquet writer tests (the generator and the comparison live in
// fuzz_roundtrip.h, shared with the fuzz target).
#pragma once

#include <gtest/gtest.h>

#include "src/parquet/writer/fuzz_roundtrip.h"

namespace alkaid::parquet::testing {

/// MakeRandomBatch, failing the test (and returning null) on error.
inline RecordBatchPtr RandomBatch(const FieldVector& fields, int64_t rows, uint64_t seed,
                                  double nulls = 0.15) {
  auto batch = MakeRandomBatch(fields, rows, seed, nulls);
  EXPECT_TRUE(batch.ok()) << batch.status();
  return batch.ok() ? *batch : nullptr;
}

/// Fails the test with the first difference of TableDifference.
inline void ExpectTablesEqual(const Table& expected, const Table& actual) {
  EXPECT_EQ(TableDifference(expected, actual), "");
}

}  // namespace alkaid::parquet::testing

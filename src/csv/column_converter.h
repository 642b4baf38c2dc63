// The CSV reader's conversion of one column of one tokenized block
// (internal): int64, float64, timestamps and utf8 are written straight into
// their buffers (no builder, no per-value call); every other type goes
// through its builder. Runs on any thread, one call per column and block.
#pragma once

#include <cstdint>
#include <string>

#include "alkaid/csv/api.h"
#include "null_matcher.h"
#include "tokenizer.h"

namespace alkaid::csv::internal {

// Column `column` (named `name`) of a block tokenized into `tokens` (`data`
// its bytes, padded as the loader pads them) as `type`. `block_is_utf8`:
// the whole block is valid UTF-8, so text columns need no check of their
// own. `hint` ends the message of a value that does not parse (it says
// where an inferred type came from; empty for a given type).
//
// Returns the column; when a value does not convert, or is null while
// `nullable` is false, returns a null pointer with *error set (its line
// relative to the block). A failure of the pool is the returned status.
Result<ArrayDataPtr> ConvertColumn(const char* data, const Tokens& tokens, int column,
                                   const std::string& name, const DataTypePtr& type,
                                   bool nullable, const ReadOptions& options,
                                   const NullMatcher& nulls, bool block_is_utf8,
                                   const std::string& hint, BlockError* error);

}  // namespace alkaid::csv::internal

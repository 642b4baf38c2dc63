// The CSV reader's type inference (internal): per column, the narrowest of
// null, bool, int64, float64, a date or timestamp type, or utf8 that every
// value of the sample parses as.
#pragma once

#include <cstdint>

#include "alkaid/type.h"
#include "../text/text_values.h"
#include "null_matcher.h"
#include "tokenizer.h"

namespace alkaid::csv::internal {

class ColumnInference {
 public:
  // Adds column `column` of the first `rows` records of a tokenized block
  // (`data` its bytes); fields that are null spellings say nothing.
  void AddRows(const char* data, const Tokens& tokens, int column, int64_t rows,
               const NullMatcher& nulls);

  // The type of the values added; `whole_input` when they were the whole
  // input (a column of nulls only is then null, not utf8).
  DataTypePtr Type(bool whole_input) const;

 private:
  enum class Kind : int8_t { kNull, kBool, kInt, kFloat, kTemporal, kString };

  void Add(std::string_view s);

  Kind kind_ = Kind::kNull;
  text::TemporalInference temporal_;
};

}  // namespace alkaid::csv::internal

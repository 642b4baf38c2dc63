// The JSON Lines reader's schema inference (internal): the types of the
// fields of the first ReadOptions::inference_rows lines, widened as lines
// disagree (integers to float64, strings that are all dates or times to
// those types), refused where no common type exists.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/jsonl/api.h"

namespace alkaid::jsonl::internal {

// What inference may still do, shared by every node of one sample.
struct InferLimits {
  int64_t fields_left;  // how many more nodes the schema may grow by (max_columns)
  bool temporal;        // ReadOptions::infer_temporal
};

struct InferNode;  // infer.cc: one field of the schema inferred so far

class SchemaInference {
 public:
  // `options` must outlive this object.
  explicit SchemaInference(const ReadOptions& options);
  ~SchemaInference();

  // Adds one line (its text without blanks around it). An error says what
  // is wrong with the line, without its location.
  Status AddLine(const char* text, size_t size);

  // The schema of the lines added so far; `whole_input` when they were the
  // whole input (a field that was null on every line is then null, not
  // utf8).
  SchemaPtr Schema(bool whole_input) const;

 private:
  const ReadOptions& options_;
  std::unique_ptr<InferNode> root_;
  InferLimits limits_;
};

}  // namespace alkaid::jsonl::internal

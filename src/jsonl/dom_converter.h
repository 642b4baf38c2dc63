// The JSON Lines reader's general tiers (internal): simdjson's DOM parser
// and a converter for every type the reader takes, walking each parsed
// object into the builder tree (node.h). They read whatever the faster
// tiers gave up on, and the last one, line by line, words the error.
#pragma once

#include <cstdint>
#include <optional>

#include "alkaid/jsonl/api.h"
#include "node.h"

namespace alkaid::jsonl::internal {

// The whole block data[0, size) through one simdjson parse_many (one
// stage-1 pass over the block instead of a parser call per line) into the
// builders of `root`. True with *rows set when every line with content held
// exactly one object, starting the line, that converted; anything else
// returns false and the caller redoes the block with DomConvertLines (on
// fresh builders). `allowance`: the block's allowance of nulls for
// left-out keys, named in the error when it is spent.
bool DomConvertBlock(const char* data, int64_t size, const ReadOptions& options,
                     int64_t allowance, Node* root, int64_t* rows);

// The first line of a block that did not convert, and why (the status
// without the line's location).
struct BadLine {
  int64_t line = 0;  // from 0 at the block's start
  Status error;
};

// The block line by line into the builders of `root`, stopping at the
// first line that does not convert (*bad set, OK returned). A builder
// failure (out of memory, capacity) is returned as the status.
Status DomConvertLines(const char* data, int64_t size, const ReadOptions& options,
                       int64_t allowance, Node* root, int64_t* rows,
                       std::optional<BadLine>* bad);

}  // namespace alkaid::jsonl::internal

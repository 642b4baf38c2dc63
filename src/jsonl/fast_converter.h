// The JSON Lines reader's On-Demand tier (internal): the fast path for
// schemas of scalars, strings, temporals, and lists and structs of them. The
// block goes through simdjson's On-Demand iterate_many (no DOM tape): each
// value is parsed straight from the text into its builder. Anything unusual
// (a type mismatch, a key with escapes, a key not in the schema, a repeated
// key, a null where none may be, "nan" strings in float columns...) makes
// the whole block fall back to the DOM tiers (dom_converter.h), which
// convert it the general way or find and word the error.
#pragma once

#include <cstdint>

#include "alkaid/type.h"
#include "node.h"

namespace alkaid::jsonl::internal {

// The deepest nesting the fast path reads for `type` (an object is a level),
// or -1 when a type in it is not read by the fast path.
int FastDepth(const DataType& type);

enum class FastResult { kOk, kFailed, kStrict };

// The whole block data[0, size) (`line_feeds` of them in it) into the
// builders of `root`. kOk when every line with content held exactly one
// object, starting the line, that converted; kFailed otherwise (the caller
// starts the block again on the DOM tiers).
//
// Unless `strict`, the line check is the cheap one for blocks without
// blank lines or leading blanks: every object starts the block or follows
// a line feed, and there are as many objects as lines (so, objects having
// distinct starts, each line starts with one and holds no other). kStrict
// when that does not hold: the caller redoes the block with `strict`,
// which finds each line's first non-blank with memchr.
FastResult OnDemandConvertBlock(const char* data, int64_t size, int64_t line_feeds,
                                int max_depth, Node* root, int64_t* rows, bool strict);

}  // namespace alkaid::jsonl::internal

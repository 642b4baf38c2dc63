// The JSON Lines reader's size hints (internal): per node of the builder
// tree, how many slots and string bytes the last block took, so the next
// block reserves as much up front instead of growing from nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/status.h"
#include "node.h"

namespace alkaid::jsonl::internal {

// Per node, the lines of the last block read and the slots and string bytes
// the node's builder had at its end: the next block reserves as much, scaled
// to its line count, instead of growing from nothing (each growth a fresh,
// zero-filled allocation and a copy).
struct SizeHint {
  int64_t lines = 0;
  int64_t length = 0;
  int64_t bytes = 0;
};

// Numbers the nodes depth-first (Node::index); returns the count.
int NumberNodes(Node* n, int next = 0);

// The nodes of the tree under `root`, itself included.
size_t CountNodes(const Node* root);

// Records the builders' sizes below and at `n` after a block of `lines`
// lines into `hints` (indexed by Node::index).
void RecordSizes(const Node& n, int64_t lines, std::vector<SizeHint>* hints);

// Reserves the builders below `n` for `lines` lines from the hints (the
// top-level columns' slots are reserved by the caller), each at most
// `ceiling` slots or bytes: a block of that many bytes holds no more values
// than bytes (short lines after a block of one long line must not scale the
// long line's thousands of values up by their count).
Status ReserveSizes(Node* n, int64_t lines, const std::vector<SizeHint>& hints, bool top,
                    int64_t ceiling);

}  // namespace alkaid::jsonl::internal

// Internal: load plans, the per-schema work of an IPC reader done once. A
// plan lists the fields of a schema (or of a dictionary's value type) in
// pre-order, each node carrying its type's layout (from DataTypeLayout), its
// place in the tree and its dictionary, so that loading a record batch is
// one walk of flat structs (array_loader.h). Not installed.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/type.h"
#include "../array/buffer_scan.h"
#include "dictionary_memo.h"
#include "endian_swap.h"

namespace alkaid::ipc::internal {

// One buffer of a node as the loader cuts it. Kind and element width are
// the type's DataTypeLayout entry, copied from its BufferSpec (kind, width,
// count rule, alignment, byte swap) so that loading reads one flat struct.
struct BufferRule {
  BufferSpec::Kind kind = BufferSpec::kData;
  int width = 0;      // bytes per element; 0 for bitmaps and data
  // Offsets: length + 1 of them (none needed when length is 0), except for
  // list views, which keep one per slot.
  bool one_more = false;
  // What full validation reads of it: done right after decompression, while
  // the bytes are in cache (the data pass then takes the answer).
  alkaid::internal::BufferScan scan = alkaid::internal::BufferScan::kNone;
  int alignment = 1;  // typed access needs this; misaligned slices are copied
  ByteSwap swap;
};

// What loading one field node needs, settled when the reader gets its
// schema: the layout of the (storage) type, the node's place in the tree and
// its dictionary.
struct PlanNode {
  // How the node's buffers and children are read.
  enum class Shape : uint8_t {
    kNull,           // no buffers; every slot null
    kBuffers,        // only the layout's buffers (primitives, binary, ...)
    kViews,          // validity, views and variadic data buffers
    kList,           // validity, offsets (and sizes); one child
    kFixedSizeList,  // validity; one child of length * list_size
    kStruct,         // validity; children at least as long
    kSparseUnion,    // type ids; children at least as long
    kDenseUnion,     // type ids, offsets; children
    kDictionary,     // validity, indices; the memo's values
    kRunEnd,         // no buffers; run ends and values children
  };

  DataTypePtr type;              // as declared (extension types kept)
  const Field* field = nullptr;  // for error paths
  int32_t parent = -1;           // plan index of the parent; -1 for a root
  int32_t child_index = 0;       // position in the parent, or the root's path element
  int32_t end = 0;               // plan index past this node's subtree
  int32_t num_children = 0;
  Shape shape = Shape::kNull;
  bool is_map = false;  // map keys must not declare nulls
  uint8_t num_buffers = 0;  // fixed buffers: ArrayData slots and wire buffers
  BufferRule buffers[3];
  int64_t list_size = 0;  // fixed-size lists
  // Dictionary-encoded nodes: the id and its memo entry (stable: the memo's
  // entries never move after Init). entry null: no id (reported on load).
  int64_t dictionary_id = -1;
  const DictionaryMemo::Entry* dictionary = nullptr;
};

// The plan of a list of top-level fields (a schema, or a dictionary's value
// type): nodes in pre-order, each root followed by its subtree.
struct LoadPlan {
  std::vector<PlanNode> nodes;
  std::vector<int32_t> roots;  // plan index of each top-level field
  FieldPath base_path;         // prefix of every root's path (dictionaries)
  FieldPtr owned_root;         // dictionary plans: the field named after the id
};

// Builds the plan of `fields` (root i's path is base_path + [first_index + i]).
// `ids` and `memo` resolve dictionary ids; nesting deeper than
// max_recursion_depth fields is refused.
Status BuildLoadPlan(const FieldVector& fields, const FieldPath& base_path, int first_index,
                     const DictionaryIds& ids, const DictionaryMemo& memo, int max_recursion_depth,
                     LoadPlan* out);

}  // namespace alkaid::ipc::internal

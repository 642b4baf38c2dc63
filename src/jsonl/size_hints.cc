// See size_hints.h.
#include "size_hints.h"

#include <algorithm>

namespace alkaid::jsonl::internal {
namespace {

int64_t StringBytes(const Node& n) {
  switch (n.id) {
    case TypeId::kString: return static_cast<StringBuilder*>(n.builder)->value_data_length();
    case TypeId::kLargeString:
      return static_cast<LargeStringBuilder*>(n.builder)->value_data_length();
    default: return 0;
  }
}

}  // namespace

int NumberNodes(Node* n, int next) {
  n->index = next++;
  for (Node& c : n->children) next = NumberNodes(&c, next);
  return next;
}

size_t CountNodes(const Node* root) {
  size_t n = 1;
  for (const Node& c : root->children) n += CountNodes(&c);
  return n;
}

void RecordSizes(const Node& n, int64_t lines, std::vector<SizeHint>* hints) {
  (*hints)[static_cast<size_t>(n.index)] = {lines, n.builder->length(), StringBytes(n)};
  for (const Node& c : n.children) RecordSizes(c, lines, hints);
}

Status ReserveSizes(Node* n, int64_t lines, const std::vector<SizeHint>& hints, bool top,
                    int64_t ceiling) {
  for (Node& c : n->children) {
    const SizeHint& h = hints[static_cast<size_t>(c.index)];
    if (h.lines > 0) {
      auto scale = [&](int64_t v) {
        int64_t est = v / h.lines * lines + v % h.lines * lines / h.lines;
        return std::min(est + est / 8 + 16, ceiling);
      };
      if (!top && h.length > 0) ALKAID_RETURN_NOT_OK(c.builder->Reserve(scale(h.length)));
      if (h.bytes > 0) {
        int64_t bytes = scale(h.bytes);
        if (c.id == TypeId::kString) {
          // Not past what the offsets address; appends beyond it take the
          // checked path.
          bytes = std::min<int64_t>(bytes, StringBuilder::kMaxDataSize / 2);
          ALKAID_RETURN_NOT_OK(static_cast<StringBuilder*>(c.builder)->ReserveData(bytes));
          c.room = bytes;
        } else if (c.id == TypeId::kLargeString) {
          ALKAID_RETURN_NOT_OK(static_cast<LargeStringBuilder*>(c.builder)->ReserveData(bytes));
          c.room = bytes;
        }
      }
    }
    ALKAID_RETURN_NOT_OK(ReserveSizes(&c, lines, hints, false, ceiling));
  }
  return Status::OK();
}

}  // namespace alkaid::jsonl::internal

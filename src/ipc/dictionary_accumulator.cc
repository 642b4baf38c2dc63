// Dictionaries grown by deltas, in place.
//
// A stream may alternate delta dictionary batches with record batches, and
// every record batch needs its dictionary current. Concatenating the whole
// dictionary again for each delta would cost O(dictionary) per delta: a few
// hundred thousand one-value deltas make that quadratic. Instead the values
// live in pool buffers with geometric spare capacity, a delta is copied onto
// their end (O(delta), amortized), and batches get snapshots: ArrayData whose
// buffers are windows onto the growing storage.
//
// Safety of writing into storage that snapshots share: a snapshot of length
// L never reads past its own window, and appends only write beyond it, with
// one exception: the byte of a bitmap that holds bit L-1 also holds the
// first appended bits. That byte is rewritten in place only when no snapshot
// holds the buffer any more (the usual streaming case, where each batch is
// dropped before the next is read); otherwise the bitmap is copied.
#include "dictionary_accumulator.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "alkaid/bitmap.h"
#include "alkaid/visit_width.h"

namespace alkaid::ipc::internal {

namespace {

const DataType& StorageOf(const DataType& type) {
  if (type.id() == TypeId::kExtension) {
    return StorageOf(*static_cast<const ExtensionType&>(type).storage_type());
  }
  return type;
}

}  // namespace

bool DictionaryAccumulator::Supports(const DataType& logical) {
  const DataType& type = StorageOf(logical);
  switch (type.id()) {
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kDictionary:
    case TypeId::kRunEndEncoded:
      return false;
    default:
      break;
  }
  for (const FieldPtr& child : type.fields()) {
    if (!Supports(*child->type())) return false;
  }
  return true;
}

struct DictionaryAccumulator::Storage {
  BufferPtr buffer;  // pool memory with the budget charge attached
  uint8_t* data = nullptr;
  int64_t size = 0;  // bytes in use
  int64_t capacity = 0;
};

struct DictionaryAccumulator::Node {
  DataTypePtr type;               // as the snapshot reports it (extension kept)
  const DataType* storage_type;   // the physical type
  int64_t length = 0;
  int64_t null_count = 0;
  bool has_validity = false;      // false while every slot so far is valid
  Storage validity;
  Storage values;                 // bits, fixed-width values, offsets or views
  Storage data;                   // binary bytes, or the open view data buffer
  std::vector<BufferPtr> sealed;  // full view data buffers before `data`
  std::vector<Node> children;
};

DictionaryAccumulator::DictionaryAccumulator(DataTypePtr type, ReadBudgetPtr budget,
                                             MemoryPool* pool)
    : root_(std::make_unique<Node>()), budget_(std::move(budget)), pool_(pool) {
  Init(root_.get(), std::move(type));
}

DictionaryAccumulator::~DictionaryAccumulator() = default;

void DictionaryAccumulator::Init(Node* node, DataTypePtr type) {
  node->storage_type = &StorageOf(*type);
  node->type = std::move(type);
  for (const FieldPtr& child : node->storage_type->fields()) {
    node->children.emplace_back();
    Init(&node->children.back(), child->type());
  }
}

int64_t DictionaryAccumulator::length() const { return root_->length; }

// Makes room for `new_size` bytes in `s`. A fresh allocation (geometric
// growth) replaces the storage when it is too small, or when `rewrite_last`
// asks to rewrite byte size-1 and a snapshot still shares the storage.
Status DictionaryAccumulator::Reserve(Storage* s, int64_t new_size, bool rewrite_last) {
  const bool shared_tail = rewrite_last && s->size > 0 && s->buffer.use_count() > 1;
  if (new_size <= s->capacity && !shared_tail) return Status::OK();
  int64_t capacity = s->capacity;
  if (new_size > capacity) {
    capacity = std::max<int64_t>(new_size, 64);
    if (s->capacity <= std::numeric_limits<int64_t>::max() / 2) {
      capacity = std::max(capacity, s->capacity * 2);
    }
  }
  ALKAID_ASSIGN_OR_RAISE(Charge charge,
                         Charge::Take(budget_, capacity, "a dictionary grown by deltas"));
  ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<ResizableBuffer> fresh, AllocateBuffer(capacity, pool_));
  uint8_t* bytes = fresh->mutable_data();
  if (s->size > 0) std::memcpy(bytes, s->data, static_cast<size_t>(s->size));
  s->buffer = AttachCharge<Buffer>(std::move(fresh), std::move(charge));
  s->data = bytes;
  s->capacity = capacity;
  return Status::OK();
}

Status DictionaryAccumulator::AppendBits(Storage* s, int64_t at, const uint8_t* bits,
                                         int64_t bits_offset, int64_t n) {
  const int64_t new_size = bit_util::BytesForBits(at + n);
  ALKAID_RETURN_NOT_OK(Reserve(s, new_size, at % 8 != 0));
  if (bits == nullptr) {
    bit_util::SetBitsTo(s->data, at, n, true);
  } else {
    bit_util::CopyBitmap(bits, bits_offset, n, s->data, at);
  }
  s->size = std::max(s->size, new_size);
  return Status::OK();
}

Status DictionaryAccumulator::AppendBytes(Storage* s, const uint8_t* bytes, int64_t n) {
  if (n == 0) return Status::OK();
  ALKAID_RETURN_NOT_OK(Reserve(s, s->size + n, false));
  std::memcpy(s->data + s->size, bytes, static_cast<size_t>(n));
  s->size += n;
  return Status::OK();
}

// Appends n offsets o[1..n] (o[0] is where the appended range starts in the
// source) rebased so that o[0] lands on `base`; writes the leading zero of an
// empty offsets buffer first.
template <typename O>
Status DictionaryAccumulator::AppendOffsets(Storage* s, const O* o, int64_t n, int64_t base) {
  const int64_t width = sizeof(O);
  const int64_t end = base + (int64_t{o[n]} - int64_t{o[0]});
  if (end > static_cast<int64_t>(std::numeric_limits<O>::max())) {
    return Status::CapacityError("a dictionary grown by deltas would need offsets up to ", end,
                                 ", more than a ", width * 8, "-bit offset holds");
  }
  const int64_t leading = s->size == 0 ? 1 : 0;
  ALKAID_RETURN_NOT_OK(Reserve(s, s->size + (n + leading) * width, false));
  O* out = reinterpret_cast<O*>(s->data + s->size);
  if (leading != 0) *out++ = static_cast<O>(base);
  const int64_t shift = base - int64_t{o[0]};
  for (int64_t i = 1; i <= n; ++i) *out++ = static_cast<O>(int64_t{o[i]} + shift);
  s->size += (n + leading) * width;
  return Status::OK();
}

Status DictionaryAccumulator::Append(const ArrayData& delta) {
  if (delta.length == 0) return Status::OK();
  return AppendNode(root_.get(), delta, 0, delta.length);
}

// Appends slots [begin, begin + n) of `a` (indices relative to a.offset).
Status DictionaryAccumulator::AppendNode(Node* node, const ArrayData& a, int64_t begin,
                                         int64_t n) {
  const DataType& type = *node->storage_type;
  const DataTypeLayout& layout = type.layout();
  const int64_t at = a.offset + begin;  // physical slot in a's buffers
  if (layout.has_validity() && n > 0) {
    const uint8_t* bits = a.HasValidityBitmap() ? a.buffers[0]->data() : nullptr;
    const int64_t nulls = bits == nullptr ? 0 : n - bit_util::CountSetBits(bits, at, n);
    if (nulls > 0 && !node->has_validity) {
      // The first null: every slot so far was valid.
      ALKAID_RETURN_NOT_OK(AppendBits(&node->validity, 0, nullptr, 0, node->length));
      node->has_validity = true;
    }
    if (node->has_validity) {
      ALKAID_RETURN_NOT_OK(
          AppendBits(&node->validity, node->length, nulls > 0 ? bits : nullptr, at, n));
    }
    node->null_count += nulls;
  } else if (type.id() == TypeId::kNull) {
    node->null_count += n;
  }

  // Binary and list layouts (list views are not supported): the offsets
  // are as wide as the layout table says.
  if (layout.buffers.size() > 1 && layout.buffers[1].kind == BufferSpec::kOffsets) {
    ALKAID_RETURN_NOT_OK(VisitSignedWidth(layout.buffers[1].byte_width, [&](auto zero) -> Status {
      using Offset = decltype(zero);
      return node->children.empty() ? AppendBinary<Offset>(node, a, at, n)
                                    : AppendList<Offset>(node, a, at, n);
    }));
    node->length += n;
    return Status::OK();
  }
  switch (type.id()) {
    case TypeId::kNull:
      break;
    case TypeId::kBool:
      ALKAID_RETURN_NOT_OK(AppendBits(&node->values, node->length, a.buffers[1]->data(), at, n));
      break;
    case TypeId::kBinaryView:
    case TypeId::kStringView:
      ALKAID_RETURN_NOT_OK(AppendViews(node, a, at, n));
      break;
    case TypeId::kFixedSizeList: {
      const int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
      ALKAID_RETURN_NOT_OK(
          AppendNode(&node->children[0], *a.child_data[0], at * size, n * size));
      break;
    }
    case TypeId::kStruct:
      for (size_t k = 0; k < node->children.size(); ++k) {
        ALKAID_RETURN_NOT_OK(AppendNode(&node->children[k], *a.child_data[k], at, n));
      }
      break;
    default: {
      // Every other supported type: validity plus one fixed-width buffer.
      if (layout.buffers.size() != 2 || layout.buffers[1].kind != BufferSpec::kFixedWidth) {
        return Status::NotImplemented("growing a dictionary of type ", type.ToString(),
                                      " in place");
      }
      const int64_t width = layout.buffers[1].byte_width;
      ALKAID_RETURN_NOT_OK(AppendBytes(&node->values, a.buffers[1]->data() + at * width, n * width));
      break;
    }
  }
  node->length += n;
  return Status::OK();
}

template <typename O>
Status DictionaryAccumulator::AppendBinary(Node* node, const ArrayData& a, int64_t at, int64_t n) {
  const O* offsets = reinterpret_cast<const O*>(a.buffers[1]->data()) + at;
  ALKAID_RETURN_NOT_OK(AppendOffsets<O>(&node->values, offsets, n, node->data.size));
  const int64_t first = offsets[0];
  return AppendBytes(&node->data, a.buffers[2]->data() + first, int64_t{offsets[n]} - first);
}

template <typename O>
Status DictionaryAccumulator::AppendList(Node* node, const ArrayData& a, int64_t at, int64_t n) {
  const O* offsets = reinterpret_cast<const O*>(a.buffers[1]->data()) + at;
  Node* child = &node->children[0];
  ALKAID_RETURN_NOT_OK(AppendOffsets<O>(&node->values, offsets, n, child->length));
  const int64_t first = offsets[0];
  return AppendNode(child, *a.child_data[0], first, int64_t{offsets[n]} - first);
}

// Views: the delta's data buffers are copied whole into the open data buffer
// (O(their bytes), however many views share them), and views are redirected
// to it. A buffer that would push the open one past what a 32-bit view
// offset reaches starts a new one.
Status DictionaryAccumulator::AppendViews(Node* node, const ArrayData& a, int64_t at, int64_t n) {
  constexpr int64_t kMaxViewBuffer = std::numeric_limits<int32_t>::max();
  const size_t num_data = a.buffers.size() - 2;
  std::vector<std::pair<int32_t, int64_t>> where(num_data);  // (index, base) per source buffer
  for (size_t i = 0; i < num_data; ++i) {
    const Buffer* src = a.buffers[2 + i].get();
    const int64_t size = src == nullptr ? 0 : src->size();
    if (node->data.size + size > kMaxViewBuffer && node->data.size > 0) {
      node->sealed.push_back(SliceBuffer(node->data.buffer, 0, node->data.size));
      node->data = Storage{};
    }
    if (node->sealed.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return Status::CapacityError("a dictionary grown by deltas has too many view buffers");
    }
    where[i] = {static_cast<int32_t>(node->sealed.size()), node->data.size};
    if (size > 0) ALKAID_RETURN_NOT_OK(AppendBytes(&node->data, src->data(), size));
  }
  const auto* views = reinterpret_cast<const BinaryViewValue*>(a.buffers[1]->data()) + at;
  const uint8_t* bits = a.HasValidityBitmap() ? a.buffers[0]->data() : nullptr;
  Storage* out = &node->values;
  ALKAID_RETURN_NOT_OK(Reserve(out, out->size + n * int64_t{sizeof(BinaryViewValue)}, false));
  auto* dst = reinterpret_cast<BinaryViewValue*>(out->data + out->size);
  for (int64_t j = 0; j < n; ++j) {
    BinaryViewValue v = views[j];
    if (bits != nullptr && !bit_util::GetBit(bits, at + j)) {
      v = BinaryViewValue{};  // masked slots may hold anything: keep them harmless
    } else if (!v.is_inline()) {
      const auto [index, base] = where[static_cast<size_t>(v.ref.buffer_index)];
      v.ref.buffer_index = index;
      v.ref.offset = static_cast<int32_t>(base + v.ref.offset);
    }
    dst[j] = v;
  }
  out->size += n * int64_t{sizeof(BinaryViewValue)};
  return Status::OK();
}

ArrayDataPtr DictionaryAccumulator::Snapshot() const { return SnapshotNode(*root_); }

ArrayDataPtr DictionaryAccumulator::SnapshotNode(const Node& node) {
  auto window = [](const Storage& s) -> BufferPtr {
    if (s.buffer == nullptr) return nullptr;
    return SliceBuffer(s.buffer, 0, s.size);
  };
  const DataType& type = *node.storage_type;
  const DataTypeLayout& layout = type.layout();
  BufferVector buffers;
  if (!layout.buffers.empty()) {
    buffers.push_back(node.has_validity ? window(node.validity) : nullptr);
  }
  if (layout.buffers.size() > 1) buffers.push_back(window(node.values));
  if (layout.variadic_data) {
    for (const BufferPtr& b : node.sealed) buffers.push_back(b);
    if (node.data.size > 0) buffers.push_back(window(node.data));
  } else if (layout.buffers.size() > 2) {
    buffers.push_back(window(node.data));
  }
  // Empty binary and list arrays still need their one zero offset.
  for (size_t i = 1; i < buffers.size() && i < layout.buffers.size(); ++i) {
    if (buffers[i] == nullptr && layout.buffers[i].kind == BufferSpec::kOffsets) {
      auto zero = AllocateBuffer(layout.buffers[i].byte_width);
      if (zero.ok()) buffers[i] = *std::move(zero);
    }
  }
  ArrayDataVector children;
  children.reserve(node.children.size());
  for (const Node& child : node.children) children.push_back(SnapshotNode(child));
  return ArrayData::Make(node.type, node.length, std::move(buffers), std::move(children),
                         node.null_count);
}

}  // namespace alkaid::ipc::internal

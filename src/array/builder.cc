// Out-of-line parts of the builders: buffer growth, finishing, the builders
// whose appends are not on a per-value hot path, and MakeBuilder.
#include "alkaid/builder.h"

#include <algorithm>

#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid {

namespace internal {

Status BufferBuilder::GrowTo(int64_t total_bytes) {
  if (buffer_ == nullptr) buffer_ = std::make_shared<ResizableBuffer>(pool_);
  ALKAID_RETURN_NOT_OK(buffer_->Reserve(total_bytes));
  data_ = buffer_->mutable_data();
  capacity_ = buffer_->capacity();
  return Status::OK();
}

Status CheckValidityLength(size_t values, size_t validity) {
  if (values == validity) return Status::OK();
  return Status::Invalid("the validity vector has ", validity, " entries for ", values,
                         " values");
}

Result<BufferPtr> BufferBuilder::FinishWithSize(int64_t size) {
  ALKAID_RETURN_NOT_OK(EnsureCapacity(size));
  // The pool buffer's own size is still 0, so this only records the size.
  ALKAID_RETURN_NOT_OK(buffer_->Resize(size));
  BufferPtr out = std::move(buffer_);
  Reset();
  return out;
}

void BufferBuilder::Reset() {
  buffer_.reset();
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

}  // namespace internal

// ---------------------------------------------------------------------------
// ArrayBuilder

Status ArrayBuilder::AppendValueBytes(std::string_view) {
  return Status::TypeError("the ", type_->ToString(),
                           " builder does not take values as raw bytes");
}

Status ArrayBuilder::Resize(int64_t capacity) {
  if (validity_.allocated()) {
    ALKAID_RETURN_NOT_OK(validity_.EnsureCapacity(bit_util::BytesForBits(capacity)));
  }
  capacity_ = capacity;
  return Status::OK();
}

Status ArrayBuilder::MaterializeValidity() {
  ALKAID_RETURN_NOT_OK(validity_.EnsureCapacity(bit_util::BytesForBits(std::max(capacity_, length_))));
  // Every slot so far was valid.
  bit_util::SetBitsTo(validity_.mutable_data(), 0, length_, true);
  return Status::OK();
}

Result<BufferPtr> ArrayBuilder::FinishValidity() {
  if (null_count_ == 0 || !validity_.allocated()) {
    validity_.Reset();
    return BufferPtr();
  }
  return validity_.FinishWithSize(bit_util::BytesForBits(length_));
}

Result<ArrayDataPtr> ArrayBuilder::Finish() {
  auto out = std::make_shared<ArrayData>();
  out->type = type_;
  out->length = length();
  out->null_count = null_count();
  Status st = FinishInto(out.get());
  Reset();
  if (!st.ok()) return st;
  return out;
}

Result<ArrayPtr> ArrayBuilder::FinishArray() {
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, Finish());
  return MakeArray(data);
}

void ArrayBuilder::Reset() {
  length_ = 0;
  null_count_ = 0;
  capacity_ = 0;
  validity_.Reset();
  for (auto& c : children_) c->Reset();
}

// ---------------------------------------------------------------------------
// Null and boolean

NullBuilder::NullBuilder(MemoryPool* pool) : ArrayBuilder(null(), pool) {}

Status NullBuilder::AppendNulls(int64_t n) {
  if (n < 0) return Status::Invalid("cannot append ", n, " nulls");
  length_ += n;
  null_count_ += n;
  return Status::OK();
}

Status NullBuilder::FinishInto(ArrayData* out) {
  out->buffers.clear();  // the null layout has no buffers at all
  return Status::OK();
}

BooleanBuilder::BooleanBuilder(MemoryPool* pool) : BooleanBuilder(boolean(), pool) {}

Status BooleanBuilder::AppendValues(const bool* values, int64_t n, const uint8_t* valid_bytes) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) {
    if (values[i]) bit_util::SetBit(values_.mutable_data(), length_);
    ALKAID_RETURN_NOT_OK(AppendValidity(valid_bytes == nullptr || valid_bytes[i] != 0));
  }
  return Status::OK();
}

Status BooleanBuilder::AppendValues(const std::vector<bool>& values) {
  const auto n = static_cast<int64_t>(values.size());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) UnsafeAppend(values[static_cast<size_t>(i)]);
  return Status::OK();
}

Status BooleanBuilder::AppendValues(const std::vector<bool>& values,
                                    const std::vector<bool>& is_valid) {
  ALKAID_RETURN_NOT_OK(internal::CheckValidityLength(values.size(), is_valid.size()));
  ALKAID_RETURN_NOT_OK(Reserve(static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) bit_util::SetBit(values_.mutable_data(), length_);
    ALKAID_RETURN_NOT_OK(AppendValidity(is_valid[i]));
  }
  return Status::OK();
}

Status BooleanBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  return AppendNullBits(n);
}

Status BooleanBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  UnsafeAppendValid(n);
  return Status::OK();
}

Status BooleanBuilder::AppendValueBytes(std::string_view bytes) {
  if (bytes.size() != 1) {
    return Status::Invalid("a bool value takes 1 byte, got ", bytes.size());
  }
  return Append(bytes[0] != 0);
}

void BooleanBuilder::Reset() {
  ArrayBuilder::Reset();
  values_.Reset();
}

Status BooleanBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(values_.EnsureCapacity(bit_util::BytesForBits(capacity)));
  return ArrayBuilder::Resize(capacity);
}

Status BooleanBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr values, values_.FinishWithSize(bit_util::BytesForBits(length_)));
  out->buffers = {std::move(validity), std::move(values)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Fixed-size binary

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(DataTypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), values_(pool) {
  width_ = checked_cast<FixedSizeBinaryType>(*type_).byte_width();
}

Status FixedSizeBinaryBuilder::WrongWidth(size_t got) const {
  return Status::Invalid(type_->ToString(), " builder: slot ", length_, " value has ", got,
                         " bytes, the type's width is ", width_);
}

Status FixedSizeBinaryBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  return AppendNullBits(n);
}

Status FixedSizeBinaryBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  UnsafeAppendValid(n);
  return Status::OK();
}

void FixedSizeBinaryBuilder::Reset() {
  ArrayBuilder::Reset();
  values_.Reset();
}

Status FixedSizeBinaryBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(values_.EnsureCapacity(capacity * width_));
  return ArrayBuilder::Resize(capacity);
}

Status FixedSizeBinaryBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr values, values_.FinishWithSize(length_ * width_));
  out->buffers = {std::move(validity), std::move(values)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Binary views

BinaryViewBuilder::BinaryViewBuilder(DataTypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), views_(pool), current_block_(pool) {}

Status BinaryViewBuilder::StoreOutOfLine(std::string_view value, BinaryViewValue* view) {
  auto size = static_cast<int64_t>(value.size());
  if (size > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: a value of ", size,
                                 " bytes does not fit a view's 32-bit size");
  }
  bool fits = current_block_.allocated() && current_block_.size() + size <= current_block_.capacity();
  if (!fits) {
    if (current_block_.allocated()) {
      ALKAID_ASSIGN_OR_RAISE(BufferPtr full, current_block_.Finish());
      finished_blocks_.push_back(std::move(full));
    }
    // A value bigger than the usual block gets a block of its own size.
    ALKAID_RETURN_NOT_OK(current_block_.EnsureCapacity(std::max(next_block_size_, size)));
    next_block_size_ = std::min(next_block_size_ * 2, kMaxBlockSize);
  }
  if (finished_blocks_.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::CapacityError(type_->ToString(), " builder: too many data blocks");
  }
  view->ref.size = static_cast<int32_t>(size);
  std::memcpy(view->ref.prefix, value.data(), BinaryViewValue::kPrefixSize);
  view->ref.buffer_index = static_cast<int32_t>(finished_blocks_.size());
  view->ref.offset = static_cast<int32_t>(current_block_.size());
  current_block_.UnsafeAppend(value.data(), size);
  return Status::OK();
}

Status BinaryViewBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  return AppendNullBits(n);  // all-zero views: size 0
}

Status BinaryViewBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  UnsafeAppendValid(n);
  return Status::OK();
}

int64_t BinaryViewBuilder::num_data_blocks() const {
  return static_cast<int64_t>(finished_blocks_.size()) + (current_block_.allocated() ? 1 : 0);
}

void BinaryViewBuilder::Reset() {
  ArrayBuilder::Reset();
  views_.Reset();
  finished_blocks_.clear();
  current_block_.Reset();
  next_block_size_ = kInitialBlockSize;
}

Status BinaryViewBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(views_.EnsureCapacity(capacity * static_cast<int64_t>(sizeof(BinaryViewValue))));
  return ArrayBuilder::Resize(capacity);
}

Status BinaryViewBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(
      BufferPtr views,
      views_.FinishWithSize(length_ * static_cast<int64_t>(sizeof(BinaryViewValue))));
  out->buffers = {std::move(validity), std::move(views)};
  for (auto& block : finished_blocks_) out->buffers.push_back(std::move(block));
  finished_blocks_.clear();
  if (current_block_.allocated()) {
    ALKAID_ASSIGN_OR_RAISE(BufferPtr last, current_block_.Finish());
    out->buffers.push_back(std::move(last));
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Fixed-size list

FixedSizeListBuilder::FixedSizeListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  list_size_ = checked_cast<FixedSizeListType>(*type_).list_size();
  children_.push_back(std::move(value_builder));
}

Status FixedSizeListBuilder::CheckChildLength() const {
  int64_t expected = length_ * list_size_;
  int64_t actual = value_builder()->length();
  if (actual != expected) {
    return Status::Invalid(type_->ToString(), " builder: after ", length_, " slots the child has ",
                           actual, " values, expected ", expected, " (", list_size_,
                           " per slot)");
  }
  return Status::OK();
}

Status FixedSizeListBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  // Child slots under a null parent are still physically present.
  ALKAID_RETURN_NOT_OK(value_builder()->AppendNulls(n * list_size_));
  return AppendNullBits(n);
}

Status FixedSizeListBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  ALKAID_RETURN_NOT_OK(value_builder()->AppendEmptyValues(n * list_size_));
  UnsafeAppendValid(n);
  return Status::OK();
}

Status FixedSizeListBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
  out->buffers = {std::move(validity)};
  out->child_data = {std::move(values)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Struct

StructBuilder::StructBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> field_builders,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  children_ = std::move(field_builders);
}

Status StructBuilder::AppendValues(int64_t n, const uint8_t* valid_bytes) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  if (valid_bytes == nullptr) {
    UnsafeAppendValid(n);
    return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(AppendValidity(valid_bytes[i] != 0));
  return Status::OK();
}

Status StructBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (auto& c : children_) ALKAID_RETURN_NOT_OK(c->AppendNulls(n));
  return AppendNullBits(n);
}

Status StructBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (auto& c : children_) ALKAID_RETURN_NOT_OK(c->AppendEmptyValues(n));
  UnsafeAppendValid(n);
  return Status::OK();
}

Status StructBuilder::FinishInto(ArrayData* out) {
  for (int i = 0; i < num_children(); ++i) {
    if (child(i)->length() != length_) {
      return Status::Invalid(type_->ToString(), " builder: field ", i, " '",
                             type_->field(i)->name(), "' has ", child(i)->length(),
                             " values but the struct has ", length_, " slots");
    }
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  out->buffers = {std::move(validity)};
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Map

MapBuilder::MapBuilder(DataTypePtr type, ArrayBuilderPtr key_builder, ArrayBuilderPtr item_builder,
                       MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool) {
  std::vector<ArrayBuilderPtr> fields;
  fields.push_back(std::move(key_builder));
  fields.push_back(std::move(item_builder));
  const auto& map_type = checked_cast<MapType>(*type_);
  children_.push_back(
      std::make_unique<StructBuilder>(map_type.value_type(), std::move(fields), pool));
}

Status MapBuilder::SyncEntries() {
  int64_t missing = key_builder()->length() - entries()->length();
  if (missing < 0) {
    return Status::Invalid(type_->ToString(), " builder: entries outnumber keys");
  }
  return entries()->AppendValues(missing);
}

Status MapBuilder::WriteOffsetAt(int64_t slot) {
  int64_t keys = key_builder()->length();
  if (keys > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: ", keys,
                                 " entries exceed the largest 32-bit offset");
  }
  auto offset = static_cast<int32_t>(keys);
  std::memcpy(offsets_.mutable_data() + slot * sizeof(int32_t), &offset, sizeof(offset));
  return Status::OK();
}

Status MapBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_ + i));
  return AppendNullBits(n);
}

Status MapBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_ + i));
  UnsafeAppendValid(n);
  return Status::OK();
}

void MapBuilder::Reset() {
  ArrayBuilder::Reset();
  offsets_.Reset();
}

Status MapBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(int32_t)));
  return ArrayBuilder::Resize(capacity);
}

Status MapBuilder::FinishInto(ArrayData* out) {
  if (key_builder()->length() != item_builder()->length()) {
    return Status::Invalid(type_->ToString(), " builder: ", key_builder()->length(),
                           " keys but ", item_builder()->length(), " items");
  }
  ALKAID_RETURN_NOT_OK(SyncEntries());
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(int32_t)));
  ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize((length_ + 1) * sizeof(int32_t)));
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr entries_data, entries()->Finish());
  out->buffers = {std::move(validity), std::move(offsets)};
  out->child_data = {std::move(entries_data)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Unions

UnionBuilderBase::UnionBuilderBase(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                                   MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), types_(pool) {
  children_ = std::move(children);
}

void UnionBuilderBase::Reset() {
  ArrayBuilder::Reset();
  types_.Reset();
}

Status UnionBuilderBase::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(types_.EnsureCapacity(capacity));
  // No validity bitmap: skip the base's bitmap growth.
  capacity_ = capacity;
  return Status::OK();
}

Status UnionBuilderBase::CheckTypeCode(int8_t type_code) const {
  if (union_type().child_index(type_code) < 0) {
    return Status::Invalid(type_->ToString(), " builder: slot ", length_, " uses type code ",
                           static_cast<int>(type_code), " which the union does not declare");
  }
  return Status::OK();
}

Status SparseUnionBuilder::Append(int8_t type_code) {
  ALKAID_RETURN_NOT_OK(CheckTypeCode(type_code));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  int selected = union_type().child_index(type_code);
  for (int i = 0; i < num_children(); ++i) {
    if (i != selected) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValue());
  }
  UnsafeAppendTypeCode(type_code);
  return Status::OK();
}

Status SparseUnionBuilder::AppendNulls(int64_t n) {
  if (num_children() == 0) return Status::Invalid("a union without children cannot hold nulls");
  ALKAID_RETURN_NOT_OK(Reserve(n));
  ALKAID_RETURN_NOT_OK(child(0)->AppendNulls(n));
  for (int i = 1; i < num_children(); ++i) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValues(n));
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) UnsafeAppendTypeCode(code);
  return Status::OK();
}

Status SparseUnionBuilder::AppendEmptyValues(int64_t n) {
  if (num_children() == 0) return Status::Invalid("a union without children has no empty value");
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int i = 0; i < num_children(); ++i) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValues(n));
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) UnsafeAppendTypeCode(code);
  return Status::OK();
}

Status SparseUnionBuilder::FinishInto(ArrayData* out) {
  for (int i = 0; i < num_children(); ++i) {
    if (child(i)->length() != length_) {
      return Status::Invalid(type_->ToString(), " builder: child ", i, " '",
                             type_->field(i)->name(), "' has ", child(i)->length(),
                             " values but a sparse union needs one per slot (", length_, ")");
    }
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr types, types_.FinishWithSize(length_));
  out->buffers = {std::move(types)};
  out->null_count = 0;
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

Status DenseUnionBuilder::Append(int8_t type_code) {
  ALKAID_RETURN_NOT_OK(CheckTypeCode(type_code));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  int64_t offset = child_builder(type_code)->length();
  if (offset > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: child offset ", offset,
                                 " exceeds 32 bits");
  }
  auto offset32 = static_cast<int32_t>(offset);
  std::memcpy(offsets_.mutable_data() + length_ * sizeof(int32_t), &offset32, sizeof(offset32));
  UnsafeAppendTypeCode(type_code);
  return Status::OK();
}

Status DenseUnionBuilder::AppendToFirstChild(int64_t n, bool null) {
  if (num_children() == 0) return Status::Invalid("a union without children cannot hold values");
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) {
    ALKAID_RETURN_NOT_OK(Append(code));
    ALKAID_RETURN_NOT_OK(null ? child(0)->AppendNull() : child(0)->AppendEmptyValue());
  }
  return Status::OK();
}

Status DenseUnionBuilder::AppendNulls(int64_t n) { return AppendToFirstChild(n, true); }
Status DenseUnionBuilder::AppendEmptyValues(int64_t n) { return AppendToFirstChild(n, false); }

void DenseUnionBuilder::Reset() {
  UnionBuilderBase::Reset();
  offsets_.Reset();
}

Status DenseUnionBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity(capacity * sizeof(int32_t)));
  return UnionBuilderBase::Resize(capacity);
}

Status DenseUnionBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr types, types_.FinishWithSize(length_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize(length_ * sizeof(int32_t)));
  out->buffers = {std::move(types), std::move(offsets)};
  out->null_count = 0;
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Integer narrowing shared by dictionary indices and run ends, which are
// collected as int64 and written at the declared width on Finish.

namespace {

// Largest value of an integer type (capped at INT64_MAX).
Result<int64_t> IntegerMax(const DataType& type) {
  return VisitIndexType(type, [](auto zero) -> Result<int64_t> {
    using C = decltype(zero);
    return static_cast<int64_t>(
        std::min<uint64_t>(std::numeric_limits<C>::max(), std::numeric_limits<int64_t>::max()));
  });
}

// Values were range-checked when appended.
Result<BufferPtr> NarrowIntegers(const uint8_t* int64_values, int64_t length,
                                 const DataType& type, MemoryPool* pool) {
  const auto* values = reinterpret_cast<const int64_t*>(int64_values);
  return VisitIndexType(type, [&](auto zero) -> Result<BufferPtr> {
    using C = decltype(zero);
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(length * static_cast<int64_t>(sizeof(C)), pool));
    C* dst = buffer->template mutable_data_as<C>();
    for (int64_t i = 0; i < length; ++i) dst[i] = static_cast<C>(values[i]);
    return BufferPtr(std::move(buffer));
  });
}

}  // namespace

// ---------------------------------------------------------------------------
// Dictionary

DictionaryBuilder::DictionaryBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                                     MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), indices_(pool) {
  children_.push_back(std::move(value_builder));
  // DictionaryType::Make guarantees an integer index type; fall back to 0 so
  // that a hand-made bad type fails on the first append instead of crashing.
  max_index_ = IntegerMax(*dictionary_type().index_type()).ValueOr(-1);
}

Result<int64_t> DictionaryBuilder::AppendBytes(std::string_view value_bytes) {
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  auto found = memo_.find(value_bytes);
  if (found != memo_.end()) {
    ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(found->second));
    return found->second;
  }
  int64_t index = dictionary_length();
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: a new dictionary entry would get index ",
                                 index, ", beyond the index type's maximum ", max_index_);
  }
  ALKAID_RETURN_NOT_OK(value_builder()->AppendValueBytes(value_bytes));
  memo_.emplace(std::string(value_bytes), index);
  ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(index));
  return index;
}

Status DictionaryBuilder::AppendIndex(int64_t index) {
  if (index < 0 || index >= dictionary_length()) {
    return Status::IndexError(type_->ToString(), " builder: slot ", length_, " index ", index,
                              " is outside the dictionary of ", dictionary_length(), " values");
  }
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: index ", index,
                                 " exceeds the index type's maximum ", max_index_);
  }
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  return UnsafeAppendIndex(index);
}

Status DictionaryBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  return AppendNullBits(n);  // index bytes stay zero
}

Status DictionaryBuilder::AppendEmptyValues(int64_t n) {
  // The empty value of a dictionary is the empty value of its value type.
  ALKAID_RETURN_NOT_OK(Reserve(n));
  int64_t index = dictionary_length();
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: no index left for an empty value");
  }
  ALKAID_RETURN_NOT_OK(value_builder()->AppendEmptyValue());
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(index));
  return Status::OK();
}

void DictionaryBuilder::Reset() {
  ArrayBuilder::Reset();
  indices_.Reset();
  memo_.clear();
}

Status DictionaryBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(indices_.EnsureCapacity(capacity * static_cast<int64_t>(sizeof(int64_t))));
  return ArrayBuilder::Resize(capacity);
}

Status DictionaryBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(indices_.EnsureCapacity(length_ * static_cast<int64_t>(sizeof(int64_t))));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr indices,
                         NarrowIntegers(indices_.data(), length_,
                                        *dictionary_type().index_type(), pool_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(out->dictionary, value_builder()->Finish());
  out->buffers = {std::move(validity), std::move(indices)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Run-end encoded

RunEndEncodedBuilder::RunEndEncodedBuilder(DataTypePtr type, ArrayBuilderPtr values_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), run_ends_(pool) {
  children_.push_back(std::move(values_builder));
  max_run_end_ = IntegerMax(*ree_type().run_end_type()).ValueOr(-1);
}

int64_t RunEndEncodedBuilder::num_runs() const {
  return run_ends_.size() / static_cast<int64_t>(sizeof(int64_t)) +
         (run_kind_ == RunKind::kNone ? 0 : 1);
}

Status RunEndEncodedBuilder::CheckRunEnd(int64_t added) const {
  if (added < 0) return Status::Invalid("a run cannot have negative length ", added);
  if (length_ + added > max_run_end_) {
    return Status::CapacityError(type_->ToString(), " builder: logical length ", length_ + added,
                                 " exceeds the largest run end ",
                                 ree_type().run_end_type()->ToString(), " can hold (",
                                 max_run_end_, ")");
  }
  return Status::OK();
}

Status RunEndEncodedBuilder::CloseRun() {
  if (run_kind_ == RunKind::kNone) return Status::OK();
  ALKAID_RETURN_NOT_OK(run_ends_.Append(&length_, sizeof(length_)));
  run_kind_ = RunKind::kNone;
  run_bytes_.clear();
  return Status::OK();
}

Status RunEndEncodedBuilder::StartRun(RunKind kind, int64_t run_length) {
  ALKAID_RETURN_NOT_OK(CloseRun());
  run_kind_ = kind;
  length_ += run_length;
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendBytes(std::string_view value_bytes, int64_t repeat) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(repeat));
  if (run_kind_ == RunKind::kBytes && run_bytes_ == value_bytes) {
    length_ += repeat;
    return Status::OK();
  }
  ALKAID_RETURN_NOT_OK(values_builder()->AppendValueBytes(value_bytes));
  ALKAID_RETURN_NOT_OK(StartRun(RunKind::kBytes, repeat));
  run_bytes_.assign(value_bytes);
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendRun(int64_t run_length) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(run_length));
  int64_t expected_values = num_runs() + 1;
  if (values_builder()->length() != expected_values) {
    return Status::Invalid(type_->ToString(), " builder: AppendRun expects exactly one new value in ",
                           "the values builder (", expected_values, " values for as many runs), found ",
                           values_builder()->length());
  }
  return StartRun(RunKind::kOpaque, run_length);
}

Status RunEndEncodedBuilder::ExtendRun(int64_t n) {
  if (run_kind_ == RunKind::kNone) {
    return Status::Invalid(type_->ToString(), " builder: there is no open run to extend");
  }
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  length_ += n;
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  if (run_kind_ == RunKind::kNull) {
    length_ += n;
    return Status::OK();
  }
  ALKAID_RETURN_NOT_OK(values_builder()->AppendNull());
  return StartRun(RunKind::kNull, n);
}

Status RunEndEncodedBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  ALKAID_RETURN_NOT_OK(values_builder()->AppendEmptyValue());
  return StartRun(RunKind::kOpaque, n);
}

void RunEndEncodedBuilder::Reset() {
  ArrayBuilder::Reset();
  run_ends_.Reset();
  run_kind_ = RunKind::kNone;
  run_bytes_.clear();
}

Status RunEndEncodedBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(CloseRun());
  int64_t runs = run_ends_.size() / static_cast<int64_t>(sizeof(int64_t));
  const DataTypePtr& run_end_type = ree_type().run_end_type();
  ALKAID_ASSIGN_OR_RAISE(BufferPtr ends, NarrowIntegers(run_ends_.data(), runs, *run_end_type, pool_));
  run_ends_.Reset();
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, values_builder()->Finish());
  out->buffers.clear();  // no buffers of its own
  out->null_count = 0;
  out->child_data = {ArrayData::Make(run_end_type, runs, {nullptr, std::move(ends)}, 0),
                     std::move(values)};
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Extension

ExtensionBuilder::ExtensionBuilder(DataTypePtr type, ArrayBuilderPtr storage_builder,
                                   MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  children_.push_back(std::move(storage_builder));
}

Status ExtensionBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr storage, storage_builder()->Finish());
  // Same buffers and children, viewed through the extension type.
  DataTypePtr type = std::move(out->type);
  *out = std::move(*storage);
  out->type = std::move(type);
  return Status::OK();
}

// ---------------------------------------------------------------------------
// MakeBuilder

namespace {

struct MakeBuilderVisitor {
  const DataTypePtr& type;
  MemoryPool* pool;
  ArrayBuilderPtr out;

  Result<ArrayBuilderPtr> Child(const DataTypePtr& child_type) { return MakeBuilder(child_type, pool); }

  Status Visit(const NullType&) {
    out = std::make_unique<NullBuilder>(type, pool);
    return Status::OK();
  }
  Status Visit(const BooleanType&) {
    out = std::make_unique<BooleanBuilder>(type, pool);
    return Status::OK();
  }
  Status Visit(const FixedSizeBinaryType&) {
    out = std::make_unique<FixedSizeBinaryBuilder>(type, pool);
    return Status::OK();
  }
  template <typename T>
    requires is_decimal_v<T>
  Status Visit(const T&) {
    out = std::make_unique<DecimalBuilder>(type, pool);
    return Status::OK();
  }
  template <typename T>
    requires has_c_type_v<T>
  Status Visit(const T&) {
    out = std::make_unique<NumericBuilder<T>>(type, pool);
    return Status::OK();
  }
  template <typename T>
    requires is_base_binary_v<T>
  Status Visit(const T&) {
    out = std::make_unique<BaseBinaryBuilder<T>>(type, pool);
    return Status::OK();
  }
  template <typename T>
    requires is_binary_view_v<T>
  Status Visit(const T&) {
    out = std::make_unique<BinaryViewBuilder>(type, pool);
    return Status::OK();
  }
  template <typename T>
    requires(std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType>)
  Status Visit(const T& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    out = std::make_unique<BaseListBuilder<T>>(type, std::move(values), pool);
    return Status::OK();
  }
  template <typename T>
    requires is_list_view_v<T>
  Status Visit(const T& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    out = std::make_unique<BaseListViewBuilder<T>>(type, std::move(values), pool);
    return Status::OK();
  }
  Status Visit(const FixedSizeListType& list_type) {
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(list_type.value_type()));
    out = std::make_unique<FixedSizeListBuilder>(type, std::move(values), pool);
    return Status::OK();
  }
  Result<std::vector<ArrayBuilderPtr>> Children(const DataType& parent) {
    std::vector<ArrayBuilderPtr> children;
    for (const auto& f : parent.fields()) {
      ALKAID_ASSIGN_OR_RAISE(auto c, Child(f->type()));
      children.push_back(std::move(c));
    }
    return children;
  }
  Status Visit(const StructType& struct_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(struct_type));
    out = std::make_unique<StructBuilder>(type, std::move(children), pool);
    return Status::OK();
  }
  Status Visit(const MapType& map_type) {
    ALKAID_ASSIGN_OR_RAISE(auto keys, Child(map_type.key_type()));
    ALKAID_ASSIGN_OR_RAISE(auto items, Child(map_type.item_type()));
    out = std::make_unique<MapBuilder>(type, std::move(keys), std::move(items), pool);
    return Status::OK();
  }
  Status Visit(const SparseUnionType& union_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(union_type));
    out = std::make_unique<SparseUnionBuilder>(type, std::move(children), pool);
    return Status::OK();
  }
  Status Visit(const DenseUnionType& union_type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, Children(union_type));
    out = std::make_unique<DenseUnionBuilder>(type, std::move(children), pool);
    return Status::OK();
  }
  Status Visit(const DictionaryType& dict_type) {
    if (!dict_type.index_type()->is_integer()) {
      return Status::TypeError("dictionary index type must be an integer, got ",
                               dict_type.index_type()->ToString());
    }
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(dict_type.value_type()));
    out = std::make_unique<DictionaryBuilder>(type, std::move(values), pool);
    return Status::OK();
  }
  Status Visit(const RunEndEncodedType& ree_type) {
    ALKAID_RETURN_NOT_OK(RunEndEncodedType::CheckRunEndType(*ree_type.run_end_type()));
    ALKAID_ASSIGN_OR_RAISE(auto values, Child(ree_type.value_type()));
    out = std::make_unique<RunEndEncodedBuilder>(type, std::move(values), pool);
    return Status::OK();
  }
  Status Visit(const ExtensionType& ext_type) {
    ALKAID_ASSIGN_OR_RAISE(auto storage, Child(ext_type.storage_type()));
    out = std::make_unique<ExtensionBuilder>(type, std::move(storage), pool);
    return Status::OK();
  }
};

}  // namespace

Result<ArrayBuilderPtr> MakeBuilder(const DataTypePtr& type, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("MakeBuilder: null type");
  MakeBuilderVisitor visitor{type, pool, nullptr};
  ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, &visitor));
  return std::move(visitor.out);
}

}  // namespace alkaid

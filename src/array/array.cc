// Out-of-line parts of the typed array views, MakeArray and MakeArrayOfNull.
#include "alkaid/array.h"

#include <algorithm>
#include <limits>

#include "alkaid/compare.h"
#include "alkaid/pretty_print.h"
#include "alkaid/validate.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid {

// ---------------------------------------------------------------------------
// MakeArray

namespace {

// Picks the view class for a type; the type class is the visitor argument so
// that nothing here switches on ids by hand.
struct MakeArrayVisitor {
  const ArrayDataPtr& data;
  ArrayPtr out;

  template <typename T>
  void Visit(const T&) {
    out = MakeView<T>();
  }

  template <typename T>
  ArrayPtr MakeView() const {
    if constexpr (std::is_same_v<T, NullType>) {
      return std::make_shared<NullArray>(data);
    } else if constexpr (std::is_same_v<T, BooleanType>) {
      return std::make_shared<BooleanArray>(data);
    } else if constexpr (is_decimal_v<T>) {
      return std::make_shared<DecimalArray>(data);
    } else if constexpr (std::is_same_v<T, FixedSizeBinaryType>) {
      return std::make_shared<FixedSizeBinaryArray>(data);
    } else if constexpr (is_base_binary_v<T>) {
      return std::make_shared<BaseBinaryArray<T>>(data);
    } else if constexpr (is_binary_view_v<T>) {
      return std::make_shared<BinaryViewArrayOf<T>>(data);
    } else if constexpr (std::is_same_v<T, MapType>) {
      return std::make_shared<MapArray>(data);
    } else if constexpr (std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType>) {
      return std::make_shared<BaseListArray<T>>(data);
    } else if constexpr (is_list_view_v<T>) {
      return std::make_shared<BaseListViewArray<T>>(data);
    } else if constexpr (std::is_same_v<T, FixedSizeListType>) {
      return std::make_shared<FixedSizeListArray>(data);
    } else if constexpr (std::is_same_v<T, StructType>) {
      return std::make_shared<StructArray>(data);
    } else if constexpr (is_union_v<T>) {
      return std::make_shared<UnionArray>(data);
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      return std::make_shared<DictionaryArray>(data);
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      return std::make_shared<RunEndEncodedArray>(data);
    } else if constexpr (std::is_same_v<T, ExtensionType>) {
      return std::make_shared<ExtensionArray>(data);
    } else {
      static_assert(has_c_type_v<T>, "every remaining type must be a C-value type");
      return std::make_shared<NumericArray<T>>(data);
    }
  }
};

}  // namespace

ArrayPtr MakeArray(const ArrayDataPtr& data) {
  if (data == nullptr || data->type == nullptr) return nullptr;
  MakeArrayVisitor visitor{data, nullptr};
  VisitTypeInline(*data->type, &visitor);
  return visitor.out;
}

// ---------------------------------------------------------------------------
// Array

Status Array::Validate() const { return ValidateArray(*data_); }
Status Array::ValidateFull() const { return ValidateArrayFull(*data_); }
bool Array::Equals(const Array& other) const { return ArrayEquals(*data_, *other.data_); }
std::string Array::ToString() const { return PrettyPrintToString(*data_); }

NullArray::NullArray(int64_t length) : Array(ArrayData::Make(null(), length, {}, length)) {}

int64_t BooleanArray::true_count() const {
  const int64_t length = data_->length;
  const int64_t offset = data_->offset;
  const uint8_t* values = values_bitmap();
  const uint8_t* validity = data_->MayHaveNulls() ? data_->validity() : nullptr;
  if (validity == nullptr) return bit_util::CountSetBits(values, offset, length);
  // A value counts only where it is also valid: popcount(values & validity).
  int64_t count = 0;
  int64_t pos = 0;
  while (pos < length) {
    const int64_t n = std::min<int64_t>(64, length - pos);
    uint64_t v, m;
    if (n == 64) {
      v = bit_util::LoadWord(values, offset + pos);
      m = bit_util::LoadWord(validity, offset + pos);
    } else {
      v = bit_util::LoadPartialWord(values, offset + pos, n);
      m = bit_util::LoadPartialWord(validity, offset + pos, n);
    }
    count += __builtin_popcountll(v & m);
    pos += n;
  }
  return count;
}

std::string DecimalArray::FormatValue(int64_t i) const { return ::alkaid::FormatValue(*data_, i); }

ArrayPtr StructArray::field(int i) const {
  const ArrayDataPtr& child = data_->child_data[static_cast<size_t>(i)];
  // Children keep their own coordinates; the struct's window applies on top.
  if (data_->offset == 0 && child->length == data_->length) return MakeArray(child);
  return MakeArray(child->Slice(data_->offset, data_->length));
}

ArrayPtr StructArray::GetFieldByName(std::string_view name) const {
  const auto& type = static_cast<const StructType&>(data_->storage_type());
  int index = type.GetFieldIndex(name);
  return index < 0 ? nullptr : field(index);
}

ArrayPtr DictionaryArray::indices() const {
  auto out = std::make_shared<ArrayData>(dict_type().index_type(), data_->length, data_->buffers,
                                         data_->null_count, data_->offset);
  return MakeArray(out);
}

namespace {

}  // namespace

int64_t DictionaryArray::GetValueIndex(int64_t i) const {
  int64_t out = -1;
  (void)VisitIndexType(*dict_type().index_type(), [&](auto zero) -> Status {
    out = static_cast<int64_t>(data_->GetValues<decltype(zero)>(1)[i]);
    return Status::OK();
  });
  return out;
}

int64_t RunEndEncodedArray::FindPhysicalIndex(int64_t i) const {
  const ArrayData& ends = *data_->child_data[0];
  const int64_t logical = data_->offset + i;
  int64_t out = -1;
  (void)VisitRunEndType(*ends.type, [&](auto zero) -> Status {
    using E = decltype(zero);
    const E* values = ends.GetValues<E>(1);
    // The run holding `logical` is the first whose end exceeds it.
    const E* found = std::upper_bound(values, values + ends.length, logical,
                                      [](int64_t v, E e) { return v < static_cast<int64_t>(e); });
    out = found - values;
    return Status::OK();
  });
  return out;
}

ArrayPtr ExtensionArray::storage() const {
  auto out = std::make_shared<ArrayData>(*data_);
  out->type = extension_type().storage_type();
  return MakeArray(out);
}

// ---------------------------------------------------------------------------
// MakeArrayOfNull

namespace {

// Builds all-null arrays. Every zero-filled buffer is a window of one shared
// zero allocation, grown only when a larger one is asked for.
class NullArrayFactory {
 public:
  explicit NullArrayFactory(MemoryPool* pool) : pool_(pool) {}

  Result<ArrayDataPtr> Make(const DataTypePtr& type, int64_t length) {
    type_ = &type;
    length_ = length;
    Result<ArrayDataPtr> out = VisitTypeInline(*type, this);
    return out;
  }

  Result<ArrayDataPtr> Visit(const NullType&) {
    return ArrayData::Make(*type_, length_, {}, length_);
  }

  Result<ArrayDataPtr> Visit(const BooleanType&) {
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length_));
    ALKAID_ASSIGN_OR_RAISE(auto values, Bitmap(length_));
    return ArrayData::Make(*type_, length_, {validity, values}, length_);
  }

  template <typename T>
    requires(std::is_base_of_v<FixedWidthType, T> && !std::is_same_v<T, DictionaryType>)
  Result<ArrayDataPtr> Visit(const T& t) {
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length_));
    ALKAID_ASSIGN_OR_RAISE(auto values, Zeros(length_, t.byte_width()));
    return ArrayData::Make(*type_, length_, {validity, values}, length_);
  }

  template <typename T>
    requires is_base_binary_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length_));
    ALKAID_ASSIGN_OR_RAISE(auto offsets, Zeros(length_ + 1, sizeof(typename T::offset_type)));
    ALKAID_ASSIGN_OR_RAISE(auto data, Zeros(0));
    return ArrayData::Make(*type_, length_, {validity, offsets, data}, length_);
  }

  template <typename T>
    requires is_binary_view_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    // An all-zero view is an inline empty string, so no data buffers are needed.
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length_));
    ALKAID_ASSIGN_OR_RAISE(auto views, Zeros(length_, sizeof(BinaryViewValue)));
    return ArrayData::Make(*type_, length_, {validity, views}, length_);
  }

  template <typename T>
    requires is_var_list_v<T> || is_list_view_v<T>
  Result<ArrayDataPtr> Visit(const T& t) {
    using offset_type = typename T::offset_type;
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length));
    // Lists need length + 1 offsets; list views need length offsets and sizes.
    const int64_t num_offsets = is_list_view_v<T> ? length : length + 1;
    ALKAID_ASSIGN_OR_RAISE(auto offsets, Zeros(num_offsets, sizeof(offset_type)));
    BufferVector buffers{validity, offsets};
    if constexpr (is_list_view_v<T>) buffers.push_back(offsets);
    ALKAID_ASSIGN_OR_RAISE(auto child, Make(t.value_type(), 0));
    return ArrayData::Make(type, length, std::move(buffers), {child}, length);
  }

  Result<ArrayDataPtr> Visit(const FixedSizeListType& t) {
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length));
    int64_t child_length;
    if (__builtin_mul_overflow(length, static_cast<int64_t>(t.list_size()), &child_length))
      return Status::CapacityError("cannot make ", length, " nulls of ", type->ToString(),
                                   ": the child would need more than 2^63 slots");
    ALKAID_ASSIGN_OR_RAISE(auto child, Make(t.value_type(), child_length));
    return ArrayData::Make(type, length, {validity}, {child}, length);
  }

  Result<ArrayDataPtr> Visit(const StructType& t) {
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length));
    ArrayDataVector children;
    for (const auto& f : t.fields()) {
      ALKAID_ASSIGN_OR_RAISE(auto child, Make(f->type(), length));
      children.push_back(std::move(child));
    }
    return ArrayData::Make(type, length, {validity}, std::move(children), length);
  }

  template <typename T>
    requires is_union_v<T>
  Result<ArrayDataPtr> Visit(const T& t) {
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    if (t.num_fields() == 0) {
      if (length == 0) {
        ALKAID_ASSIGN_OR_RAISE(auto empty, Zeros(0));
        return ArrayData::Make(type, 0, BufferVector(t.layout().buffers.size(), empty), {}, 0);
      }
      return Status::Invalid("cannot make ", length, " nulls of ", type->ToString(),
                             ": a union without children has no null slot");
    }
    // Every slot selects child 0, whose slots are all null.
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> type_ids, AllocateBuffer(length, pool_));
    std::memset(type_ids->mutable_data(), t.type_codes()[0], static_cast<size_t>(length));
    BufferVector buffers{type_ids};
    const bool dense = t.mode() == UnionMode::kDense;
    if (dense) {
      if (length > std::numeric_limits<int32_t>::max())
        return Status::CapacityError("dense union of ", length, " nulls exceeds int32 offsets");
      ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> offsets,
                             AllocateBuffer(length * static_cast<int64_t>(sizeof(int32_t)), pool_));
      auto* out = offsets->mutable_data_as<int32_t>();
      for (int64_t i = 0; i < length; ++i) out[i] = static_cast<int32_t>(i);
      buffers.push_back(offsets);
    }
    ArrayDataVector children;
    for (int k = 0; k < t.num_fields(); ++k) {
      const int64_t child_length = (dense && k > 0) ? 0 : length;
      ALKAID_ASSIGN_OR_RAISE(auto child, Make(t.field(k)->type(), child_length));
      children.push_back(std::move(child));
    }
    return ArrayData::Make(type, length, std::move(buffers), std::move(children), 0);
  }

  Result<ArrayDataPtr> Visit(const DictionaryType& t) {
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    ALKAID_ASSIGN_OR_RAISE(auto validity, Bitmap(length));
    ALKAID_ASSIGN_OR_RAISE(auto indices, Zeros(length, t.index_type()->byte_width()));
    ALKAID_ASSIGN_OR_RAISE(auto dictionary, Make(t.value_type(), 0));
    auto out = ArrayData::Make(type, length, {validity, indices}, length);
    out->dictionary = std::move(dictionary);
    return out;
  }

  Result<ArrayDataPtr> Visit(const RunEndEncodedType& t) {
    const DataTypePtr type = *type_;
    const int64_t length = length_;
    const int64_t runs = length > 0 ? 1 : 0;
    ALKAID_ASSIGN_OR_RAISE(auto run_ends, OneRunEnd(t.run_end_type(), length));
    ALKAID_ASSIGN_OR_RAISE(auto values, Make(t.value_type(), runs));
    return ArrayData::Make(type, length, {}, {run_ends, values}, 0);
  }

  Result<ArrayDataPtr> Visit(const ExtensionType& t) {
    const DataTypePtr type = *type_;
    ALKAID_ASSIGN_OR_RAISE(auto out, Make(t.storage_type(), length_));
    out->type = type;
    return out;
  }

 private:
  // `count` values of `width` bytes each, all zero.
  Result<BufferPtr> Zeros(int64_t count, int64_t width) {
    int64_t nbytes;
    if (__builtin_mul_overflow(count, width, &nbytes))
      return Status::CapacityError("cannot make ", count, " nulls of ", (*type_)->ToString(),
                                   ": a buffer would need more than 2^63 bytes");
    return Zeros(nbytes);
  }
  Result<BufferPtr> Zeros(int64_t nbytes) {
    if (zeros_ == nullptr || zeros_->size() < nbytes) {
      ALKAID_ASSIGN_OR_RAISE(auto fresh, AllocateBuffer(nbytes, pool_));
      zeros_ = std::move(fresh);
    }
    return SliceBuffer(zeros_, 0, nbytes);
  }
  Result<BufferPtr> Bitmap(int64_t bits) { return Zeros(bit_util::BytesForBits(bits)); }

  // A run-ends child holding the single run [0, length), or no run at all.
  Result<ArrayDataPtr> OneRunEnd(const DataTypePtr& run_end_type, int64_t length) {
    return VisitRunEndType(*run_end_type, [&](auto zero) -> Result<ArrayDataPtr> {
      using E = decltype(zero);
      if (length > std::numeric_limits<E>::max())
        return Status::CapacityError("a run of ", length, " nulls does not fit run ends of type ",
                                     run_end_type->ToString());
      const int64_t runs = length > 0 ? 1 : 0;
      ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> ends,
                             AllocateBuffer(runs * static_cast<int64_t>(sizeof(E)), pool_));
      if (runs > 0) *ends->mutable_data_as<E>() = static_cast<E>(length);
      return ArrayData::Make(run_end_type, runs, {nullptr, ends}, 0);
    });
  }

  MemoryPool* pool_;
  BufferPtr zeros_;
  const DataTypePtr* type_ = nullptr;
  int64_t length_ = 0;
};

}  // namespace

Result<ArrayDataPtr> MakeArrayOfNull(const DataTypePtr& type, int64_t length, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("MakeArrayOfNull: type is null");
  if (length < 0) return Status::Invalid("MakeArrayOfNull: negative length ", length);
  // Offsets need length + 1 entries; no length this close to the limit can
  // have buffers anyway.
  if (length > std::numeric_limits<int64_t>::max() - 64)
    return Status::CapacityError("MakeArrayOfNull: length ", length, " is too large");
  NullArrayFactory factory(pool);
  return factory.Make(type, length);
}

}  // namespace alkaid

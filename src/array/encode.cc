// Dictionary and run-end encoding of plain arrays (see alkaid/encode.h).
#include "alkaid/encode.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "alkaid/bitmap.h"
#include "alkaid/builder.h"

namespace alkaid {
namespace {

// Reads the byte form of one slot (what ArrayBuilder::AppendValueBytes takes)
// from a column of one storage type, without per-slot type dispatch.
class SlotBytes {
 public:
  static Result<SlotBytes> For(const ArrayData& data) {
    SlotBytes s;
    s.data_ = &data;
    const DataType& type = data.storage_type();
    if (type.id() == TypeId::kBool) {
      s.kind_ = Kind::kBit;
    } else if (type.is_view()) {
      s.kind_ = Kind::kView;
    } else if (type.id() == TypeId::kBinary || type.id() == TypeId::kString) {
      s.kind_ = Kind::kOffsets32;
    } else if (type.id() == TypeId::kLargeBinary || type.id() == TypeId::kLargeString) {
      s.kind_ = Kind::kOffsets64;
    } else if (type.byte_width() > 0 && !type.is_nested()) {
      s.kind_ = Kind::kFixed;
      s.width_ = type.byte_width();
    } else {
      return Status::TypeError("values of type ", data.type->ToString(),
                               " have no byte form to encode by (nested types and unions cannot be "
                               "dictionary or run-end encoded here)");
    }
    return s;
  }

  // Slot i (relative to the array's offset); valid slots only.
  std::string_view operator()(int64_t i) {
    const ArrayData& d = *data_;
    int64_t at = d.offset + i;
    switch (kind_) {
      case Kind::kBit:
        byte_ = bit_util::GetBit(d.buffers[1]->data(), at) ? 1 : 0;
        return std::string_view(&byte_, 1);
      case Kind::kFixed:
        return std::string_view(reinterpret_cast<const char*>(d.buffers[1]->data()) + at * width_,
                                static_cast<size_t>(width_));
      case Kind::kOffsets32: return Range<int32_t>(at);
      case Kind::kOffsets64: return Range<int64_t>(at);
      case Kind::kView: {
        BinaryViewValue v;
        std::memcpy(&v, d.buffers[1]->data() + at * 16, sizeof(v));
        if (v.is_inline()) {
          std::memcpy(inline_, v.inlined.data, sizeof(inline_));
          return std::string_view(inline_, static_cast<size_t>(v.size()));
        }
        const auto& buf = d.buffers[static_cast<size_t>(2 + v.ref.buffer_index)];
        return std::string_view(reinterpret_cast<const char*>(buf->data()) + v.ref.offset,
                                static_cast<size_t>(v.size()));
      }
    }
    return {};
  }

 private:
  enum class Kind : int8_t { kBit, kFixed, kOffsets32, kOffsets64, kView };
  template <typename O>
  std::string_view Range(int64_t at) const {
    O begin, end;
    std::memcpy(&begin, data_->buffers[1]->data() + at * sizeof(O), sizeof(O));
    std::memcpy(&end, data_->buffers[1]->data() + (at + 1) * sizeof(O), sizeof(O));
    const uint8_t* bytes = data_->buffers[2] ? data_->buffers[2]->data() : nullptr;
    if (bytes == nullptr || end <= begin) return {};
    return std::string_view(reinterpret_cast<const char*>(bytes) + begin,
                            static_cast<size_t>(end - begin));
  }

  const ArrayData* data_ = nullptr;
  Kind kind_ = Kind::kFixed;
  int width_ = 0;
  char byte_ = 0;
  char inline_[BinaryViewValue::kInlineSize] = {};
};

Status CheckValueType(const ArrayData& values, const DataType& value_type, const DataType& target) {
  if (values.type->Equals(value_type)) return Status::OK();
  return Status::TypeError("cannot encode ", values.type->ToString(), " values as ", target.ToString(),
                           ": its value type is ", value_type.ToString());
}

// Runs of valid / null slots, a word of the validity bitmap at a time
// (bit_util::VisitWords; no bitmap reads as all valid). Null slots of the null
// type come as one run.
template <typename OnValid, typename OnNulls>
Status ForEachSlot(const ArrayData& values, OnValid&& on_valid, OnNulls&& on_nulls) {
  if (values.type->id() == TypeId::kNull) return on_nulls(values.length);
  Status st;
  int64_t base = 0;
  bit_util::VisitWords(values.validity(), values.offset, values.length, [&](uint64_t word, int64_t n) {
    for (int64_t i = 0; i < n && st.ok();) {
      const uint64_t rest = word >> i;
      const bool valid = (rest & 1) != 0;
      const uint64_t stop = valid ? ~rest : rest;  // first bit of the other kind
      const int64_t run = std::min<int64_t>(stop == 0 ? 64 - i : __builtin_ctzll(stop), n - i);
      if (valid) {
        for (int64_t k = 0; k < run && st.ok(); ++k) st = on_valid(base + i + k);
      } else {
        st = on_nulls(run);
      }
      i += run;
    }
    base += n;
  });
  return st;
}

DataTypePtr DecodedField(const FieldPtr& field, bool* changed) {
  DataTypePtr t = DecodedType(field->type());
  if (t != field->type()) *changed = true;
  return t;
}

}  // namespace

bool HasEncodedParts(const DataType& type) {
  switch (type.id()) {
    case TypeId::kDictionary:
    case TypeId::kRunEndEncoded: return true;
    case TypeId::kStruct: case TypeId::kList: case TypeId::kLargeList: case TypeId::kListView:
    case TypeId::kLargeListView: case TypeId::kFixedSizeList: case TypeId::kMap:
      for (const auto& f : type.fields()) {
        if (HasEncodedParts(*f->type())) return true;
      }
      return false;
    default: return false;
  }
}

DataTypePtr DecodedType(const DataTypePtr& type) {
  if (!HasEncodedParts(*type)) return type;
  bool changed = false;
  switch (type->id()) {
    case TypeId::kDictionary:
      return DecodedType(checked_cast<DictionaryType>(*type).value_type());
    case TypeId::kRunEndEncoded:
      return DecodedType(checked_cast<RunEndEncodedType>(*type).value_type());
    case TypeId::kStruct: {
      FieldVector fields;
      for (const auto& f : type->fields()) fields.push_back(f->WithType(DecodedField(f, &changed)));
      return struct_(std::move(fields));
    }
    case TypeId::kMap: {
      const auto& m = checked_cast<MapType>(*type);
      auto key = m.key_field()->WithType(DecodedField(m.key_field(), &changed));
      auto item = m.item_field()->WithType(DecodedField(m.item_field(), &changed));
      return std::make_shared<MapType>(std::move(key), std::move(item), m.keys_sorted());
    }
    default: {
      const FieldPtr& f = type->field(0);
      FieldPtr child = f->WithType(DecodedField(f, &changed));
      switch (type->id()) {
        case TypeId::kList: return list(std::move(child));
        case TypeId::kLargeList: return large_list(std::move(child));
        case TypeId::kListView: return list_view(std::move(child));
        case TypeId::kLargeListView: return large_list_view(std::move(child));
        default:
          return fixed_size_list(std::move(child),
                                 checked_cast<FixedSizeListType>(*type).list_size());
      }
    }
  }
}

Result<ArrayDataPtr> DictionaryEncode(const ArrayData& values, const DataTypePtr& dictionary_type,
                                      MemoryPool* pool) {
  if (dictionary_type->id() != TypeId::kDictionary) {
    return Status::TypeError("DictionaryEncode needs a dictionary type, not ",
                             dictionary_type->ToString());
  }
  const auto& dt = checked_cast<DictionaryType>(*dictionary_type);
  ALKAID_RETURN_NOT_OK(CheckValueType(values, *dt.value_type(), *dictionary_type));
  ALKAID_ASSIGN_OR_RAISE(auto builder, MakeBuilderAs<DictionaryBuilder>(dictionary_type, pool));
  ALKAID_RETURN_NOT_OK(builder->Reserve(values.length));
  if (values.type->id() == TypeId::kNull) {
    ALKAID_RETURN_NOT_OK(builder->AppendNulls(values.length));
    return builder->Finish();
  }
  ALKAID_ASSIGN_OR_RAISE(SlotBytes bytes, SlotBytes::For(values));
  ALKAID_RETURN_NOT_OK(ForEachSlot(
      values, [&](int64_t i) { return builder->AppendBytes(bytes(i)).status(); },
      [&](int64_t n) { return builder->AppendNulls(n); }));
  return builder->Finish();
}

Result<ArrayDataPtr> RunEndEncode(const ArrayData& values, const DataTypePtr& ree_type,
                                  MemoryPool* pool) {
  if (ree_type->id() != TypeId::kRunEndEncoded) {
    return Status::TypeError("RunEndEncode needs a run_end_encoded type, not ", ree_type->ToString());
  }
  const auto& rt = checked_cast<RunEndEncodedType>(*ree_type);
  ALKAID_RETURN_NOT_OK(CheckValueType(values, *rt.value_type(), *ree_type));
  ALKAID_ASSIGN_OR_RAISE(auto builder, MakeBuilderAs<RunEndEncodedBuilder>(ree_type, pool));
  if (values.type->id() == TypeId::kNull) {
    ALKAID_RETURN_NOT_OK(builder->AppendNulls(values.length));
    return builder->Finish();
  }
  ALKAID_ASSIGN_OR_RAISE(SlotBytes bytes, SlotBytes::For(values));
  ALKAID_RETURN_NOT_OK(ForEachSlot(
      values, [&](int64_t i) { return builder->AppendBytes(bytes(i)); },
      [&](int64_t n) { return builder->AppendNulls(n); }));
  return builder->Finish();
}

Result<ArrayDataPtr> EncodeAs(const ArrayDataPtr& plain, const DataTypePtr& target, MemoryPool* pool) {
  if (!HasEncodedParts(*target)) {
    if (plain->type->Equals(*target)) return plain;
    return Status::TypeError("cannot encode ", plain->type->ToString(), " as ", target->ToString());
  }
  switch (target->id()) {
    case TypeId::kDictionary: {
      const auto& dt = checked_cast<DictionaryType>(*target);
      if (!HasEncodedParts(*dt.value_type())) return DictionaryEncode(*plain, target, pool);
      return Status::TypeError("dictionaries of dictionary or run-end encoded values (",
                               target->ToString(), ") cannot be built from text");
    }
    case TypeId::kRunEndEncoded: {
      const auto& rt = checked_cast<RunEndEncodedType>(*target);
      if (!HasEncodedParts(*rt.value_type())) return RunEndEncode(*plain, target, pool);
      return Status::TypeError("run-end encoded values of type ", rt.value_type()->ToString(),
                               " cannot be built from text");
    }
    default: break;
  }
  // A nested type with encoded parts below: same buffers, children encoded.
  if (plain->type->id() != target->id() ||
      plain->child_data.size() != static_cast<size_t>(target->num_fields())) {
    return Status::TypeError("cannot encode ", plain->type->ToString(), " as ", target->ToString());
  }
  auto out = std::make_shared<ArrayData>(*plain);
  out->type = target;
  for (size_t i = 0; i < out->child_data.size(); ++i) {
    const FieldPtr& f = target->field(static_cast<int>(i));
    auto child = EncodeAs(plain->child_data[i], f->type(), pool);
    if (!child.ok()) {
      return child.status().WithContext("field " + f->name());
    }
    out->child_data[i] = std::move(*child);
  }
  return out;
}

}  // namespace alkaid

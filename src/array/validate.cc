// Two-pass array validation: a structural pass over the whole tree (sizes,
// counts, type parameters) and, for full validation, a data pass that reads
// values (validate_data.cc). The data pass relies on the structural pass
// having succeeded for every node, so it may read any byte the layout
// promises without re-checking. The IPC reader checks the structural rules
// as it cuts buffers and calls the data pass alone (validate_internal.h).
// This file: the entry points, type checks and the structural pass.
#include "alkaid/validate.h"

#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "alkaid/utf8.h"
#include "alkaid/visit_type.h"
#include "validate_internal.h"
#include "validator.h"

namespace alkaid {
namespace internal {
namespace {

// Type comparisons and printing recurse without a bound of their own and
// trust every part of the type to exist, so a type tree is checked for both
// before any of them runs on it (only up to the depth limit).
Status CheckTypeTree(const DataType& type, int levels_left, int max_depth) {
  if (levels_left < 0)
    return Status::Invalid("the type is nested deeper than ", max_depth,
                           " levels (the max_recursion_depth option)");
  for (int i = 0; i < type.num_fields(); ++i) {
    const FieldPtr& field = type.field(i);
    if (!field) return Status::Invalid("field ", i, " of a ", type.name(), " type is null");
    if (!field->type())
      return Status::Invalid("field ", i, " ('", field->name(), "') of a ", type.name(),
                             " type has no type");
    ALKAID_RETURN_NOT_OK(CheckTypeTree(*field->type(), levels_left - 1, max_depth));
  }
  if (type.id() == TypeId::kDictionary) {
    const auto& dict = static_cast<const DictionaryType&>(type);
    if (!dict.index_type() || !dict.value_type())
      return Status::Invalid("a dictionary type lacks its index or value type");
    ALKAID_RETURN_NOT_OK(CheckTypeTree(*dict.value_type(), levels_left - 1, max_depth));
  }
  if (type.id() == TypeId::kExtension) {
    const auto& storage = static_cast<const ExtensionType&>(type).storage_type();
    if (!storage) return Status::Invalid("an extension type has no storage type");
    ALKAID_RETURN_NOT_OK(CheckTypeTree(*storage, levels_left - 1, max_depth));
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Type parameters, checked once per node before the layout is trusted.

class TypeParameterCheck {
 public:
  template <typename T>
  Status Visit(const T& type) {
    for (int i = 0; i < type.num_fields(); ++i) {
      if (!type.field(i)) return Status::Invalid("field ", i, " of the type is null");
      if (!type.field(i)->type())
        return Status::Invalid("field ", i, " ('", type.field(i)->name(), "') has no type");
    }
    if constexpr (std::is_same_v<T, FixedSizeBinaryType>) {
      if (type.byte_width() < 0)
        return Status::Invalid("byte width ", type.byte_width(), " is negative");
    } else if constexpr (is_decimal_v<T>) {
      int32_t max = DecimalType::MaxPrecision(T::type_id);
      if (type.precision() < 1 || type.precision() > max)
        return Status::Invalid("precision ", type.precision(), " is outside [1, ", max, "]");
    } else if constexpr (std::is_same_v<T, Time32Type>) {
      if (type.unit() != TimeUnit::kSecond && type.unit() != TimeUnit::kMilli)
        return Status::Invalid("time32 unit must be seconds or milliseconds");
    } else if constexpr (std::is_same_v<T, Time64Type>) {
      if (type.unit() != TimeUnit::kMicro && type.unit() != TimeUnit::kNano)
        return Status::Invalid("time64 unit must be microseconds or nanoseconds");
    } else if constexpr (std::is_same_v<T, TimestampType> || std::is_same_v<T, DurationType>) {
      auto unit = static_cast<int>(type.unit());
      if (unit < 0 || unit > 3) return Status::Invalid("time unit ", unit, " is unknown");
    } else if constexpr (is_var_list_v<T> || is_list_view_v<T> ||
                         std::is_same_v<T, FixedSizeListType>) {
      if (type.num_fields() != 1)
        return Status::Invalid("a list type has exactly one child field, got ", type.num_fields());
      if constexpr (std::is_same_v<T, FixedSizeListType>) {
        if (type.list_size() < 0)
          return Status::Invalid("list_size ", type.list_size(), " is negative");
      }
      if constexpr (std::is_same_v<T, MapType>) return CheckMapEntries(*type.field(0)->type());
    } else if constexpr (is_union_v<T>) {
      return CheckUnionCodes(type);
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      if (!type.index_type() || !type.index_type()->is_integer())
        return Status::Invalid("dictionary index type must be an integer type, got ",
                               type.index_type() ? type.index_type()->ToString() : "null");
      if (!type.value_type()) return Status::Invalid("dictionary value type is null");
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      if (type.num_fields() != 2)
        return Status::Invalid("run-end encoded type has ", type.num_fields(),
                               " child fields, expected 2 (run_ends, values)");
      return RunEndEncodedType::CheckRunEndType(*type.run_end_type());
    }
    return Status::OK();
  }

 private:
  static Status CheckMapEntries(const DataType& entries) {
    if (entries.id() != TypeId::kStruct || entries.num_fields() != 2)
      return Status::Invalid("map entries must be a struct of two fields (key, value), got ",
                             entries.ToString());
    if (!entries.field(0) || !entries.field(1) || !entries.field(0)->type() ||
        !entries.field(1)->type())
      return Status::Invalid("map entries have a null field or field type");
    if (entries.field(0)->nullable()) return Status::Invalid("map key field must not be nullable");
    return Status::OK();
  }

  static Status CheckUnionCodes(const UnionType& type) {
    const auto& codes = type.type_codes();
    if (codes.size() != static_cast<size_t>(type.num_fields()))
      return Status::Invalid("union has ", type.num_fields(), " fields but ", codes.size(),
                             " type codes");
    if (type.child_of_code().size() != UnionType::kMaxTypeCode + 1)
      return Status::Invalid("union code table has ", type.child_of_code().size(), " entries");
    bool seen[UnionType::kMaxTypeCode + 1] = {};
    for (int8_t code : codes) {
      if (code < 0)
        return Status::Invalid("union type code ", static_cast<int>(code), " is negative");
      if (seen[code])
        return Status::Invalid("union type code ", static_cast<int>(code), " is used twice");
      seen[code] = true;
    }
    for (size_t i = 0; i < codes.size(); ++i) {
      int code = codes[i];
      if (type.child_of_code()[static_cast<size_t>(code)] != static_cast<int>(i))
        return Status::Invalid("union type code ", code, " does not map back to child ", i);
    }
    return Status::OK();
  }
};

// ---------------------------------------------------------------------------
// Structural pass: O(buffers + children) per node.

class StructureCheck : public NodeCheck {
 public:
  StructureCheck(Validator* validator, const ArrayData& data, const DataType& type, int depth)
      : NodeCheck(validator, data, type), depth_(depth) {}

  Status Run() {
    if (!validator_->types_validated()) {
      TypeParameterCheck params;
      Status st = VisitTypeInline(type_, &params);
      if (!st.ok()) return Fail("invalid type ", type_.ToString(), ": ", st.message());
    }
    ALKAID_RETURN_NOT_OK(CheckLengthOffsetNullCount());
    ALKAID_RETURN_NOT_OK(CheckBuffers());
    ALKAID_RETURN_NOT_OK(CheckNullCountWithoutBitmap());
    ALKAID_RETURN_NOT_OK(CheckDictionaryPresence());
    // The rules below all concern children or dictionaries; most columns of
    // most batches have neither, and skip them.
    if (data_.child_data.empty() && type_.num_fields() == 0 && !data_.dictionary) {
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(CheckChildrenMatchFields());
    ALKAID_RETURN_NOT_OK(VisitTypeInline(type_, this));
    ALKAID_RETURN_NOT_OK(Recurse());
    if (type_.id() == TypeId::kMap) return CheckMapKeysDeclaredNonNull();
    return Status::OK();
  }

  // Rules tying child lengths (and dictionaries) to this node.
  template <typename T>
  Status Visit(const T& type) {
    if constexpr (std::is_same_v<T, StructType> || std::is_same_v<T, SparseUnionType>) {
      for (size_t i = 0; i < data_.child_data.size(); ++i) {
        ALKAID_RETURN_NOT_OK(CheckChildLengthAtLeast(i, end_, "offset + length"));
      }
    } else if constexpr (std::is_same_v<T, FixedSizeListType>) {
      int64_t needed;
      if (__builtin_mul_overflow(end_, static_cast<int64_t>(type.list_size()), &needed))
        return Fail("(offset + length) * list_size = ", end_, " * ", type.list_size(),
                    " overflows a 64-bit integer");
      return CheckChildLengthAtLeast(0, needed, "(offset + length) * list_size");
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      const ArrayData& dict = *data_.dictionary;
      if (!dict.type) return Fail("the dictionary values have no type");
      if (!validator_->types_validated()) {
        Status tree = CheckTypeTree(*dict.type, validator_->max_depth(), validator_->max_depth());
        if (!tree.ok()) return Fail("dictionary values: ", tree.message());
      }
      if (!dict.type->Equals(*type.value_type()))
        return Fail("dictionary values have type ", dict.type->ToString(),
                    " but the type declares ", type.value_type()->ToString());
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      return CheckRunEndChildren();
    }
    return Status::OK();
  }

 private:
  Status CheckLengthOffsetNullCount() {
    if (data_.length < 0) return Fail("length ", data_.length, " is negative");
    if (data_.offset < 0) return Fail("offset ", data_.offset, " is negative");
    if (__builtin_add_overflow(data_.offset, data_.length, &end_))
      return Fail("offset ", data_.offset, " + length ", data_.length,
                  " overflows a 64-bit integer");
    if (data_.null_count < kUnknownNullCount || data_.null_count > data_.length)
      return Fail("null_count ", data_.null_count,
                  " is neither -1 (unknown) nor within [0, length = ", data_.length, "]");
    return Status::OK();
  }

  Status CheckBuffers() {
    const DataTypeLayout& layout = type_.layout();
    const size_t expected = layout.buffers.size();
    const size_t actual = data_.buffers.size();
    if (layout.variadic_data ? actual < expected : actual != expected)
      return Fail("expected ", layout.variadic_data ? "at least " : "", expected, " buffers, got ",
                  actual);
    for (size_t i = 0; i < actual; ++i) {
      ALKAID_RETURN_NOT_OK(CheckBufferSanity(i));
      if (i < expected) ALKAID_RETURN_NOT_OK(CheckBufferSize(i, layout.buffers[i]));
    }
    return Status::OK();
  }

  Status CheckBufferSanity(size_t i) const {
    const Buffer* buffer = data_.buffers[i].get();
    if (buffer == nullptr) return Status::OK();
    if (buffer->size() < 0) return Fail("buffer ", i, " has negative size ", buffer->size());
    if (buffer->data() == nullptr && buffer->size() > 0)
      return Fail("buffer ", i, " has size ", buffer->size(), " but no memory");
    return Status::OK();
  }

  // How many bytes buffer `spec` must hold for slots [0, offset + length)
  // (the layout's count rule); false when that number does not fit in 64 bits.
  bool RequiredBytes(const BufferSpec& spec, bool present, int64_t* out) const {
    // An absent validity bitmap means no nulls; an empty array may come
    // without any offsets at all.
    if ((spec.kind == BufferSpec::kValidity && !present) ||
        (spec.offsets_plus_one && data_.length == 0)) {
      *out = 0;
      return true;
    }
    *out = spec.RequiredBytes(end_);
    return *out >= 0;
  }

  std::string WhatIsNeeded(const BufferSpec& spec) const {
    switch (spec.kind) {
      case BufferSpec::kValidity:
      case BufferSpec::kBitmapValues: return std::to_string(end_) + " bits for offset + length";
      case BufferSpec::kOffsets:
        if (!spec.offsets_plus_one) break;
        return "offset + length + 1 = " + std::to_string(end_) + " + 1 offsets of " +
               std::to_string(spec.byte_width) + " bytes";
      default: break;
    }
    return "offset + length = " + std::to_string(end_) + " slots of " +
           std::to_string(spec.byte_width) + " bytes";
  }

  Status CheckBufferSize(size_t i, const BufferSpec& spec) const {
    const Buffer* buffer = data_.buffers[i].get();
    if (spec.kind == BufferSpec::kValidity && buffer == nullptr && data_.null_count > 0)
      return Fail("null_count is ", data_.null_count,
                  " but there is no validity bitmap (buffer 0)");
    int64_t needed;
    if (!RequiredBytes(spec, buffer != nullptr, &needed))
      return Fail("buffer ", i, " (", BufferSpec::KindName(spec.kind),
                  ") would need more than 2^63 bytes (", WhatIsNeeded(spec), ")");
    int64_t size = buffer ? buffer->size() : 0;
    if (size >= needed) return Status::OK();
    if (buffer == nullptr)
      return Fail("buffer ", i, " (", BufferSpec::KindName(spec.kind), ") is missing but ", needed,
                  " bytes are needed (", WhatIsNeeded(spec), ")");
    return Fail("buffer ", i, " (", BufferSpec::KindName(spec.kind), ") has ", size, " bytes but ",
                needed, " are needed (", WhatIsNeeded(spec), ")");
  }

  // Types without a validity bitmap get their nullness elsewhere, so their
  // own null_count can only take the values their layout implies.
  Status CheckNullCountWithoutBitmap() const {
    if (type_.id() == TypeId::kNull) {
      if (data_.null_count != kUnknownNullCount && data_.null_count != data_.length)
        return Fail("null_count ", data_.null_count, " must equal length ", data_.length,
                    " (every slot of the null type is null)");
    } else if (!HasValiditySlot(type_)) {
      if (data_.null_count > 0)
        return Fail("null_count ", data_.null_count,
                    " must be 0: this type has no validity bitmap, its nulls live in the children");
    }
    return Status::OK();
  }

  Status CheckDictionaryPresence() const {
    bool is_dictionary = type_.id() == TypeId::kDictionary;
    if (is_dictionary && !data_.dictionary) return Fail("the dictionary values are missing");
    if (!is_dictionary && data_.dictionary)
      return Fail("has dictionary values but the type is not a dictionary");
    return Status::OK();
  }

  Status CheckChildrenMatchFields() const {
    const size_t expected = static_cast<size_t>(type_.num_fields());
    if (data_.child_data.size() != expected)
      return Fail("expected ", expected, " child arrays (one per field), got ",
                  data_.child_data.size());
    for (size_t i = 0; i < expected; ++i) {
      const Field& field = *type_.field(static_cast<int>(i));
      const ArrayDataPtr& child = data_.child_data[i];
      if (!child) return Fail("child ", i, " ('", field.name(), "') is null");
      if (!child->type) return Fail("child ", i, " ('", field.name(), "') has no type");
      if (!validator_->types_validated()) {
        Status tree = CheckTypeTree(*child->type, validator_->max_depth(), validator_->max_depth());
        if (!tree.ok()) return Fail("child ", i, " ('", field.name(), "'): ", tree.message());
      }
      if (!child->type->Equals(*field.type()))
        return Fail("child ", i, " ('", field.name(), "') has type ", child->type->ToString(),
                    " but the field declares ", field.type()->ToString());
    }
    return Status::OK();
  }

  Status CheckChildLengthAtLeast(size_t i, int64_t needed, const char* rule) const {
    const ArrayData& child = *data_.child_data[i];
    if (child.length >= needed) return Status::OK();
    return Fail("child ", i, " ('", type_.field(static_cast<int>(i))->name(), "') has length ",
                child.length, " but needs at least ", rule, " = ", needed);
  }

  Status CheckRunEndChildren() const {
    const ArrayData& run_ends = *data_.child_data[0];
    const ArrayData& values = *data_.child_data[1];
    // Values past the last run are never read; the format only asks that
    // every run has its value.
    if (values.length < run_ends.length)
      return Fail("run_ends has length ", run_ends.length, " but values has only ", values.length,
                  " (each run needs a value)");
    if (data_.length > 0 && run_ends.length == 0)
      return Fail("length is ", data_.length, " but there are no runs");
    if (run_ends.null_count > 0)
      return Fail("run_ends must not contain nulls, null_count is ", run_ends.null_count);
    return Status::OK();
  }

  // After the entries struct itself passed, so its key child exists.
  Status CheckMapKeysDeclaredNonNull() const {
    const ArrayData& keys = *data_.child_data[0]->child_data[0];
    if (keys.null_count > 0)
      return Fail("map keys must not be null, the key array has null_count ", keys.null_count);
    return Status::OK();
  }

  Status Recurse() {
    for (size_t i = 0; i < data_.child_data.size(); ++i) {
      auto scope = validator_->path().EnterChild(*type_.field(static_cast<int>(i)), i);
      ALKAID_RETURN_NOT_OK(validator_->ValidateStructure(*data_.child_data[i], depth_ + 1));
    }
    if (data_.dictionary && !validator_->dictionaries_validated()) {
      auto scope = validator_->path().EnterDictionary();
      ALKAID_RETURN_NOT_OK(validator_->ValidateStructure(*data_.dictionary, depth_ + 1));
    }
    return Status::OK();
  }

  int depth_;
  int64_t end_ = 0;  // offset + length, overflow-checked
};

}  // namespace

Status Validator::ValidateStructure(const ArrayData& data, int depth) {
  if (depth > max_depth_)
    return Status::Invalid("array at ", path_.text(), ": nesting is deeper than ", max_depth_,
                           " levels (the max_recursion_depth option)");
  if (!data.type) return Status::Invalid("array at ", path_.text(), ": the type is null");
  const DataType* storage = StorageOf(data.type.get(), max_depth_);
  if (storage == nullptr)
    return Status::Invalid("extension array at ", path_.text(),
                           ": the extension type has no storage type");
  const bool leaf_type = data.type->num_fields() == 0 && data.type->id() != TypeId::kDictionary &&
                         data.type->id() != TypeId::kExtension;
  if (depth == 0 && !leaf_type && !types_validated_) {
    // Deeper nodes' types are checked by their parents before comparing them;
    // a type without parts has nothing to check.
    Status st = CheckTypeTree(*data.type, max_depth_, max_depth_);
    if (!st.ok())
      return Status::Invalid(data.type->name(), " array at ", path_.text(), ": ", st.message());
  }
  return StructureCheck(this, data, *storage, depth).Run();
}

}  // namespace internal

Status ValidateArray(const ArrayData& data, std::string_view root_name) {
  ValidateOptions options;
  options.full = false;
  options.root_name = root_name;
  return ValidateArray(data, options);
}

Status ValidateArrayFull(const ArrayData& data, std::string_view root_name) {
  ValidateOptions options;
  options.root_name = root_name;
  return ValidateArray(data, options);
}

Status ValidateArray(const ArrayData& data, const ValidateOptions& options) {
  if (options.max_recursion_depth < 0)
    return Status::Invalid("max_recursion_depth must be >= 0, got ", options.max_recursion_depth);
  // The few allocations (error paths, per-buffer tables of view checks) are
  // bounded by the input's own size, but an allocation failure must still
  // come back as a Status.
  try {
    internal::Validator validator(options.root_name, options.types_validated, options.max_recursion_depth,
                        options.dictionaries_validated);
    ALKAID_RETURN_NOT_OK(validator.ValidateStructure(data, 0));
    return options.full ? validator.ValidateData(data) : Status::OK();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory while validating an array");
  }
}

// Parameters of every node of the tree, after CheckTypeTree made sure the
// tree is complete and not too deep.
static Status CheckTypeParameters(const DataType& type) {
  internal::TypeParameterCheck params;
  Status st = VisitTypeInline(type, &params);
  if (!st.ok()) return Status::Invalid("invalid type ", type.ToString(), ": ", st.message());
  for (const FieldPtr& field : type.fields()) ALKAID_RETURN_NOT_OK(CheckTypeParameters(*field->type()));
  if (type.id() == TypeId::kDictionary) {
    ALKAID_RETURN_NOT_OK(CheckTypeParameters(*static_cast<const DictionaryType&>(type).value_type()));
  }
  if (type.id() == TypeId::kExtension) {
    ALKAID_RETURN_NOT_OK(CheckTypeParameters(*static_cast<const ExtensionType&>(type).storage_type()));
  }
  return Status::OK();
}

Status ValidateType(const DataType& type, int max_recursion_depth) {
  if (max_recursion_depth < 0)
    return Status::Invalid("max_recursion_depth must be >= 0, got ", max_recursion_depth);
  ALKAID_RETURN_NOT_OK(internal::CheckTypeTree(type, max_recursion_depth, max_recursion_depth));
  return CheckTypeParameters(type);
}

namespace internal {

Status ValidateArrayDataOfValidStructure(const ArrayData& data, const ValidateOptions& options,
                                         const ScannedBuffers* scanned) {
  try {
    Validator validator(options.root_name, /*types_validated=*/true, options.max_recursion_depth,
                        /*dictionaries_validated=*/true);
    validator.set_scanned(scanned);
    return validator.ValidateData(data);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory while validating an array");
  }
}

Status ValidateColumnsDataOfValidStructure(const BatchColumns& batch,
                                           const ValidateOptions& options, size_t* failed) {
  try {
    // Paths return to the root after each column, so one validator serves all.
    Validator validator(options.root_name, /*types_validated=*/true, options.max_recursion_depth,
                        /*dictionaries_validated=*/true);
    validator.set_scanned(batch.scanned);
    const ArrayDataPtr* columns = batch.columns;
    const uint8_t* plain = batch.plain;
    for (size_t i = 0; i < batch.num_columns; ++i) {
      if (plain != nullptr && plain[i] != 0 && columns[i]->null_count == 0) continue;
      Status st = validator.ValidateData(*columns[i]);
      if (!st.ok()) [[unlikely]] {
        *failed = i;
        return st;
      }
    }
    return Status::OK();
  } catch (const std::bad_alloc&) {
    *failed = 0;
    return Status::OutOfMemory("out of memory while validating an array");
  }
}

}  // namespace internal

Status ValidateArray(const ArrayData& data) { return ValidateArray(data, "<root>"); }
Status ValidateArrayFull(const ArrayData& data) { return ValidateArrayFull(data, "<root>"); }

bool ValidateUtf8(const uint8_t* bytes, int64_t length) {
  if (length <= 0) return length == 0;
  return IsValidUtf8(bytes, length);
}

}  // namespace alkaid
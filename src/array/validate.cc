// Two-pass array validation: a structural pass over the whole tree (sizes,
// counts, type parameters) and, for full validation, a data pass that reads
// values. The data pass relies on the structural pass having succeeded for
// every node, so it may read any byte the layout promises without re-checking.
// The IPC reader checks the structural rules as it cuts buffers and calls the
// data pass alone (validate_internal.h).
#include "alkaid/validate.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "alkaid/bitmap.h"
#include "alkaid/utf8.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "../util/cpu_features.h"
#include "validate_internal.h"

namespace alkaid {
namespace {

// Buffers from files need not be aligned for their value type, so values are
// always loaded through memcpy (a plain load once compiled).
template <typename T>
inline T LoadAt(const uint8_t* base, int64_t index) {
  T value;
  std::memcpy(&value, base + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// Whether values[i] < values[i - 1] (<= when kStrict) for some i in [1, count).
// The flag is an integer as wide as the values because compilers vectorize
// OR-reductions of that shape but not reductions into a bool.
template <typename T, bool kStrict>
__attribute__((always_inline)) inline bool AnyOutOfOrderLoop(const uint8_t* values,
                                                             int64_t count) {
  using U = std::make_unsigned_t<T>;
  U bad = 0;
  for (int64_t i = 1; i < count; ++i) {
    const T prev = LoadAt<T>(values, i - 1);
    const T cur = LoadAt<T>(values, i);
    bad |= static_cast<U>(kStrict ? cur <= prev : cur < prev);
  }
  return bad != 0;
}

#if defined(__x86_64__)
// The same loop compiled for AVX2: twice the values per compare, and a
// 64-bit compare (SSE2 has none, so 64-bit offsets otherwise go one by one).
template <typename T, bool kStrict>
__attribute__((target("avx2"))) bool AnyOutOfOrderAvx2(const uint8_t* values, int64_t count) {
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}
#endif

// Below this the AVX2 copy's set-up costs more than it saves.
constexpr int64_t kWideOrderCheckMin = 64;

// Long runs of values, out of line so that the short ones (small batches)
// pay one compare for it.
template <typename T, bool kStrict>
__attribute__((noinline)) bool AnyOutOfOrderLong(const uint8_t* values, int64_t count) {
#if defined(__x86_64__)
  if (internal::CpuHasAvx2()) return AnyOutOfOrderAvx2<T, kStrict>(values, count);
#endif
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}

template <typename T, bool kStrict>
inline bool AnyOutOfOrder(const uint8_t* values, int64_t count) {
  if (count >= kWideOrderCheckMin) return AnyOutOfOrderLong<T, kStrict>(values, count);
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}

// One-byte integers would otherwise print as characters.
template <typename T>
inline auto Printable(T value) {
  if constexpr (sizeof(T) == 1) {
    return static_cast<int>(value);
  } else {
    return value;
  }
}

inline int64_t BitmapBytes(int64_t bits) { return bits / 8 + (bits % 8 != 0 ? 1 : 0); }

// Stands in for an absent or empty buffer so that pointer arithmetic by zero
// never touches a null pointer.
const uint8_t kNoBytes[8] = {};

inline const uint8_t* BufferBytes(const ArrayData& data, size_t index) {
  const auto& buffer = data.buffers[index];
  return buffer && buffer->data() ? buffer->data() : kNoBytes;
}

inline int64_t BufferSize(const ArrayData& data, size_t index) {
  const auto& buffer = data.buffers[index];
  return buffer ? buffer->size() : 0;
}

// Whether the layout starts with a validity bitmap (all but null, unions and
// run-end encoded types).
inline bool HasValiditySlot(const DataType& storage) { return storage.layout().has_validity(); }

// The bitmap to consult for nulls, or null when every slot is valid.
inline const uint8_t* NullBitmap(const ArrayData& data, const DataType& storage) {
  if (!HasValiditySlot(storage) || data.null_count == 0 || data.buffers.empty() ||
      !data.buffers[0] || data.length == 0) {
    return nullptr;
  }
  return data.buffers[0]->data();
}

// The type behind any extension layers; null when a layer has no storage or
// there are more than `max_depth` layers.
const DataType* StorageOf(const DataType* type, int max_depth) {
  for (int layer = 0; type != nullptr && type->id() == TypeId::kExtension; ++layer) {
    if (layer > max_depth) return nullptr;
    type = static_cast<const ExtensionType*>(type)->storage_type().get();
  }
  return type;
}

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


std::string HexOf(const uint8_t* bytes, int n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// ---------------------------------------------------------------------------
// The dotted path of the array being checked, grown and shrunk as the
// validators descend, so that building it costs nothing per slot.

class FieldPath {
 public:
  explicit FieldPath(std::string_view root) : root_(root.empty() ? "<root>" : root) {}

  // Built only when an error is reported: most validations never need it.
  std::string text() const {
    std::string out(root_);
    out += below_;
    return out;
  }

  // Restores the path when the child's check is done.
  class Scope {
   public:
    Scope(std::string* text, size_t keep) : text_(text), keep_(keep) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { text_->resize(keep_); }

   private:
    std::string* text_;
    size_t keep_;
  };

  [[nodiscard]] Scope EnterChild(const Field& field, size_t index) {
    size_t keep = below_.size();
    below_ += '.';
    if (field.name().empty()) {
      below_ += '[' + std::to_string(index) + ']';
    } else {
      below_ += field.name();
    }
    return Scope(&below_, keep);
  }

  [[nodiscard]] Scope EnterDictionary() {
    size_t keep = below_.size();
    below_ += ".<dictionary>";
    return Scope(&below_, keep);
  }

 private:
  std::string_view root_;  // outlives the validation (a caller's argument)
  std::string below_;      // ".child.grandchild" below the root
};

class Validator {
 public:
  Validator(std::string_view root, bool types_validated, int max_depth,
            bool dictionaries_validated = false)
      : path_(root),
        types_validated_(types_validated),
        max_depth_(max_depth),
        dictionaries_validated_(dictionaries_validated) {}

  // Facts a reader found while decompressing (validate_internal.h).
  bool has_scanned() const { return scanned_ != nullptr && !scanned_->empty(); }
  void set_scanned(const internal::ScannedBuffers* scanned) { scanned_ = scanned; }
  // The facts known about a buffer holding [data, data + size), and where
  // the scanned bytes start (0 when none are known).
  uint8_t ScannedFacts(const uint8_t* data, int64_t size, const uint8_t** base) const {
    return scanned_ != nullptr ? scanned_->Find(data, size, base) : 0;
  }

  bool types_validated() const { return types_validated_; }
  // True: dictionaries were validated elsewhere (ValidateOptions); both
  // passes leave them alone.
  bool dictionaries_validated() const { return dictionaries_validated_; }
  int max_depth() const { return max_depth_; }

  Status ValidateStructure(const ArrayData& data, int depth);
  // Only after ValidateStructure succeeded on the same tree.
  Status ValidateData(const ArrayData& data);

  FieldPath& path() { return path_; }

 private:
  FieldPath path_;
  bool types_validated_;
  int max_depth_;
  bool dictionaries_validated_;
  const internal::ScannedBuffers* scanned_ = nullptr;
};

// Base of the per-node checks: the node, its storage type and error helpers.
class NodeCheck {
 protected:
  NodeCheck(Validator* validator, const ArrayData& data, const DataType& type)
      : validator_(validator), data_(data), type_(type) {}

  template <typename... Args>
  [[gnu::cold, gnu::noinline]] Status Fail(Args&&... args) const {
    return Status::Invalid(type_.name(), " array at ", validator_->path().text(), ": ",
                           std::forward<Args>(args)...);
  }

  // " (physical index N)" for sliced arrays, so errors can be found in the buffers.
  std::string Physical(int64_t i) const {
    if (data_.offset == 0) return std::string();
    return " (physical index " + std::to_string(data_.offset + i) + ")";
  }

  Validator* validator_;
  const ArrayData& data_;
  const DataType& type_;
};

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
      TypeId id = type.run_end_type()->id();
      if (id != TypeId::kInt16 && id != TypeId::kInt32 && id != TypeId::kInt64)
        return Status::Invalid("run end type must be int16, int32 or int64, got ",
                               type.run_end_type()->ToString());
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

// ---------------------------------------------------------------------------
// Data pass: O(length) per node. Loops accumulate a flag without branching so
// the compiler can vectorize them; only after a failure is the data scanned
// again to name the first offending slot.

class DataCheck : public NodeCheck {
 public:
  DataCheck(Validator* validator, const ArrayData& data, const DataType& type)
      : NodeCheck(validator, data, type), nulls_(NullBitmap(data, type)) {}

  Status Run() {
    ALKAID_RETURN_NOT_OK(CheckNullCount());
    ALKAID_RETURN_NOT_OK(VisitTypeInline(type_, this));
    return Recurse();
  }

  template <typename T>
  Status Visit(const T& type) {
    if constexpr (is_base_binary_v<T>) {
      using Offset = typename T::offset_type;
      ALKAID_RETURN_NOT_OK(CheckOffsets<Offset>(BufferSize(data_, 2), "the data buffer", "bytes"));
      if (type.is_utf8()) return CheckUtf8Slots<Offset>();
    } else if constexpr (is_binary_view_v<T>) {
      return CheckViews(std::is_same_v<T, StringViewType>);
    } else if constexpr (is_var_list_v<T>) {
      ALKAID_RETURN_NOT_OK(CheckOffsets<typename T::offset_type>(data_.child_data[0]->length,
                                                                 "the child array", "slots"));
      if constexpr (std::is_same_v<T, MapType>) return CheckMapKeysHaveNoNulls();
    } else if constexpr (is_list_view_v<T>) {
      return CheckListViews<typename T::offset_type>();
    } else if constexpr (is_union_v<T>) {
      return CheckUnion(type);
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      return VisitIndexType(*type.index_type(), [this](auto zero) -> Status {
        return CheckDictionaryIndices<decltype(zero)>();
      });
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      return VisitRunEndType(*type.run_end_type(), [this](auto zero) -> Status {
        return CheckRunEnds<decltype(zero)>();
      });
    }
    return Status::OK();
  }

 private:
  Status CheckNullCount() const {
    if (!HasValiditySlot(type_) || !data_.buffers[0] || data_.null_count < 0) return Status::OK();
    int64_t nulls = data_.length - SetBitsInBitmap();
    if (nulls == data_.null_count) return Status::OK();
    return Fail("null_count is ", data_.null_count, " but the validity bitmap marks ", nulls,
                " of ", data_.length, " slots as null");
  }

  // Set bits of the validity bitmap in [offset, offset + length). Bitmaps of
  // small batches fit one word: read just their bytes (the structural pass
  // guaranteed that many) instead of the general partial-word path.
  int64_t SetBitsInBitmap() const {
    const uint8_t* bits = data_.buffers[0]->data();
    const int64_t end = data_.offset + data_.length;
    if (end <= 64) {
      uint64_t word = 0;
      const int64_t bytes = BitmapBytes(end);
      for (int64_t i = 0; i < bytes; ++i) word |= uint64_t{bits[i]} << (8 * i);
      word >>= data_.offset;
      if (data_.length < 64) word &= (uint64_t{1} << data_.length) - 1;
      return bit_util::PopcountWord(word);
    }
    return bit_util::CountSetBits(bits, data_.offset, data_.length);
  }

  // Offsets [offset, offset + length] of binary, list and map arrays: the
  // first is >= 0, none decreases, the last stays within `limit`.
  template <typename O>
  Status CheckOffsets(int64_t limit, const char* limit_name, const char* unit) const {
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(O));
    if (data_.length == 0) {
      // An empty array may have no offsets at all; the one it has, if any,
      // must still be a valid offset.
      const int64_t available = BufferSize(data_, 1) / static_cast<int64_t>(sizeof(O));
      if (available > data_.offset && LoadAt<O>(offsets, 0) < 0)
        return Fail("offset[0] = ", LoadAt<O>(offsets, 0), Physical(0),
                    " is negative (offsets must be >= 0)");
      return Status::OK();
    }
    const int64_t count = data_.length + 1;
    const O first = LoadAt<O>(offsets, 0);
    if (first < 0)
      return Fail("offset[0] = ", first, Physical(0), " is negative (offsets must be >= 0)");
    if (!(FactsWorthLookingUp() && KnownOrdered<O>(offsets, count)) &&
        AnyOutOfOrder<O, false>(offsets, count)) {
      for (int64_t i = 1; i < count; ++i) {
        O prev = LoadAt<O>(offsets, i - 1), cur = LoadAt<O>(offsets, i);
        if (cur < prev)
          return Fail("offset[", i, "] = ", cur, Physical(i), " is less than offset[", i - 1,
                      "] = ", prev, " (offsets must not decrease)");
      }
    }
    const O last = LoadAt<O>(offsets, data_.length);
    if (static_cast<int64_t>(last) > limit)
      return Fail("offset[", data_.length, "] = ", last, Physical(data_.length),
                  " is past the end of ", limit_name, " (", limit, " ", unit, ")");
    return Status::OK();
  }

  // Whether to ask for facts the reader found (validate_internal.h): only
  // when it found some, and for arrays long enough that reading their bytes
  // costs more than the lookup.
  bool FactsWorthLookingUp() const {
    constexpr int64_t kMinLength = 64;
    return data_.length >= kMinLength && validator_->has_scanned();
  }

  // Whether the reader scanned these `count` offsets, as part of a buffer
  // whose values it found ordered from its first (>= 0) on.
  template <typename O>
  bool KnownOrdered(const uint8_t* offsets, int64_t count) const {
    const uint8_t* base = nullptr;
    const uint8_t facts = validator_->ScannedFacts(offsets, count * int64_t{sizeof(O)}, &base);
    const uint8_t ordered = sizeof(O) == 4 ? internal::kFactOrdered32 : internal::kFactOrdered64;
    return (facts & ordered) != 0 && (offsets - base) % int64_t{sizeof(O)} == 0;
  }

  // What the reader found about the whole character buffer, when it scanned
  // it (kFactAscii, kFactUtf8), else 0.
  uint8_t KnownCharFacts() const {
    const uint8_t* chars = BufferBytes(data_, 2);
    const uint8_t* base = nullptr;
    const uint8_t facts = validator_->ScannedFacts(chars, BufferSize(data_, 2), &base);
    return base == chars ? facts : 0;
  }

  // Whether no offset of slots (a, b) lands inside a character of chars
  // [.., end): each must be the first byte of one.
  template <typename O>
  static bool NoOffsetSplitsACharacter(const uint8_t* offsets, const uint8_t* chars, int64_t a,
                                       int64_t b, int64_t end) {
    uint8_t splits_character = 0;
    for (int64_t k = a + 1; k < b; ++k) {
      const int64_t pos = LoadAt<O>(offsets, k);
      const uint8_t byte = pos < end ? chars[pos] : 0;
      splits_character |= static_cast<uint8_t>(IsUtf8ContinuationByte(byte));
    }
    return splits_character == 0;
  }

  // Whether slots [a, b) hold valid UTF-8. Checking the whole byte range at
  // once is only sound if no character straddles two slots, hence the check
  // that each inner offset lands on the first byte of a character.
  template <typename O>
  static bool SlotRangeIsUtf8(const uint8_t* offsets, const uint8_t* chars, int64_t a, int64_t b) {
    const int64_t begin = LoadAt<O>(offsets, a);
    const int64_t end = LoadAt<O>(offsets, b);
    bool ascii_only = false;
    if (FindInvalidUtf8(chars + begin, end - begin, &ascii_only) >= 0) return false;
    if (ascii_only) return true;  // no continuation bytes, so nothing to split
    return NoOffsetSplitsACharacter<O>(offsets, chars, a, b, end);
  }

  // The same when all `chars_size` bytes of chars are known to be valid
  // UTF-8 (scanned): a range of them is valid exactly when it starts and
  // ends on character boundaries, so only the offsets need looking at.
  template <typename O>
  static bool SlotRangeOfValidTextIsUtf8(const uint8_t* offsets, const uint8_t* chars,
                                         int64_t chars_size, int64_t a, int64_t b) {
    const int64_t begin = LoadAt<O>(offsets, a);
    const int64_t end = LoadAt<O>(offsets, b);
    if (begin == end) return true;
    auto inside = [&](int64_t pos) {
      return pos < chars_size && IsUtf8ContinuationByte(chars[pos]);
    };
    if (inside(begin) || inside(end)) return false;
    return NoOffsetSplitsACharacter<O>(offsets, chars, a, b, end);
  }

  template <typename O>
  Status CheckUtf8Slots() const {
    if (data_.length == 0) return Status::OK();
    if (FactsWorthLookingUp()) {
      const uint8_t known = KnownCharFacts();
      if ((known & internal::kFactAscii) != 0) return Status::OK();  // every range is ASCII
      if ((known & internal::kFactUtf8) != 0) return CheckUtf8SlotsOf<O, true>();
    }
    return CheckUtf8SlotsOf<O, false>();
  }

  // kValidText: all bytes of the data buffer are known to be valid UTF-8.
  template <typename O, bool kValidText>
  Status CheckUtf8SlotsOf() const {
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(O));
    const uint8_t* chars = BufferBytes(data_, 2);
    auto range_is_utf8 = [&](int64_t a, int64_t b) {
      if constexpr (kValidText) {
        return SlotRangeOfValidTextIsUtf8<O>(offsets, chars, BufferSize(data_, 2), a, b);
      } else {
        return SlotRangeIsUtf8<O>(offsets, chars, a, b);
      }
    };
    // First try every slot at once, null ones included: when the whole range
    // decodes and no offset splits a character, each slot is valid UTF-8
    // whatever it holds. Only when that fails do null slots need excluding
    // (they may hold any bytes), which costs a call per run of valid slots.
    bool ok = range_is_utf8(0, data_.length);
    if (!ok && nulls_ != nullptr) {
      ok = true;
      // Runs of 64 valid slots take the fast path; mixed words go slot by slot.
      int64_t base = 0;
      bit_util::VisitWords(nulls_, data_.offset, data_.length, [&](uint64_t word, int64_t n) {
        if (ok) {
          const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
          if (word == all) {
            ok = range_is_utf8(base, base + n);
          } else {
            for (; word != 0 && ok; word &= word - 1) {
              int64_t i = base + __builtin_ctzll(word);
              ok = range_is_utf8(i, i + 1);
            }
          }
        }
        base += n;
      });
    }
    if (ok) return Status::OK();
    for (int64_t i = 0; i < data_.length; ++i) {
      if (nulls_ && !bit_util::GetBit(nulls_, data_.offset + i)) continue;
      const int64_t begin = LoadAt<O>(offsets, i);
      const int64_t end = LoadAt<O>(offsets, i + 1);
      const int64_t bad = FindInvalidUtf8(chars + begin, end - begin);
      if (bad >= 0)
        return Fail("slot ", i, Physical(i), " is not valid UTF-8: malformed sequence at byte ",
                    bad, " of the value (byte ", begin + bad, " of the data buffer)");
    }
    return Fail("is not valid UTF-8");  // unreachable: the fast path and the scan agree
  }

  // Calls visit(i) for each non-null slot in order until it returns false.
  template <typename Visit>
  void ForEachValidSlot(Visit&& visit) const {
    if (nulls_ == nullptr) {
      for (int64_t i = 0; i < data_.length; ++i) {
        if (!visit(i)) return;
      }
      return;
    }
    bool more = true;
    bit_util::VisitSetBits(nulls_, data_.offset, data_.length, [&](int64_t i) {
      if (more) more = visit(i);
    });
  }

  // Only non-null views are checked: the validity bitmap masks the others,
  // which may hold any bytes. UTF-8 costs O(min(sum of view lengths, data
  // buffer bytes) + views): views may overlap without limit, so when they
  // cover more bytes than their buffers hold, each referenced data buffer is
  // decoded once as a whole (or, when it holds malformed bytes somewhere,
  // once per maximal run of bytes covered by views), and then every view only
  // has to start and end on a character boundary of that decoded text.
  Status CheckViews(bool utf8) const {
    const uint8_t* views = BufferBytes(data_, 1) + data_.offset * int64_t{16};
    const size_t variadic = data_.buffers.size() - 2;
    std::vector<const uint8_t*> bytes(variadic);
    std::vector<int64_t> sizes(variadic);
    for (size_t b = 0; b < variadic; ++b) {
      bytes[b] = BufferBytes(data_, b + 2);
      sizes[b] = BufferSize(data_, b + 2);
    }
    // Data buffers some non-null view points into, and the bytes those views
    // cover in all (UTF-8 only).
    std::vector<uint8_t> referenced(utf8 ? variadic : 0);
    int64_t view_bytes = 0;
    Status result;
    ForEachValidSlot([&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      const int32_t size = view.size();
      if (size < 0) {
        result = Fail("view of slot ", i, Physical(i), " has negative size ", size);
        return false;
      }
      if (size <= BinaryViewValue::kInlineSize) {
        for (int k = size; k < BinaryViewValue::kInlineSize; ++k) {
          if (view.inlined.data[k] != 0) {
            result = Fail("inline view of slot ", i, Physical(i), " has size ", size,
                          " but byte ", k, " of its inline data is ",
                          static_cast<int>(view.inlined.data[k]),
                          " (bytes after an inline value must be zero)");
            return false;
          }
        }
        if (utf8) {
          const int64_t bad = FindInvalidUtf8(view.inlined.data, size);
          if (bad >= 0) {
            result = Fail("slot ", i, Physical(i),
                          " is not valid UTF-8: malformed sequence at byte ", bad,
                          " of the value (inline)");
            return false;
          }
        }
        return true;
      }
      const int32_t index = view.ref.buffer_index;
      const int32_t start = view.ref.offset;
      if (index < 0 || static_cast<uint64_t>(index) >= variadic) {
        result = Fail("view of slot ", i, Physical(i), " refers to data buffer ", index,
                      " but there are ", variadic, " data buffers");
        return false;
      }
      if (start < 0 || start + static_cast<int64_t>(size) > sizes[index]) {
        result = Fail("view of slot ", i, Physical(i), " covers bytes [", start, ", ",
                      start + static_cast<int64_t>(size), ") outside data buffer ", index,
                      " of ", sizes[index], " bytes");
        return false;
      }
      if (std::memcmp(view.ref.prefix, bytes[index] + start, BinaryViewValue::kPrefixSize) != 0) {
        result = Fail("view of slot ", i, Physical(i), " has prefix ",
                      HexOf(view.ref.prefix, BinaryViewValue::kPrefixSize),
                      " but its data starts with ",
                      HexOf(bytes[index] + start, BinaryViewValue::kPrefixSize),
                      " (the prefix must copy the first 4 bytes)");
        return false;
      }
      if (utf8) {
        if (IsUtf8ContinuationByte(bytes[index][start])) {
          result = ViewNotUtf8(i, index, start, start);
          return false;
        }
        referenced[static_cast<size_t>(index)] = 1;
        view_bytes = std::min(view_bytes + size, std::numeric_limits<int64_t>::max() / 2);
      }
      return true;
    });
    if (!result.ok() || !utf8) return result;
    int64_t buffer_bytes = 0;
    for (size_t b = 0; b < variadic; ++b) buffer_bytes += referenced[b] ? sizes[b] : 0;
    // Decoding each view on its own is cheaper when the views overlap little
    // (a slice of a few rows over a large buffer); the buffer-wide method
    // when they overlap a lot. Either way the cost is at most the smaller.
    if (view_bytes <= buffer_bytes) return CheckEachOutOfLineView(views, bytes);
    return CheckViewsUtf8(views, bytes, sizes, referenced);
  }

  Status CheckEachOutOfLineView(const uint8_t* views, const std::vector<const uint8_t*>& bytes) const {
    Status result;
    ForEachValidSlot([&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      if (view.is_inline()) return true;
      const int64_t start = view.ref.offset;
      const uint8_t* value = bytes[static_cast<size_t>(view.ref.buffer_index)] + start;
      const int64_t bad = FindInvalidUtf8(value, view.size());
      if (bad < 0) return true;
      result = ViewNotUtf8(i, view.ref.buffer_index, start, start + bad);
      return false;
    });
    return result;
  }

  [[gnu::cold]] Status ViewNotUtf8(int64_t i, int32_t buffer, int64_t start, int64_t bad) const {
    return Fail("slot ", i, Physical(i), " is not valid UTF-8: malformed sequence at byte ",
                bad - start, " of the value (byte ", bad, " of data buffer ", buffer, ")");
  }

  // The second half of CheckViews for utf8_view, after every non-null view
  // passed the checks above (in bounds, starting on a non-continuation byte).
  Status CheckViewsUtf8(const uint8_t* views, const std::vector<const uint8_t*>& bytes,
                        const std::vector<int64_t>& sizes,
                        const std::vector<uint8_t>& referenced) const {
    const size_t variadic = bytes.size();
    // Per referenced buffer, the ranges whose decoding the views may rely on:
    // the whole buffer when it decodes, else the merged ranges of its views.
    std::vector<std::vector<std::pair<int64_t, int64_t>>> ranges(variadic);
    bool any_merged = false;
    for (size_t b = 0; b < variadic; ++b) {
      if (!referenced[b]) continue;
      if (FindInvalidUtf8(bytes[b], sizes[b]) < 0) {
        ranges[b].emplace_back(0, sizes[b]);
      } else {
        any_merged = true;  // filled below
      }
    }
    auto view_at = [&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      return view;
    };
    if (any_merged) {
      // Buffers that decode as a whole are marked so that the collection
      // below leaves them alone.
      std::vector<uint8_t> whole(variadic);
      for (size_t b = 0; b < variadic; ++b) whole[b] = referenced[b] && !ranges[b].empty();
      ForEachValidSlot([&](int64_t i) {
        const BinaryViewValue view = view_at(i);
        if (view.is_inline()) return true;
        const auto b = static_cast<size_t>(view.ref.buffer_index);
        if (!whole[b]) ranges[b].emplace_back(view.ref.offset, view.ref.offset + int64_t{view.size()});
        return true;
      });
      for (size_t b = 0; b < variadic; ++b) {
        if (whole[b] || ranges[b].empty()) continue;
        auto& r = ranges[b];
        std::sort(r.begin(), r.end());
        size_t out = 0;
        for (size_t k = 1; k < r.size(); ++k) {
          if (r[k].first <= r[out].second) {
            r[out].second = std::max(r[out].second, r[k].second);
          } else {
            r[++out] = r[k];
          }
        }
        r.resize(out + 1);
        for (const auto& [first, last] : r) {
          const int64_t bad = FindInvalidUtf8(bytes[b] + first, last - first);
          if (bad < 0) continue;
          // Every view containing the malformed byte is itself malformed:
          // it starts on a character boundary before it (or at it), so it
          // decodes in step with the range up to there.
          const int64_t at = first + bad;
          Status found;
          ForEachValidSlot([&](int64_t i) {
            const BinaryViewValue view = view_at(i);
            if (view.is_inline() || static_cast<size_t>(view.ref.buffer_index) != b) return true;
            const int64_t s = view.ref.offset;
            if (s <= at && at < s + view.size()) {
              found = ViewNotUtf8(i, static_cast<int32_t>(b), s, at);
              return false;
            }
            return true;
          });
          return found.ok() ? Fail("data buffer ", b, " is not valid UTF-8 at byte ", at) : found;
        }
      }
    }
    // Each view must end on a character boundary of the decoded range that
    // holds it: at the range's end, or before a byte that starts a character.
    Status result;
    ForEachValidSlot([&](int64_t i) {
      const BinaryViewValue view = view_at(i);
      if (view.is_inline()) return true;
      const auto b = static_cast<size_t>(view.ref.buffer_index);
      const int64_t s = view.ref.offset;
      const int64_t e = s + view.size();
      const auto& r = ranges[b];
      // The range holding [s, e): the last one starting at or before s.
      auto it = std::upper_bound(r.begin(), r.end(), std::make_pair(s, INT64_MAX));
      const int64_t range_end = std::prev(it)->second;
      if (e < range_end && IsUtf8ContinuationByte(bytes[b][e])) {
        int64_t lead = e - 1;  // the decoded range puts a lead byte within 3 bytes
        while (lead > s && IsUtf8ContinuationByte(bytes[b][lead])) --lead;
        result = ViewNotUtf8(i, static_cast<int32_t>(b), s, lead);
        return false;
      }
      return true;
    });
    return result;
  }

  // Every slot, null or not, must describe a range inside the child.
  template <typename O>
  Status CheckListViews() const {
    const int64_t child_length = data_.child_data[0]->length;
    const int64_t skip = data_.offset * static_cast<int64_t>(sizeof(O));
    const uint8_t* offsets = BufferBytes(data_, 1) + skip;
    const uint8_t* sizes = BufferBytes(data_, 2) + skip;
    for (int64_t i = 0; i < data_.length; ++i) {
      const int64_t start = LoadAt<O>(offsets, i);
      const int64_t size = LoadAt<O>(sizes, i);
      if (start < 0 || start > child_length)
        return Fail("slot ", i, Physical(i), ": offset ", start,
                    " is outside the child array of length ", child_length);
      if (size < 0) return Fail("slot ", i, Physical(i), ": size ", size, " is negative");
      if (size > child_length - start)
        return Fail("slot ", i, Physical(i), ": offset ", start, " + size ", size,
                    " is past the end of the child array of length ", child_length);
    }
    return Status::OK();
  }

  std::string DeclaredCodes(const UnionType& type) const {
    std::string out = "[";
    for (size_t i = 0; i < type.type_codes().size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(type.type_codes()[i]);
    }
    return out + "]";
  }

  Status CheckUnion(const UnionType& type) const {
    // Indexed by the raw byte so negative ids land in the undeclared half.
    int16_t child_of[256];
    for (int code = 0; code < 256; ++code) {
      child_of[code] = code <= UnionType::kMaxTypeCode
                           ? static_cast<int16_t>(type.child_of_code()[static_cast<size_t>(code)])
                           : int16_t{-1};
    }
    const uint8_t* ids = BufferBytes(data_, 0) + data_.offset;
    uint8_t undeclared = 0;
    for (int64_t i = 0; i < data_.length; ++i)
      undeclared |= static_cast<uint8_t>(child_of[ids[i]] < 0);
    if (undeclared != 0) {
      for (int64_t i = 0; i < data_.length; ++i) {
        if (child_of[ids[i]] < 0)
          return Fail("slot ", i, Physical(i), ": type id ",
                      static_cast<int>(static_cast<int8_t>(ids[i])),
                      " is not declared by the union (type codes ", DeclaredCodes(type), ")");
      }
    }
    if (type.mode() != UnionMode::kDense) return Status::OK();
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * int64_t{4};
    for (int64_t i = 0; i < data_.length; ++i) {
      const int child = child_of[ids[i]];
      const int32_t offset = LoadAt<int32_t>(offsets, i);
      const int64_t child_length = data_.child_data[static_cast<size_t>(child)]->length;
      if (offset < 0 || offset >= child_length)
        return Fail("slot ", i, Physical(i), ": dense union offset ", offset, " is outside child ",
                    child, " ('", type.field(child)->name(), "') of length ", child_length);
    }
    return Status::OK();
  }

  template <typename I>
  Status CheckDictionaryIndices() const {
    const int64_t dictionary_length = data_.dictionary->length;
    const uint8_t* indices = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(I));
    // A valid index, seen as unsigned, is below `bound`: negative signed
    // indices turn into huge unsigned ones. Comparing at the index's own
    // width keeps the loop vectorizable.
    using U = std::make_unsigned_t<I>;
    constexpr uint64_t kTypeLimit = std::is_signed_v<I>
                                        ? uint64_t{1} << (8 * sizeof(I) - 1)
                                        : static_cast<uint64_t>(std::numeric_limits<U>::max());
    if (!std::is_signed_v<I> && static_cast<uint64_t>(dictionary_length) > kTypeLimit)
      return Status::OK();  // every value of the index type is in range
    const U bound = static_cast<U>(std::min(static_cast<uint64_t>(dictionary_length), kTypeLimit));
    auto in_range = [bound](I index) { return static_cast<U>(index) < bound; };
    U bad = 0;
    if (nulls_ == nullptr) {
      for (int64_t i = 0; i < data_.length; ++i)
        bad |= static_cast<U>(!in_range(LoadAt<I>(indices, i)));
    } else {
      int64_t base = 0;
      bit_util::VisitWords(nulls_, data_.offset, data_.length, [&](uint64_t word, int64_t n) {
        const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
        if (word == all) {
          for (int64_t i = base; i < base + n; ++i)
            bad |= static_cast<U>(!in_range(LoadAt<I>(indices, i)));
        } else {
          for (; word != 0; word &= word - 1)
            bad |= static_cast<U>(!in_range(LoadAt<I>(indices, base + __builtin_ctzll(word))));
        }
        base += n;
      });
    }
    const bool ok = bad == 0;
    if (ok) return Status::OK();
    for (int64_t i = 0; i < data_.length; ++i) {
      if (nulls_ && !bit_util::GetBit(nulls_, data_.offset + i)) continue;
      const I index = LoadAt<I>(indices, i);
      if (!in_range(index))
        return Fail("slot ", i, Physical(i), ": dictionary index ", Printable(index),
                    " is outside the dictionary of length ", dictionary_length);
    }
    return Fail("has a dictionary index out of range");  // unreachable
  }

  // Run ends live in child 0 at that child's own offset.
  template <typename R>
  Status CheckRunEnds() const {
    const ArrayData& run_ends = *data_.child_data[0];
    const int64_t n = run_ends.length;
    if (n == 0) return Status::OK();
    if (run_ends.buffers[0]) {
      int64_t nulls = n - bit_util::CountSetBits(run_ends.buffers[0]->data(), run_ends.offset, n);
      if (nulls > 0) return Fail("run_ends must not contain nulls, found ", nulls);
    }
    const uint8_t* ends =
        BufferBytes(run_ends, 1) + run_ends.offset * static_cast<int64_t>(sizeof(R));
    const R first = LoadAt<R>(ends, 0);
    if (first <= 0) return Fail("run_ends[0] = ", first, " must be positive");
    if (AnyOutOfOrder<R, true>(ends, n)) {
      for (int64_t i = 1; i < n; ++i) {
        R prev = LoadAt<R>(ends, i - 1), cur = LoadAt<R>(ends, i);
        if (cur <= prev)
          return Fail("run_ends[", i, "] = ", cur, " is not greater than run_ends[", i - 1,
                      "] = ", prev, " (run ends must strictly increase)");
      }
    }
    const int64_t last = LoadAt<R>(ends, n - 1);
    const int64_t end = data_.offset + data_.length;
    if (last < end)
      return Fail("the last run end ", last, " does not cover offset + length = ", end);
    return Status::OK();
  }

  Status CheckMapKeysHaveNoNulls() const {
    const ArrayData& keys = *data_.child_data[0]->child_data[0];
    const DataType* key_type = StorageOf(keys.type.get(), validator_->max_depth());
    const uint8_t* bits = NullBitmap(keys, *key_type);
    if (bits == nullptr) return Status::OK();
    int64_t nulls = keys.length - bit_util::CountSetBits(bits, keys.offset, keys.length);
    if (nulls > 0) return Fail("map keys must not be null, the key array has ", nulls, " nulls");
    return Status::OK();
  }

  Status Recurse() {
    for (size_t i = 0; i < data_.child_data.size(); ++i) {
      auto scope = validator_->path().EnterChild(*type_.field(static_cast<int>(i)), i);
      ALKAID_RETURN_NOT_OK(validator_->ValidateData(*data_.child_data[i]));
    }
    if (data_.dictionary && !validator_->dictionaries_validated()) {
      auto scope = validator_->path().EnterDictionary();
      ALKAID_RETURN_NOT_OK(validator_->ValidateData(*data_.dictionary));
    }
    return Status::OK();
  }

  const uint8_t* nulls_;  // validity bitmap, or null when no slot is null
};

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

Status Validator::ValidateData(const ArrayData& data) {
  return DataCheck(this, data, *StorageOf(data.type.get(), max_depth_)).Run();
}

}  // namespace

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
    Validator validator(options.root_name, options.types_validated, options.max_recursion_depth,
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
  TypeParameterCheck params;
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
  ALKAID_RETURN_NOT_OK(CheckTypeTree(type, max_recursion_depth, max_recursion_depth));
  return CheckTypeParameters(type);
}

namespace internal {

namespace {
// Whether the `size` bytes hold at least one O value, the first >= 0 and
// none less than the one before.
template <typename O>
bool OrderedFromNonNegative(const uint8_t* data, int64_t size) {
  const int64_t n = size / int64_t{sizeof(O)};
  return n > 0 && LoadAt<O>(data, 0) >= 0 && !AnyOutOfOrder<O, false>(data, n);
}
}  // namespace

uint8_t ScanBuffer(BufferScan scan, const uint8_t* data, int64_t size) {
  switch (scan) {
    case BufferScan::kNone:
      return 0;
    case BufferScan::kUtf8: {
      bool ascii_only = false;
      if (FindInvalidUtf8(data, size, &ascii_only) >= 0) return 0;
      return ascii_only ? kFactAscii | kFactUtf8 : kFactUtf8;
    }
    case BufferScan::kOffsets32:
      return OrderedFromNonNegative<int32_t>(data, size) ? kFactOrdered32 : 0;
    case BufferScan::kOffsets64:
      return OrderedFromNonNegative<int64_t>(data, size) ? kFactOrdered64 : 0;
  }
  return 0;
}

void ScannedBuffers::Add(const uint8_t* data, int64_t size, uint8_t facts) {
  if (facts != 0 && data != nullptr && size > 0) entries_.push_back({data, size, facts});
}

void ScannedBuffers::Seal() {
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) {
              return std::less<const uint8_t*>()(a.data, b.data);
            });
}

uint8_t ScannedBuffers::Find(const uint8_t* data, int64_t size, const uint8_t** base) const {
  // The last entry starting at or before `data` is the only one that can
  // hold it: the listed buffers are live at once, so they do not overlap.
  auto it = std::upper_bound(entries_.begin(), entries_.end(), data,
                             [](const uint8_t* p, const Entry& e) {
                               return std::less<const uint8_t*>()(p, e.data);
                             });
  if (it == entries_.begin()) return 0;
  --it;
  if (size < 0 || data - it->data > it->size - size) return 0;
  *base = it->data;
  return it->facts;
}

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

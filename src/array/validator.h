// Internal: the parts of array validation that its two passes share: the
// validator (path, options, scanned facts) and the per-node check base.
// validate.cc holds the type and structural checks, validate_data.cc the
// data pass. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "alkaid/array_data.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "buffer_scan.h"
#include "value_order.h"

namespace alkaid::internal {

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
inline constexpr uint8_t kNoBytes[8] = {};

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
inline const DataType* StorageOf(const DataType* type, int max_depth) {
  for (int layer = 0; type != nullptr && type->id() == TypeId::kExtension; ++layer) {
    if (layer > max_depth) return nullptr;
    type = static_cast<const ExtensionType*>(type)->storage_type().get();
  }
  return type;
}

// ---------------------------------------------------------------------------
// The dotted path of the array being checked, grown and shrunk as the
// validators descend, so that building it costs nothing per slot.

class ArrayPath {
 public:
  explicit ArrayPath(std::string_view root) : root_(root.empty() ? "<root>" : root) {}

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

  // Facts a reader found while decompressing (buffer_scan.h).
  bool has_scanned() const { return scanned_ != nullptr && !scanned_->empty(); }
  void set_scanned(const ScannedBuffers* scanned) { scanned_ = scanned; }
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

  ArrayPath& path() { return path_; }

 private:
  ArrayPath path_;
  bool types_validated_;
  int max_depth_;
  bool dictionaries_validated_;
  const ScannedBuffers* scanned_ = nullptr;
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

}  // namespace alkaid::internal

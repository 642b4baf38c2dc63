/// @file
/// KeyValueMetadata: the ordered key-value pairs attached to fields and
/// schemas (keys may repeat; order is preserved).
///
/// Threads: shared as `const` (MetadataPtr), any number of threads may read it;
/// the mutators (Append, Set) are for building a new instance owned by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Ordered list of string key/value pairs attached to a field or a schema.
///
/// Keys may repeat and insertion order is preserved, which is what the IPC
/// format carries. Lookups are linear in the number of entries (metadata is
/// small). Instances are shared as `std::shared_ptr<const KeyValueMetadata>`
/// (MetadataPtr) and must not be mutated once shared; build with Append/Set
/// first, or derive a modified copy with Copy() / Without().
class ALKAID_EXPORT KeyValueMetadata {
 public:
  /// Empty metadata.
  KeyValueMetadata() = default;
  /// Metadata from parallel key and value lists; `keys[i]` pairs with
  /// `values[i]`. Precondition: both vectors have the same size.
  KeyValueMetadata(std::vector<std::string> keys, std::vector<std::string> values);
  /// Shared metadata holding `pairs` in the order given (duplicates kept).
  static std::shared_ptr<const KeyValueMetadata> Make(
      std::vector<std::pair<std::string, std::string>> pairs);

  /// Number of entries, duplicates included.
  int64_t size() const { return static_cast<int64_t>(keys_.size()); }
  /// Key of entry `i`. Precondition: 0 <= i < size() (not checked).
  const std::string& key(int64_t i) const { return keys_[static_cast<size_t>(i)]; }
  /// Value of entry `i`. Precondition: 0 <= i < size() (not checked).
  const std::string& value(int64_t i) const { return values_[static_cast<size_t>(i)]; }
  /// All keys in entry order.
  const std::vector<std::string>& keys() const { return keys_; }
  /// All values in entry order (parallel to keys()).
  const std::vector<std::string>& values() const { return values_; }

  /// Index of the first entry with this key, or -1.
  int64_t FindKey(std::string_view key) const;
  /// Whether any entry has this key.
  bool Contains(std::string_view key) const { return FindKey(key) >= 0; }
  /// Value of the first entry with this key; a KeyError status when absent.
  Result<std::string> Get(std::string_view key) const;

  /// Adds an entry at the end, even if the key is already present.
  void Append(std::string key, std::string value);
  /// Replaces the first entry with this key, or appends.
  void Set(std::string key, std::string value);
  /// A copy without the entries whose keys are listed (every occurrence of
  /// each listed key is dropped; the remaining order is kept).
  std::shared_ptr<KeyValueMetadata> Without(const std::vector<std::string>& keys) const;
  /// A mutable deep copy, e.g. to add entries to metadata that is shared.
  std::shared_ptr<KeyValueMetadata> Copy() const;

  /// Same pairs, compared as a multiset: the order of entries does not
  /// matter (writers emit keys in different orders) but duplicates do.
  bool Equals(const KeyValueMetadata& other) const;
  /// One "\n  key: value" line per entry, for debugging output.
  std::string ToString() const;

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> values_;
};
/// Shared, immutable metadata; nullptr means "no metadata".
using MetadataPtr = std::shared_ptr<const KeyValueMetadata>;

/// Metadata equality where null and empty metadata compare equal; otherwise
/// as KeyValueMetadata::Equals.
ALKAID_EXPORT bool MetadataEquals(const MetadataPtr& a, const MetadataPtr& b);

}  // namespace alkaid

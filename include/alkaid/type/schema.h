/// @file
/// Field (a named, typed slot with nullability and metadata) and Schema (the
/// columns of a record batch or table).
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/metadata.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// A named, typed slot of a schema or of a nested type: name, type,
/// nullability and optional metadata. Immutable; the With* functions return
/// modified copies. Safe to share between threads.
class ALKAID_EXPORT Field {
 public:
  /// A field. `type` must not be null; `metadata` may be.
  Field(std::string name, DataTypePtr type, bool nullable = true, MetadataPtr metadata = nullptr)
      : name_(std::move(name)), type_(std::move(type)), nullable_(nullable),
        metadata_(std::move(metadata)) {}

  /// Field name; may be empty and need not be unique among siblings.
  const std::string& name() const { return name_; }
  /// Field type; never null for a properly constructed field.
  const DataTypePtr& type() const { return type_; }
  /// Whether slots may be null. A non-nullable field's arrays must have no nulls.
  bool nullable() const { return nullable_; }
  /// Field metadata; may be nullptr.
  const MetadataPtr& metadata() const { return metadata_; }

  /// A copy with another name.
  FieldPtr WithName(std::string name) const;
  /// A copy with another type.
  FieldPtr WithType(DataTypePtr type) const;
  /// A copy with another nullability.
  FieldPtr WithNullable(bool nullable) const;
  /// A copy with other metadata (nullptr removes it).
  FieldPtr WithMetadata(MetadataPtr metadata) const;

  /// Same name, nullability and type (DataType::Equals); metadata too when
  /// `check_metadata` is true (null and empty metadata are equal).
  bool Equals(const Field& other, bool check_metadata = false) const;
  /// As Equals(const Field&, bool); false when `other` is null.
  bool Equals(const FieldPtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }
  /// "name: type" plus " not null" when not nullable, and the metadata on
  /// further lines when `show_metadata` is true.
  std::string ToString(bool show_metadata = false) const;

 private:
  std::string name_;
  DataTypePtr type_;
  bool nullable_;
  MetadataPtr metadata_;
};

/// The top-level columns of a record batch or table, with schema metadata
/// and the byte order of the data it describes. Immutable; safe to share
/// between threads.
class ALKAID_EXPORT Schema {
 public:
  /// A schema of `fields` in order. `endianness` is the byte order of the
  /// buffers that go with it (IPC readers set it from the file).
  explicit Schema(FieldVector fields, MetadataPtr metadata = nullptr,
                  Endianness endianness = Endianness::kLittle)
      : fields_(std::move(fields)), metadata_(std::move(metadata)), endianness_(endianness) {}

  /// The columns in order.
  const FieldVector& fields() const { return fields_; }
  /// Number of columns.
  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// Column `i`. Precondition: 0 <= i < num_fields() (not checked).
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  /// Schema-level metadata; may be nullptr.
  const MetadataPtr& metadata() const { return metadata_; }
  /// Byte order of the data this schema describes.
  Endianness endianness() const { return endianness_; }

  /// Index of the first field with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  /// The first field with this name, or nullptr.
  FieldPtr GetFieldByName(std::string_view name) const;

  /// A copy with other metadata (nullptr removes it).
  SchemaPtr WithMetadata(MetadataPtr metadata) const;
  /// A copy with another byte order (the fields are shared).
  SchemaPtr WithEndianness(Endianness endianness) const;
  /// A schema of the listed fields, in the order given (repeats allowed);
  /// metadata and byte order are kept. IndexError for an index outside
  /// [0, num_fields()).
  Result<SchemaPtr> Project(const std::vector<int>& indices) const;

  /// Same byte order and pairwise equal fields (Field::Equals); schema
  /// metadata too when `check_metadata` is true.
  bool Equals(const Schema& other, bool check_metadata = false) const;
  /// One line per field (Field::ToString), then the schema metadata when
  /// `show_metadata` is true.
  std::string ToString(bool show_metadata = false) const;

 private:
  FieldVector fields_;
  MetadataPtr metadata_;
  Endianness endianness_;
};

}  // namespace alkaid

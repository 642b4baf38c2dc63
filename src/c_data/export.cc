// Export of alkaid types and arrays to the C Data Interface structs.
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "alkaid/c_data/bridge.h"
#include "alkaid/extension_registry.h"
#include "src/c_data/format.h"
#include "src/util/catch_out_of_memory.h"

namespace alkaid::c_data {
namespace {

// ---------------------------------------------------------------------------
// Schemas

// Everything an exported ArrowSchema points at. Children and dictionary are
// separate allocations so a consumer may move one out (marking it released)
// and still release the parent afterwards.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema*> children;
  ArrowSchema* dictionary = nullptr;
};

// Releases the children and dictionary a private struct owns (each a
// separate allocation, possibly already moved out by the consumer).
template <typename T, typename Private>
void ReleaseOwned(Private* priv) {
  for (T* child : priv->children) {
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  priv->children.clear();
  if (priv->dictionary != nullptr) {
    if (priv->dictionary->release != nullptr) priv->dictionary->release(priv->dictionary);
    delete priv->dictionary;
    priv->dictionary = nullptr;
  }
}

// The release callback of every exported ArrowSchema / ArrowArray.
template <typename T, typename Private>
void ReleaseExported(T* c) {
  if (c == nullptr || c->release == nullptr) return;
  auto* priv = static_cast<Private*>(c->private_data);
  ReleaseOwned<T>(priv);
  delete priv;
  c->release = nullptr;
  c->private_data = nullptr;
}

class SchemaExporter {
 public:
  // Fills `out` for a field named `name` of `type`; `metadata` is the field's
  // own metadata (extension keys are added here).
  Status Export(const std::string& name, const DataTypePtr& type, bool nullable,
                const MetadataPtr& metadata, ArrowSchema* out, int depth) {
    if (depth > kMaxDepth) {
      return Status::Invalid("type of field '", name, "' is nested deeper than ", kMaxDepth,
                             " levels");
    }
    auto priv = std::make_unique<SchemaPrivate>();
    std::memset(out, 0, sizeof(*out));
    priv->name = name;
    int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;

    std::shared_ptr<KeyValueMetadata> merged;
    const DataType* t = type.get();
    if (t->id() == TypeId::kExtension) {
      const auto& ext = checked_cast<ExtensionType>(*t);
      merged = metadata ? metadata->Copy() : std::make_shared<KeyValueMetadata>();
      merged->Set(kExtensionNameKey, ext.extension_name());
      merged->Set(kExtensionMetadataKey, ext.Serialize());
      t = ext.storage_type().get();
    }
    const KeyValueMetadata* md = merged ? merged.get() : metadata.get();
    if (md != nullptr && md->size() > 0) priv->metadata = EncodeMetadata(*md);

    if (t->id() == TypeId::kDictionary) {
      const auto& dict = checked_cast<DictionaryType>(*t);
      ALKAID_ASSIGN_OR_RAISE(priv->format, FormatOf(*dict.index_type()));
      if (dict.ordered()) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
      priv->dictionary = new ArrowSchema;
      priv->dictionary->release = nullptr;
      Status st = Export("", dict.value_type(), true, nullptr, priv->dictionary, depth + 1);
      if (!st.ok()) {
        Cleanup(priv.get());
        return st;
      }
      t = dict.index_type().get();
    } else {
      auto format = FormatOf(*t);
      if (!format.ok()) return format.status();
      priv->format = std::move(*format);
      if (t->id() == TypeId::kMap && checked_cast<MapType>(*t).keys_sorted()) {
        flags |= ARROW_FLAG_MAP_KEYS_SORTED;
      }
      priv->children.reserve(static_cast<size_t>(t->num_fields()));
      for (const FieldPtr& child : t->fields()) {
        auto* c = new ArrowSchema;
        c->release = nullptr;
        priv->children.push_back(c);
        Status st = Export(child->name(), child->type(), child->nullable(), child->metadata(), c,
                           depth + 1);
        if (!st.ok()) {
          Cleanup(priv.get());
          return st;
        }
      }
    }
    Fill(priv.release(), flags, out);
    return Status::OK();
  }

  static void Fill(SchemaPrivate* priv, int64_t flags, ArrowSchema* out) {
    out->format = priv->format.c_str();
    out->name = priv->name.c_str();
    out->metadata = priv->metadata.empty() ? nullptr : priv->metadata.data();
    out->flags = flags;
    out->n_children = static_cast<int64_t>(priv->children.size());
    out->children = priv->children.empty() ? nullptr : priv->children.data();
    out->dictionary = priv->dictionary;
    out->private_data = priv;
    out->release = &ReleaseExported<ArrowSchema, SchemaPrivate>;
  }

  // Releases what was built before an error (the private data itself is
  // owned by the caller's unique_ptr).
  static void Cleanup(SchemaPrivate* priv) { ReleaseOwned<ArrowSchema>(priv); }
};

template <typename F>
Status Guard(F&& f) {
  return internal::CatchOutOfMemory("C Data Interface export", std::forward<F>(f));
}

// ---------------------------------------------------------------------------
// Arrays

// Zero bytes for buffers alkaid leaves null where the C interface wants a
// pointer (e.g. the data buffer of an all-empty binary array). Aligned so any
// element type may be read from it.
alignas(64) const uint8_t kZeros[64] = {};

struct ArrayPrivate {
  ArrayDataPtr data;  // keeps every buffer alive
  std::vector<const void*> buffers;
  std::vector<int64_t> variadic_sizes;  // view types: sizes of the data buffers
  std::vector<ArrowArray*> children;
  ArrowArray* dictionary = nullptr;
};

void CleanupArray(ArrayPrivate* priv) { ReleaseOwned<ArrowArray>(priv); }

void FillArray(ArrayPrivate* priv, int64_t length, int64_t null_count, int64_t offset,
               ArrowArray* out) {
  out->length = length;
  out->null_count = null_count;
  out->offset = offset;
  out->n_buffers = static_cast<int64_t>(priv->buffers.size());
  out->buffers = priv->buffers.empty() ? nullptr : priv->buffers.data();
  out->n_children = static_cast<int64_t>(priv->children.size());
  out->children = priv->children.empty() ? nullptr : priv->children.data();
  out->dictionary = priv->dictionary;
  out->private_data = priv;
  out->release = &ReleaseExported<ArrowArray, ArrayPrivate>;
}

Status ExportArrayImpl(const ArrayDataPtr& data, ArrowArray* out, int depth) {
  std::memset(out, 0, sizeof(*out));
  if (depth > kMaxDepth) {
    return Status::Invalid("array is nested deeper than ", kMaxDepth, " levels");
  }
  const DataType& storage = data->storage_type();
  const DataTypeLayout& layout = storage.layout();
  auto priv = std::make_unique<ArrayPrivate>();
  priv->data = data;

  const size_t fixed = layout.buffers.size();
  if (data->buffers.size() < fixed) {
    return Status::Invalid(storage.ToString(), " array has ", data->buffers.size(),
                           " buffers, its layout needs ", fixed);
  }
  const size_t n = layout.variadic_data ? data->buffers.size() + 1 : fixed;
  priv->buffers.resize(n, nullptr);
  // An empty array goes out at offset 0. Its offsets buffer may hold no
  // bytes (IPC writers leave it empty, which the layout allows), but strict
  // consumers read the first offset of every array: they get a zero.
  const bool empty = data->length == 0;
  for (size_t i = 0; i < fixed; ++i) {
    const BufferPtr& b = data->buffers[i];
    const BufferSpec& spec = layout.buffers[i];
    if (empty && spec.offsets_plus_one && (b == nullptr || b->size() < spec.byte_width)) {
      priv->buffers[i] = kZeros;
    } else if (b != nullptr) {
      priv->buffers[i] = b->data();
    } else if (spec.kind != BufferSpec::kValidity) {
      priv->buffers[i] = kZeros;
    }
  }
  if (layout.variadic_data) {
    const size_t num_data = data->buffers.size() - fixed;
    priv->variadic_sizes.resize(num_data);
    for (size_t i = 0; i < num_data; ++i) {
      const BufferPtr& b = data->buffers[fixed + i];
      priv->buffers[fixed + i] = b ? static_cast<const void*>(b->data()) : kZeros;
      priv->variadic_sizes[i] = b ? b->size() : 0;
    }
    priv->buffers[n - 1] =
        priv->variadic_sizes.empty() ? static_cast<const void*>(kZeros) : priv->variadic_sizes.data();
  }

  // Null counts: the C interface has no "absent validity means no nulls"
  // rule of its own, so say 0 explicitly when there is no bitmap.
  int64_t null_count = data->null_count;
  // Types whose layout has no validity bitmap (unions, run-end encoded)
  // keep their nulls in their children; null arrays are all null.
  if (storage.id() == TypeId::kNull) {
    null_count = data->length;
  } else if (empty || !layout.has_validity() || !data->HasValidityBitmap()) {
    null_count = 0;
  }

  priv->children.reserve(data->child_data.size());
  for (const ArrayDataPtr& child : data->child_data) {
    auto* c = new ArrowArray;
    c->release = nullptr;
    priv->children.push_back(c);
    Status st = ExportArrayImpl(child, c, depth + 1);
    if (!st.ok()) {
      CleanupArray(priv.get());
      return st;
    }
  }
  if (storage.id() == TypeId::kDictionary) {
    if (data->dictionary == nullptr) {
      CleanupArray(priv.get());
      return Status::Invalid("dictionary array has no dictionary");
    }
    priv->dictionary = new ArrowArray;
    priv->dictionary->release = nullptr;
    Status st = ExportArrayImpl(data->dictionary, priv->dictionary, depth + 1);
    if (!st.ok()) {
      CleanupArray(priv.get());
      return st;
    }
  }
  FillArray(priv.release(), data->length, null_count, empty ? 0 : data->offset, out);
  return Status::OK();
}

}  // namespace

Status ExportType(const DataType& type, ArrowSchema* out) {
  return Guard([&] {
    return SchemaExporter().Export("", std::const_pointer_cast<DataType>(type.shared_from_this()),
                                   true, nullptr, out, 0);
  });
}

Status ExportField(const Field& field, ArrowSchema* out) {
  return Guard([&] {
    return SchemaExporter().Export(field.name(), field.type(), field.nullable(), field.metadata(),
                                   out, 0);
  });
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  return Guard([&] {
    return ExportField(Field("", struct_(schema.fields()), false, schema.metadata()), out);
  });
}

Status ExportArray(const ArrayData& data, ArrowArray* out, ArrowSchema* out_schema) {
  return Guard([&]() -> Status {
    if (out_schema != nullptr) ALKAID_RETURN_NOT_OK(ExportType(*data.type, out_schema));
    // ArrayData is shared; take a reference to this node through a copy of
    // its header when the caller's object is not owned by a shared_ptr.
    auto holder = std::make_shared<ArrayData>(data);
    Status st = ExportArrayImpl(holder, out, 0);
    if (!st.ok() && out_schema != nullptr) out_schema->release(out_schema);
    return st;
  });
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema) {
  return Guard([&]() -> Status {
    if (out_schema != nullptr) ALKAID_RETURN_NOT_OK(ExportSchema(*batch.schema(), out_schema));
    auto data = ArrayData::Make(struct_(batch.schema()->fields()), batch.num_rows(), {nullptr},
                                batch.columns(), 0);
    Status st = ExportArrayImpl(data, out, 0);
    if (!st.ok() && out_schema != nullptr) out_schema->release(out_schema);
    return st;
  });
}

Status ExportDeviceArray(const ArrayData& data, ArrowDeviceArray* out, ArrowSchema* out_schema) {
  std::memset(out, 0, sizeof(*out));
  ALKAID_RETURN_NOT_OK(ExportArray(data, &out->array, out_schema));
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  return Status::OK();
}

Status ExportDeviceRecordBatch(const RecordBatch& batch, ArrowDeviceArray* out,
                               ArrowSchema* out_schema) {
  std::memset(out, 0, sizeof(*out));
  ALKAID_RETURN_NOT_OK(ExportRecordBatch(batch, &out->array, out_schema));
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  return Status::OK();
}

}  // namespace alkaid::c_data

// Import of C Data Interface structs into alkaid types and ArrayData.
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "alkaid/c_data/bridge.h"
#include "alkaid/extension/api.h"
#include "alkaid/extension_registry.h"
#include "alkaid/validate.h"
#include "src/c_data/format.h"
#include "src/util/catch_out_of_memory.h"

namespace alkaid::c_data {
namespace {

template <typename F>
auto Guard(F&& f) -> decltype(f()) {
  return internal::CatchOutOfMemory("C Data Interface import", std::forward<F>(f));
}

std::string Child(const std::string& path, const char* name, int64_t index) {
  if (name != nullptr && *name != '\0') return path + "." + name;
  return path + ".[" + std::to_string(index) + "]";
}

// ---------------------------------------------------------------------------
// Schemas

// Releases an ArrowSchema when it goes out of scope (import consumes it).
struct SchemaReleaser {
  ArrowSchema* schema;
  ~SchemaReleaser() {
    if (schema != nullptr && schema->release != nullptr) schema->release(schema);
  }
};

// Field metadata naming a registered extension wraps the type and loses its
// two keys; an unknown name leaves storage and keys as they are (as the IPC
// reader does).
Result<DataTypePtr> ApplyExtension(DataTypePtr storage, MetadataPtr* metadata) {
  if (*metadata == nullptr) return storage;
  int64_t name_index = (*metadata)->FindKey(kExtensionNameKey);
  if (name_index < 0) return storage;
  int64_t value_index = (*metadata)->FindKey(kExtensionMetadataKey);
  std::string serialized = value_index >= 0 ? (*metadata)->value(value_index) : std::string();
  RegisterCanonicalExtensionTypes();
  ALKAID_ASSIGN_OR_RAISE(DataTypePtr made, MakeRegisteredExtension((*metadata)->value(name_index),
                                                                   storage, serialized));
  if (made == nullptr) return storage;
  auto remaining = (*metadata)->Without({kExtensionNameKey, kExtensionMetadataKey});
  *metadata = remaining->size() == 0 ? nullptr : MetadataPtr(std::move(remaining));
  return made;
}

struct ImportedNode {
  std::string name;
  DataTypePtr type;
  bool nullable = true;
  MetadataPtr metadata;
};

Result<ImportedNode> ImportSchemaNode(const ArrowSchema* schema, const std::string& path,
                                      int depth) {
  auto fail = [&](auto&&... args) {
    return Status::Invalid("ArrowSchema at ", path, ": ", std::forward<decltype(args)>(args)...);
  };
  if (schema == nullptr) return fail("null pointer");
  if (schema->release == nullptr) return fail("struct is released");
  if (depth > kMaxDepth) return fail("nested deeper than ", kMaxDepth, " levels");
  if (schema->format == nullptr) return fail("format is null");
  if (schema->n_children < 0) return fail("negative n_children ", schema->n_children);
  if (schema->n_children > 0 && schema->children == nullptr) {
    return fail("n_children is ", schema->n_children, " but children is null");
  }
  ImportedNode node;
  node.name = schema->name ? schema->name : "";
  node.nullable = (schema->flags & ARROW_FLAG_NULLABLE) != 0;
  auto metadata = DecodeMetadata(schema->metadata);
  if (!metadata.ok()) return fail(metadata.status().message());
  node.metadata = std::move(*metadata);

  std::string format = schema->format;
  if (schema->dictionary != nullptr) {
    if (schema->n_children != 0) return fail("dictionary-encoded field with children");
    ALKAID_ASSIGN_OR_RAISE(ImportedNode values,
                           ImportSchemaNode(schema->dictionary, path + ".<dictionary>", depth + 1));
    auto index = TypeOfFormat(format, {}, 0);
    if (!index.ok()) return fail(index.status().message());
    if (!(*index)->is_integer()) {
      return fail("dictionary index format '", format, "' is not an integer type");
    }
    node.type = std::make_shared<DictionaryType>(
        *index, values.type, (schema->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0);
  } else {
    FieldVector children;
    children.reserve(static_cast<size_t>(std::min<int64_t>(schema->n_children, 1024)));
    for (int64_t i = 0; i < schema->n_children; ++i) {
      const ArrowSchema* c = schema->children[i];
      // A released child's fields may point at freed memory: its name is
      // not read (the recursion then refuses it by position).
      const bool live = c != nullptr && c->release != nullptr;
      std::string child_path = Child(path, live ? c->name : nullptr, i);
      ALKAID_ASSIGN_OR_RAISE(ImportedNode child, ImportSchemaNode(c, child_path, depth + 1));
      children.push_back(std::make_shared<Field>(std::move(child.name), std::move(child.type),
                                                 child.nullable, std::move(child.metadata)));
    }
    auto type = TypeOfFormat(format, std::move(children), schema->flags);
    if (!type.ok()) return fail(type.status().message());
    node.type = std::move(*type);
  }
  auto extended = ApplyExtension(node.type, &node.metadata);
  if (!extended.ok()) return fail("extension type: ", extended.status().message());
  node.type = std::move(*extended);
  return node;
}

Result<ImportedNode> ImportRootNode(ArrowSchema* schema) {
  SchemaReleaser releaser{schema};
  if (schema == nullptr) return Status::Invalid("ArrowSchema at <root>: null pointer");
  ALKAID_ASSIGN_OR_RAISE(ImportedNode node, ImportSchemaNode(schema, "<root>", 0));
  Status st = ValidateType(*node.type);
  if (!st.ok()) return st.WithContext("ArrowSchema at <root>");
  return node;
}

// ---------------------------------------------------------------------------
// Arrays

// Owns the producer's ArrowArray (moved in); its release runs once, when the
// last Buffer made from any node of the tree goes away.
struct ImportedArray {
  ArrowArray array;
  ~ImportedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

alignas(64) const uint8_t kZeros[64] = {};

bool MulOverflow(int64_t a, int64_t b, int64_t* out) { return __builtin_mul_overflow(a, b, out); }

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<ImportedArray> owner) : owner_(std::move(owner)) {}

  Result<ArrayDataPtr> Import(const ArrowArray* array, const DataTypePtr& type,
                              const std::string& path, int depth) {
    auto fail = [&](auto&&... args) {
      return Status::Invalid("ArrowArray at ", path, " (", type->ToString(), "): ",
                             std::forward<decltype(args)>(args)...);
    };
    if (array == nullptr) return fail("null pointer");
    if (array->release == nullptr) return fail("struct is released");
    if (depth > kMaxDepth) return fail("nested deeper than ", kMaxDepth, " levels");
    if (array->length < 0) return fail("negative length ", array->length);
    if (array->offset < 0) return fail("negative offset ", array->offset);
    if (array->null_count < -1) return fail("null_count ", array->null_count, " is below -1");
    int64_t end;
    if (__builtin_add_overflow(array->length, array->offset, &end)) {
      return fail("offset + length overflows");
    }
    if (array->null_count > array->length) {
      return fail("null_count ", array->null_count, " exceeds length ", array->length);
    }
    // An empty array has no slots to read: none of its buffers is read (a
    // producer may leave offsets unfilled, null or of zero bytes, as the
    // reference does for arrays read from IPC), and it imports at offset 0.
    const bool empty = array->length == 0;
    if (empty) end = 0;

    const DataType* storage = type.get();
    if (storage->id() == TypeId::kExtension) {
      storage = checked_cast<ExtensionType>(*storage).storage_type().get();
    }
    const DataTypeLayout& layout = storage->layout();
    const int64_t fixed = static_cast<int64_t>(layout.buffers.size());
    // Views carry a trailing buffer of data-buffer sizes.
    const bool views = layout.variadic_data;
    if (views ? array->n_buffers < fixed + 1 : array->n_buffers != fixed) {
      return fail("n_buffers is ", array->n_buffers, ", the format needs ",
                  views ? "at least " : "", views ? fixed + 1 : fixed);
    }
    if (array->n_buffers > 0 && array->buffers == nullptr) {
      return fail("n_buffers is ", array->n_buffers, " but buffers is null");
    }
    const int64_t n_children = storage->num_fields();
    if (array->n_children != n_children) {
      return fail("n_children is ", array->n_children, ", the format needs ", n_children);
    }
    if (n_children > 0 && array->children == nullptr) {
      return fail("n_children is ", n_children, " but children is null");
    }
    const bool is_dictionary = storage->id() == TypeId::kDictionary;
    if (is_dictionary && array->dictionary == nullptr) return fail("dictionary is null");
    if (!is_dictionary && array->dictionary != nullptr) {
      return fail("dictionary is set for a type that is not dictionary encoded");
    }

    auto data = std::make_shared<ArrayData>();
    data->type = type;
    data->length = array->length;
    data->offset = empty ? 0 : array->offset;
    data->null_count = empty ? 0 : array->null_count;

    // Fixed buffers, in layout order.
    const void* const* ptrs = array->buffers;
    int64_t offsets_end_value = -1;  // binary: last offset, bounding the data
    for (int64_t i = 0; i < fixed; ++i) {
      const BufferSpec& spec = layout.buffers[static_cast<size_t>(i)];
      if (empty) {
        // Our own zeros: the single offset an empty array has, and nothing else.
        const int64_t size = spec.offsets_plus_one ? spec.byte_width : 0;
        data->buffers.push_back(spec.kind == BufferSpec::kValidity ? nullptr
                                                                   : std::make_shared<Buffer>(kZeros, size));
        continue;
      }
      const uint8_t* p = static_cast<const uint8_t*>(ptrs[i]);
      int64_t size = 0;
      int alignment = 1;
      switch (spec.kind) {
        case BufferSpec::kValidity:
        case BufferSpec::kBitmapValues:
          size = end / 8 + (end % 8 != 0);
          break;
        case BufferSpec::kFixedWidth:
        case BufferSpec::kSizes:
        case BufferSpec::kViews:
        case BufferSpec::kTypeIds:
        case BufferSpec::kOffsets: {
          // Offsets of lists and binaries hold one more entry than slots
          // (list-view offsets one per slot), as the layout says.
          if (MulOverflow(spec.offsets_plus_one ? end + 1 : end, spec.byte_width, &size)) {
            return fail("buffer ", i, " size overflows");
          }
          alignment = spec.alignment;
          break;
        }
        case BufferSpec::kData: {
          size = offsets_end_value;
          if (size < 0) return fail("data buffer size is negative (last offset ", size, ")");
          break;
        }
      }
      if (spec.kind == BufferSpec::kValidity) {
        if (p == nullptr) {
          if (array->null_count > 0) {
            return fail("validity buffer is null but null_count is ", array->null_count);
          }
          data->null_count = 0;
          data->buffers.push_back(nullptr);
          continue;
        }
      } else if (p == nullptr) {
        if (size != 0) return fail("buffer ", i, " is null but must hold ", size, " bytes");
        p = kZeros;
      }
      ALKAID_ASSIGN_OR_RAISE(BufferPtr buffer, Wrap(p, size, alignment));
      if (spec.offsets_plus_one) {
        if (spec.byte_width == 4) {
          int32_t v;
          std::memcpy(&v, buffer->data() + end * 4, 4);
          offsets_end_value = v;
        } else {
          std::memcpy(&offsets_end_value, buffer->data() + end * 8, 8);
        }
      }
      data->buffers.push_back(std::move(buffer));
    }
    // An empty view array refers to no data buffer: none is imported.
    if (views && !empty) {
      const int64_t num_data = array->n_buffers - fixed - 1;
      const auto* sizes_ptr = static_cast<const uint8_t*>(ptrs[array->n_buffers - 1]);
      if (num_data > 0 && sizes_ptr == nullptr) {
        return fail("variadic buffer sizes (buffer ", array->n_buffers - 1, ") is null");
      }
      for (int64_t k = 0; k < num_data; ++k) {
        int64_t size;
        std::memcpy(&size, sizes_ptr + k * 8, 8);
        if (size < 0) return fail("variadic data buffer ", k, " has negative size ", size);
        const auto* p = static_cast<const uint8_t*>(ptrs[fixed + k]);
        if (p == nullptr) {
          if (size != 0) return fail("buffer ", fixed + k, " is null but must hold ", size, " bytes");
          p = kZeros;
        }
        ALKAID_ASSIGN_OR_RAISE(BufferPtr buffer, Wrap(p, size, 1));
        data->buffers.push_back(std::move(buffer));
      }
    }
    // Types without a validity bitmap say nothing about nulls themselves.
    if (!layout.has_validity()) data->null_count = kUnknownNullCount;
    if (storage->id() == TypeId::kNull) data->null_count = data->length;

    data->child_data.reserve(static_cast<size_t>(n_children));
    for (int64_t i = 0; i < n_children; ++i) {
      const FieldPtr& f = storage->field(static_cast<int>(i));
      ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child,
                             Import(array->children[i], f->type(),
                                    Child(path, f->name().c_str(), i), depth + 1));
      data->child_data.push_back(std::move(child));
    }
    if (is_dictionary) {
      const auto& dict = checked_cast<DictionaryType>(*storage);
      ALKAID_ASSIGN_OR_RAISE(data->dictionary, Import(array->dictionary, dict.value_type(),
                                                      path + ".<dictionary>", depth + 1));
    }
    return data;
  }

 private:
  // Zero-copy unless the address does not suit the element type.
  Result<BufferPtr> Wrap(const uint8_t* p, int64_t size, int alignment) {
    if (reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(alignment) != 0) {
      return Buffer::Copy(p, size);
    }
    if (p == kZeros) return std::make_shared<Buffer>(p, size);
    return std::make_shared<Buffer>(p, size, owner_);
  }

  std::shared_ptr<ImportedArray> owner_;
};

// Moves the producer's struct into a shared holder (marking theirs released).
std::shared_ptr<ImportedArray> TakeArray(ArrowArray* array) {
  auto holder = std::make_shared<ImportedArray>();
  holder->array = *array;
  array->release = nullptr;
  return holder;
}

void ReleaseArrayStruct(ArrowArray* array) {
  if (array != nullptr && array->release != nullptr) array->release(array);
}

Status ValidateImported(const ArrayData& data, const std::string& root,
                        const ImportOptions& options) {
  ValidateOptions v;
  v.full = options.validate_full;
  v.types_validated = true;
  v.root_name = root;
  ALKAID_RETURN_NOT_OK(ValidateArray(data, v));
  if (options.validate_full) ALKAID_RETURN_NOT_OK(ValidateExtensionArray(data));
  return Status::OK();
}

Result<ArrayDataPtr> ImportArrayChecked(ArrowArray* array, const DataTypePtr& type,
                                        const ImportOptions& options, bool type_checked) {
  if (array == nullptr) return Status::Invalid("ArrowArray at <root>: null pointer");
  if (array->release == nullptr) return Status::Invalid("ArrowArray at <root>: struct is released");
  std::shared_ptr<ImportedArray> holder;
  try {
    holder = TakeArray(array);
  } catch (const std::bad_alloc&) {
    array->release(array);
    return Status::OutOfMemory("C Data Interface import: out of memory");
  }
  return Guard([&]() -> Result<ArrayDataPtr> {
    if (!type_checked) {
      Status st = ValidateType(*type);
      if (!st.ok()) return st.WithContext("type given for import");
    }
    ArrayImporter importer(holder);
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, importer.Import(&holder->array, type, "<root>", 0));
    holder.reset();  // the buffers hold it now
    ALKAID_RETURN_NOT_OK(ValidateImported(*data, "<root>", options));
    return data;
  });
}

Result<RecordBatchPtr> ImportBatchChecked(ArrowArray* array, const SchemaPtr& schema,
                                          const ImportOptions& options) {
  if (array == nullptr) return Status::Invalid("ArrowArray at <root>: null pointer");
  if (array->release == nullptr) return Status::Invalid("ArrowArray at <root>: struct is released");
  auto holder = TakeArray(array);
  return Guard([&]() -> Result<RecordBatchPtr> {
    const ArrowArray& a = holder->array;
    if (a.null_count > 0) {
      return Status::Invalid("ArrowArray at <root>: a record batch struct has ", a.null_count,
                             " nulls");
    }
    auto type = struct_(schema->fields());
    ArrayImporter importer(holder);
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, importer.Import(&a, type, "<root>", 0));
    holder.reset();
    ALKAID_RETURN_NOT_OK(ValidateImported(*data, "<root>", options));
    ArrayDataVector columns;
    columns.reserve(data->child_data.size());
    for (ArrayDataPtr column : data->child_data) {
      // Struct-level offset and length apply to every child.
      if (data->offset != 0 || column->length != data->length) {
        ALKAID_ASSIGN_OR_RAISE(column, column->SliceSafe(data->offset, data->length));
      }
      columns.push_back(std::move(column));
    }
    return RecordBatch::Make(schema, data->length, std::move(columns));
  });
}

}  // namespace

Result<DataTypePtr> ImportType(ArrowSchema* schema) {
  return Guard([&]() -> Result<DataTypePtr> {
    ALKAID_ASSIGN_OR_RAISE(ImportedNode node, ImportRootNode(schema));
    return node.type;
  });
}

Result<FieldPtr> ImportField(ArrowSchema* schema) {
  return Guard([&]() -> Result<FieldPtr> {
    ALKAID_ASSIGN_OR_RAISE(ImportedNode node, ImportRootNode(schema));
    return std::make_shared<Field>(std::move(node.name), std::move(node.type), node.nullable,
                                   std::move(node.metadata));
  });
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  return Guard([&]() -> Result<SchemaPtr> {
    ALKAID_ASSIGN_OR_RAISE(ImportedNode node, ImportRootNode(schema));
    if (node.type->id() != TypeId::kStruct) {
      return Status::Invalid("ArrowSchema at <root>: a schema must have format '+s', got ",
                             node.type->ToString());
    }
    return std::make_shared<Schema>(node.type->fields(), std::move(node.metadata));
  });
}

Result<ArrayDataPtr> ImportArray(ArrowArray* array, const DataTypePtr& type,
                                 const ImportOptions& options) {
  if (type == nullptr) {
    ReleaseArrayStruct(array);
    return Status::Invalid("ImportArray: null type");
  }
  return ImportArrayChecked(array, type, options, false);
}

// Import owns `array` from the call on: when what comes with it (its type or schema) cannot be
// imported, the array is released before the error goes back.
namespace {
template <typename T>
Result<T> ReleasingOnError(Result<T> imported, ArrowArray* array) {
  if (!imported.ok()) ReleaseArrayStruct(array);
  return imported;
}
}  // namespace

Result<ArrayDataPtr> ImportArray(ArrowArray* array, ArrowSchema* schema,
                                 const ImportOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(DataTypePtr type, ReleasingOnError(ImportType(schema), array));
  return ImportArrayChecked(array, type, options, true);
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema,
                                         const ImportOptions& options) {
  if (schema == nullptr) {
    ReleaseArrayStruct(array);
    return Status::Invalid("ImportRecordBatch: null schema");
  }
  for (const FieldPtr& f : schema->fields()) {
    Status st = ValidateType(*f->type());
    if (!st.ok()) {
      ReleaseArrayStruct(array);
      return st.WithContext("field '" + f->name() + "' of the schema given for import");
    }
  }
  return ImportBatchChecked(array, schema, options);
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema,
                                         const ImportOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(SchemaPtr imported, ReleasingOnError(ImportSchema(schema), array));
  return ImportBatchChecked(array, imported, options);
}

namespace {
Status CheckCpu(ArrowDeviceArray* array) {
  if (array == nullptr) return Status::Invalid("ArrowDeviceArray: null pointer");
  if (array->device_type != ARROW_DEVICE_CPU) {
    ReleaseArrayStruct(&array->array);
    return Status::NotImplemented("ArrowDeviceArray on device type ", array->device_type,
                                  ": only the CPU device (", ARROW_DEVICE_CPU,
                                  ") is supported");
  }
  return Status::OK();
}
}  // namespace

Result<ArrayDataPtr> ImportDeviceArray(ArrowDeviceArray* array, const DataTypePtr& type,
                                       const ImportOptions& options) {
  ALKAID_RETURN_NOT_OK(CheckCpu(array));
  return ImportArray(&array->array, type, options);
}

Result<RecordBatchPtr> ImportDeviceRecordBatch(ArrowDeviceArray* array, const SchemaPtr& schema,
                                               const ImportOptions& options) {
  ALKAID_RETURN_NOT_OK(CheckCpu(array));
  return ImportRecordBatch(&array->array, schema, options);
}

}  // namespace alkaid::c_data

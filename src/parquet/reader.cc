// FileReader: opening and the footer, projection, row-group selection, reading row groups
// (leaves in parallel, then assembly and ARROW:schema restoration), tables.
#include "alkaid/parquet/reader.h"

#include <algorithm>
#include <cstring>

#include "alkaid/thread_pool.h"
#include "src/parquet/assemble.h"
#include "src/parquet/metadata_internal.h"
#include "src/parquet/predicate.h"
#include "src/parquet/reader_internal.h"
#include "src/parquet/restore.h"
#include "src/parquet/schema/arrow_schema_key.h"

namespace alkaid::parquet {

using namespace internal;  // NOLINT: the module's own internals

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";

Status EncryptedError(const std::string& name) {
  return Status::NotImplemented(name, ": encrypted Parquet files are not supported");
}

// Keeps the parts of `node` with selected leaves; false when nothing under it is selected.
// Maps and variants are kept whole (their Arrow types need every part).
bool Prune(const FieldNode& node, const std::vector<bool>& selected, FieldNode* out) {
  switch (node.kind) {
    case FieldNode::Kind::kLeaf:
      if (!selected[static_cast<size_t>(node.column_index)]) return false;
      *out = node;
      return true;
    case FieldNode::Kind::kMap: {
      FieldNode copy;
      bool any = false;
      for (const auto& child : node.children) any |= Prune(child, selected, &copy);
      if (any) *out = node;
      return any;
    }
    case FieldNode::Kind::kList: {
      FieldNode child;
      if (!Prune(node.children[0], selected, &child)) return false;
      *out = node;
      out->children[0] = child;
      out->field = node.field->WithType(list(child.field));
      return true;
    }
    case FieldNode::Kind::kStruct: {
      std::vector<FieldNode> kept;
      for (const auto& child : node.children) {
        FieldNode c;
        if (Prune(child, selected, &c)) kept.push_back(std::move(c));
      }
      if (kept.empty()) return false;
      *out = node;
      bool whole = kept.size() == node.children.size();
      for (size_t i = 0; i < kept.size() && whole; ++i) {
        whole = kept[i].field == node.children[i].field;
      }
      // A variant's storage needs all its fields: kept whole.
      if (whole || node.extension != nullptr) return true;
      FieldVector fields;
      for (const auto& c : kept) fields.push_back(c.field);
      out->children = std::move(kept);
      out->field = node.field->WithType(struct_(std::move(fields)));
      return true;
    }
  }
  return false;
}

void MarkLeaves(const FieldNode& node, std::vector<bool>* selected) {
  if (node.kind == FieldNode::Kind::kLeaf) {
    (*selected)[static_cast<size_t>(node.column_index)] = true;
    return;
  }
  for (const auto& child : node.children) MarkLeaves(child, selected);
}

}  // namespace

// ---- opening ---------------------------------------------------------------------------------

Result<std::shared_ptr<FileMetaData>> internal::ReadFooter(io::RandomAccessFile* file,
                                                 const std::string& name,
                                                 const thrift::ThriftLimits& limits,
                                                 int64_t* data_end) {
  ALKAID_ASSIGN_OR_RAISE(int64_t size, file->GetSize());
  if (size < 12) {
    return Status::Invalid(name, ": ", size, " bytes is too small for a Parquet file "
                           "(magic, footer length and magic take 12)");
  }
  uint8_t tail[8];
  ALKAID_ASSIGN_OR_RAISE(int64_t got, file->ReadAt(size - 8, 8, tail));
  if (got != 8) return Status::IOError(name, ": short read of the file's last 8 bytes");
  if (std::memcmp(tail + 4, kEncryptedMagic, 4) == 0) return EncryptedError(name);
  if (std::memcmp(tail + 4, kMagic, 4) != 0) {
    return Status::Invalid(name, ": not a Parquet file (no PAR1 magic at its end)");
  }
  uint8_t head[4];
  ALKAID_ASSIGN_OR_RAISE(got, file->ReadAt(0, 4, head));
  if (got != 4 || std::memcmp(head, kMagic, 4) != 0) {
    return Status::Invalid(name, ": not a Parquet file (no PAR1 magic at its start)");
  }
  uint32_t footer_length;
  std::memcpy(&footer_length, tail, 4);
  if (footer_length > static_cast<uint64_t>(size - 12)) {
    return Status::Invalid(name, ": footer length ", footer_length, " exceeds the ",
                           size - 12, " bytes between the magics");
  }
  *data_end = size - 8 - footer_length;
  ALKAID_ASSIGN_OR_RAISE(auto footer, file->ReadAt(*data_end, footer_length));
  if (footer->size() != footer_length) return Status::IOError(name, ": short read of the footer");
  return ParseFileMetaData(footer->data(), footer->size(), limits, name);
}

Result<std::shared_ptr<FileMetaData>> ReadMetaData(std::shared_ptr<io::RandomAccessFile> file,
                                                   const ReaderOptions& options) {
  thrift::ThriftLimits limits;
  limits.max_string_size = options.max_metadata_string_size;
  limits.max_container_size = options.max_metadata_list_size;
  int64_t data_end = 0;
  return ReadFooter(file.get(), "Parquet input", limits, &data_end);
}

FileReader::FileReader(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileReader::~FileReader() = default;

Result<std::unique_ptr<FileReader>> FileReader::Open(const std::string& path,
                                                     const ReaderOptions& options) {
  auto file = io::MemoryMappedFile::Open(path);
  if (!file.ok()) return file.status();
  return OpenNamed(*file, path, options);
}

Result<std::unique_ptr<FileReader>> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                                     const ReaderOptions& options) {
  return OpenNamed(std::move(file), "Parquet input", options);
}

Result<std::unique_ptr<FileReader>> FileReader::Open(BufferPtr buffer,
                                                     const ReaderOptions& options) {
  return OpenNamed(std::make_shared<io::BufferReader>(std::move(buffer)), "Parquet buffer",
                   options);
}

Result<std::unique_ptr<FileReader>> FileReader::OpenNamed(
    std::shared_ptr<io::RandomAccessFile> file, const std::string& name,
    const ReaderOptions& options) {
  auto impl = std::make_shared<Impl>();
  impl->file = std::move(file);
  impl->name = name;
  impl->options = options;
  impl->settings.verify_checksums = options.verify_checksums;
  impl->settings.limits.max_string_size = options.max_metadata_string_size;
  impl->settings.limits.max_container_size = options.max_metadata_list_size;
  impl->settings.pool = options.pool;
  ALKAID_ASSIGN_OR_RAISE(impl->file_size, impl->file->GetSize());
  ALKAID_ASSIGN_OR_RAISE(impl->metadata, ReadFooter(impl->file.get(), name,
                                                    impl->settings.limits, &impl->data_end));
  impl->budget_limit = options.memory_budget > 0
                           ? options.memory_budget
                           : std::max<int64_t>(options.memory_budget_floor,
                                               static_cast<int64_t>(options.memory_budget_ratio *
                                                                    impl->file_size));
  const SchemaDescriptor& schema = impl->metadata->schema();
  SchemaMappingOptions mapping;
  mapping.binary_layout = options.binary_type == BinaryReadType::kLarge ? BinaryLayout::kLarge
                          : options.binary_type == BinaryReadType::kView ? BinaryLayout::kView
                                                                          : BinaryLayout::kBinary;
  mapping.int96_unit = options.int96_unit;
  mapping.read_dictionary.assign(static_cast<size_t>(schema.num_columns()), false);
  for (const auto& name_or_path : options.read_dictionary) {
    ALKAID_ASSIGN_OR_RAISE(auto columns, impl->ResolveLeaves(name_or_path));
    for (int c : columns) mapping.read_dictionary[static_cast<size_t>(c)] = true;
  }
  auto manifest = MapSchema(schema, options.use_arrow_schema ? impl->metadata->key_value_metadata()
                                                             : nullptr,
                            mapping);
  if (!manifest.ok()) {
    return Status(manifest.status().code(), name + ": " + manifest.status().message());
  }
  impl->manifest = std::move(*manifest);
  if (!options.use_arrow_schema && impl->metadata->key_value_metadata()) {
    // Without restoration the ARROW:schema key is still not the user's metadata.
    auto kv = impl->metadata->key_value_metadata()->Without({kArrowSchemaKey});
    impl->manifest.schema = impl->manifest.decoded_schema->WithMetadata(
        kv->size() > 0 ? MetadataPtr(std::move(kv)) : nullptr);
    impl->manifest.decoded_schema = impl->manifest.schema;
  }
  ALKAID_ASSIGN_OR_RAISE(impl->projection,
                         impl->MakeProjection(options.columns, options.column_indices));
  // Row groups: chosen, then filtered by statistics.
  const int num_groups = impl->metadata->num_row_groups();
  std::vector<int> groups = options.row_groups;
  if (groups.empty()) {
    for (int i = 0; i < num_groups; ++i) groups.push_back(i);
  }
  for (int g : groups) {
    if (g < 0 || g >= num_groups) {
      return Status::IndexError(name, ": row group ", g, " requested, the file has ",
                                num_groups);
    }
  }
  ALKAID_ASSIGN_OR_RAISE(auto predicates, BindPredicates(options.filter, schema));
  for (int g : groups) {
    if (RowGroupMayMatch(impl->metadata->row_group(g), predicates)) {
      impl->selected_row_groups.push_back(g);
    }
  }
  return std::unique_ptr<FileReader>(new FileReader(std::move(impl)));
}

// ---- projection ------------------------------------------------------------------------------

Result<std::vector<int>> FileReader::Impl::ResolveLeaves(const std::string& name_or_path) const {
  const SchemaDescriptor& schema = metadata->schema();
  std::vector<int> out;
  for (int c = 0; c < schema.num_columns(); ++c) {
    std::string path = schema.column(c).path_string();
    if (path == name_or_path ||
        (path.size() > name_or_path.size() && path.compare(0, name_or_path.size(), name_or_path) == 0 &&
         path[name_or_path.size()] == '.')) {
      out.push_back(c);
    }
  }
  if (out.empty()) {
    return Status::KeyError(name, ": no column or field '", name_or_path,
                            "' in the Parquet schema");
  }
  return out;
}

Result<Projection> FileReader::Impl::MakeProjection(const std::vector<std::string>& columns,
                                                    const std::vector<int>& indices) const {
  const SchemaDescriptor& schema = metadata->schema();
  std::vector<bool> selected(static_cast<size_t>(schema.num_columns()), false);
  const bool all = columns.empty() && indices.empty();
  if (all) selected.assign(selected.size(), true);
  for (const auto& c : columns) {
    // A top-level name first (Arrow names may differ from Parquet paths for lists), then
    // a Parquet path.
    int field = manifest.decoded_schema->GetFieldIndex(c);
    if (field >= 0) {
      MarkLeaves(manifest.fields[static_cast<size_t>(field)], &selected);
      continue;
    }
    ALKAID_ASSIGN_OR_RAISE(auto leaves, ResolveLeaves(c));
    for (int leaf : leaves) selected[static_cast<size_t>(leaf)] = true;
  }
  for (int i : indices) {
    if (i < 0 || static_cast<size_t>(i) >= manifest.fields.size()) {
      return Status::IndexError(name, ": column index ", i, " requested, the schema has ",
                                manifest.fields.size(), " fields");
    }
    MarkLeaves(manifest.fields[static_cast<size_t>(i)], &selected);
  }
  Projection out;
  out.specs.resize(selected.size());
  FieldVector decoded_fields, fields;
  for (size_t i = 0; i < manifest.fields.size(); ++i) {
    FieldNode pruned;
    if (!Prune(manifest.fields[i], selected, &pruned)) continue;
    const bool whole = pruned.field == manifest.fields[i].field;
    decoded_fields.push_back(pruned.field);
    if (whole) {
      fields.push_back(manifest.schema->field(static_cast<int>(i)));
    } else if (manifest.origin != nullptr) {
      fields.push_back(RestoredField(pruned.field, manifest.origin->field(static_cast<int>(i))));
    } else {
      fields.push_back(pruned.field);
    }
    CollectLeafSpecs(pruned, schema, &out.specs);
    out.fields.push_back(std::move(pruned));
    out.field_index.push_back(static_cast<int>(i));
  }
  out.leaf_selected.assign(selected.size(), false);
  for (const auto& f : out.fields) MarkLeaves(f, &out.leaf_selected);
  for (size_t c = 0; c < out.leaf_selected.size(); ++c) {
    if (out.leaf_selected[c]) out.columns.push_back(static_cast<int>(c));
  }
  out.decoded_schema = alkaid::schema(decoded_fields, manifest.schema->metadata());
  out.schema = alkaid::schema(fields, manifest.schema->metadata());
  return out;
}

// ---- reading ---------------------------------------------------------------------------------

Result<RecordBatchPtr> FileReader::Impl::ReadRowGroup(int g, const Projection& projection) const {
  RowGroupMetaData rg = metadata->row_group(g);
  const int64_t rows = rg.num_rows();
  ReadBudget budget(budget_limit);
  const size_t n = projection.columns.size();
  std::vector<LeafData> leaves(projection.specs.size());
  std::vector<Status> errors(n);
  auto read_one = [&](int64_t k) {
    const int c = projection.columns[static_cast<size_t>(k)];
    ColumnChunkMetaData chunk = rg.column(c);
    ChunkName chunk_name{name, g, chunk.descriptor().path_string()};
    if (chunk.num_values() == 0 && rows == 0) {
      // Nothing to read (some writers leave such chunks without valid offsets).
      auto empty = MakeArrayOfNull(projection.specs[static_cast<size_t>(c)].type, 0, options.pool);
      if (!empty.ok()) {
        errors[static_cast<size_t>(k)] = empty.status();
      } else {
        leaves[static_cast<size_t>(c)].values = std::move(*empty);
      }
      return;
    }
    auto range = ColumnChunkRange(chunk, data_end, g);
    if (!range.ok()) {
      errors[static_cast<size_t>(k)] =
          Status(range.status().code(), name + ": " + range.status().message());
      return;
    }
    auto bytes = file->ReadAt(range->start, range->length);
    if (!bytes.ok()) {
      errors[static_cast<size_t>(k)] = bytes.status();
      return;
    }
    if ((*bytes)->size() != range->length) {
      errors[static_cast<size_t>(k)] = Status::IOError(chunk_name.ToString(), ": short read");
      return;
    }
    auto leaf = ReadLeaf(projection.specs[static_cast<size_t>(c)], chunk, std::move(*bytes),
                         range->start, settings, &budget, chunk_name);
    if (!leaf.ok()) {
      errors[static_cast<size_t>(k)] = leaf.status();
      return;
    }
    if (leaf->num_rows != rows) {
      errors[static_cast<size_t>(k)] = Status::Invalid(
          chunk_name.ToString(), ": the column has ", leaf->num_rows,
          " rows, the row group states ", rows);
      return;
    }
    leaves[static_cast<size_t>(c)] = std::move(*leaf);
  };
  int threads = options.num_threads > 0 ? options.num_threads : HardwareThreads();
  if (threads > 1 && n > 1) {
    RunParallel(static_cast<int64_t>(n), threads, read_one);
  } else {
    for (size_t k = 0; k < n; ++k) read_one(static_cast<int64_t>(k));
  }
  for (const auto& st : errors) ALKAID_RETURN_NOT_OK(st);
  ArrayDataVector columns;
  for (size_t f = 0; f < projection.fields.size(); ++f) {
    const FieldNode& node = projection.fields[f];
    auto in_field = [&](const Status& st) {
      return Status(st.code(), name + ": row group " + std::to_string(g) + ", field " +
                                   node.field->name() + ": " + st.message());
    };
    auto data = AssembleField(node, leaves, rows, options.pool);
    if (!data.ok()) return in_field(data.status());
    const DataTypePtr& target = projection.schema->field(static_cast<int>(f))->type();
    auto restored = RestoreArray(*data, target, options.pool);
    if (!restored.ok()) return in_field(restored.status());
    columns.push_back(std::move(*restored));
  }
  return RecordBatch::Make(projection.schema, rows, std::move(columns));
}

Result<std::shared_ptr<Table>> FileReader::Impl::ReadGroups(const std::vector<int>& groups,
                                                            const Projection& projection) const {
  std::vector<RecordBatchPtr> batches;
  for (int g : groups) {
    ALKAID_ASSIGN_OR_RAISE(auto batch, ReadRowGroup(g, projection));
    batches.push_back(std::move(batch));
  }
  return Table::FromRecordBatches(projection.schema, batches);
}

const FileMetaData& FileReader::metadata() const { return *impl_->metadata; }
const SchemaPtr& FileReader::schema() const { return impl_->manifest.schema; }
const SchemaPtr& FileReader::projected_schema() const { return impl_->projection.schema; }
int FileReader::num_row_groups() const { return impl_->metadata->num_row_groups(); }
const std::vector<int>& FileReader::selected_row_groups() const {
  return impl_->selected_row_groups;
}

Result<std::shared_ptr<Table>> FileReader::ReadTable() {
  return impl_->ReadGroups(impl_->selected_row_groups, impl_->projection);
}

Result<std::shared_ptr<Table>> FileReader::ReadTable(const std::vector<std::string>& columns) {
  ALKAID_ASSIGN_OR_RAISE(auto projection, impl_->MakeProjection(columns, {}));
  return impl_->ReadGroups(impl_->selected_row_groups, projection);
}

Result<std::shared_ptr<Table>> FileReader::ReadRowGroup(int i) {
  if (i < 0 || i >= num_row_groups()) {
    return Status::IndexError(impl_->name, ": row group ", i, " of ", num_row_groups());
  }
  return impl_->ReadGroups({i}, impl_->projection);
}

Result<std::shared_ptr<Table>> FileReader::ReadRowGroup(int i,
                                                        const std::vector<std::string>& columns) {
  if (i < 0 || i >= num_row_groups()) {
    return Status::IndexError(impl_->name, ": row group ", i, " of ", num_row_groups());
  }
  ALKAID_ASSIGN_OR_RAISE(auto projection, impl_->MakeProjection(columns, {}));
  return impl_->ReadGroups({i}, projection);
}

int64_t FileReader::CountRows() const {
  int64_t rows = 0;
  for (int g : impl_->selected_row_groups) rows += impl_->metadata->row_group(g).num_rows();
  return rows;
}

Result<std::shared_ptr<Table>> ReadTable(const std::string& path, const ReaderOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(path, options));
  return reader->ReadTable();
}

}  // namespace alkaid::parquet

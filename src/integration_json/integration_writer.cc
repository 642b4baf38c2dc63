// Schemas, dictionaries and batches -> integration JSON in the reference
// layout. Columns go straight from the buffers into a JsonTextWriter (a
// fixed buffer flushed to the output stream; column_writer.cc), so writing a
// batch costs the batch plus that buffer, whatever its length.
#include <ostream>

#include "alkaid/integration_json/integration.h"
#include "column_writer.h"
#include "integration_internal.h"
#include "json_text_writer.h"

namespace alkaid::integration_json {

using internal::JsonTextWriter;
using internal::WriteColumn;

namespace {

// An OutputStream appending to a std::string.
class StringOutputStream final : public io::OutputStream {
 public:
  explicit StringOutputStream(std::string* out) : out_(out) {}
  Status Write(const void* data, int64_t nbytes) override {
    out_->append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return static_cast<int64_t>(out_->size()); }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }

 private:
  std::string* out_;
};

// An OutputStream writing to a std::ostream.
class StdOutputStream final : public io::OutputStream {
 public:
  explicit StdOutputStream(std::ostream* out) : out_(out) {}
  Status Write(const void* data, int64_t nbytes) override {
    out_->write(static_cast<const char*>(data), static_cast<std::streamsize>(nbytes));
    if (!*out_) return Status::IOError("integration JSON: writing the output failed");
    position_ += nbytes;
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return position_; }
  Status Flush() override {
    out_->flush();
    return *out_ ? Status::OK() : Status::IOError("integration JSON: writing the output failed");
  }
  Status Close() override { return Flush(); }
  bool closed() const override { return false; }

 private:
  std::ostream* out_;
  int64_t position_ = 0;
};

// The text of one column, for comparing what two arrays would write.
Result<std::string> ColumnText(const ArrayData& data) {
  std::string text;
  StringOutputStream sink(&text);
  JsonTextWriter out(&sink);
  ALKAID_RETURN_NOT_OK(WriteColumn(&out, data, data.offset, data.length, ""));
  ALKAID_RETURN_NOT_OK(out.Flush());
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------
// Dictionaries carried by the batches

namespace internal {

class DictionaryCollector {
 public:
  explicit DictionaryCollector(const DictionaryIds& ids) : ids_(ids) {}

  Status Collect(const ArrayData& data, FieldPath* path) {
    const DataType& storage = internal::UnwrapExtension(*data.type);
    const DataType* walk = &storage;
    const ArrayData* children_of = &data;
    if (storage.id() == TypeId::kDictionary) {
      ALKAID_RETURN_NOT_OK(Record(data, *path));
      if (data.dictionary == nullptr) return Status::OK();
      walk = &internal::UnwrapExtension(*static_cast<const DictionaryType&>(storage).value_type());
      children_of = data.dictionary.get();
    }
    for (int i = 0; i < walk->num_fields() && static_cast<size_t>(i) < children_of->child_data.size(); ++i) {
      path->push_back(i);
      Status st = Collect(*children_of->child_data[static_cast<size_t>(i)], path);
      path->pop_back();
      ALKAID_RETURN_NOT_OK(st);
    }
    return Status::OK();
  }

  std::map<int64_t, ArrayDataPtr> Take() { return std::move(found_); }

 private:
  Status Record(const ArrayData& data, const FieldPath& path) {
    auto id = ids_.Get(path);
    if (!id) return Status::KeyError("a dictionary-encoded column has no dictionary id");
    if (data.dictionary == nullptr) {
      if (data.length == 0) return Status::OK();
      return Status::Invalid("dictionary-encoded column with id ", *id, " has no dictionary");
    }
    auto [it, inserted] = found_.emplace(*id, data.dictionary);
    if (inserted || it->second == data.dictionary) return Status::OK();
    // Different objects may still hold the same values; compare what would be written.
    ALKAID_ASSIGN_OR_RAISE(std::string a, ColumnText(*it->second));
    ALKAID_ASSIGN_OR_RAISE(std::string b, ColumnText(*data.dictionary));
    if (a != b)
      return Status::NotImplemented("dictionary id ", *id,
                                    " has different dictionaries in different batches; integration "
                                    "JSON holds one dictionary per id");
    return Status::OK();
  }

  const DictionaryIds& ids_;
  std::map<int64_t, ArrayDataPtr> found_;
};

}  // namespace internal

namespace {

Result<std::map<int64_t, ArrayDataPtr>> CollectDictionaries(const std::vector<RecordBatchPtr>& batches,
                                                            const DictionaryIds& ids) {
  IntegrationDictionaries collector(ids);
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(collector.Add(*batch));
  return collector.Take();
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}
int64_t SaturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

// A lower bound of the bytes the JSON of `length` slots of `data` takes,
// from lengths alone (no values are read): every slot of a node that has a
// VALIDITY or DATA array costs at least two bytes ("1,"). It lets the writer
// refuse a column of 2^62 struct slots before starting on it.
int64_t MinJsonBytes(const ArrayData& data, int64_t length) {
  const DataType& type = internal::UnwrapExtension(*data.type);
  int64_t per_slot_arrays = 2;  // VALIDITY and DATA/OFFSET/TYPE_ID
  int64_t children = 0;
  switch (type.id()) {
    case TypeId::kNull:
    case TypeId::kRunEndEncoded:  // runs, not slots, are written
      return 0;
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
      per_slot_arrays = 1;
      for (const auto& child : data.child_data) children = SaturatingAdd(children, MinJsonBytes(*child, length));
      break;
    case TypeId::kFixedSizeList: {
      int64_t size = static_cast<const FixedSizeListType&>(type).list_size();
      if (!data.child_data.empty())
        children = MinJsonBytes(*data.child_data[0], SaturatingMul(length, size));
      break;
    }
    default:
      break;
  }
  return SaturatingAdd(SaturatingMul(SaturatingMul(length, per_slot_arrays), 2), children);
}

}  // namespace

// ---------------------------------------------------------------------------
// Streaming writer

struct IntegrationJsonWriter::Impl {
  Impl(std::unique_ptr<io::OutputStream> owned, io::OutputStream* sink, SchemaPtr schema,
       const IntegrationWriteOptions& options)
      : owned_sink(std::move(owned)), text(sink), schema(std::move(schema)), options(options) {}

  Status CheckBudget(int64_t more, const std::string& what) const {
    if (options.max_output_bytes < 0) return Status::OK();
    const int64_t written = text.bytes_produced();
    if (more > options.max_output_bytes - written)
      return Status::CapacityError(what, " needs at least ", more, " bytes of integration JSON, and ",
                                   written, " were already written; the output limit is ",
                                   options.max_output_bytes, " bytes");
    return Status::OK();
  }

  Status CheckColumn(int64_t bytes, const std::string& what) const {
    if (options.max_column_bytes >= 0 && bytes > options.max_column_bytes)
      return Status::CapacityError(what, " needs at least ", bytes,
                                   " bytes of integration JSON, more than the limit of ",
                                   options.max_column_bytes, " bytes per column");
    return CheckBudget(bytes, what);
  }

  Status Begin(const DictionaryIds& ids, const std::map<int64_t, ArrayDataPtr>& dictionaries);
  Status Batch(const RecordBatch& batch);

  std::unique_ptr<io::OutputStream> owned_sink;
  JsonTextWriter text;
  SchemaPtr schema;
  IntegrationWriteOptions options;
  int64_t num_batches = 0;
  bool closed = false;
};

IntegrationJsonWriter::IntegrationJsonWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

IntegrationJsonWriter::~IntegrationJsonWriter() = default;

int64_t IntegrationJsonWriter::bytes_written() const { return impl_->text.bytes_produced(); }

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Open(
    std::ostream* out, SchemaPtr schema, const DictionaryIds& ids,
    const std::map<int64_t, ArrayDataPtr>& dictionaries, const IntegrationWriteOptions& options) {
  if (out == nullptr) return Status::Invalid("IntegrationJsonWriter: null output");
  auto sink = std::make_unique<StdOutputStream>(out);
  io::OutputStream* raw = sink.get();
  return Start(std::move(sink), raw, std::move(schema), ids, dictionaries, options);
}

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Open(
    io::OutputStream* out, SchemaPtr schema, const DictionaryIds& ids,
    const std::map<int64_t, ArrayDataPtr>& dictionaries, const IntegrationWriteOptions& options) {
  return Start(nullptr, out, std::move(schema), ids, dictionaries, options);
}

Result<std::unique_ptr<IntegrationJsonWriter>> IntegrationJsonWriter::Start(
    std::unique_ptr<io::OutputStream> owned, io::OutputStream* out, SchemaPtr schema,
    const DictionaryIds& ids, const std::map<int64_t, ArrayDataPtr>& dictionaries,
    const IntegrationWriteOptions& options) {
  if (out == nullptr || schema == nullptr)
    return Status::Invalid("IntegrationJsonWriter: null output or schema");
  try {
    auto impl = std::make_unique<Impl>(std::move(owned), out, schema, options);
    ALKAID_RETURN_NOT_OK(impl->Begin(ids, dictionaries));
    return std::unique_ptr<IntegrationJsonWriter>(new IntegrationJsonWriter(std::move(impl)));
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing");
  } catch (const nlohmann::json::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
}

Status IntegrationJsonWriter::Impl::Begin(const DictionaryIds& ids,
                                          const std::map<int64_t, ArrayDataPtr>& dictionaries) {
  ALKAID_ASSIGN_OR_RAISE(internal::OrderedJson schema_json, internal::SchemaToJson(*schema, ids));
  text.BeginObject();
  text.PlainKey("schema");
  ALKAID_RETURN_NOT_OK(text.Dom(schema_json));
  if (!dictionaries.empty()) {
    text.PlainKey("dictionaries");
    text.BeginArray();
    for (const auto& [id, values] : dictionaries) {
      const std::string what = "dictionary " + std::to_string(id);
      ALKAID_RETURN_NOT_OK(CheckColumn(MinJsonBytes(*values, values->length), what));
      text.BeginObject();
      text.PlainKey("id");
      text.Int(id);
      text.PlainKey("data");
      text.BeginObject();
      text.PlainKey("count");
      text.Int(values->length);
      text.PlainKey("columns");
      text.BeginArray();
      ALKAID_RETURN_NOT_OK(
          WriteColumn(&text, *values, values->offset, values->length, "DICT" + std::to_string(id)));
      text.EndArray();
      text.EndObject();
      text.EndObject();
    }
    text.EndArray();
  }
  text.PlainKey("batches");
  text.BeginArray();
  return text.Flush();
}

Status IntegrationJsonWriter::WriteRecordBatch(const RecordBatch& batch) {
  try {
    return impl_->Batch(batch);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while writing batch ",
                               impl_->num_batches);
  }
}

Status IntegrationJsonWriter::Impl::Batch(const RecordBatch& batch) {
  if (closed) return Status::Invalid("IntegrationJsonWriter: already closed");
  const int64_t b = num_batches;
  if (batch.num_columns() != schema->num_fields())
    return Status::Invalid("batch ", b, " has ", batch.num_columns(), " columns but the schema has ",
                           schema->num_fields(), " fields");
  int64_t need = 0;
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& column = *batch.column_data(c);
    if (column.length != batch.num_rows())
      return Status::Invalid("batch ", b, " column ", c, " has length ", column.length,
                             " but the batch has ", batch.num_rows(), " rows");
    int64_t bytes = MinJsonBytes(column, column.length);
    ALKAID_RETURN_NOT_OK(CheckColumn(bytes, "batch " + std::to_string(b) + " column " +
                                                std::to_string(c) + " ('" + batch.column_name(c) +
                                                "', " + std::to_string(column.length) + " rows)"));
    need = SaturatingAdd(need, bytes);
  }
  ALKAID_RETURN_NOT_OK(CheckBudget(need, "batch " + std::to_string(b) + " (" +
                                         std::to_string(batch.num_rows()) + " rows)"));
  text.BeginObject();
  text.PlainKey("count");
  text.Int(batch.num_rows());
  text.PlainKey("columns");
  text.BeginArray();
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& column = *batch.column_data(c);
    Status st = WriteColumn(&text, column, column.offset, column.length, schema->field(c)->name());
    if (!st.ok()) return st.WithContext("batch " + std::to_string(b));
  }
  text.EndArray();
  text.EndObject();
  // Whole batches reach the output as they are done.
  ALKAID_RETURN_NOT_OK(text.Flush());
  ++num_batches;
  return Status::OK();
}

Status IntegrationJsonWriter::Close() {
  Impl& impl = *impl_;
  if (impl.closed) return Status::OK();
  impl.closed = true;
  impl.text.EndArray();
  impl.text.EndObject();
  ALKAID_RETURN_NOT_OK(impl.text.Flush());
  if (impl.owned_sink != nullptr) return impl.owned_sink->Flush();
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Dictionaries collected batch by batch

// The public class names its collector without naming the internal one.
class IntegrationDictionaries::Collector : public internal::DictionaryCollector {
 public:
  using DictionaryCollector::DictionaryCollector;
};

IntegrationDictionaries::IntegrationDictionaries(DictionaryIds ids)
    : ids_(std::move(ids)), collector_(std::make_unique<Collector>(ids_)) {}
IntegrationDictionaries::~IntegrationDictionaries() = default;

Status IntegrationDictionaries::Add(const RecordBatch& batch) {
  FieldPath path;
  for (int c = 0; c < batch.num_columns(); ++c) {
    path.assign(1, c);
    Status st = collector_->Collect(*batch.column_data(c), &path);
    if (!st.ok())
      return st.WithContext("batch " + std::to_string(num_batches_) + " column " + std::to_string(c));
  }
  ++num_batches_;
  return Status::OK();
}

std::map<int64_t, ArrayDataPtr> IntegrationDictionaries::Take() { return collector_->Take(); }

namespace {

Result<std::string> WriteFile(const Schema& schema, const DictionaryIds& ids,
                              const std::map<int64_t, ArrayDataPtr>& dictionaries,
                              const std::vector<RecordBatchPtr>& batches) {
  std::string text;
  StringOutputStream out(&text);
  // The writer keeps the schema alive; a non-owning alias suffices here.
  SchemaPtr alias(std::shared_ptr<Schema>(), const_cast<Schema*>(&schema));
  ALKAID_ASSIGN_OR_RAISE(auto writer, IntegrationJsonWriter::Open(&out, alias, ids, dictionaries));
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return text;
}

}  // namespace

Result<std::string> WriteIntegrationJson(const IntegrationFile& file) {
  if (file.schema == nullptr) return Status::Invalid("WriteIntegrationJson: the file has no schema");
  DictionaryIds ids = file.dictionary_ids.empty() ? DictionaryIds::AssignSequential(*file.schema)
                                                  : file.dictionary_ids;
  if (!file.dictionaries.empty()) return WriteFile(*file.schema, ids, file.dictionaries, file.batches);
  ALKAID_ASSIGN_OR_RAISE(auto dictionaries, CollectDictionaries(file.batches, ids));
  return WriteFile(*file.schema, ids, dictionaries, file.batches);
}

Result<std::string> WriteIntegrationJson(const Schema& schema, const std::vector<RecordBatchPtr>& batches,
                                         const DictionaryIds* ids) {
  DictionaryIds assigned = ids != nullptr ? *ids : DictionaryIds::AssignSequential(schema);
  ALKAID_ASSIGN_OR_RAISE(auto dictionaries, CollectDictionaries(batches, assigned));
  return WriteFile(schema, assigned, dictionaries, batches);
}

Result<std::string> WriteIntegrationSchemaJson(const Schema& schema, const DictionaryIds* ids) {
  DictionaryIds assigned = ids != nullptr ? *ids : DictionaryIds::AssignSequential(schema);
  try {
    ALKAID_ASSIGN_OR_RAISE(internal::OrderedJson json, internal::SchemaToJson(schema, assigned));
    std::string text;
    StringOutputStream sink(&text);
    JsonTextWriter out(&sink);
    ALKAID_RETURN_NOT_OK(out.Dom(json));
    ALKAID_RETURN_NOT_OK(out.Flush());
    return text;
  } catch (const std::exception& e) {
    return Status::UnknownError("integration JSON: ", e.what());
  }
}

}  // namespace alkaid::integration_json

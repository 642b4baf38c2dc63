// ReaderCore: schema, projection, dictionaries and batch loading shared by
// every IPC reader.
#include <algorithm>
#include <cmath>

#include "alkaid/concatenate.h"
#include "alkaid/validate.h"
#include "reader_internal.h"

namespace alkaid::ipc::internal {

namespace {

bool IsAligned8(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) % 8 == 0; }

// max(floor, ratio * wire_size), saturating.
int64_t AllocationCap(const IpcReadOptions& options, int64_t wire_size) {
  double scaled = options.max_allocation_ratio * static_cast<double>(std::max<int64_t>(wire_size, 0));
  int64_t from_ratio =
      scaled >= 9.0e18 || std::isnan(scaled) ? INT64_MAX : static_cast<int64_t>(scaled);
  return std::max(options.max_allocation_floor, from_ratio);
}

}  // namespace

std::string MessageLocation::ToString() const {
  std::string out = std::string(kind) + " " + std::to_string(index);
  if (byte_offset >= 0) out += " at byte " + std::to_string(byte_offset);
  return out;
}

Status AtLocationSlow(const Status& st, const MessageLocation& where) {
  return st.WithContext(where.ToString());
}

Result<const fb::Message*> DecodeMessageMetadata(BufferPtr* metadata, MemoryPool* pool) {
  if (!IsAligned8((*metadata)->data())) {
    ALKAID_ASSIGN_OR_RAISE(*metadata, Buffer::Copy((*metadata)->data(), (*metadata)->size(), pool));
  }
  ALKAID_ASSIGN_OR_RAISE(const fb::Message* message,
                         VerifyMessage((*metadata)->data(), (*metadata)->size(), "message metadata"));
  ALKAID_RETURN_NOT_OK(CheckMetadataVersion(message->version(), "message"));
  if (message->bodyLength() < 0) {
    return Status::Invalid("message body length is negative (", message->bodyLength(), ")");
  }
  return message;
}

// ---------------------------------------------------------------------------

Status ReaderCore::Init(const fb::Schema* schema, const IpcReadOptions& options, bool is_file) {
  options_ = options;
  if (options_.pool == nullptr) options_.pool = default_memory_pool();
  is_file_ = is_file;
  if (schema == nullptr) return Status::Invalid("schema message has no schema table");
  ALKAID_ASSIGN_OR_RAISE(SchemaReadResult read, ReadSchema(schema, options_.max_recursion_depth));
  full_schema_ = std::move(read.schema);
  full_ids_ = std::move(read.dictionary_ids);
  for (const FieldPtr& field : full_schema_->fields()) {
    Status st = ValidateType(*field->type());
    if (!st.ok()) return st.WithContext("field '" + field->name() + "' of the schema");
  }
  swap_endian_ = full_schema_->endianness() != NativeEndianness();

  const int num_fields = full_schema_->num_fields();
  output_position_.assign(static_cast<size_t>(num_fields), -1);
  std::vector<int> included = options_.included_fields;
  if (included.empty()) {
    for (int i = 0; i < num_fields; ++i) included.push_back(i);
  }
  for (size_t pos = 0; pos < included.size(); ++pos) {
    int index = included[pos];
    if (index < 0 || index >= num_fields) {
      return Status::IndexError("included field index ", index, " is out of range for a schema of ",
                                num_fields, " fields");
    }
    if (output_position_[static_cast<size_t>(index)] >= 0) {
      return Status::Invalid("included field index ", index, " is listed twice");
    }
    output_position_[static_cast<size_t>(index)] = static_cast<int>(pos);
  }
  ALKAID_ASSIGN_OR_RAISE(SchemaPtr projected, full_schema_->Project(included));
  out_schema_ = projected->WithEndianness(NativeEndianness());

  out_ids_ = DictionaryIds();
  for (const auto& [path, id] : full_ids_.entries()) {
    int pos = output_position_[static_cast<size_t>(path[0])];
    if (pos < 0) continue;
    FieldPath remapped = path;
    remapped[0] = pos;
    out_ids_.Set(remapped, id);
  }

  std::vector<bool> selected(static_cast<size_t>(num_fields));
  for (int i = 0; i < num_fields; ++i) selected[static_cast<size_t>(i)] = output_position_[static_cast<size_t>(i)] >= 0;
  return memo_.Init(*full_schema_, full_ids_, selected);
}

Result<const Codec*> ReaderCore::GetCodec(CompressionType type) {
  auto& slot = codecs_[static_cast<int>(type)];
  if (!slot) {
    ALKAID_ASSIGN_OR_RAISE(slot, Codec::Create(type));
  }
  return slot.get();
}

Status ReaderCore::PrepareLoader(const RecordBatchMeta& meta, const MessageBody& body,
                                 fb::MetadataVersion version, int64_t wire_size) {
  LoaderParams params;
  params.meta = &meta;
  params.body = &body;
  params.version = version;
  if (meta.compression != CompressionType::kNone) {
    ALKAID_ASSIGN_OR_RAISE(params.codec, GetCodec(meta.compression));
  }
  params.swap_endian = swap_endian_;
  params.options = &options_;
  params.max_decompressed_bytes = AllocationCap(options_, wire_size);
  params.memo = &memo_;
  params.ids = &full_ids_;
  loader_.Reset(params);
  return Status::OK();
}

Status ReaderCore::ValidateArrayOfSchema(const ArrayData& data) const {
  // Every type below comes from the schema, checked once in Init.
  ValidateOptions validate;
  validate.full = options_.validate_full;
  validate.types_validated = true;
  return ValidateArray(data, validate);
}

Status ReaderCore::ValidateColumn(const ArrayData& column, int index) const {
  Status st = ValidateArrayOfSchema(column);
  if (st.ok()) return st;
  return st.WithContext("column " + std::to_string(index) + " '" +
                        out_schema_->field(index)->name() + "' failed validation");
}

Result<RecordBatchPtr> ReaderCore::ReadRecordBatch(const fb::Message& message,
                                                   const MessageBody& body, int64_t wire_size,
                                                   const MessageLocation& where) {
  const fb::RecordBatch* header = message.header_as_RecordBatch();
  if (header == nullptr) return AtLocation(Status::Invalid("not a record batch message"), where);
  ALKAID_RETURN_NOT_OK(AtLocation(ReadRecordBatchHeader(header, body.size, &batch_meta_), where));
  ALKAID_RETURN_NOT_OK(
      AtLocation(PrepareLoader(batch_meta_, body, message.version(), wire_size), where));

  const size_t num_columns = static_cast<size_t>(out_schema_->num_fields());
  ArrayDataVector columns(num_columns);
  // When every buffer will be a slice of the body (no decompression, no byte
  // swapping), the columns' ArrayData live in one allocation: a batch of many
  // small columns then costs one malloc instead of one per column, and
  // keeping one column alive retains nothing the body would not anyway.
  ArrayData* block = nullptr;
  if (batch_meta_.compression == CompressionType::kNone && !swap_endian_ && num_columns > 1) {
    auto owner = std::make_shared<ArrayData[]>(num_columns);
    block = owner.get();
    // The last column takes over the allocation's own reference: one atomic
    // increment fewer per batch.
    for (size_t c = 0; c + 1 < num_columns; ++c) columns[c] = ArrayDataPtr(owner, &block[c]);
    columns[num_columns - 1] = ArrayDataPtr(std::move(owner), &block[num_columns - 1]);
  }
  FieldPath& path = top_path_;
  path.resize(1);
  for (int i = 0; i < full_schema_->num_fields(); ++i) {
    path[0] = i;
    const int pos = output_position_[static_cast<size_t>(i)];
    const FieldPtr& field = full_schema_->field(i);
    Status st;
    if (pos < 0) {
      st = loader_.Skip(field, path);
    } else if (block) {
      st = loader_.LoadInto(field, path, &block[static_cast<size_t>(pos)]);
    } else {
      st = loader_.Load(field, path, &columns[static_cast<size_t>(pos)]);
    }
    ALKAID_RETURN_NOT_OK(AtLocation(st, where));
  }
  ALKAID_RETURN_NOT_OK(AtLocation(loader_.Finish(), where));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i]->length != batch_meta_.length) {
      return AtLocation(Status::Invalid("column ", i, " '", out_schema_->field(static_cast<int>(i))->name(),
                                        "' has ", columns[i]->length,
                                        " rows but the record batch declares ", batch_meta_.length),
                        where);
    }
    ALKAID_RETURN_NOT_OK(AtLocation(ValidateColumn(*columns[i], static_cast<int>(i)), where));
  }
  ++stats_.num_record_batches;
  return RecordBatch::Make(out_schema_, batch_meta_.length, std::move(columns));
}

Status ReaderCore::ReadDictionaryBatch(const fb::Message& message, const MessageBody& body,
                                       int64_t wire_size, const MessageLocation& where) {
  const fb::DictionaryBatch* header = message.header_as_DictionaryBatch();
  if (header == nullptr) return AtLocation(Status::Invalid("not a dictionary batch message"), where);
  ALKAID_RETURN_NOT_OK(AtLocation(ReadDictionaryBatchHeader(header, body.size, &dict_meta_), where));
  const int64_t id = dict_meta_.id;
  ++stats_.num_dictionary_batches;
  if (dict_meta_.is_delta) ++stats_.num_dictionary_deltas;

  DictionaryMemo::Entry* entry = memo_.Find(id);
  if (entry == nullptr) {
    return AtLocation(
        Status::KeyError("dictionary batch for id ", id, ", which no field of the schema uses"),
        where);
  }
  if (dict_meta_.is_delta && entry->values == nullptr && entry->needed) {
    return AtLocation(Status::Invalid("delta dictionary batch for id ", id,
                                      " before any dictionary batch defined it"),
                      where);
  }
  if (!dict_meta_.is_delta && entry->values != nullptr && is_file_) {
    return AtLocation(Status::Invalid("a second non-delta dictionary batch for id ", id,
                                      ": the file format does not allow replacing dictionaries"),
                      where);
  }
  // Dictionaries only projected-away fields use are skipped undecoded.
  if (!entry->needed) return Status::OK();

  ALKAID_RETURN_NOT_OK(
      AtLocation(PrepareLoader(dict_meta_.data, body, message.version(), wire_size), where));
  auto value_field = std::make_shared<Field>("dictionary " + std::to_string(id), entry->value_type);
  ArrayDataPtr values;
  Status st = loader_.Load(value_field, entry->path, &values);
  if (st.ok()) st = loader_.Finish();
  ALKAID_RETURN_NOT_OK(AtLocation(st, where));
  if (values->length != dict_meta_.data.length) {
    return AtLocation(Status::Invalid("dictionary id ", id, " has ", values->length,
                                      " values but its batch declares ", dict_meta_.data.length),
                      where);
  }
  st = ValidateArrayOfSchema(*values);
  ALKAID_RETURN_NOT_OK(
      AtLocation(st.WithContext("dictionary id " + std::to_string(id) + " failed validation"), where));

  if (dict_meta_.is_delta) {
    Result<ArrayDataPtr> joined = Concatenate({entry->values, values}, options_.pool);
    if (!joined.ok()) {
      return AtLocation(joined.status().WithContext("appending delta to dictionary id " + std::to_string(id)),
                        where);
    }
    entry->values = std::move(joined).MoveValueUnsafe();
  } else {
    if (entry->values != nullptr) ++stats_.num_replaced_dictionaries;
    entry->values = std::move(values);
  }
  return Status::OK();
}

Status ReaderCore::HandleStreamMessage(const fb::Message& message, const MessageBody& body,
                                       int64_t wire_size, const MessageLocation& where,
                                       RecordBatchPtr* batch) {
  ++stats_.num_messages;
  switch (message.header_type()) {
    case fb::MessageHeader::RecordBatch: {
      ALKAID_ASSIGN_OR_RAISE(*batch, ReadRecordBatch(message, body, wire_size, where));
      return Status::OK();
    }
    case fb::MessageHeader::DictionaryBatch:
      return ReadDictionaryBatch(message, body, wire_size, where);
    case fb::MessageHeader::Schema:
      return AtLocation(Status::Invalid("a second schema message in one stream"), where);
    case fb::MessageHeader::Tensor:
    case fb::MessageHeader::SparseTensor:
      return AtLocation(Status::NotImplemented("tensor messages are not supported"), where);
    default:
      return AtLocation(Status::Invalid("message has no header (type ",
                                        static_cast<int>(message.header_type()), ")"),
                        where);
  }
}

}  // namespace alkaid::ipc::internal

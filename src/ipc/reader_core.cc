// ReaderCore: schema, projection, dictionaries and batch loading shared by
// every IPC reader.
#include "reader_core.h"

#include <algorithm>

#include "alkaid/concatenate.h"
#include "alkaid/validate.h"
#include "../array/validate_internal.h"

namespace alkaid::ipc::internal {

ReadStats AtomicStats::Snapshot() const {
  ReadStats out;
  out.num_messages = num_messages.load(std::memory_order_relaxed);
  out.num_record_batches = num_record_batches.load(std::memory_order_relaxed);
  out.num_dictionary_batches = num_dictionary_batches.load(std::memory_order_relaxed);
  out.num_dictionary_deltas = num_dictionary_deltas.load(std::memory_order_relaxed);
  out.num_replaced_dictionaries = num_replaced_dictionaries.load(std::memory_order_relaxed);
  return out;
}

Status ReaderCore::Init(const fb::Schema* schema, const IpcReadOptions& options, bool is_file) {
  options_ = WithDefaultPool(options);
  data_pass_options_ = ValidateOptions();
  data_pass_options_.max_recursion_depth = options.max_recursion_depth;
  is_file_ = is_file;
  budget_ = std::make_shared<ReadBudget>(options_);
  for (CompressionType type : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
    ALKAID_ASSIGN_OR_RAISE(codecs_[static_cast<int>(type)], Codec::Create(type));
  }
  if (schema == nullptr) return Status::Invalid("schema message has no schema table");
  ALKAID_ASSIGN_OR_RAISE(SchemaReadResult read, ReadSchema(schema, options_.max_recursion_depth));
  full_schema_ = std::move(read.schema);
  full_ids_ = std::move(read.dictionary_ids);
  for (const FieldPtr& field : full_schema_->fields()) {
    Status st = ValidateType(*field->type(), options_.max_recursion_depth);
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
  ALKAID_RETURN_NOT_OK(memo_.Init(*full_schema_, full_ids_, selected));
  return BuildPlans();
}

Status ReaderCore::BuildPlans() {
  // The memo's entries exist now and never move: plans point at them.
  ALKAID_RETURN_NOT_OK(BuildLoadPlan(full_schema_->fields(), FieldPath{}, 0, full_ids_, memo_,
                                     options_.max_recursion_depth, &batch_plan_));
  dictionary_plans_.clear();  // made when each dictionary is first read
  // Output columns whose layout gives the data pass nothing to read unless
  // there are nulls to count.
  plain_columns_.assign(static_cast<size_t>(out_schema_->num_fields()), 0);
  for (size_t i = 0; i < output_position_.size(); ++i) {
    if (output_position_[i] < 0) continue;
    const PlanNode& root = batch_plan_.nodes[static_cast<size_t>(batch_plan_.roots[i])];
    bool plain = root.shape == PlanNode::Shape::kBuffers;
    for (int b = 0; b < root.num_buffers; ++b) {
      const BufferSpec::Kind kind = root.buffers[b].kind;
      plain = plain && (kind == BufferSpec::kValidity || kind == BufferSpec::kBitmapValues ||
                        kind == BufferSpec::kFixedWidth);
    }
    plain_columns_[static_cast<size_t>(output_position_[i])] = plain ? 1 : 0;
  }
  return Status::OK();
}

Result<const LoadPlan*> ReaderCore::DictionaryPlan(int64_t id, const DictionaryMemo::Entry& entry) {
  auto it = dictionary_plans_.find(id);
  if (it != dictionary_plans_.end()) return &it->second;
  // A dictionary's values load under the path of the first field using the
  // id, as a field named after it.
  LoadPlan plan;
  plan.owned_root = std::make_shared<Field>("dictionary " + std::to_string(id), entry.value_type);
  FieldPath base = entry.path;
  int last = 0;
  if (!base.empty()) {
    last = base.back();
    base.pop_back();
  }
  ALKAID_RETURN_NOT_OK(BuildLoadPlan({plan.owned_root}, base, last, full_ids_, memo_,
                                     options_.max_recursion_depth, &plan));
  return &dictionary_plans_.emplace(id, std::move(plan)).first->second;
}

Status ReaderCore::SelectedBuffers(const fb::Message& message, int64_t body_size,
                                   BatchScratch* scratch, std::vector<uint32_t>* indices) const {
  indices->clear();
  RecordBatchMeta& meta = scratch->meta;
  ALKAID_RETURN_NOT_OK(ReadRecordBatchHeader(message.header_as_RecordBatch(), body_size, &meta));
  // The loader in skip mode counts each field's buffers without touching a
  // byte (there is no body yet).
  const MessageBody no_body{nullptr, body_size, nullptr};
  ArrayLoader& loader = scratch->loader;
  ALKAID_RETURN_NOT_OK(PrepareLoader(&loader, &batch_plan_, meta, no_body, message.version()));
  for (int i = 0; i < full_schema_->num_fields(); ++i) {
    const size_t before = loader.buffers_used();
    ALKAID_RETURN_NOT_OK(loader.Skip(batch_plan_.roots[static_cast<size_t>(i)]));
    if (output_position_[static_cast<size_t>(i)] < 0) continue;
    for (size_t b = before; b < loader.buffers_used(); ++b) {
      indices->push_back(static_cast<uint32_t>(b));
    }
  }
  return Status::OK();
}

const Codec* ReaderCore::GetCodec(CompressionType type) const {
  return codecs_[static_cast<int>(type)].get();
}

Status ReaderCore::PrepareLoader(ArrayLoader* loader, const LoadPlan* plan,
                                 const RecordBatchMeta& meta, const MessageBody& body,
                                 fb::MetadataVersion version) const {
  LoaderParams params;
  params.meta = &meta;
  params.body = &body;
  params.version = version;
  if (meta.compression != CompressionType::kNone) {
    params.codec = GetCodec(meta.compression);
    if (params.codec == nullptr) {
      return Status::Invalid("unknown body compression ", static_cast<int>(meta.compression));
    }
  }
  params.swap_endian = swap_endian_;
  params.options = &options_;
  params.max_decompressed_bytes = std::max<int64_t>(options_.max_decompressed_message_bytes, 0);
  params.budget = &budget_;
  params.plan = plan;
  loader->Reset(params);
  return Status::OK();
}

Status ReaderCore::ValidateLoaded(const ArrayData& data,
                                  const alkaid::internal::ScannedBuffers& scanned) const {
  // The loader checked every structural rule as it built `data`; only the
  // data pass is left, and only when asked for.
  if (!options_.validate_full) return Status::OK();
  return alkaid::internal::ValidateArrayDataOfValidStructure(data, data_pass_options_, &scanned);
}

Status ReaderCore::ColumnLengthMismatch(size_t index, int64_t length, int64_t declared) const {
  return Status::Invalid("column ", index, " '", out_schema_->field(static_cast<int>(index))->name(),
                         "' has ", length, " rows but the record batch declares ", declared);
}

Status ReaderCore::ColumnFailed(const Status& st, size_t index) const {
  return st.WithContext("column " + std::to_string(index) + " '" +
                        out_schema_->field(static_cast<int>(index))->name() + "' failed validation");
}

namespace {

// The ArrayData of the columns of one uncompressed batch, in one allocation
// with the budget charge for their nodes.
struct ColumnBlock {
  Charge charge;
  ArrayData* columns = nullptr;
};

// Batches of a few columns (the common small-batch case) hold them inline:
// one allocation for the block instead of two, and no ArrayData made that
// no column uses.
template <size_t N>
struct InlineColumnBlock : ColumnBlock {
  InlineColumnBlock() { columns = storage; }
  ArrayData storage[N];
};

struct HeapColumnBlock : ColumnBlock {
  explicit HeapColumnBlock(size_t n) : storage(n) { columns = storage.data(); }
  std::vector<ArrayData> storage;
};

std::shared_ptr<ColumnBlock> MakeColumnBlock(size_t n) {
  switch (n) {
    case 1: return std::make_shared<InlineColumnBlock<1>>();
    case 2: return std::make_shared<InlineColumnBlock<2>>();
    case 3: return std::make_shared<InlineColumnBlock<3>>();
    case 4: return std::make_shared<InlineColumnBlock<4>>();
    default: return std::make_shared<HeapColumnBlock>(n);
  }
}

}  // namespace

Result<RecordBatchPtr> ReaderCore::ReadRecordBatch(const fb::Message& message,
                                                   const MessageBody& body,
                                                   const MessageLocation& where,
                                                   BatchScratch* scratch,
                                                   const PartialBody* partial) {
  RecordBatchPtr out;
  ALKAID_RETURN_NOT_OK(ReadRecordBatchInto(message, body, where, scratch, partial, &out));
  return out;
}

Status ReaderCore::ReadRecordBatchInto(const fb::Message& message, const MessageBody& body,
                                       const MessageLocation& where, BatchScratch* scratch,
                                       const PartialBody* partial, RecordBatchPtr* out) {
  if (scratch == nullptr) scratch = &scratch_;
  RecordBatchMeta& batch_meta = scratch->meta;
  ArrayLoader& loader = scratch->loader;
  const fb::RecordBatch* header = message.header_as_RecordBatch();
  if (header == nullptr) return AtLocation(Status::Invalid("not a record batch message"), where);
  ALKAID_RETURN_NOT_OK(AtLocation(
      ReadRecordBatchHeader(header, partial ? partial->declared_size : body.size, &batch_meta),
      where));
  if (partial != nullptr) [[unlikely]] {
    for (size_t k = 0; k < partial->indices.size(); ++k) {
      const size_t index = partial->indices[k];
      if (index >= batch_meta.buffers.size()) {
        return AtLocation(Status::Invalid("partial body lists buffer ", index, " of ",
                                          batch_meta.buffers.size()),
                          where);
      }
      batch_meta.buffers[index].offset = partial->offsets[k];
    }
  }
  ALKAID_RETURN_NOT_OK(
      AtLocation(PrepareLoader(&loader, &batch_plan_, batch_meta, body, message.version()), where));
  // Every node becomes an ArrayData: charged before any is made (the
  // column block below is sized by the schema, not by the message).
  const int64_t node_bytes = static_cast<int64_t>(batch_meta.nodes.size()) * kNodeCharge;
  const char* const kNodesWhat = "the field nodes of a record batch";
  Charge node_charge;

  const size_t num_columns = static_cast<size_t>(out_schema_->num_fields());
  ArrayDataVector columns;
  // When every buffer will be a slice of the body (no decompression, no byte
  // swapping), the columns' ArrayData live in one allocation: a batch of many
  // small columns then costs one malloc instead of one per column, and
  // keeping one column alive retains nothing the body would not anyway. The
  // block also carries the batch's node charge.
  ArrayData* block = nullptr;
  if (batch_meta.compression == CompressionType::kNone && !swap_endian_ && num_columns > 0) {
    std::shared_ptr<ColumnBlock> owner = MakeColumnBlock(num_columns);
    ALKAID_RETURN_NOT_OK(AtLocation(owner->charge.TakeInto(budget_, node_bytes, kNodesWhat), where));
    block = owner->columns;
    // The last column takes over the allocation's own reference: one atomic
    // increment fewer per batch.
    columns.reserve(num_columns);
    for (size_t c = 0; c + 1 < num_columns; ++c) columns.emplace_back(owner, &block[c]);
    columns.emplace_back(std::move(owner), &block[num_columns - 1]);
  } else {
    columns.resize(num_columns);
  }
  std::vector<size_t> column_nodes;
  if (!block) {
    ALKAID_RETURN_NOT_OK(AtLocation(node_charge.TakeInto(budget_, node_bytes, kNodesWhat), where));
    column_nodes.assign(num_columns, 0);
  }
  const int num_fields = full_schema_->num_fields();
  for (int i = 0; i < num_fields; ++i) {
    const int pos = output_position_[static_cast<size_t>(i)];
    const int32_t root = batch_plan_.roots[static_cast<size_t>(i)];
    Status st;
    const size_t nodes_before = loader.nodes_used();
    if (pos < 0) {
      st = loader.Skip(root);
    } else if (block) {
      ArrayData& column = block[static_cast<size_t>(pos)];
      st = loader.LoadInto(root, &column);
      if (st.ok() && column.length != batch_meta.length) [[unlikely]] {
        return AtLocation(ColumnLengthMismatch(static_cast<size_t>(pos), column.length,
                                               batch_meta.length),
                          where);
      }
    } else {
      st = loader.Load(root, &columns[static_cast<size_t>(pos)]);
      column_nodes[static_cast<size_t>(pos)] = loader.nodes_used() - nodes_before;
    }
    if (!st.ok()) [[unlikely]] return AtLocation(st, where);
  }
  ALKAID_RETURN_NOT_OK(AtLocation(loader.Finish(), where));
  if (!block) {
    // Each column carries the charge for its own nodes, so dropping a column
    // releases it. (Block columns were checked as they were loaded.)
    for (size_t c = 0; c < num_columns; ++c) {
      if (columns[c]->length != batch_meta.length) {
        return AtLocation(ColumnLengthMismatch(c, columns[c]->length, batch_meta.length), where);
      }
      columns[c] = AttachCharge(std::move(columns[c]),
                                node_charge.Split(static_cast<int64_t>(column_nodes[c]) * kNodeCharge));
    }
  }
  if (options_.validate_full) {
    // The loader checked the structure; the data pass is what is left.
    size_t failed = 0;
    alkaid::internal::BatchColumns batch;
    batch.columns = columns.data();
    batch.num_columns = columns.size();
    batch.plain = plain_columns_.data();
    batch.scanned = &loader.scanned();
    Status st =
        alkaid::internal::ValidateColumnsDataOfValidStructure(batch, data_pass_options_, &failed);
    if (!st.ok()) [[unlikely]] return AtLocation(ColumnFailed(st, failed), where);
  }
  stats_.num_record_batches.fetch_add(1, std::memory_order_relaxed);
  *out = RecordBatch::Make(out_schema_, batch_meta.length, std::move(columns));
  return Status::OK();
}

Result<DecodedDictionary> ReaderCore::DecodeDictionaryBatch(const fb::Message& message,
                                                            const MessageBody& body,
                                                            const MessageLocation& where) {
  const fb::DictionaryBatch* header = message.header_as_DictionaryBatch();
  if (header == nullptr) return AtLocation(Status::Invalid("not a dictionary batch message"), where);
  ALKAID_RETURN_NOT_OK(AtLocation(ReadDictionaryBatchHeader(header, body.size, &dict_meta_), where));
  DecodedDictionary out;
  out.id = dict_meta_.id;
  out.is_delta = dict_meta_.is_delta;
  const int64_t id = out.id;
  DictionaryMemo::Entry* entry = memo_.Find(id);
  if (entry == nullptr) {
    return AtLocation(
        Status::KeyError("dictionary batch for id ", id, ", which no field of the schema uses"),
        where);
  }
  // Dictionaries only projected-away fields use are skipped undecoded.
  if (!entry->needed) {
    out.skipped = true;
    return out;
  }
  // Dictionaries used inside this one's values must be current.
  for (int64_t nested : entry->nested_ids) {
    ALKAID_RETURN_NOT_OK(AtLocation(memo_.Materialize(nested, budget_, options_.pool), where));
  }
  Result<const LoadPlan*> plan = DictionaryPlan(id, *entry);
  if (!plan.ok()) return AtLocation(plan.status(), where);
  ALKAID_RETURN_NOT_OK(AtLocation(
      PrepareLoader(&dict_loader_, *plan, dict_meta_.data, body, message.version()), where));
  const int64_t node_bytes = static_cast<int64_t>(dict_meta_.data.nodes.size()) * kNodeCharge;
  {
    Status st = budget_->Check(node_bytes, "the field nodes of a dictionary batch");
    ALKAID_RETURN_NOT_OK(AtLocation(st, where));
  }
  Status st = dict_loader_.Load((*plan)->roots[0], &out.values);
  if (st.ok()) st = dict_loader_.Finish();
  ALKAID_RETURN_NOT_OK(AtLocation(st, where));
  if (out.values->length != dict_meta_.data.length) {
    return AtLocation(Status::Invalid("dictionary id ", id, " has ", out.values->length,
                                      " values but its batch declares ", dict_meta_.data.length),
                      where);
  }
  st = ValidateLoaded(*out.values, dict_loader_.scanned());
  ALKAID_RETURN_NOT_OK(
      AtLocation(st.WithContext("dictionary id " + std::to_string(id) + " failed validation"), where));
  return out;
}

Status ReaderCore::ApplyDictionary(const DecodedDictionary& dict, const MessageLocation& where) {
  stats_.num_dictionary_batches.fetch_add(1, std::memory_order_relaxed);
  if (dict.is_delta) stats_.num_dictionary_deltas.fetch_add(1, std::memory_order_relaxed);
  DictionaryMemo::Entry* entry = memo_.Find(dict.id);
  if (entry == nullptr) {
    return AtLocation(Status::KeyError("dictionary batch for id ", dict.id,
                                       ", which no field of the schema uses"),
                      where);
  }
  const bool defined = entry->values != nullptr || !entry->pending.empty();
  if (dict.is_delta && !defined && entry->needed) {
    return AtLocation(Status::Invalid("delta dictionary batch for id ", dict.id,
                                      " before any dictionary batch defined it"),
                      where);
  }
  if (!dict.is_delta && defined && is_file_) {
    return AtLocation(Status::Invalid("a second non-delta dictionary batch for id ", dict.id,
                                      ": the file format does not allow replacing dictionaries"),
                      where);
  }
  if (dict.skipped || !entry->needed) {
    // Remember that the id was defined (for the checks above) without
    // keeping any values.
    return Status::OK();
  }
  if (!dict.is_delta && defined) {
    stats_.num_replaced_dictionaries.fetch_add(1, std::memory_order_relaxed);
  }
  Status st = memo_.Apply(dict.id, dict.is_delta, dict.values, budget_, options_.pool);
  if (st.ok()) return st;
  return AtLocation(st.WithContext("dictionary id " + std::to_string(dict.id)), where);
}

Status ReaderCore::ReadDictionaryBatch(const fb::Message& message, const MessageBody& body,
                                       const MessageLocation& where) {
  ALKAID_ASSIGN_OR_RAISE(DecodedDictionary dict, DecodeDictionaryBatch(message, body, where));
  return ApplyDictionary(dict, where);
}

Status ReaderCore::MaterializeDictionaries() { return memo_.MaterializeAll(budget_, options_.pool); }

Status ReaderCore::HandleStreamMessage(const fb::Message& message, const MessageBody& body,
                                       int64_t wire_size, const MessageLocation& where,
                                       RecordBatchPtr* batch) {
  CountStreamMessage(wire_size);
  switch (message.header_type()) {
    case fb::MessageHeader::RecordBatch: {
      if (memo_.has_pending()) ALKAID_RETURN_NOT_OK(AtLocation(MaterializeDictionaries(), where));
      return ReadRecordBatchInto(message, body, where, nullptr, nullptr, batch);
    }
    case fb::MessageHeader::DictionaryBatch:
      return ReadDictionaryBatch(message, body, where);
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

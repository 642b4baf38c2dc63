// IPC stream and file writers.
//
// A record batch becomes one message: its arrays are walked in pre-order,
// each contributing a FieldNode and its buffers. Buffers are referenced, not
// copied, whenever the bytes on the wire are a window of an existing buffer;
// only sliced bitmaps at odd bit offsets, offsets that must be rebased to
// start at zero, and trimmed run ends are materialized. The body goes out in
// one gather write together with the framed metadata.
#include "alkaid/ipc/writer.h"

#include <algorithm>
#include <cstring>

#include "alkaid/bitmap.h"
#include "alkaid/compare.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "metadata.h"

namespace alkaid::ipc {

using internal::BufferMeta;
using internal::DictionaryBatchMeta;
using internal::DictionaryField;
using internal::FieldNodeMeta;
using internal::FileBlock;
using internal::RecordBatchMeta;

namespace {

using internal::FieldPathToString;

constexpr uint8_t kZeroBytes[64] = {};
// One zero offset (valid as int32 or int64) for empty offset buffers.
constexpr int64_t kZeroOffset = 0;

template <typename T>
T LoadValue(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// The window of an array that a node of the message describes: `offset` is
// absolute (already includes data->offset), in elements of this level.
struct NodeView {
  const ArrayData* data;
  int64_t offset;
  int64_t length;
};

// What a buffer of this kind is called in error messages.

// ---------------------------------------------------------------------------
// BodyBuilder: ArrayData -> FieldNodes + raw body ranges

class BodyBuilder {
 public:
  BodyBuilder(MemoryPool* pool, int max_depth) : pool_(pool), max_depth_(max_depth) {
    path_.reserve(16);
  }

  void Reset() {
    meta_.Clear();
    ranges_.clear();
    temporaries_.clear();
    path_.clear();
  }

  // Appends one column (or dictionary) restricted to [offset, offset + length)
  // of its own logical positions.
  Status AppendColumn(const ArrayData& data, int64_t offset, int64_t length, int column) {
    path_.assign(1, column);
    return Append(NodeView{&data, data.offset + offset, length}, 0);
  }

  RecordBatchMeta& meta() { return meta_; }
  std::vector<ByteRange>& ranges() { return ranges_; }

  // --- called by NodeVisitor ---

  Status Append(const NodeView& view, int depth);

  void AddNode(int64_t length, int64_t null_count) {
    meta_.nodes.push_back(FieldNodeMeta{length, null_count});
  }
  void AddRange(const void* data, int64_t size) {
    ranges_.push_back(ByteRange{static_cast<const uint8_t*>(data), size});
  }

  Result<uint8_t*> AllocateTemporary(int64_t size) {
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(size, pool_));
    uint8_t* data = buffer->mutable_data();
    temporaries_.push_back(std::move(buffer));
    return data;
  }

  // A byte window of buffer `index`, checked against the buffer's size.
  Status AddWindow(const ArrayData& data, int index, int64_t byte_offset, int64_t nbytes,
                   BufferSpec::Kind kind) {
    if (nbytes == 0) {
      AddRange(nullptr, 0);
      return Status::OK();
    }
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || byte_offset < 0 || (*buffer)->size() < byte_offset + nbytes) {
      return Fail(BufferSpec::KindName(kind), " buffer (index ", index, ") holds ",
                  buffer ? (*buffer)->size() : 0, " bytes, needs ", byte_offset + nbytes);
    }
    AddRange((*buffer)->data() + byte_offset, nbytes);
    return Status::OK();
  }

  // A bitmap window starting at bit `bit_offset`; shifted into a fresh
  // buffer only when the window does not start on a byte boundary.
  Status AddBitmap(const ArrayData& data, int index, int64_t bit_offset, int64_t length,
                   BufferSpec::Kind kind) {
    const int64_t nbytes = bit_util::BytesForBits(length);
    if (bit_offset % 8 == 0) return AddWindow(data, index, bit_offset / 8, nbytes, kind);
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || (*buffer)->size() < bit_util::BytesForBits(bit_offset + length)) {
      return Fail(BufferSpec::KindName(kind), " (index ", index, ") is too small for bits [", bit_offset, ", ",
                  bit_offset + length, ")");
    }
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(nbytes));
    bit_util::CopyBitmap((*buffer)->data(), bit_offset, length, out, 0);
    AddRange(out, nbytes);
    return Status::OK();
  }

  // Node for `view` with its null count, then the validity buffer (empty when
  // there are no nulls). Returns the null count.
  Result<int64_t> AddNodeWithValidity(const NodeView& view) {
    const ArrayData& data = *view.data;
    int64_t null_count;
    if (view.offset == data.offset && view.length == data.length) {
      null_count = data.GetNullCount();
    } else if (data.null_count == 0 || !data.HasValidityBitmap()) {
      null_count = 0;
    } else {
      const BufferPtr& bitmap = data.buffers[0];
      if (bitmap->size() < bit_util::BytesForBits(view.offset + view.length)) {
        return Fail("validity bitmap holds ", bitmap->size(), " bytes, too few for bits up to ",
                    view.offset + view.length);
      }
      null_count = view.length - bit_util::CountSetBits(bitmap->data(), view.offset, view.length);
    }
    AddNode(view.length, null_count);
    if (null_count == 0) {
      AddRange(nullptr, 0);
    } else {
      ALKAID_RETURN_NOT_OK(AddBitmap(data, 0, view.offset, view.length, BufferSpec::kValidity));
    }
    return null_count;
  }

  // Offsets of [view.offset, view.offset + view.length], rebased to start at
  // zero when they do not already. Reports the child range they cover.
  template <typename O>
  Status AddOffsets(const NodeView& view, int index, int64_t* first, int64_t* last) {
    const ArrayData& data = *view.data;
    if (view.length == 0) {
      AddRange(&kZeroOffset, sizeof(O));
      *first = *last = 0;
      return Status::OK();
    }
    const int64_t needed = (view.offset + view.length + 1) * static_cast<int64_t>(sizeof(O));
    const BufferPtr* buffer = BufferAt(data, index);
    if (buffer == nullptr || (*buffer)->size() < needed) {
      return Fail("offsets buffer holds ", buffer ? (*buffer)->size() : 0, " bytes, needs ",
                  needed);
    }
    const uint8_t* raw = (*buffer)->data() + view.offset * static_cast<int64_t>(sizeof(O));
    const O start = LoadValue<O>(raw);
    const O end = LoadValue<O>(raw + view.length * sizeof(O));
    if (start < 0 || end < start) {
      return Fail("offsets [", static_cast<int64_t>(start), ", ", static_cast<int64_t>(end),
                  "] at slots ", view.offset, "..", view.offset + view.length,
                  " are negative or decreasing");
    }
    *first = start;
    *last = end;
    const int64_t nbytes = (view.length + 1) * static_cast<int64_t>(sizeof(O));
    if (start == 0) {
      AddRange(raw, nbytes);
      return Status::OK();
    }
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(nbytes));
    for (int64_t i = 0; i <= view.length; ++i) {
      const O rebased = static_cast<O>(LoadValue<O>(raw + i * sizeof(O)) - start);
      std::memcpy(out + i * sizeof(O), &rebased, sizeof(O));
    }
    AddRange(out, nbytes);
    return Status::OK();
  }

  Status AppendChild(const ArrayData& parent, int index, int64_t offset, int64_t length,
                     int depth) {
    if (index >= static_cast<int>(parent.child_data.size()) || !parent.child_data[index]) {
      return Fail("child ", index, " is missing");
    }
    const ArrayData& child = *parent.child_data[static_cast<size_t>(index)];
    if (offset < 0 || length < 0 || offset + length > child.length) {
      return Fail("child ", index, " has ", child.length, " slots, parent needs [", offset, ", ",
                  offset + length, ")");
    }
    path_.push_back(index);
    Status st = Append(NodeView{&child, child.offset + offset, length}, depth + 1);
    path_.pop_back();
    return st;
  }

  Status AppendRunEndEncodedChildren(const NodeView& view, int depth);

  template <typename... Args>
  Status Fail(Args&&... args) const {
    return Status::Invalid("column path ", FieldPathToString(path_), ": ",
                           std::forward<Args>(args)...);
  }

 private:
  static const BufferPtr* BufferAt(const ArrayData& data, int index) {
    if (index >= static_cast<int>(data.buffers.size())) return nullptr;
    const BufferPtr& b = data.buffers[static_cast<size_t>(index)];
    return b ? &b : nullptr;
  }

  template <typename RunEnd>
  Status AppendRunEnds(const NodeView& view, int depth);

  MemoryPool* pool_;
  int max_depth_;
  RecordBatchMeta meta_;
  std::vector<ByteRange> ranges_;
  std::vector<BufferPtr> temporaries_;
  FieldPath path_;
};

// One node: its FieldNode, then its buffers as the type's layout lists them
// (DataType::layout()), then its children. What a buffer contributes is
// decided by its kind alone: bitmaps are windowed by bits, fixed-width
// elements (values, list-view offsets, sizes, type ids, views) by
// byte_width, offsets of length + 1 entries are rebased to start at zero and
// bound the data buffer (or the child) that follows them.
Status BodyBuilder::Append(const NodeView& view, int depth) {
  if (depth > max_depth_) {
    return Fail("arrays are nested deeper than the limit of ", max_depth_, " levels");
  }
  const ArrayData& data = *view.data;
  const DataType& storage = data.storage_type();
  const TypeId id = storage.id();
  if (id == TypeId::kExtension) [[unlikely]] {
    return Fail("extension type ", storage.ToString(), " was not unwrapped to its storage");
  }
  const DataTypeLayout& layout = storage.layout();
  const size_t num_buffers = layout.buffers.size();
  size_t b = 0;
  if (layout.has_validity()) {
    ALKAID_RETURN_NOT_OK(AddNodeWithValidity(view).status());
    b = 1;
  } else {
    // Null arrays are all null; unions and run-end encoded arrays keep their
    // nulls in their children.
    AddNode(view.length, id == TypeId::kNull ? view.length : 0);
  }
  int64_t first = 0, last = 0;  // what the offsets address in the data buffer or child
  for (; b < num_buffers; ++b) {
    const BufferSpec& spec = layout.buffers[b];
    const int index = static_cast<int>(b);
    switch (spec.kind) {
      case BufferSpec::kValidity:
      case BufferSpec::kBitmapValues:
        ALKAID_RETURN_NOT_OK(AddBitmap(data, index, view.offset, view.length, spec.kind));
        break;
      case BufferSpec::kData:
        ALKAID_RETURN_NOT_OK(AddWindow(data, index, first, last - first, BufferSpec::kData));
        break;
      case BufferSpec::kOffsets:
        if (spec.offsets_plus_one) {
          ALKAID_RETURN_NOT_OK(spec.byte_width == 8
                                   ? AddOffsets<int64_t>(view, index, &first, &last)
                                   : AddOffsets<int32_t>(view, index, &first, &last));
          break;
        }
        [[fallthrough]];  // list-view offsets: one element per slot
      case BufferSpec::kFixedWidth:
      case BufferSpec::kSizes:
      case BufferSpec::kTypeIds:
      case BufferSpec::kViews: {
        const int64_t width = spec.byte_width;  // 0 for fixed_size_binary[0]
        ALKAID_RETURN_NOT_OK(
            AddWindow(data, index, view.offset * width, view.length * width, spec.kind));
        break;
      }
    }
  }
  if (layout.variadic_data) {
    // Views may point anywhere in any data buffer: all of them go along.
    const size_t count = data.buffers.size() > num_buffers ? data.buffers.size() - num_buffers : 0;
    for (size_t i = 0; i < count; ++i) {
      const BufferPtr& buffer = data.buffers[num_buffers + i];
      AddRange(buffer ? buffer->data() : nullptr, buffer ? buffer->size() : 0);
    }
    meta_.variadic_buffer_counts.push_back(static_cast<int64_t>(count));
  }
  // Children: which window of each child this node's slots cover.
  switch (id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap:
      return AppendChild(data, 0, first, last - first, depth);
    case TypeId::kFixedSizeList: {
      const int64_t size = static_cast<const FixedSizeListType&>(storage).list_size();
      return AppendChild(data, 0, view.offset * size, view.length * size, depth);
    }
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
      for (int i = 0; i < storage.num_fields(); ++i) {
        ALKAID_RETURN_NOT_OK(AppendChild(data, i, view.offset, view.length, depth));
      }
      return Status::OK();
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kDenseUnion:
      // Offsets (and sizes) may point anywhere in the children: they go whole.
      for (int i = 0; i < storage.num_fields(); ++i) {
        if (i >= static_cast<int>(data.child_data.size()) || !data.child_data[i]) {
          return Fail("child ", i, " is missing");
        }
        ALKAID_RETURN_NOT_OK(AppendChild(data, i, 0, data.child_data[i]->length, depth));
      }
      return Status::OK();
    case TypeId::kRunEndEncoded:
      return AppendRunEndEncodedChildren(view, depth);
    default:
      return Status::OK();  // dictionary values go out in dictionary batches
  }
}

template <typename RunEnd>
Status BodyBuilder::AppendRunEnds(const NodeView& view, int depth) {
  const ArrayData& parent = *view.data;
  const ArrayData& run_ends = *parent.child_data[0];
  const int64_t num_runs_total = run_ends.length;
  const BufferPtr* buffer = BufferAt(run_ends, 1);
  const int64_t width = sizeof(RunEnd);
  if (num_runs_total > 0 &&
      (buffer == nullptr || (*buffer)->size() < (run_ends.offset + num_runs_total) * width)) {
    return Fail("run ends buffer is too small for ", num_runs_total, " runs");
  }
  const uint8_t* ends = num_runs_total > 0 ? (*buffer)->data() + run_ends.offset * width : nullptr;
  auto end_at = [&](int64_t k) { return static_cast<int64_t>(LoadValue<RunEnd>(ends + k * width)); };

  // Runs covering logical [view.offset, view.offset + view.length).
  int64_t first_run = 0;
  int64_t num_runs = 0;
  if (view.length > 0) {
    int64_t lo = 0, hi = num_runs_total;  // first run whose end > view.offset
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (end_at(mid) <= view.offset) lo = mid + 1; else hi = mid;
    }
    first_run = lo;
    const int64_t logical_end = view.offset + view.length;
    hi = num_runs_total;  // first run whose end >= logical_end
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (end_at(mid) < logical_end) lo = mid + 1; else hi = mid;
    }
    if (lo >= num_runs_total) {
      return Fail("run ends stop before logical position ", logical_end);
    }
    num_runs = lo - first_run + 1;
  }

  path_.push_back(0);
  AddNode(num_runs, 0);
  AddRange(nullptr, 0);  // run ends have no nulls
  if (num_runs > 0 && view.offset == 0 && end_at(first_run + num_runs - 1) == view.length) {
    AddRange(ends + first_run * width, num_runs * width);
  } else if (num_runs > 0) {
    // Rebase to the window and clamp the last run to its end.
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(num_runs * width));
    for (int64_t k = 0; k < num_runs; ++k) {
      const RunEnd e = static_cast<RunEnd>(
          std::min<int64_t>(end_at(first_run + k) - view.offset, view.length));
      std::memcpy(out + k * width, &e, sizeof(RunEnd));
    }
    AddRange(out, num_runs * width);
  } else {
    AddRange(nullptr, 0);
  }
  path_.pop_back();
  return AppendChild(parent, 1, first_run, num_runs, depth);
}

Status BodyBuilder::AppendRunEndEncodedChildren(const NodeView& view, int depth) {
  const ArrayData& parent = *view.data;
  if (parent.child_data.size() != 2 || !parent.child_data[0] || !parent.child_data[1]) {
    return Fail("run-end encoded array needs 2 children, has ", parent.child_data.size());
  }
  Status st = VisitRunEndType(*parent.child_data[0]->type, [&](auto zero) -> Status {
    return AppendRunEnds<decltype(zero)>(view, depth);
  });
  if (st.code() == StatusCode::kTypeError) return Fail(st.message());
  return st;
}

// ---------------------------------------------------------------------------
// The writer

// What the writer last sent for one dictionary id.
struct DictionaryState {
  ArrayDataPtr sent;       // the dictionary as last written (whole, not the delta)
  const ArrayData* seen_in_batch = nullptr;  // per-batch: dictionary chosen for this id
};

class IpcWriter final : public RecordBatchWriter {
 public:
  IpcWriter(io::OutputStream* sink, SchemaPtr schema, IpcWriteOptions options, bool file_format,
            MetadataPtr footer_metadata)
      : sink_(sink),
        schema_(std::move(schema)),
        options_(std::move(options)),
        file_format_(file_format),
        footer_metadata_(std::move(footer_metadata)),
        body_(options_.pool, options_.max_recursion_depth),
        fbb_(1024) {}

  Status Start() {
    ALKAID_RETURN_NOT_OK(options_.Validate());
    if (sink_ == nullptr) return Status::Invalid("IPC writer needs an output stream");
    if (schema_ == nullptr) return Status::Invalid("IPC writer needs a schema");
    ids_ = options_.dictionary_ids ? *options_.dictionary_ids
                                   : DictionaryIds::AssignSequential(*schema_);
    if (options_.compression != CompressionType::kNone) {
      ALKAID_ASSIGN_OR_RAISE(codec_, Codec::Create(options_.compression,
                                                   options_.compression_level));
    }
    if (file_format_) {
      uint8_t header[internal::kFileHeaderSize] = {};
      std::string_view magic = internal::FileMagic(options_.dialect);
      std::memcpy(header, magic.data(), magic.size());
      ALKAID_RETURN_NOT_OK(WriteRaw(header, internal::kFileHeaderSize));
    }
    // Building the schema first reports unsupported types before id problems.
    ALKAID_RETURN_NOT_OK(internal::BuildSchemaMessage(&fbb_, *schema_, ids_, options_.dialect,
                                                      options_.max_recursion_depth));
    ALKAID_ASSIGN_OR_RAISE(dictionary_fields_, internal::CollectDictionaryFields(*schema_, ids_));
    OrderDictionariesChildrenFirst();
    ranges_scratch_.clear();
    return WriteMessage(nullptr);
  }

  Status WriteRecordBatch(const RecordBatch& batch) override {
    if (closed_) return Status::Invalid("cannot write a record batch: the writer is closed");
    if (!behind_error_.ok()) return behind_error_;
    ALKAID_RETURN_NOT_OK(CheckBatch(batch));
    if (!dictionary_fields_.empty()) ALKAID_RETURN_NOT_OK(WriteDictionaries(batch));
    if (WritesBehind()) return WriteBehind(batch);

    ALKAID_RETURN_NOT_OK(LayOutColumns(batch, &body_));
    ALKAID_RETURN_NOT_OK(FinishBody());
    return WriteRecordBatchMessage(body_.meta());
  }

  Status Close() override {
    if (closed_) return Status::OK();
    closed_ = true;
    Status flushed = behind_error_.ok() ? FlushBehind() : behind_error_;
    ReleaseBehind();  // nothing of the batches is read after Close
    ALKAID_RETURN_NOT_OK(flushed);
    if (file_format_) {
      ALKAID_RETURN_NOT_OK(WriteEndOfStream());
      // The legacy 4-byte EOS would leave the footer misaligned for readers
      // that use it in place; they find it from the end, so padding is safe.
      if (position_ % 8 != 0) ALKAID_RETURN_NOT_OK(WriteRaw(kZeroBytes, 8 - position_ % 8));
      ALKAID_RETURN_NOT_OK(internal::BuildFooter(&fbb_, *schema_, ids_, options_.dialect,
                                                 dictionary_blocks_, record_blocks_,
                                                 footer_metadata_.get()));
      const int64_t footer_size = static_cast<int64_t>(fbb_.GetSize());
      if (footer_size > INT32_MAX) return Status::CapacityError("file footer exceeds 2 GiB");
      const int32_t footer_length = static_cast<int32_t>(footer_size);
      std::string_view magic = internal::FileMagic(options_.dialect);
      const io::IoSlice slices[3] = {{fbb_.GetBufferPointer(), footer_size},
                                     {&footer_length, 4},
                                     {magic.data(), static_cast<int64_t>(magic.size())}};
      return WriteSlices(slices);
    }
    if (options_.emit_eos) return WriteEndOfStream();
    return Status::OK();
  }

  WriteStats stats() const override { return stats_; }

 private:
  Status CheckBatch(const RecordBatch& batch) const {
    if (batch.schema().get() != schema_.get() &&
        (batch.schema() == nullptr || !batch.schema()->Equals(*schema_))) {
      return Status::Invalid("record batch schema ",
                             batch.schema() ? batch.schema()->ToString() : "(null)",
                             " does not match the writer's schema ", schema_->ToString());
    }
    if (batch.num_columns() != schema_->num_fields()) {
      return Status::Invalid("record batch has ", batch.num_columns(), " columns, schema has ",
                             schema_->num_fields());
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      const ArrayDataPtr& column = batch.column_data(i);
      if (column == nullptr || column->length != batch.num_rows()) {
        return Status::Invalid("column ", i, " has ", column ? column->length : -1,
                               " rows, the batch has ", batch.num_rows());
      }
    }
    return Status::OK();
  }

  // Dictionaries nested in another dictionary's values must reach the reader
  // before that dictionary, so descendants are ordered before ancestors.
  void OrderDictionariesChildrenFirst() {
    std::stable_sort(dictionary_fields_.begin(), dictionary_fields_.end(),
                     [](const DictionaryField& a, const DictionaryField& b) {
                       const size_t n = std::min(a.path.size(), b.path.size());
                       for (size_t i = 0; i < n; ++i) {
                         if (a.path[i] != b.path[i]) return a.path[i] < b.path[i];
                       }
                       return a.path.size() > b.path.size();
                     });
    for (const DictionaryField& f : dictionary_fields_) states_.try_emplace(f.id);
  }

  // The array at a field path; past a dictionary the path continues in its values.
  Result<const ArrayData*> ArrayAtPath(const RecordBatch& batch, const FieldPath& path) const {
    const ArrayData* node = batch.column_data(path[0]).get();
    for (size_t i = 1; i < path.size(); ++i) {
      const ArrayData* parent = node;
      if (parent->storage_type().id() == TypeId::kDictionary) {
        parent = parent->dictionary.get();
        if (parent == nullptr) {
          return Status::Invalid("dictionary array at path ", FieldPathToString(path),
                                 " has no values");
        }
      }
      const size_t child = static_cast<size_t>(path[i]);
      if (child >= parent->child_data.size() || parent->child_data[child] == nullptr) {
        return Status::Invalid("array at path ", FieldPathToString(path), " is missing child ",
                               child);
      }
      node = parent->child_data[child].get();
    }
    return node;
  }

  Status WriteDictionaries(const RecordBatch& batch) {
    for (auto& [id, state] : states_) state.seen_in_batch = nullptr;
    for (const DictionaryField& field : dictionary_fields_) {
      ALKAID_ASSIGN_OR_RAISE(const ArrayData* array, ArrayAtPath(batch, field.path));
      const ArrayDataPtr& dictionary = array->dictionary;
      if (dictionary == nullptr) {
        return Status::Invalid("dictionary array at path ", FieldPathToString(field.path),
                               " has no dictionary values");
      }
      DictionaryState& state = states_[field.id];
      if (state.seen_in_batch != nullptr) {
        // Another field with this id already decided; both must agree.
        if (state.seen_in_batch != dictionary.get() &&
            !ArrayEquals(*state.seen_in_batch, *dictionary)) {
          return Status::Invalid("fields sharing dictionary id ", field.id,
                                 " carry different dictionaries in one batch (path ",
                                 FieldPathToString(field.path), ")");
        }
        continue;
      }
      state.seen_in_batch = dictionary.get();
      ALKAID_RETURN_NOT_OK(UpdateDictionary(field.id, dictionary, &state));
    }
    return Status::OK();
  }

  Status UpdateDictionary(int64_t id, const ArrayDataPtr& dictionary, DictionaryState* state) {
    if (state->sent == nullptr) {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, 0, false));
      state->sent = dictionary;
      return Status::OK();
    }
    const ArrayData& previous = *state->sent;
    if (state->sent == dictionary || ArrayEquals(previous, *dictionary)) {
      state->sent = dictionary;  // cheaper pointer check next time
      return Status::OK();
    }
    const bool extends = dictionary->length > previous.length &&
                         ArrayEquals(previous, *dictionary->Slice(0, previous.length));
    if (extends && options_.emit_dictionary_deltas) {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, previous.length, true));
      ++stats_.num_dictionary_deltas;
    } else if (file_format_) {
      return Status::Invalid("dictionary replacement is not allowed in the IPC file format "
                             "(dictionary id ", id, " changed to values that do not extend "
                             "the ones already written",
                             extends ? ", and dictionary deltas are disabled" : "", ")");
    } else {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, 0, false));
      ++stats_.num_replaced_dictionaries;
    }
    state->sent = dictionary;
    return Status::OK();
  }

  // Writes values [from, length) of `dictionary` as a dictionary batch.
  Status WriteDictionaryBatch(int64_t id, const ArrayData& dictionary, int64_t from,
                              bool is_delta) {
    // The batch written behind used the dictionary as it was: it goes first.
    ALKAID_RETURN_NOT_OK(FlushBehind());
    body_.Reset();
    ALKAID_RETURN_NOT_OK(body_.AppendColumn(dictionary, from, dictionary.length - from, 0)
                             .WithContext("dictionary " + std::to_string(id)));
    body_.meta().length = dictionary.length - from;
    ALKAID_RETURN_NOT_OK(FinishBody());
    dictionary_meta_.id = id;
    dictionary_meta_.is_delta = is_delta;
    std::swap(dictionary_meta_.data, body_.meta());
    internal::BuildDictionaryBatchMessage(&fbb_, dictionary_meta_, body_length_);
    std::swap(dictionary_meta_.data, body_.meta());
    FileBlock block;
    ALKAID_RETURN_NOT_OK(WriteMessage(&block));
    if (file_format_) dictionary_blocks_.push_back(block);
    ++stats_.num_dictionary_batches;
    return Status::OK();
  }

  // Compresses (if asked) and lays out the body: buffer offsets, padding,
  // total length. Leaves the gather list in ranges_scratch_.
  Status FinishBody() {
    if (codec_ == nullptr) {
      LayOutBody(body_.ranges(), &body_.meta());
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(CompressBodyBuffers(*codec_, body_.ranges(), &compressed_,
                                             Parallel(), options_.pool));
    LayOutCompressedBody(compressed_, &body_.meta());
    return Status::OK();
  }

  // The batch's columns into `body` (reset first), and its length.
  static Status LayOutColumns(const RecordBatch& batch, BodyBuilder* body) {
    body->Reset();
    for (int i = 0; i < batch.num_columns(); ++i) {
      const ArrayData& column = *batch.column_data(i);
      ALKAID_RETURN_NOT_OK(body->AppendColumn(column, 0, column.length, i));
    }
    body->meta().length = batch.num_rows();
    return Status::OK();
  }

  // The record batch message for `meta` with the body laid out last.
  Status WriteRecordBatchMessage(const RecordBatchMeta& meta) {
    internal::BuildRecordBatchMessage(&fbb_, meta, body_length_);
    FileBlock block;
    ALKAID_RETURN_NOT_OK(WriteMessage(&block));
    if (file_format_) record_blocks_.push_back(block);
    ++stats_.num_record_batches;
    return Status::OK();
  }

  ParallelOptions Parallel() const {
    ParallelOptions parallel;
    parallel.use_threads = options_.use_threads;
    parallel.num_threads = options_.num_threads;
    return parallel;
  }

  void LayOutCompressedBody(const std::vector<std::shared_ptr<ResizableBuffer>>& compressed,
                            RecordBatchMeta* meta) {
    compressed_ranges_.clear();
    for (const auto& b : compressed) compressed_ranges_.push_back({b->data(), b->size()});
    meta->compression = options_.compression;
    LayOutBody(compressed_ranges_, meta);
  }

  // Write-behind (IpcWriteOptions::write_behind): a batch laid out, its
  // compression started, and the arrays it points into kept alive until it
  // is written. Two alternate: one being compressed while the other is
  // written.
  struct Behind {
    Behind(MemoryPool* pool, int max_depth) : body(pool, max_depth) {}
    BodyBuilder body;
    std::vector<std::shared_ptr<ResizableBuffer>> compressed;
    ArrayDataVector columns;
    int64_t index = 0;  // batch number, for error messages
    bool pending = false;
    BodyCompression compression;  // last member: finished before the rest goes away
  };

  bool WritesBehind() const {
    return options_.write_behind && options_.use_threads && codec_ != nullptr;
  }

  Status WriteBehind(const RecordBatch& batch) {
    std::unique_ptr<Behind>& slot = behind_[next_behind_];
    if (slot == nullptr) slot = std::make_unique<Behind>(options_.pool, options_.max_recursion_depth);
    Behind& b = *slot;
    // A pool thread that lost its race on this slot's last batch may still
    // be reading that batch's arrays through the layout about to be reused.
    b.compression.Release();
    b.columns.clear();
    ALKAID_RETURN_NOT_OK(LayOutColumns(batch, &b.body));
    b.columns = batch.columns();  // their buffers stay alive until written
    b.index = batches_started_++;
    ALKAID_RETURN_NOT_OK(
        b.compression.Start(*codec_, b.body.ranges(), &b.compressed, Parallel(), options_.pool));
    b.pending = true;
    next_behind_ ^= 1;
    // The other slot holds the previous batch: written now, while pool
    // threads compress this one.
    return WriteBehindSlot(behind_[next_behind_].get());
  }

  // Writes every batch still behind, oldest first.
  Status FlushBehind() {
    for (int k = 0; k < 2; ++k) {
      ALKAID_RETURN_NOT_OK(WriteBehindSlot(behind_[(next_behind_ + k) % 2].get()));
    }
    return Status::OK();
  }

  // Waits for pool threads still reading batches already written (see
  // WriteBehindSlot) and lets go of those batches.
  void ReleaseBehind() {
    for (auto& b : behind_) {
      if (b == nullptr) continue;
      b->compression.Release();
      if (!b->pending) b->columns.clear();
    }
  }

  Status WriteBehindSlot(Behind* b) {
    if (b == nullptr || !b->pending) return Status::OK();
    b->pending = false;
    // Results only: waiting here for a pool thread that lost a race and was
    // preempted before noticing would stall the writer on a busy machine.
    Status st = b->compression.FinishResults();
    if (st.ok()) {
      LayOutCompressedBody(b->compressed, &b->body.meta());
      st = WriteRecordBatchMessage(b->body.meta());
    }
    // The arrays stay referenced while such a thread may still read them
    // (until this slot is used again, or Close).
    if (!b->compression.lingering()) b->columns.clear();
    if (!st.ok()) behind_error_ = st.WithContext("record batch " + std::to_string(b->index));
    return behind_error_;
  }

  // Buffer offsets, padding and total length of a body made of `ranges`;
  // leaves the gather list in ranges_scratch_.
  void LayOutBody(const std::vector<ByteRange>& ranges, RecordBatchMeta* meta) {
    const int64_t alignment = options_.alignment;
    meta->buffers.resize(ranges.size());
    ranges_scratch_.clear();
    int64_t position = 0;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const ByteRange& r = ranges[i];
      meta->buffers[i] = BufferMeta{position, r.size};
      const int64_t padding = (alignment - r.size % alignment) % alignment;
      if (r.size > 0) ranges_scratch_.push_back(io::IoSlice{r.data, r.size});
      if (padding > 0) ranges_scratch_.push_back(io::IoSlice{kZeroBytes, padding});
      position += r.size + padding;
    }
    body_length_ = position;
  }

  // Frames the message in fbb_ and writes it with the body in
  // ranges_scratch_ (pass an empty list for bodiless messages).
  Status WriteMessage(FileBlock* block) {
    const int64_t fb_size = static_cast<int64_t>(fbb_.GetSize());
    const internal::FramedMetadata framed = internal::FrameMetadata(
        fb_size, options_.write_legacy_format, options_.alignment);
    if (framed.total - framed.prefix_size > INT32_MAX) {
      return Status::CapacityError("message metadata of ", fb_size, " bytes exceeds 2 GiB");
    }
    if (block != nullptr) {
      block->offset = position_;
      block->metadata_length = static_cast<int32_t>(framed.total);
      block->body_length = body_length_;
    }
    slices_.clear();
    slices_.push_back({framed.prefix, framed.prefix_size});
    slices_.push_back({fbb_.GetBufferPointer(), fb_size});
    if (framed.padding > 0) slices_.push_back({kZeroBytes, framed.padding});
    if (block != nullptr) slices_.insert(slices_.end(), ranges_scratch_.begin(), ranges_scratch_.end());
    ALKAID_RETURN_NOT_OK(WriteSlices(slices_));
    ++stats_.num_messages;
    return Status::OK();
  }

  Status WriteEndOfStream() {
    static constexpr uint8_t kEos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    return options_.write_legacy_format ? WriteRaw(kEos + 4, 4) : WriteRaw(kEos, 8);
  }

  Status WriteRaw(const void* data, int64_t size) {
    ALKAID_RETURN_NOT_OK(sink_->Write(data, size));
    position_ += size;
    stats_.bytes_written = position_;
    return Status::OK();
  }

  Status WriteSlices(std::span<const io::IoSlice> slices) {
    ALKAID_RETURN_NOT_OK(sink_->WriteV(slices));
    for (const io::IoSlice& s : slices) position_ += s.size;
    stats_.bytes_written = position_;
    return Status::OK();
  }

  io::OutputStream* sink_;
  SchemaPtr schema_;
  IpcWriteOptions options_;
  bool file_format_;
  MetadataPtr footer_metadata_;

  DictionaryIds ids_;
  std::vector<DictionaryField> dictionary_fields_;
  std::map<int64_t, DictionaryState> states_;
  std::unique_ptr<Codec> codec_;

  // Reused from message to message so a batch costs no fresh allocations.
  BodyBuilder body_;
  flatbuffers::FlatBufferBuilder fbb_;
  DictionaryBatchMeta dictionary_meta_;
  // Compression output, overwritten batch after batch (its capacity is kept
  // for the writer's lifetime: about one uncompressed batch body).
  std::vector<std::shared_ptr<ResizableBuffer>> compressed_;
  std::vector<ByteRange> compressed_ranges_;
  std::vector<io::IoSlice> ranges_scratch_;
  std::vector<io::IoSlice> slices_;
  int64_t body_length_ = 0;

  // Write-behind state (see Behind); the slots are destroyed first, which
  // waits for compression still running on the pool.
  std::unique_ptr<Behind> behind_[2];
  int next_behind_ = 0;
  int64_t batches_started_ = 0;
  Status behind_error_;

  int64_t position_ = 0;  // bytes written since the writer started
  std::vector<FileBlock> dictionary_blocks_;
  std::vector<FileBlock> record_blocks_;
  WriteStats stats_;
  bool closed_ = false;
};

Result<std::unique_ptr<RecordBatchWriter>> MakeWriter(io::OutputStream* sink, SchemaPtr schema,
                                                      const IpcWriteOptions& options, bool file,
                                                      MetadataPtr footer_metadata) {
  auto writer = std::make_unique<IpcWriter>(sink, std::move(schema), options, file,
                                            std::move(footer_metadata));
  ALKAID_RETURN_NOT_OK(writer->Start());
  return std::unique_ptr<RecordBatchWriter>(std::move(writer));
}

Status WriteAllTo(io::OutputStream* sink, const SchemaPtr& schema,
                  const std::vector<RecordBatchPtr>& batches, const IpcWriteOptions& options,
                  bool file, MetadataPtr footer_metadata) {
  ALKAID_ASSIGN_OR_RAISE(auto writer,
                         MakeWriter(sink, schema, options, file, std::move(footer_metadata)));
  for (const RecordBatchPtr& batch : batches) {
    if (batch == nullptr) return Status::Invalid("null record batch");
    ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  }
  return writer->Close();
}

Result<BufferPtr> SerializeAll(const SchemaPtr& schema, const std::vector<RecordBatchPtr>& batches,
                               const IpcWriteOptions& options, bool file,
                               MetadataPtr footer_metadata) {
  // Without compression the output size follows from the metadata alone, so a
  // counting pass (no body bytes are touched) lets the body be copied exactly
  // once into a buffer of the right size, instead of again on every doubling.
  int64_t capacity = 4096;
  if (options.compression == CompressionType::kNone) {
    io::MockOutputStream counter;
    ALKAID_RETURN_NOT_OK(WriteAllTo(&counter, schema, batches, options, file, footer_metadata));
    ALKAID_ASSIGN_OR_RAISE(capacity, counter.Tell());
  }
  ALKAID_ASSIGN_OR_RAISE(auto sink, io::BufferOutputStream::Create(capacity, options.pool));
  ALKAID_RETURN_NOT_OK(WriteAllTo(sink.get(), schema, batches, options, file, std::move(footer_metadata)));
  return sink->Finish();
}

}  // namespace

Status IpcWriteOptions::Validate() const {
  if (alignment != 8 && alignment != 64) {
    return Status::Invalid("IPC alignment must be 8 or 64, got ", alignment);
  }
  if (num_threads < 0) return Status::Invalid("num_threads must be >= 0, got ", num_threads);
  if (max_recursion_depth < 1) {
    return Status::Invalid("max_recursion_depth must be >= 1, got ", max_recursion_depth);
  }
  if (pool == nullptr) return Status::Invalid("IPC write options need a memory pool");
  if (compression != CompressionType::kNone) {
    ALKAID_RETURN_NOT_OK(Codec::Create(compression, compression_level).status());
  }
  return Status::OK();
}

Status RecordBatchWriter::WriteTable(const Table& table) {
  const int n = table.num_columns();
  std::vector<int> chunk(static_cast<size_t>(n), 0);
  std::vector<int64_t> within(static_cast<size_t>(n), 0);
  int64_t written = 0;
  while (written < table.num_rows()) {
    // The next batch ends at the nearest chunk boundary of any column.
    int64_t length = table.num_rows() - written;
    for (int c = 0; c < n; ++c) {
      const ChunkedArray& column = *table.column(c);
      while (chunk[c] < column.num_chunks() &&
             within[c] >= column.chunks()[static_cast<size_t>(chunk[c])]->length) {
        ++chunk[c];
        within[c] = 0;
      }
      if (chunk[c] >= column.num_chunks()) {
        return Status::Invalid("table column ", c, " has fewer rows than the table");
      }
      length = std::min(length, column.chunks()[static_cast<size_t>(chunk[c])]->length - within[c]);
    }
    ArrayDataVector columns;
    columns.reserve(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
      const ArrayDataPtr& data = table.column(c)->chunks()[static_cast<size_t>(chunk[c])];
      columns.push_back(within[c] == 0 && length == data->length ? data
                                                                : data->Slice(within[c], length));
      within[c] += length;
    }
    ALKAID_RETURN_NOT_OK(WriteRecordBatch(RecordBatch(table.schema(), length, std::move(columns))));
    written += length;
  }
  return Status::OK();
}

Result<std::unique_ptr<RecordBatchWriter>> MakeStreamWriter(io::OutputStream* sink,
                                                            SchemaPtr schema,
                                                            const IpcWriteOptions& options) {
  return MakeWriter(sink, std::move(schema), options, /*file=*/false, nullptr);
}

Result<std::unique_ptr<RecordBatchWriter>> MakeFileWriter(io::OutputStream* sink,
                                                          SchemaPtr schema,
                                                          const IpcWriteOptions& options,
                                                          MetadataPtr footer_metadata) {
  return MakeWriter(sink, std::move(schema), options, /*file=*/true, std::move(footer_metadata));
}

Result<BufferPtr> SerializeStream(const SchemaPtr& schema,
                                  const std::vector<RecordBatchPtr>& batches,
                                  const IpcWriteOptions& options) {
  return SerializeAll(schema, batches, options, /*file=*/false, nullptr);
}

Result<BufferPtr> SerializeFile(const SchemaPtr& schema, const std::vector<RecordBatchPtr>& batches,
                                const IpcWriteOptions& options, MetadataPtr footer_metadata) {
  return SerializeAll(schema, batches, options, /*file=*/true, std::move(footer_metadata));
}

Result<BufferPtr> SerializeSchema(const Schema& schema, const IpcWriteOptions& options) {
  ALKAID_RETURN_NOT_OK(options.Validate());
  DictionaryIds ids =
      options.dictionary_ids ? *options.dictionary_ids : DictionaryIds::AssignSequential(schema);
  flatbuffers::FlatBufferBuilder fbb(1024);
  ALKAID_RETURN_NOT_OK(internal::BuildSchemaMessage(&fbb, schema, ids, options.dialect,
                                                    options.max_recursion_depth));
  ALKAID_ASSIGN_OR_RAISE(auto sink, io::BufferOutputStream::Create(
                                        static_cast<int64_t>(fbb.GetSize()) + 72, options.pool));
  ALKAID_RETURN_NOT_OK(internal::WriteFramedMetadata(sink.get(), fbb.GetBufferPointer(),
                                                     static_cast<int64_t>(fbb.GetSize()),
                                                     options.write_legacy_format,
                                                     options.alignment)
                           .status());
  return sink->Finish();
}

}  // namespace alkaid::ipc

// Internal pieces of the IPC readers: the record batch body loader, the
// dictionary memo and the per-reader core shared by StreamReader,
// StreamDecoder and FileReader. Not installed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/table.h"
#include "alkaid/visit_type.h"
#include "../array/validate_internal.h"
#include "message_framer.h"
#include "metadata.h"

namespace alkaid::ipc::internal {

// Tests of the shared-library build call these internals directly, so they
// keep default visibility (see metadata.h).
#pragma GCC visibility push(default)

// Where a message sits in the input, for error messages.
struct MessageLocation {
  const char* kind = "message";  // e.g. "stream message", "record batch block"
  int64_t index = 0;
  int64_t byte_offset = -1;  // -1: unknown
  std::string ToString() const;
};

// Prefixes an error with its location ("stream message 3 at byte 128: ...").
Status AtLocationSlow(const Status& st, const MessageLocation& where);
inline Status AtLocation(const Status& st, const MessageLocation& where) {
  return st.ok() ? Status::OK() : AtLocationSlow(st, where);
}

// The bytes of one message body and the buffer that keeps them alive: one
// of its own, or the whole stream or mapping it lies in (so a stream held in
// memory needs no per-message buffer object). The owner is borrowed for the
// duration of one message; only the slice arena takes a reference, once per
// batch, because reference counts are atomic and every one shows in the
// per-batch cost.
struct MessageBody {
  const uint8_t* data = nullptr;
  int64_t size = 0;
  const BufferPtr* owner = nullptr;

  static MessageBody Of(const BufferPtr& buffer) {
    if (buffer == nullptr) return MessageBody{};
    return MessageBody{buffer->data(), buffer->size(), &buffer};
  }
};

// The zero-copy slices of one message body, made in one allocation instead
// of one per buffer. Every slice handed out shares ownership of the arena,
// which in turn keeps the body alive. (Slices hold no reference back to
// anything else in the batch, so there is no ownership cycle.)
class SliceArena {
 public:
  SliceArena(const MessageBody& body, size_t capacity);
  ~SliceArena();
  SliceArena(const SliceArena&) = delete;
  SliceArena& operator=(const SliceArena&) = delete;

  // A slice [offset, offset + length) of the body; falls back to a plain
  // SliceBuffer when the arena is full.
  static BufferPtr Slice(const std::shared_ptr<SliceArena>& arena, int64_t offset, int64_t length);
  // Same, into `*out` (which is null): inlined in the loader's hot path.
  [[gnu::always_inline]] static inline void SliceInto(const std::shared_ptr<SliceArena>& arena,
                                                      int64_t offset, int64_t length,
                                                      BufferPtr* out);

 private:
  static constexpr size_t kInline = 8;
  Buffer* slot(size_t i) {
    std::byte* base = heap_ ? heap_.get() : inline_;
    return reinterpret_cast<Buffer*>(base + i * sizeof(Buffer));
  }

  std::shared_ptr<const void> owner_;
  const uint8_t* base_;
  size_t capacity_;
  size_t used_ = 0;
  alignas(Buffer) std::byte inline_[kInline * sizeof(Buffer)];
  std::unique_ptr<std::byte[]> heap_;
};

// ---------------------------------------------------------------------------
// Memory budget (IpcReadOptions::memory_budget*)

// What one reader may hold at once beyond its input. Charges are taken
// before memory is allocated (so a hostile size fails before it costs
// anything) and released by Charge objects when what they paid for is freed.
// Shared by the reader and by everything it hands out, so a batch outliving
// its reader still releases correctly. Thread-safe.
class ReadBudget {
 public:
  explicit ReadBudget(const IpcReadOptions& options);

  // Stream readers: the input grows as messages are consumed.
  void AddInput(int64_t bytes) { input_.fetch_add(bytes, std::memory_order_relaxed); }
  void SetInput(int64_t bytes) { input_.store(bytes, std::memory_order_relaxed); }
  int64_t limit() const;
  int64_t used() const { return used_.load(std::memory_order_relaxed); }

  // Fails (OutOfMemory naming the option) unless `bytes` more fit.
  Status Check(int64_t bytes, std::string_view what) const;

  // Takes `bytes` (> 0) when they fit in the guaranteed part of the limit
  // (the common case, with no ratio arithmetic); false: ask Take.
  bool TryTakeFast(int64_t bytes) {
    int64_t held = used_.load(std::memory_order_relaxed);
    return bytes <= guaranteed_ && held <= guaranteed_ - bytes &&
           used_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed);
  }

 private:
  friend class Charge;
  Status Take(int64_t bytes, std::string_view what);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  [[gnu::cold]] Status Exceeded(int64_t bytes, std::string_view what) const;

  int64_t explicit_limit_;
  int64_t floor_;
  // A limit() never goes below: charges within it need no ratio arithmetic.
  int64_t guaranteed_;
  double ratio_;
  std::atomic<int64_t> input_{0};
  std::atomic<int64_t> used_{0};
};
using ReadBudgetPtr = std::shared_ptr<ReadBudget>;

// Bytes charged to a budget, released on destruction. Move-only.
class Charge {
 public:
  Charge() = default;
  // Takes `bytes` from `budget` or fails.
  static Result<Charge> Take(const ReadBudgetPtr& budget, int64_t bytes, std::string_view what);
  Charge(Charge&& other) noexcept : budget_(std::move(other.budget_)), bytes_(other.bytes_) {
    other.bytes_ = 0;
  }
  Charge& operator=(Charge&& other) noexcept {
    if (this != &other) {
      if (budget_ != nullptr) Reset();
      budget_ = std::move(other.budget_);
      bytes_ = other.bytes_;
      other.bytes_ = 0;
    }
    return *this;
  }
  Charge(const Charge&) = delete;
  Charge& operator=(const Charge&) = delete;
  // Moved-from and empty charges (the common case) cost a test.
  ~Charge() {
    if (budget_ != nullptr) Reset();
  }

  // Takes `bytes` from `budget` into this charge, or fails: Take without a
  // Result to move out of.
  Status TakeInto(const ReadBudgetPtr& budget, int64_t bytes, std::string_view what) {
    if (budget == nullptr || bytes <= 0) return Status::OK();
    if (!budget->TryTakeFast(bytes)) [[unlikely]] ALKAID_RETURN_NOT_OK(budget->Take(bytes, what));
    if (budget_ != nullptr) Reset();
    budget_ = budget;
    bytes_ = bytes;
    return Status::OK();
  }

  // Moves min(n, bytes()) of this charge into a new one.
  Charge Split(int64_t n);
  void Reset();
  int64_t bytes() const { return bytes_; }

 private:
  ReadBudgetPtr budget_;
  int64_t bytes_ = 0;
};

// `ptr` with `charge` attached: the charge is released when the last copy
// of the returned pointer (or of anything sharing its ownership, such as a
// slice of a buffer) is gone. The pointee is the same object.
template <typename T>
std::shared_ptr<T> AttachCharge(std::shared_ptr<T> ptr, Charge charge) {
  if (charge.bytes() == 0 || ptr == nullptr) return ptr;
  struct Holder {
    std::shared_ptr<T> ptr;
    Charge charge;
  };
  auto holder = std::make_shared<Holder>(Holder{std::move(ptr), std::move(charge)});
  T* raw = holder->ptr.get();
  return std::shared_ptr<T>(std::move(holder), raw);
}

// What the ArrayData tree of one field node costs (the node, its buffer
// pointers, the shared_ptr control block), charged for every node a batch
// materializes so that metadata listing many nodes (100,000 null columns,
// say) cannot multiply memory through repeated batches.
inline constexpr int64_t kNodeCharge = 256;

// Bytes of the buffers of `data` and its children (not dictionaries, which
// are charged where they are built), counting each buffer's size.
int64_t BufferBytes(const ArrayData& data);

// How a buffer's bytes are reordered when the data is big-endian: the swap
// kind its layout states (BufferSpec::swap) for elements of `width` bytes.
struct ByteSwap {
  BufferSpec::ByteSwap kind = BufferSpec::kSwapNone;
  int width = 0;
};

// Rewrites `size` bytes of `data` from non-native to native byte order.
void SwapBytesInPlace(uint8_t* data, int64_t size, ByteSwap swap);

// Dictionaries by id: the value type, the path of the first field using the
// id, and the current values. Deltas are queued and concatenated once, when
// the dictionary is next needed (a batch or a dictionary nested in another
// is loaded), so that N deltas cost O(total size), not O(N * size).
// One dictionary's values, grown by deltas in place (amortized O(delta) per
// delta) and handed out as snapshots that share the storage. Not for every
// type: see Supports(); the memo concatenates the others. Not thread-safe
// (owned by one reader core); snapshots may be used from any thread.
class DictionaryAccumulator {
 public:
  // Whether values of `type` (and of every type inside it) can be grown in
  // place: everything except list views, unions, run-end encoded and
  // dictionary-encoded values.
  static bool Supports(const DataType& type);

  DictionaryAccumulator(DataTypePtr type, ReadBudgetPtr budget, MemoryPool* pool);
  ~DictionaryAccumulator();
  DictionaryAccumulator(const DictionaryAccumulator&) = delete;
  DictionaryAccumulator& operator=(const DictionaryAccumulator&) = delete;

  // Appends every slot of `values` (validated, of the accumulator's type).
  Status Append(const ArrayData& values);
  // The values so far, sharing the accumulator's storage.
  ArrayDataPtr Snapshot() const;
  int64_t length() const;

 private:
  struct Storage;
  struct Node;
  void Init(Node* node, DataTypePtr type);
  Status Reserve(Storage* s, int64_t new_size, bool rewrite_last);
  Status AppendBits(Storage* s, int64_t at, const uint8_t* bits, int64_t bits_offset, int64_t n);
  Status AppendBytes(Storage* s, const uint8_t* bytes, int64_t n);
  template <typename O>
  Status AppendOffsets(Storage* s, const O* offsets, int64_t n, int64_t base);
  Status AppendNode(Node* node, const ArrayData& a, int64_t begin, int64_t n);
  template <typename O>
  Status AppendBinary(Node* node, const ArrayData& a, int64_t at, int64_t n);
  template <typename O>
  Status AppendList(Node* node, const ArrayData& a, int64_t at, int64_t n);
  Status AppendViews(Node* node, const ArrayData& a, int64_t at, int64_t n);
  static ArrayDataPtr SnapshotNode(const Node& node);

  std::unique_ptr<Node> root_;
  ReadBudgetPtr budget_;
  MemoryPool* pool_;
};

class DictionaryMemo {
 public:
  struct Entry {
    DataTypePtr value_type;
    FieldPath path;
    ArrayDataPtr values;  // null until the first dictionary batch
    // Deltas received since `values` was last materialized, in order.
    std::vector<ArrayDataPtr> pending;
    int64_t pending_bytes = 0;
    int64_t values_bytes = 0;
    // Ids of dictionaries used inside this one's value type (their paths
    // extend `path`): they must be current before its batches are loaded.
    std::vector<int64_t> nested_ids;
    // False when projection removed every field using this id: its batches
    // are skipped without being decoded.
    bool needed = true;
    // Storage that deltas grow in place (created by the first delta for
    // types it supports; dropped when a replacement arrives).
    std::unique_ptr<DictionaryAccumulator> grown;
    // Bytes copied so far by concatenating deltas of unsupported types, which
    // costs O(dictionary) per delta: capped so that it stays linear in input.
    int64_t concatenated_bytes = 0;
  };

  // `selected[i]`: whether top-level field i is materialized.
  Status Init(const Schema& schema, const DictionaryIds& ids, const std::vector<bool>& selected);
  Entry* Find(int64_t id);
  const Entry* Find(int64_t id) const;
  size_t size() const { return entries_.size(); }

  // Replaces or (is_delta) appends to dictionary `id`; deltas are queued.
  Status Apply(int64_t id, bool is_delta, ArrayDataPtr values, const ReadBudgetPtr& budget,
               MemoryPool* pool);
  // Concatenates the queued deltas of `id` (and of the ids nested in it).
  Status Materialize(int64_t id, const ReadBudgetPtr& budget, MemoryPool* pool);
  Status MaterializeAll(const ReadBudgetPtr& budget, MemoryPool* pool);
 private:
  Status Grow(Entry* entry, const ReadBudgetPtr& budget, MemoryPool* pool);

 public:
  bool has_pending() const { return num_pending_ > 0; }

 private:
  std::map<int64_t, Entry> entries_;
  int64_t num_pending_ = 0;  // entries with queued deltas
};

// ---------------------------------------------------------------------------
// Load plans: per-schema work done once

// One buffer of a node as the loader cuts it. Kind and element width are
// the type's DataTypeLayout entry, copied from its BufferSpec (kind, width,
// count rule, alignment, byte swap) so that loading reads one flat struct.
struct BufferRule {
  BufferSpec::Kind kind = BufferSpec::kData;
  int width = 0;      // bytes per element; 0 for bitmaps and data
  // Offsets: length + 1 of them (none needed when length is 0), except for
  // list views, which keep one per slot.
  bool one_more = false;
  // What full validation reads of it: done right after decompression, while
  // the bytes are in cache (the data pass then takes the answer).
  alkaid::internal::BufferScan scan = alkaid::internal::BufferScan::kNone;
  int alignment = 1;  // typed access needs this; misaligned slices are copied
  ByteSwap swap;
};

// What loading one field node needs, settled when the reader gets its
// schema: the layout of the (storage) type, the node's place in the tree and
// its dictionary.
struct PlanNode {
  // How the node's buffers and children are read.
  enum class Shape : uint8_t {
    kNull,           // no buffers; every slot null
    kBuffers,        // only the layout's buffers (primitives, binary, ...)
    kViews,          // validity, views and variadic data buffers
    kList,           // validity, offsets (and sizes); one child
    kFixedSizeList,  // validity; one child of length * list_size
    kStruct,         // validity; children at least as long
    kSparseUnion,    // type ids; children at least as long
    kDenseUnion,     // type ids, offsets; children
    kDictionary,     // validity, indices; the memo's values
    kRunEnd,         // no buffers; run ends and values children
  };

  DataTypePtr type;              // as declared (extension types kept)
  const Field* field = nullptr;  // for error paths
  int32_t parent = -1;           // plan index of the parent; -1 for a root
  int32_t child_index = 0;       // position in the parent, or the root's path element
  int32_t end = 0;               // plan index past this node's subtree
  int32_t num_children = 0;
  Shape shape = Shape::kNull;
  bool is_map = false;  // map keys must not declare nulls
  uint8_t num_buffers = 0;  // fixed buffers: ArrayData slots and wire buffers
  BufferRule buffers[3];
  int64_t list_size = 0;  // fixed-size lists
  // Dictionary-encoded nodes: the id and its memo entry (stable: the memo's
  // entries never move after Init). entry null: no id (reported on load).
  int64_t dictionary_id = -1;
  const DictionaryMemo::Entry* dictionary = nullptr;
};

// The plan of a list of top-level fields (a schema, or a dictionary's value
// type): nodes in pre-order, each root followed by its subtree.
struct LoadPlan {
  std::vector<PlanNode> nodes;
  std::vector<int32_t> roots;  // plan index of each top-level field
  FieldPath base_path;         // prefix of every root's path (dictionaries)
  FieldPtr owned_root;         // dictionary plans: the field named after the id
};

// Builds the plan of `fields` (root i's path is base_path + [first_index + i]).
// `ids` and `memo` resolve dictionary ids; nesting deeper than
// max_recursion_depth fields is refused.
Status BuildLoadPlan(const FieldVector& fields, const FieldPath& base_path, int first_index,
                     const DictionaryIds& ids, const DictionaryMemo& memo, int max_recursion_depth,
                     LoadPlan* out);

struct LoaderParams {
  const RecordBatchMeta* meta = nullptr;
  // Borrowed for the duration of one load; the slice arena takes the one
  // owning reference the batch needs. Every buffer of `meta` lies inside it
  // (ReadRecordBatchHeader checked that against the same body size).
  const MessageBody* body = nullptr;
  fb::MetadataVersion version = fb::MetadataVersion::V5;
  const Codec* codec = nullptr;  // null: uncompressed body
  bool swap_endian = false;
  const IpcReadOptions* options = nullptr;
  int64_t max_decompressed_bytes = 0;  // for the whole message
  // Decompressed buffers and copies are charged here.
  const ReadBudgetPtr* budget = nullptr;
  const LoadPlan* plan = nullptr;
};

// Turns the nodes and buffers of one RecordBatch header into ArrayData by
// one walk of a LoadPlan: each buffer is cut from the body and its size
// checked against the layout as it is cut, and child lengths against their
// parent as children are made, so what comes out satisfies every structural
// rule of ValidateArray (only the data pass remains). Reusable across
// batches (Reset keeps the capacity of its scratch vectors).
class ArrayLoader {
 public:
  void Reset(const LoaderParams& params);

  // Loads the plan node `root` (a root of the plan) and its subtree into an
  // ArrayData the caller allocated (default-constructed).
  Status LoadInto(int32_t root, ArrayData* out);
  // Same, allocating the ArrayData.
  Status Load(int32_t root, ArrayDataPtr* out);
  // Consumes the nodes and buffers of a root without touching its bytes.
  Status Skip(int32_t root);
  // Field nodes consumed so far (the memory budget charges per node).
  size_t nodes_used() const { return node_index_; }
  // Buffers consumed so far (the selected columns' buffers, for projection).
  size_t buffers_used() const { return buffer_index_; }
  // Checks that every node, buffer and variadic count was used, then
  // decompresses, aligns and byte-swaps the buffers that need it (checking
  // decompressed sizes against the layout).
  Status Finish();
  // What was learned about decompressed buffers of this message while they
  // were in cache (for the data pass of full validation); sealed, valid
  // until the next Reset, and only while the loaded buffers are unchanged.
  const alkaid::internal::ScannedBuffers& scanned() const { return scanned_; }

 private:
  // A buffer whose bytes still need decompression, alignment or swapping.
  struct Deferred {
    ArrayData* target;
    int slot;
    int alignment;
    ByteSwap swap;
    int64_t buffer_index;
    int64_t max_size;  // what the node justifies; -1 unbounded
    int64_t needed;    // what the layout requires (checked after decompression)
    int32_t node;      // plan index, for errors
    const BufferRule* rule;  // for errors
    bool owned = false;  // the buffer is a fresh allocation (decompressed)
  };

  Status LoadNode(int32_t index, ArrayData* out);
  Status LoadChildren(int32_t index, ArrayData* out);
  Status CheckChildren(int32_t index, const ArrayData& out) const;
  Status LoadVariadic(int32_t index, ArrayData* out);
  // Cuts out->buffers[slot] from the next buffer of the header.
  [[gnu::always_inline]] inline Status CutBuffer(int32_t index, int slot, const BufferRule& rule,
                                                 ArrayData* out);
  // The rarer cases of CutBuffer: decompression, byte swapping or a copy
  // for alignment.
  [[gnu::noinline]] Status FixUpBuffer(int32_t index, int slot, const BufferRule& rule,
                                       size_t buffer_index, int64_t needed, int64_t justified,
                                       ArrayData* out);
  [[gnu::cold, gnu::noinline]] Status TooFewBuffers(int32_t index) const;
  [[gnu::cold, gnu::noinline]] Status TooFewNodes(int32_t index) const;
  [[gnu::cold, gnu::noinline]] Status EmptyValidity(int32_t index, int64_t null_count) const;
  [[gnu::cold, gnu::noinline]] Status BufferTooSmall(int32_t index, const BufferRule& rule,
                                                     int64_t length, size_t buffer_index,
                                                     int64_t size, int64_t needed) const;
  Status TakeVariadicCount(int32_t index, int64_t* count);
  Status FinishDeferred();
  [[gnu::cold, gnu::noinline]] Status Error(int32_t index, const std::string& what) const;
  std::string FieldPathString(int32_t index) const;

  LoaderParams params_;
  const PlanNode* nodes_ = nullptr;  // params_.plan->nodes
  std::shared_ptr<SliceArena> arena_;  // slices of params_.body
  size_t node_index_ = 0;
  size_t buffer_index_ = 0;
  size_t variadic_index_ = 0;
  std::vector<Deferred> deferred_;
  std::vector<BufferPtr> encoded_scratch_;
  std::vector<BufferPtr> decoded_scratch_;
  std::vector<alkaid::internal::BufferScan> scans_scratch_;
  std::vector<uint8_t> facts_scratch_;
  alkaid::internal::ScannedBuffers scanned_;
};

// Counters behind ReadStats; atomic because a FileReader may be read from
// several threads.
struct AtomicStats {
  std::atomic<int64_t> num_messages{0};
  std::atomic<int64_t> num_record_batches{0};
  std::atomic<int64_t> num_dictionary_batches{0};
  std::atomic<int64_t> num_dictionary_deltas{0};
  std::atomic<int64_t> num_replaced_dictionaries{0};
  ReadStats Snapshot() const;
};

// The per-call state of loading one record batch. A stream reader reuses one;
// a file reader takes one per concurrent call.
struct BatchScratch {
  RecordBatchMeta meta;
  ArrayLoader loader;
};

// A record batch whose body was read only in part (a projection reading the
// selected columns' buffers from a file): `offsets[i]` moves buffer
// `indices[i]` to where its bytes sit in the partial body. Every buffer is
// still checked against the body length the message declares.
struct PartialBody {
  int64_t declared_size = 0;
  std::vector<uint32_t> indices;
  std::vector<int64_t> offsets;
};

// A decoded dictionary batch, before it is applied to the memo.
struct DecodedDictionary {
  int64_t id = 0;
  bool is_delta = false;
  bool skipped = false;  // no selected field uses the id
  ArrayDataPtr values;
};

// State shared by every reader: the schema, projection, dictionaries and the
// batch loader.
//
// Thread safety: after Init, ReadRecordBatch with a caller-provided scratch
// may run on several threads at once provided no dictionary batch is being
// read or applied at the same time (the file reader loads all dictionaries
// once, under its own lock, before any batch). Everything else is for one
// thread at a time.
class ReaderCore {
 public:
  ReaderCore() = default;
  ReaderCore(const ReaderCore&) = delete;
  ReaderCore& operator=(const ReaderCore&) = delete;

  // `is_file`: dictionary replacement is refused (file format rule).
  Status Init(const fb::Schema* schema, const IpcReadOptions& options, bool is_file);

  // Decodes a DictionaryBatch message without applying it.
  Result<DecodedDictionary> DecodeDictionaryBatch(const fb::Message& message,
                                                  const MessageBody& body,
                                                  const MessageLocation& where);
  // Applies a decoded dictionary batch (delta or not).
  Status ApplyDictionary(const DecodedDictionary& dict, const MessageLocation& where);
  // Decode and apply.
  Status ReadDictionaryBatch(const fb::Message& message, const MessageBody& body,
                             const MessageLocation& where);
  // Concatenates every queued delta (file reader: once all dictionary blocks
  // are read, before any batch).
  Status MaterializeDictionaries();
  // Loads and validates a RecordBatch message. `scratch` null: the core's
  // own (single-threaded use).
  // `partial`: the body holds only the buffers it lists (see PartialBody).
  Result<RecordBatchPtr> ReadRecordBatch(const fb::Message& message, const MessageBody& body,
                                         const MessageLocation& where,
                                         BatchScratch* scratch = nullptr,
                                         const PartialBody* partial = nullptr);
  // Same, into *out (no Result to move through on the per-batch path).
  Status ReadRecordBatchInto(const fb::Message& message, const MessageBody& body,
                             const MessageLocation& where, BatchScratch* scratch,
                             const PartialBody* partial, RecordBatchPtr* out);
  // True when included_fields leaves out some top-level field.
  bool projects() const {
    return out_schema_ != nullptr && full_schema_ != nullptr &&
           out_schema_->num_fields() < full_schema_->num_fields();
  }
  // The indices of the buffers the selected columns of a record batch use
  // (in header order, so ascending) and, in scratch->meta, the parsed header.
  // An error means the header does not fit the schema: the caller then reads
  // the whole body and lets ReadRecordBatch report the problem in full.
  Status SelectedBuffers(const fb::Message& message, int64_t body_size, BatchScratch* scratch,
                         std::vector<uint32_t>* indices) const;
  // Dispatches a stream message after the schema: dictionary batches are
  // applied (and *batch left null), record batches loaded into *batch.
  // `wire_size` counts towards the stream's input for the memory budget.
  Status HandleStreamMessage(const fb::Message& message, const MessageBody& body, int64_t wire_size,
                             const MessageLocation& where, RecordBatchPtr* batch);
  // Counts a stream message after the schema (stats, and its bytes towards
  // the input the memory budget allows for). HandleStreamMessage does it.
  void CountStreamMessage(int64_t wire_size) {
    stats_.num_messages.fetch_add(1, std::memory_order_relaxed);
    budget_->AddInput(wire_size);
  }

  const SchemaPtr& schema() const { return out_schema_; }
  const DictionaryIds& dictionary_ids() const { return out_ids_; }
  const DictionaryIds& full_dictionary_ids() const { return full_ids_; }
  const DictionaryMemo& memo() const { return memo_; }
  AtomicStats& stats() { return stats_; }
  ReadStats stats_snapshot() const { return stats_.Snapshot(); }
  const IpcReadOptions& options() const { return options_; }
  const ReadBudgetPtr& budget() const { return budget_; }

 private:
  const Codec* GetCodec(CompressionType type) const;
  Status PrepareLoader(ArrayLoader* loader, const LoadPlan* plan, const RecordBatchMeta& meta,
                       const MessageBody& body, fb::MetadataVersion version) const;
  Status BuildPlans();
  // The plan of dictionary `id`'s values, made on first use.
  Result<const LoadPlan*> DictionaryPlan(int64_t id, const DictionaryMemo::Entry& entry);
  [[gnu::cold]] Status ColumnFailed(const Status& st, size_t index) const;
  [[gnu::cold]] Status ColumnLengthMismatch(size_t index, int64_t length, int64_t declared) const;
  // The data pass of full validation (the loader checked the structure),
  // taking what the loader's scans found.
  Status ValidateLoaded(const ArrayData& data,
                        const alkaid::internal::ScannedBuffers& scanned) const;

  IpcReadOptions options_;
  ValidateOptions data_pass_options_;  // for full validation of loaded arrays, set by Init
  bool is_file_ = false;
  bool swap_endian_ = false;
  SchemaPtr full_schema_;
  SchemaPtr out_schema_;
  DictionaryIds full_ids_;
  DictionaryIds out_ids_;
  // For each top-level field of the wire schema: its output column, or -1.
  std::vector<int> output_position_;
  DictionaryMemo memo_;
  // Per-schema work done once: how the wire schema's fields are loaded, and
  // each needed dictionary's values.
  LoadPlan batch_plan_;
  std::map<int64_t, LoadPlan> dictionary_plans_;
  // Per output column: 1 when full validation has nothing to check unless
  // the column has nulls (fixed-width layouts).
  std::vector<uint8_t> plain_columns_;
  AtomicStats stats_;
  ReadBudgetPtr budget_;
  BatchScratch scratch_;  // single-threaded callers
  DictionaryBatchMeta dict_meta_;
  ArrayLoader dict_loader_;
  // Created in Init: codecs keep no per-call state (contexts are per
  // thread), so concurrent loads share them.
  std::unique_ptr<Codec> codecs_[3];
};

// The push-style stream state machine behind StreamDecoder.
class MessageDecoder {
 public:
  MessageDecoder(std::shared_ptr<StreamDecoder::Listener> listener, const IpcReadOptions& options);

  // `may_keep`: the bytes stay valid and immutable (an owned Buffer), so
  // parts lying entirely inside them are used without copying.
  Status Consume(const BufferPtr& chunk, bool may_keep);

  int64_t next_required_size() const;
  const SchemaPtr& schema() const;
  const DictionaryIds& dictionary_ids() const;
  bool finished() const { return framer_.part() == MessageFramer::Part::kEndOfStream; }
  ReadStats stats() const;

 private:
  Status ConsumeUnchecked(const BufferPtr& chunk, bool may_keep);
  // Called with exactly framer_.need() bytes of a metadata or body part.
  Status OnPart(BufferPtr part);
  Status OnMessage(BufferPtr body);
  Status AppendToPending(const uint8_t* data, int64_t n);
  MessageLocation where() const {
    return {"stream message", message_index_, framer_.message_offset()};
  }

  std::shared_ptr<StreamDecoder::Listener> listener_;
  IpcReadOptions options_;
  std::unique_ptr<ReaderCore> core_;
  MessageFramer framer_;
  bool failed_ = false;
  std::shared_ptr<ResizableBuffer> pending_;
  int64_t pending_size_ = 0;
  uint8_t word_[4] = {};
  BufferPtr metadata_;
  std::shared_ptr<ResizableBuffer> aligned_;  // misaligned metadata, copied
  const fb::Message* message_ = nullptr;
  int64_t consumed_ = 0;        // bytes consumed so far (for error offsets)
  int64_t message_index_ = 0;
  Status error_;
};

#pragma GCC visibility pop

}  // namespace alkaid::ipc::internal

// JSON Lines reader: blocks of whole lines (the text block loader, quoting off),
// each read by the first of these tiers that takes it:
// - the line scanner (line_scanner.h) when the schema allows it
//   (ScannerSupports), which walks the bytes once and gives up on anything
//   unusual;
// - simdjson's On-Demand iterate_many (fast_converter.h) when every column
//   type is one it reads (FastDepth);
// - the DOM parser (dom_converter.h), parse_many over the block, then line
//   by line, which words the error.
// Without a schema, one is inferred from the first lines (infer.h).
// See include/alkaid/jsonl/api.h for the behaviour.
#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>

#include "../text/block_limits.h"
#include "../text/pipeline.h"
#include "../text/record_ends.h"
#include "alkaid/builder.h"
#include "alkaid/encode.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/thread_pool.h"
#include "dom_converter.h"
#include "fast_converter.h"
#include "infer.h"
#include "line_scanner.h"
#include "node.h"
#include "parse_line.h"
#include "size_hints.h"

namespace alkaid::jsonl {
namespace {

using internal::BuildNode;
using internal::FastResult;
using internal::Node;
using internal::SizeHint;
using text::internal::RawBlock;

struct Block {
  RawBlock raw;
  bool ok = true;
  int64_t lines = 0;
  int64_t error_line = 0;
  Status error;
  RecordBatchPtr batch;
  const char* data() const { return reinterpret_cast<const char*>(raw.buffer->data()); }
};

class JsonlReader final : public RecordBatchReader {
 public:
  JsonlReader(std::shared_ptr<io::InputStream> input, const ReadOptions& options)
      : options_(options),
        blocks_(std::move(input), ToLoaderOptions(options), options.num_threads) {
  }

  static text::internal::LoaderOptions ToLoaderOptions(const ReadOptions& o) {
    text::internal::LoaderOptions l;
    l.quote = '\0';
    l.lone_cr = false;
    l.block_size = o.block_size;
    l.max_record_bytes = o.max_line_bytes;
    l.max_record_bytes_name = "max_line_bytes";
    l.record_noun = "a line";
    l.pool = o.pool;
    return l;
  }

  const SchemaPtr& schema() const override { return schema_; }

  Status Init() {
    ALKAID_RETURN_NOT_OK(InitSchema());
    auto struct_type = DecodedType(struct_(schema_->fields()));
    int depth = internal::FastDepth(*struct_type);
    fast_ = depth >= 0 && depth <= options_.max_depth;
    scan_ = fast_ && internal::ScannerSupports(*struct_type) && ScannerWanted();
    return Status::OK();
  }

  Status InitSchema() {
    if (options_.missing_nulls_per_byte < 0 || options_.missing_nulls_floor < 0 ||
        options_.max_columns < 0) {
      return Status::Invalid("JSON Lines: missing_nulls_per_byte, missing_nulls_floor and "
                             "max_columns must not be negative");
    }
    if (options_.block_size < 1 || options_.max_line_bytes < 1 || options_.max_depth < 1 ||
        options_.block_size + options_.max_line_bytes + 256 > text::internal::kMaxBlockBytes) {
      return Status::Invalid("JSON Lines: block_size, max_line_bytes and max_depth must be "
                             "positive and the byte sizes sum to less than ",
                             text::internal::kMaxBlockBytes)
          .WithDetail({StatusDetail::Kind::kLimit, {"block_size", "max_line_bytes"}});
    }
    ALKAID_RETURN_NOT_OK(blocks_.loader.Start());
    if (options_.schema) {
      schema_ = options_.schema;
      SizeBlocksForWidth();
      return Status::OK();
    }
    // Inference over the first inference_rows lines.
    internal::SchemaInference inference(options_);
    int64_t seen = 0;
    int64_t line_base = 1;
    bool whole = true;
    size_t i = 0;
    while (seen < options_.inference_rows) {
      if (i == blocks_.pipeline.pending().size()) {
        if (blocks_.loader.done()) break;
        ALKAID_RETURN_NOT_OK(blocks_.LoadBlock());
        continue;
      }
      Block& b = blocks_.pipeline.pending()[i++];
      if (!b.raw.error.ok()) return Located(b.raw.error, line_base);
      Status st =
          internal::ForEachLine(b.data(), b.raw.size, [&](int64_t line, int64_t s, int64_t e) {
            if (seen >= options_.inference_rows) {
              whole = false;
              return Status::OK();
            }
            ++seen;
            Status added = inference.AddLine(b.data() + s, static_cast<size_t>(e - s));
            return added.ok() ? added : Located(added, line_base + line);
          });
      ALKAID_RETURN_NOT_OK(st);
      line_base += text::internal::CountLineFeeds(b.data(), b.raw.size);
    }
    if (!blocks_.loader.done() || i < blocks_.pipeline.pending().size()) whole = false;
    schema_ = inference.Schema(whole);
    SizeBlocksForWidth();
    return Status::OK();
  }

  // Wide schemas: blocks after those read so far hold enough bytes a column
  // (text::internal::BlockSizeForColumns).
  void SizeBlocksForWidth() {
    int64_t columns = 0;
    for (const auto& f : schema_->fields()) columns += 1 + CountDescendants(*f->type());
    blocks_.loader.SetBlockSize(text::internal::BlockSizeForColumns(options_.block_size,
                                                            options_.max_line_bytes, columns));
  }

  static int64_t CountDescendants(const DataType& type) {
    int64_t n = 0;
    for (int i = 0; i < type.num_fields(); ++i) n += 1 + CountDescendants(*type.field(i)->type());
    return n;
  }

  Result<RecordBatchPtr> Next() override {
    return blocks_.Next(
        [this](Block* b) { return ParseBlock(b); },
        [this](Block& b) -> Result<RecordBatchPtr> {
          if (!b.raw.error.ok()) return Located(b.raw.error, blocks_.next_line);
          if (!b.ok) return Located(b.error, blocks_.next_line + b.error_line);
          blocks_.next_line += b.lines;
          return std::move(b.batch);
        });
  }

 private:
  // The line scanner is on unless ALKAID_JSONL_SCANNER=0 is in the
  // environment when the reader starts (for tests and measurements that
  // compare it with the tiers after it).
  static bool ScannerWanted() {
    const char* env = std::getenv("ALKAID_JSONL_SCANNER");
    return env == nullptr || std::string_view(env) != "0";
  }
  static Status Located(const Status& st, int64_t line) {
    return st.WithContext("JSON Lines line " + std::to_string(line));
  }

  // Parses one block into a batch; runs on any thread.
  Status ParseBlock(Block* b) {
    if (!b->raw.error.ok()) return Status::OK();
    // dictionary<…> / run_end_encoded<…> fields are parsed as their values
    // and encoded in Finish.
    auto struct_type = DecodedType(struct_(schema_->fields()));
    // One record per line: the columns are sized once for the block instead
    // of growing (each growth a fresh zero-filled allocation and a copy).
    b->lines = text::internal::CountLineFeeds(b->data(), b->raw.size);
    ArrayBuilderPtr builder;
    Node root;
    std::vector<SizeHint> hints;
    // Each attempt at the block starts with the whole allowance.
    const int64_t allowance = FillAllowance(b->raw.size);
    int64_t fill_left = allowance;
    auto fresh = [&]() -> Status {
      ALKAID_ASSIGN_OR_RAISE(builder, MakeBuilder(struct_type, options_.pool));
      root = BuildNode(*struct_type, builder.get());
      fill_left = allowance;
      SetFillAllowance(&root, &fill_left);
      const int nodes = internal::NumberNodes(&root);
      // Every row holds each top-level field as text (a byte at least) or
      // as a null charged to the allowance: rows beyond that bound cannot
      // come, so slots for them are not reserved (short lines over a wide
      // schema would otherwise take lines x fields slots up front).
      const int64_t fields = std::max(builder->num_children(), 1);
      const int64_t cells = allowance > std::numeric_limits<int64_t>::max() - b->raw.size
                                ? std::numeric_limits<int64_t>::max()
                                : b->raw.size + allowance;
      const int64_t rows = std::min(b->lines + 1, cells / fields + 1);
      for (int i = 0; i < builder->num_children(); ++i) {
        ALKAID_RETURN_NOT_OK(builder->child(i)->Reserve(rows));
      }
      if (hints.empty()) {
        std::lock_guard<std::mutex> lock(hints_mutex_);
        hints_.resize(static_cast<size_t>(nodes));
        hints = hints_;
      }
      return internal::ReserveSizes(&root, rows, hints, true, b->raw.size + 64);
    };
    ALKAID_RETURN_NOT_OK(fresh());
    if (scan_) {
      int64_t rows = 0;
      if (internal::ScanLines(b->data(), b->raw.size, &root, &rows)) {
        return Finish(b, builder.get(), &root, rows);
      }
      ALKAID_RETURN_NOT_OK(fresh());
    }
    if (fast_) {
      int64_t rows = 0;
      FastResult r = internal::OnDemandConvertBlock(b->data(), b->raw.size, b->lines,
                                                    options_.max_depth, &root, &rows, false);
      if (r == FastResult::kStrict) {
        ALKAID_RETURN_NOT_OK(fresh());
        rows = 0;
        r = internal::OnDemandConvertBlock(b->data(), b->raw.size, b->lines, options_.max_depth,
                                           &root, &rows, true);
      }
      if (r == FastResult::kOk) return Finish(b, builder.get(), &root, rows);
      ALKAID_RETURN_NOT_OK(fresh());
    }
    {
      int64_t rows = 0;
      if (internal::DomConvertBlock(b->data(), b->raw.size, options_, allowance, &root, &rows)) {
        return Finish(b, builder.get(), &root, rows);
      }
    }
    ALKAID_RETURN_NOT_OK(fresh());
    int64_t rows = 0;
    std::optional<internal::BadLine> bad;
    ALKAID_RETURN_NOT_OK(internal::DomConvertLines(b->data(), b->raw.size, options_, allowance,
                                                   &root, &rows, &bad));
    if (bad) {
      b->ok = false;
      b->error_line = bad->line;
      b->error = std::move(bad->error);
      return Status::OK();
    }
    return Finish(b, builder.get(), &root, rows);
  }

  // Nulls for left-out keys a block of `bytes` bytes may add (see
  // ReadOptions::missing_nulls_per_byte).
  int64_t FillAllowance(int64_t bytes) const {
    return text::internal::MissingAllowance(bytes, options_.missing_nulls_per_byte,
                                           options_.missing_nulls_floor);
  }

  Status Finish(Block* b, ArrayBuilder* builder, const Node* root, int64_t rows) {
    if (b->lines > 0) {
      std::vector<SizeHint> sizes(internal::CountNodes(root));
      internal::RecordSizes(*root, b->lines + 1, &sizes);
      std::lock_guard<std::mutex> lock(hints_mutex_);
      hints_ = std::move(sizes);
    }
    ArrayDataVector columns;
    for (int i = 0; i < builder->num_children(); ++i) {
      ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr col, builder->child(i)->Finish());
      const DataTypePtr& type = schema_->field(i)->type();
      if (HasEncodedParts(*type)) {
        auto encoded = EncodeAs(col, type, options_.pool);
        if (!encoded.ok()) return encoded.status().WithContext("field " + schema_->field(i)->name());
        col = std::move(*encoded);
      }
      columns.push_back(std::move(col));
    }
    b->batch = RecordBatch::Make(schema_, rows, std::move(columns));
    blocks_.loader.Recycle(std::move(b->raw.buffer));
    return Status::OK();
  }

  ReadOptions options_;
  std::mutex hints_mutex_;
  std::vector<SizeHint> hints_;  // see SizeHint
  bool fast_ = false;  // the schema is read by the On-Demand path first
  bool scan_ = false;  // and by the line scanner before that
  SchemaPtr schema_;
  text::internal::BlockReading<Block> blocks_;  // last: see BlockReading
};

}  // namespace

ALKAID_TEXT_READER_ENTRY_POINTS(JsonlReader)

}  // namespace alkaid::jsonl

// CSV reader: a serial loader cuts the input into blocks of whole records,
// blocks are tokenized and converted to columns in parallel, and batches are
// handed out in input order. See include/alkaid/csv/api.h for the behaviour.
#include <algorithm>
#include <mutex>

#include "alkaid/csv/api.h"
#include "alkaid/thread_pool.h"
#include "alkaid/utf8.h"
#include "column_converter.h"
#include "infer.h"
#include "null_matcher.h"
#include "../text/block_limits.h"
#include "../text/pipeline.h"
#include "tokenizer.h"

namespace alkaid::csv {

using internal::BlockError;
using internal::FieldRef;
using internal::NullMatcher;
using internal::Tokens;
using text::internal::RawBlock;

namespace {

struct Block {
  RawBlock raw;
  int64_t begin = 0;  // first byte of data records (past the header in block 0)
  int64_t lines_before = 0;  // lines in [0, begin) not counted by tokens
  bool tokenized = false;
  bool ok = true;
  Tokens tokens;
  BlockError error;
  RecordBatchPtr batch;
  const char* data() const { return reinterpret_cast<const char*>(raw.buffer->data()); }
};

text::internal::LoaderOptions ToLoaderOptions(const ReadOptions& o) {
  text::internal::LoaderOptions l;
  l.quote = o.quote;
  l.block_size = o.block_size;
  l.max_record_bytes = o.max_record_bytes;
  l.skip_lines = o.skip_rows;
  l.pool = o.pool;
  return l;
}

class CsvReader final : public RecordBatchReader {
 public:
  CsvReader(std::shared_ptr<io::InputStream> input, const ReadOptions& options)
      : options_(options),
        nulls_(options.null_values),
        blocks_(std::move(input), ToLoaderOptions(options), options.num_threads) {
    tok_.delimiter = options.delimiter;
    tok_.quote = options.quote;
    tok_.ignore_empty_lines = options.ignore_empty_lines;
    tok_.fill_missing = options.ragged_rows == RaggedRows::kFillNull;
    tok_.missing_per_byte = options.missing_nulls_per_byte;
    tok_.missing_floor = options.missing_nulls_floor;
  }

  const SchemaPtr& schema() const override { return schema_; }

  Status Init() {
    if (options_.missing_nulls_per_byte < 0 || options_.missing_nulls_floor < 0 ||
        options_.max_columns < 0) {
      return Status::Invalid("CSV missing_nulls_per_byte, missing_nulls_floor and max_columns "
                             "must not be negative");
    }
    if (options_.block_size < 1 || options_.max_record_bytes < 1 ||
        options_.block_size + options_.max_record_bytes + 256 > text::internal::kMaxBlockBytes) {
      return Status::Invalid("CSV block_size and max_record_bytes must be positive and sum to "
                             "less than ",
                             text::internal::kMaxBlockBytes, " bytes")
          .WithDetail({StatusDetail::Kind::kLimit, {"block_size", "max_record_bytes"}});
    }
    if (options_.delimiter == '\n' || options_.delimiter == '\r' ||
        options_.delimiter == options_.quote || options_.quote == '\n' || options_.quote == '\r') {
      return Status::Invalid("CSV delimiter and quote must differ from each other and from line "
                             "breaks");
    }
    ALKAID_ASSIGN_OR_RAISE(int64_t skipped, blocks_.loader.Start());
    blocks_.next_line = skipped + 1;
    // The first block: the header record, if any, comes off its front.
    ALKAID_RETURN_NOT_OK(blocks_.LoadBlock());
    int ncols = -1;
    std::vector<std::string> names;
    if (!blocks_.pipeline.pending().empty()) {
      Block& first = blocks_.pipeline.pending().front();
      if (!first.raw.error.ok()) return LocatedError(first.raw.error, 0);
      if (options_.schema) ncols = options_.schema->num_fields();
      if (!options_.column_names.empty()) ncols = static_cast<int>(options_.column_names.size());
      if (options_.header) {
        Tokens header;
        BlockError err;
        if (!internal::Tokenize(first.data(), 0, first.raw.size, tok_, 1, &header, &err)) {
          return LocatedError(err.status, err.line_delta);
        }
        if (header.num_rows == 1) {
          // As soon as the header is split, before a name is kept for each
          // column (unless include_columns picks some: checked below).
          ALKAID_RETURN_NOT_OK(CheckWidth(
              ncols < 0 && options_.include_columns.empty(), header.num_columns,
              "the header has " + std::to_string(header.num_columns) + " columns"));
          if (ncols >= 0 && header.num_columns != ncols) {
            return LocatedError(
                Status::Invalid("the header has ", header.num_columns, " fields but ", ncols,
                                " column names or schema fields were given"),
                header.LineDelta(0));
          }
          std::string scratch;
          for (const FieldRef& f : header.fields) {
            const char* p = first.data() + f.start;
            if (f.bits & FieldRef::kEscaped) {
              internal::Unescape(p, f.length(), options_.quote, &scratch);
              names.push_back(scratch);
            } else {
              names.emplace_back(p, f.length());
            }
          }
          ncols = header.num_columns;
          first.begin = header.end;
          first.lines_before = header.lines;
        }
      }
    }
    if (options_.schema) {
      names.clear();
      for (const auto& f : options_.schema->fields()) names.push_back(f->name());
    } else if (!options_.column_names.empty()) {
      names = options_.column_names;
    }
    if (names.empty() && ncols < 0 && !blocks_.pipeline.pending().empty()) {
      // No header: the first record says how many columns there are.
      Block& first = blocks_.pipeline.pending().front();
      Tokens probe;
      BlockError err;
      if (!internal::Tokenize(first.data(), first.begin, first.raw.size, tok_, 1, &probe, &err)) {
        return LocatedError(err.status, err.line_delta + first.lines_before);
      }
      ncols = probe.num_columns;
      ALKAID_RETURN_NOT_OK(
          CheckWidth(options_.include_columns.empty(), ncols,
                     "the first record has " + std::to_string(ncols) + " columns"));
    }
    if (names.empty()) {
      for (int i = 0; i < std::max(ncols, 0); ++i) {
        std::string name = std::to_string(i);
        name.insert(name.begin(), 'f');  // not "f" + ...: GCC 12 warns wrongly (-Wrestrict)
        names.push_back(std::move(name));
      }
    }
    ncols = static_cast<int>(names.size());
    names_ = names;
    ncols_ = ncols;
    inferred_.assign(static_cast<size_t>(ncols), false);
    // With one column an empty line is a record holding one empty field (a
    // null by default), which is how writers put such a null.
    if (ncols == 1) tok_.ignore_empty_lines = false;

    // Which columns, and their types.
    std::vector<DataTypePtr> types(static_cast<size_t>(ncols));
    if (options_.schema) {
      for (int i = 0; i < ncols; ++i) types[static_cast<size_t>(i)] = options_.schema->field(i)->type();
    }
    for (const auto& [name, type] : options_.column_types) {
      bool found = false;
      for (int i = 0; i < ncols; ++i) {
        if (names[static_cast<size_t>(i)] == name) {
          types[static_cast<size_t>(i)] = type;
          found = true;
        }
      }
      if (!found) return Status::KeyError("CSV column_types names '", name, "', which is not a column");
    }
    if (options_.include_columns.empty()) {
      for (int i = 0; i < ncols; ++i) selected_.push_back(i);
    } else {
      for (const auto& name : options_.include_columns) {
        auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
          return Status::KeyError("CSV include_columns names '", name, "', which is not a column");
        }
        selected_.push_back(static_cast<int>(it - names.begin()));
      }
    }

    // Wide input: the width the input gave is capped, and the blocks after
    // the first hold enough bytes a column.
    const auto width = static_cast<int64_t>(selected_.size());
    ALKAID_RETURN_NOT_OK(CheckWidth(!options_.schema && options_.column_names.empty(), width,
                                    "include_columns selects " + std::to_string(width) +
                                        " columns"));
    blocks_.loader.SetBlockSize(
        text::internal::BlockSizeForColumns(options_.block_size, options_.max_record_bytes, width));

    // Inference over the sample: tokenize blocks until it is big enough.
    bool need_inference = false;
    for (int c : selected_) need_inference |= types[static_cast<size_t>(c)] == nullptr;
    if (need_inference) {
      int64_t sample_rows = 0;
      size_t i = 0;
      while (true) {
        while (i < blocks_.pipeline.pending().size()) {
          Block& b = blocks_.pipeline.pending()[i++];
          ALKAID_RETURN_NOT_OK(TokenizeBlock(&b));
          if (!b.ok) break;
          sample_rows += b.tokens.num_rows;
        }
        if (sample_rows >= options_.inference_rows || blocks_.loader.done() ||
            (!blocks_.pipeline.pending().empty() && !blocks_.pipeline.pending().back().ok)) {
          break;
        }
        ALKAID_RETURN_NOT_OK(blocks_.LoadBlock());
      }
      std::vector<internal::ColumnInference> inferred(static_cast<size_t>(ncols));
      int64_t seen = 0;
      bool whole = blocks_.loader.done();
      for (Block& b : blocks_.pipeline.pending()) {
        if (!b.ok) {
          whole = false;
          break;
        }
        int64_t rows = std::min(b.tokens.num_rows, options_.inference_rows - seen);
        if (rows < b.tokens.num_rows) whole = false;
        // (A block the loader failed on has no bytes and no rows.)
        for (int c : selected_) {
          if (types[static_cast<size_t>(c)] || rows == 0) continue;
          inferred[static_cast<size_t>(c)].AddRows(b.data(), b.tokens, c, rows, nulls_);
        }
        seen += rows;
        if (seen >= options_.inference_rows) break;
      }
      for (int c : selected_) {
        if (!types[static_cast<size_t>(c)]) {
          types[static_cast<size_t>(c)] = inferred[static_cast<size_t>(c)].Type(whole);
          inferred_[static_cast<size_t>(c)] = true;
        }
      }
      hint_ = " (the type inferred from the first " + std::to_string(options_.inference_rows) +
              " records; raise inference_rows or give the column's type)";
    }
    FieldVector fields;
    for (int c : selected_) {
      // A given schema's fields are kept whole (nullability, metadata).
      const DataTypePtr& type = types[static_cast<size_t>(c)];
      fields.push_back(options_.schema ? options_.schema->field(c)->WithType(type)
                                       : field(names[static_cast<size_t>(c)], type));
    }
    types_ = std::move(types);
    schema_ = alkaid::schema(std::move(fields));
    return Status::OK();
  }

  Result<RecordBatchPtr> Next() override {
    return blocks_.Next(
        [this](Block* b) { return ParseBlock(b); },
        [this](Block& b) -> Result<RecordBatchPtr> {
          if (!b.raw.error.ok()) return LocatedError(b.raw.error, 0);
          if (!b.ok) return LocatedError(b.error.status, b.error.line_delta + b.lines_before);
          blocks_.next_line += b.lines_before + b.tokens.lines;
          return std::move(b.batch);
        });
  }

 private:
  // max_columns, for `columns` columns whose number the input gave
  // (`from_input`: no schema or column_names say it); `what` says where.
  Status CheckWidth(bool from_input, int64_t columns, const std::string& what) const {
    if (!from_input || options_.max_columns == 0 || columns <= options_.max_columns) {
      return Status::OK();
    }
    return LocatedError(text::internal::TooManyColumns(what, options_.max_columns,
                                                 "read fewer columns (include_columns)")
                            .WithDetail({StatusDetail::Kind::kLimit,
                                         {"max_columns", "include_columns"}}),
                        0);
  }

  Status LocatedError(const Status& st, int64_t line_delta) const {
    return st.WithContext("CSV line " + std::to_string(blocks_.next_line + line_delta));
  }

  Status TokenizeBlock(Block* b) {
    if (b->tokenized || !b->raw.error.ok()) return Status::OK();
    b->tokenized = true;
    b->tokens.num_columns = ncols_;
    b->tokens.fields = TakeFields();
    if (!internal::Tokenize(b->data(), b->begin, b->raw.size, tok_, INT64_MAX, &b->tokens,
                            &b->error)) {
      b->ok = false;
    }
    return Status::OK();
  }

  // Tokenizes (unless the sample did) and converts one block; runs on any thread.
  Status ParseBlock(Block* b) {
    if (!b->raw.error.ok()) return Status::OK();
    ALKAID_RETURN_NOT_OK(TokenizeBlock(b));
    if (!b->ok) return Status::OK();
    // One validation of the whole block answers for every text column (the
    // fields of those are then checked only when it fails); none without one.
    bool has_text = false;
    for (int c : selected_) {
      TypeId id = types_[static_cast<size_t>(c)]->id();
      has_text |= id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kStringView;
    }
    bool utf8_ok = !has_text || IsValidUtf8(reinterpret_cast<const uint8_t*>(b->data()) + b->begin,
                                            b->raw.size - b->begin);
    ArrayDataVector columns;
    for (int c : selected_) {
      const bool nullable = schema_->field(static_cast<int>(columns.size()))->nullable();
      ALKAID_ASSIGN_OR_RAISE(
          ArrayDataPtr col,
          internal::ConvertColumn(b->data(), b->tokens, c, names_[static_cast<size_t>(c)],
                                  types_[static_cast<size_t>(c)], nullable, options_, nulls_,
                                  utf8_ok, inferred_[static_cast<size_t>(c)] ? hint_ : empty_hint_,
                                  &b->error));
      if (!col) {
        b->ok = false;
        return Status::OK();
      }
      columns.push_back(std::move(col));
    }
    b->batch = RecordBatch::Make(schema_, b->tokens.num_rows, std::move(columns));
    // The bytes are copied into the columns; drop them now.
    blocks_.loader.Recycle(std::move(b->raw.buffer));
    GiveFields(std::move(b->tokens.fields));
    return Status::OK();
  }

  // Field vectors (about a block's size each) are reused from block to block:
  // freeing one on a pool thread hands its pages back to the kernel, and the
  // next block would fault every page in again.
  std::vector<FieldRef> TakeFields() {
    std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spare_fields_.empty()) return {};
    std::vector<FieldRef> v = std::move(spare_fields_.back());
    spare_fields_.pop_back();
    v.clear();
    return v;
  }
  void GiveFields(std::vector<FieldRef> v) {
    std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spare_fields_.size() < 8) spare_fields_.push_back(std::move(v));
  }

  ReadOptions options_;
  std::mutex spare_mutex_;
  std::vector<std::vector<FieldRef>> spare_fields_;
  NullMatcher nulls_;
  internal::TokenizeOptions tok_;
  int ncols_ = 0;
  std::vector<std::string> names_;
  std::vector<DataTypePtr> types_;
  std::vector<int> selected_;
  std::vector<bool> inferred_;  // per file column: its type was inferred
  std::string hint_;
  const std::string empty_hint_;
  SchemaPtr schema_;
  text::internal::BlockReading<Block> blocks_;  // last: see BlockReading
};

}  // namespace

ALKAID_TEXT_READER_ENTRY_POINTS(CsvReader)

}  // namespace alkaid::csv

// CSV writer: each batch's columns are formatted a column at a time (see
// text_values.h), then interleaved row by row into one buffer per batch.
#include "alkaid/csv.h"
#include "text_values.h"

namespace alkaid::csv {

Writer::Writer(io::OutputStream* sink, SchemaPtr schema, WriteOptions options)
    : sink_(sink), schema_(std::move(schema)), options_(std::move(options)) {}

Writer::~Writer() = default;

Result<std::unique_ptr<Writer>> Writer::Make(io::OutputStream* sink, SchemaPtr schema,
                                             const WriteOptions& options) {
  if (sink == nullptr || schema == nullptr) return Status::Invalid("CSV writer: no sink or schema");
  if (options.delimiter == options.quote || options.delimiter == '\n' ||
      options.delimiter == '\r' || options.quote == '\n' || options.quote == '\r' ||
      options.quote == '\0') {
    return Status::Invalid("CSV writer: the delimiter and quote must differ from each other and "
                           "from line breaks");
  }
  if (options.line_ending != "\n" && options.line_ending != "\r\n") {
    return Status::Invalid("CSV writer: line_ending must be \"\\n\" or \"\\r\\n\"");
  }
  return std::unique_ptr<Writer>(new Writer(sink, std::move(schema), options));
}

Status Writer::WriteHeader() {
  if (header_written_) return Status::OK();
  header_written_ = true;
  if (!options_.header) return Status::OK();
  text::CsvEscape esc{options_.delimiter, options_.quote, options_.null_text, false};
  // A header field is quoted by the same rules as a string value, except that
  // an empty name need not be (a header has no nulls).
  std::string line;
  for (int i = 0; i < schema_->num_fields(); ++i) {
    if (i > 0) line.push_back(options_.delimiter);
    text::ColumnText one;
    auto names = Buffer::FromString(schema_->field(i)->name());
    ArrayDataPtr data;
    {
      // Reuse the string quoting of FormatColumn through a one-slot column.
      int32_t offsets[2] = {0, static_cast<int32_t>(names->size())};
      auto offs = Buffer::Wrap(std::string_view(reinterpret_cast<const char*>(offsets), 8));
      data = ArrayData::Make(utf8(), 1, {nullptr, offs, names}, 0);
      ALKAID_RETURN_NOT_OK(text::FormatColumn(*data, 0, 1, text::TextEscape::kCsv, esc, "", &one));
    }
    line.append(one.get(0));
  }
  line.append(options_.line_ending);
  return sink_->Write(line.data(), static_cast<int64_t>(line.size()));
}

Status Writer::WriteBatch(const RecordBatch& batch) {
  if (!batch.schema()->Equals(*schema_)) {
    return Status::Invalid("CSV writer: batch schema ", batch.schema()->ToString(),
                           " differs from the writer's ", schema_->ToString());
  }
  ALKAID_RETURN_NOT_OK(WriteHeader());
  text::CsvEscape esc{options_.delimiter, options_.quote, options_.null_text,
                      options_.quote_all_strings, &DefaultNullValues()};
  // Bounded chunks keep the formatted text small whatever the batch size.
  constexpr int64_t kChunkRows = 16384;
  std::vector<text::ColumnText> cols(static_cast<size_t>(batch.num_columns()));
  std::string out;
  for (int64_t start = 0; start < batch.num_rows(); start += kChunkRows) {
    int64_t n = std::min(kChunkRows, batch.num_rows() - start);
    size_t total = 0;
    for (int c = 0; c < batch.num_columns(); ++c) {
      auto& col = cols[static_cast<size_t>(c)];
      col.clear();
      Status st = text::FormatColumn(*batch.column_data(c), start, n, text::TextEscape::kCsv, esc,
                                     options_.null_text, &col);
      if (!st.ok()) return st.WithContext("CSV column '" + batch.column_name(c) + "': ");
      total += col.bytes.size();
    }
    out.clear();
    out.reserve(total + static_cast<size_t>(n) * (cols.size() + options_.line_ending.size()));
    for (int64_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < cols.size(); ++c) {
        if (c > 0) out.push_back(options_.delimiter);
        out.append(cols[c].get(r));
      }
      out.append(options_.line_ending);
    }
    ALKAID_RETURN_NOT_OK(sink_->Write(out.data(), static_cast<int64_t>(out.size())));
  }
  return Status::OK();
}

Status Writer::WriteTable(const Table& table) {
  ALKAID_RETURN_NOT_OK(WriteHeader());
  ALKAID_ASSIGN_OR_RAISE(auto combined, table.CombineChunks());
  ArrayDataVector cols;
  for (int c = 0; c < combined->num_columns(); ++c) {
    const auto& chunks = combined->column(c)->chunks();
    if (chunks.empty()) return Status::OK();
    cols.push_back(chunks[0]);
  }
  if (cols.empty()) return Status::OK();
  return WriteBatch(*RecordBatch::Make(table.schema(), table.num_rows(), std::move(cols)));
}

Status Writer::Close() { return WriteHeader(); }

Status WriteTable(const Table& table, io::OutputStream* sink, const WriteOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto writer, Writer::Make(sink, table.schema(), options));
  ALKAID_RETURN_NOT_OK(writer->WriteTable(table));
  return writer->Close();
}

Result<std::string> WriteToString(const Table& table, const WriteOptions& options) {
  io::BufferOutputStream sink;
  ALKAID_RETURN_NOT_OK(WriteTable(table, &sink, options));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr buf, sink.Finish());
  return std::string(buf->view());
}

}  // namespace alkaid::csv

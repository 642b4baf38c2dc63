// CSV writer: each batch's columns are formatted a column at a time (see
// src/text/text_values.h), then interleaved row by row into one buffer per batch.
#include "alkaid/csv/api.h"
#include "../text/text_values.h"

namespace alkaid::csv {
namespace {

// Appends one formatted field. Readers drop a UTF-8 byte order mark at the very
// start of their input, so when `at_start` a field beginning with those bytes
// is quoted (inside quotes they stay data): a column named, or a first value
// starting with, U+FEFF reads back as written.
void AppendField(std::string* out, std::string_view field, char quote, bool* at_start) {
  if (*at_start) {
    *at_start = false;
    if (field.starts_with("\xEF\xBB\xBF")) {
      out->push_back(quote);
      for (char c : field) {
        if (c == quote) out->push_back(quote);
        out->push_back(c);
      }
      out->push_back(quote);
      return;
    }
  }
  out->append(field);
}

}  // namespace

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
    AppendField(&line, one.get(0), options_.quote, &at_start_);
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
  std::string out;
  return text::FormatBatchInChunks(
      batch, text::TextEscape::kCsv, esc, options_.null_text, "CSV",
      [&](const std::vector<text::ColumnText>& cols, int64_t n) {
        out.clear();
        for (int64_t r = 0; r < n; ++r) {
          for (size_t c = 0; c < cols.size(); ++c) {
            if (c > 0) out.push_back(options_.delimiter);
            AppendField(&out, cols[c].get(r), options_.quote, &at_start_);
          }
          out.append(options_.line_ending);
        }
        return sink_->Write(out.data(), static_cast<int64_t>(out.size()));
      });
}

Status Writer::WriteTable(const Table& table) {
  ALKAID_RETURN_NOT_OK(WriteHeader());
  if (table.num_columns() == 0) return Status::OK();
  ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, text::TableAsBatch(table));
  return WriteBatch(*batch);
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

// JSON Lines writer: columns are formatted a column at a time as JSON text
// (src/text/text_values.h, which also holds the nested forms), then each row
// is assembled as an object with the precomputed keys.
#include "../text/text_values.h"
#include "alkaid/jsonl/api.h"

namespace alkaid::jsonl {

Writer::Writer(io::OutputStream* sink, SchemaPtr schema)
    : sink_(sink), schema_(std::move(schema)) {
  for (const auto& f : schema_->fields()) {
    std::string key;
    text::AppendJsonString(&key, f->name());
    key.push_back(':');
    keys_.push_back(std::move(key));
  }
}

Result<std::unique_ptr<Writer>> Writer::Make(io::OutputStream* sink, SchemaPtr schema) {
  if (sink == nullptr || schema == nullptr) {
    return Status::Invalid("JSON Lines writer: no sink or schema");
  }
  return std::unique_ptr<Writer>(new Writer(sink, std::move(schema)));
}

Status Writer::WriteBatch(const RecordBatch& batch) {
  if (!batch.schema()->Equals(*schema_)) {
    return Status::Invalid("JSON Lines writer: batch schema ", batch.schema()->ToString(),
                           " differs from the writer's ", schema_->ToString());
  }
  text::CsvEscape unused;
  std::string out;
  return text::FormatBatchInChunks(
      batch, text::TextEscape::kJson, unused, "null", "JSON Lines",
      [&](const std::vector<text::ColumnText>& cols, int64_t n) {
        out.clear();
        for (int64_t r = 0; r < n; ++r) {
          out.push_back('{');
          for (size_t c = 0; c < cols.size(); ++c) {
            if (c > 0) out.push_back(',');
            out.append(keys_[c]);
            out.append(cols[c].get(r));
          }
          out.append("}\n");
        }
        return sink_->Write(out.data(), static_cast<int64_t>(out.size()));
      });
}

Status Writer::WriteTable(const Table& table) {
  if (table.num_columns() == 0) {
    // No columns: one empty object per row.
    std::string out;
    for (int64_t r = 0; r < table.num_rows(); ++r) out.append("{}\n");
    return sink_->Write(out.data(), static_cast<int64_t>(out.size()));
  }
  ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, text::TableAsBatch(table));
  return WriteBatch(*batch);
}

Status WriteTable(const Table& table, io::OutputStream* sink) {
  ALKAID_ASSIGN_OR_RAISE(auto writer, Writer::Make(sink, table.schema()));
  ALKAID_RETURN_NOT_OK(writer->WriteTable(table));
  return writer->Close();
}

Result<std::string> WriteToString(const Table& table) {
  io::BufferOutputStream sink;
  ALKAID_RETURN_NOT_OK(WriteTable(table, &sink));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr buf, sink.Finish());
  return std::string(buf->view());
}

}  // namespace alkaid::jsonl

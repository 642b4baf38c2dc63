// `alkaid parquet-meta FILE`: a Parquet file's footer: the writer, the
// schema, key-value metadata, and per row group its column chunks with
// encodings, codec, sizes and statistics. Reads the footer only (no page).
#include <iostream>
#include <sstream>

#include "alkaid/parquet/reader.h"
#include "command.h"
#include "report.h"
#include "sources/source.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, "Parquet file");
  AddColumnsOption(cmd, options, "Comma-separated column paths to show (default: all)");
}

// A statistics bound as text, cut to a width a line can hold.
std::string Bound(const parquet::ColumnDescriptor& column, const std::string& bytes) {
  constexpr size_t kMaxBound = 40;
  std::string text = parquet::FormatStatisticsValue(column, bytes);
  if (text.size() > kMaxBound) {
    size_t cut = kMaxBound;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut) + "…";
  }
  return text;
}

void PrintChunk(const parquet::ColumnChunkMetaData& chunk, std::ostream& out) {
  out << "    " << chunk.path() << ": " << parquet::PhysicalTypeName(chunk.physical_type()) << ", "
      << parquet::CompressionName(chunk.compression()) << ", encodings";
  const char* sep = " ";
  for (parquet::Encoding e : chunk.encodings()) {
    out << sep << parquet::EncodingName(e);
    sep = "/";
  }
  out << ", " << chunk.num_values() << " values, " << chunk.total_compressed_size() << " bytes ("
      << chunk.total_uncompressed_size() << " uncompressed), at " << chunk.start_offset();
  if (chunk.dictionary_page_offset()) out << ", dictionary page";
  if (chunk.has_statistics()) {
    parquet::Statistics stats = chunk.statistics();
    if (stats.null_count) out << ", nulls " << *stats.null_count;
    if (stats.distinct_count) out << ", distinct " << *stats.distinct_count;
    if (stats.has_min_max())
      out << ", min " << Bound(chunk.descriptor(), *stats.min) << ", max "
          << Bound(chunk.descriptor(), *stats.max);
  }
  if (chunk.column_index_offset()) out << ", page index";
  if (chunk.bloom_filter_offset()) out << ", bloom filter";
  out << "\n";
}

int Run(const Options& options) {
  const std::string subject = InputName(options.input);
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto bytes = OpenInputBytes(options.input);
  if (!bytes.ok()) return Report(subject, bytes.status());
  if ((*bytes)->head().substr(0, 4) != "PAR1")
    return Report(subject, Status::Invalid("not a Parquet file (it does not start with PAR1)"),
                  kExitUsage);
  auto file = (*bytes)->RandomAccess();
  if (!file.ok()) return Report(subject, file.status());
  auto meta = parquet::ReadMetaData(*file);
  if (!meta.ok()) return Report(subject, meta.status());
  const parquet::FileMetaData& m = **meta;
  std::vector<int> shown;
  for (const auto& name : *names) {
    int i = m.schema().FindColumn(name);
    if (i < 0)
      return Report(subject, Status::KeyError("no column '", name, "' in the file"), kExitUsage);
    shown.push_back(i);
  }
  if (shown.empty())
    for (int i = 0; i < m.num_columns(); ++i) shown.push_back(i);
  std::ostringstream out;
  out << "Parquet file, format version " << m.version() << ", " << m.num_rows() << " rows, "
      << m.num_row_groups() << (m.num_row_groups() == 1 ? " row group, " : " row groups, ")
      << m.num_columns() << (m.num_columns() == 1 ? " column" : " columns") << ", footer "
      << m.footer_size() << " bytes\n";
  if (!m.created_by().empty()) out << "created by: " << m.created_by() << "\n";
  if (const auto& kv = m.key_value_metadata(); kv != nullptr) {
    for (int64_t i = 0; i < kv->size(); ++i) {
      // Short printable values are shown; others (ARROW:schema) by size.
      const std::string& value = kv->value(i);
      bool shown = value.size() <= 80;
      for (unsigned char ch : value) shown = shown && ch >= 0x20;
      out << "metadata: " << kv->key(i);
      if (shown) out << " = " << value << "\n";
      else out << " (" << value.size() << " bytes)\n";
    }
  }
  out << "schema:\n" << m.schema().ToString();
  if (out.str().back() != '\n') out << "\n";
  for (int g = 0; g < m.num_row_groups(); ++g) {
    parquet::RowGroupMetaData group = m.row_group(g);
    out << "row group " << g << ": " << group.num_rows() << " rows, "
        << group.total_compressed_size() << " bytes (" << group.total_byte_size()
        << " uncompressed)\n";
    for (int c : shown)
      if (c < group.num_columns()) PrintChunk(group.column(c), out);
  }
  std::cout << out.str() << std::flush;
  return kExitOk;
}

}  // namespace

extern const Command kParquetMetaCommand = {
    "parquet-meta",
    "Print a Parquet file's footer: row groups, column chunks, encodings, codecs, sizes and "
    "statistics (reads no page)",
    AddOptions, Run};

}  // namespace alkaid::cli

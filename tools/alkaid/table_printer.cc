#include "table_printer.h"

#include <algorithm>

#include "alkaid/pretty_print.h"

namespace alkaid::cli {

namespace {

// Cuts on a UTF-8 character boundary so a multi-byte character is never split.
std::string Clip(std::string cell, size_t width) {
  if (cell.size() <= width) return cell;
  size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80) --cut;
  cell.resize(cut);
  return cell + "...";
}

// Display width in characters (UTF-8 continuation bytes take no column).
size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void PrintRow(const std::vector<std::string>& cells, const std::vector<size_t>& widths,
              std::ostream& out) {
  for (size_t c = 0; c < cells.size(); ++c) {
    out << (c == 0 ? "| " : " | ") << cells[c];
    out << std::string(widths[c] - DisplayWidth(cells[c]), ' ');
  }
  out << " |\n";
}

}  // namespace

int64_t PrintTable(const Schema& schema, const std::vector<RecordBatchPtr>& batches,
                   const TablePrintOptions& options, std::ostream& out) {
  const size_t ncols = static_cast<size_t>(schema.num_fields());
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> names, types;
  for (const auto& f : schema.fields()) {
    names.push_back(Clip(f->name(), options.max_cell_width));
    types.push_back(Clip(f->type()->ToString(), options.max_cell_width));
  }
  int64_t total_rows = 0;
  for (const auto& batch : batches) total_rows += batch->num_rows();

  for (const auto& batch : batches) {
    for (int64_t r = 0; r < batch->num_rows(); ++r) {
      if (options.limit >= 0 && static_cast<int64_t>(rows.size()) >= options.limit) break;
      std::vector<std::string> row;
      for (size_t c = 0; c < ncols; ++c)
        row.push_back(Clip(FormatValue(*batch->column_data(static_cast<int>(c)), r), options.max_cell_width));
      rows.push_back(std::move(row));
    }
  }

  std::vector<size_t> widths(ncols, 0);
  for (size_t c = 0; c < ncols; ++c) {
    widths[c] = std::max(DisplayWidth(names[c]), DisplayWidth(types[c]));
    for (const auto& row : rows) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
  }
  std::string rule = "+";
  for (size_t w : widths) rule += std::string(w + 2, '-') + "+";

  out << rule << "\n";
  PrintRow(names, widths, out);
  PrintRow(types, widths, out);
  out << rule << "\n";
  for (const auto& row : rows) PrintRow(row, widths, out);
  out << rule << "\n";
  out << rows.size() << " of " << total_rows << " rows, " << batches.size()
      << (batches.size() == 1 ? " batch" : " batches") << "\n";
  return static_cast<int64_t>(rows.size());
}

}  // namespace alkaid::cli

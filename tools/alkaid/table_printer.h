// Printers of record batches for `alkaid cat`/`head`/`tail`, one per output
// format. Batches arrive one at a time and are printed as they come, so a
// printer never holds more than one batch's worth of rows.
//
// Adding an output format: implement BatchPrinter and add a row to
// OutputFormats() (name, help text, factory); `cat --format NAME` picks it up.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/table.h"
#include "options.h"

namespace alkaid::cli {

struct PrintOptions {
  // Widest line in terminal columns; 0: no limit. Middle columns beyond it
  // are replaced by one "…" column.
  int64_t max_width = 0;
  // Widest cell in terminal columns; longer cells end in "…".
  int64_t max_cell = 40;
  // ANSI colour for headers (bold) and nulls (dim).
  bool color = false;
  // Print each batch as soon as it arrives (input from a pipe), instead of
  // first collecting up to 1,024 rows to size the columns.
  bool flush_each_batch = false;
};

// What the printer says after the rows.
struct PrintSummary {
  int64_t rows_printed = 0;
  int64_t batches_read = 0;
  // Rows known to exist in total (-1: not known because reading stopped).
  int64_t total_rows = -1;
  std::string note;  // e.g. "--limit 5 reached"
};

class BatchPrinter {
 public:
  virtual ~BatchPrinter() = default;
  virtual Status Begin(const Schema& schema) = 0;
  // Prints every row of `batch` (callers slice it to the rows they want).
  virtual Status PrintBatch(const RecordBatch& batch) = 0;
  virtual Status End(const PrintSummary& summary) = 0;
};

struct OutputFormat {
  std::string name;
  std::string help;
  std::function<std::unique_ptr<BatchPrinter>(const PrintOptions&, std::ostream*)> make;
};

// Every format `cat --format` accepts; the first is the default.
const std::vector<OutputFormat>& OutputFormats();
const OutputFormat* FindOutputFormat(std::string_view name);

// The printer `display` asks for, sized to the terminal: --max-width, else
// $COLUMNS, else the tty's width; when stdout is not a terminal and COLUMNS
// is unset, lines are not limited. `path` "-" prints each batch as it comes.
Result<std::unique_ptr<BatchPrinter>> MakePrinter(const DisplaySettings& display,
                                                  const std::string& path);

// Terminal columns `text` (UTF-8) occupies: East Asian wide and fullwidth
// characters count 2, combining marks and other zero-width characters 0
// (Unicode data from utf8proc). Invalid bytes count 1 each.
int64_t DisplayWidth(std::string_view text);
// `text` cut at a character boundary so that it and a trailing "…" fit in
// `width` columns (unchanged when it already fits, unless `cut` says that
// it is itself the start of a longer text).
std::string ClipToWidth(std::string_view text, int64_t width, bool cut = false);

// Slot `row` of `data` as a table cell of `width` columns: formatted only
// as far as the cell shows (a 64 MiB string costs a few hundred bytes), with
// `*cut` set when the value is longer than the text returned.
std::string FormatCell(const ArrayData& data, int64_t row, int64_t width, bool* cut);

}  // namespace alkaid::cli

#include "table_printer.h"

#include <sys/ioctl.h>
#include <unistd.h>
#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "alkaid/csv/api.h"
#include "alkaid/io/output.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/pretty_print.h"

namespace alkaid::cli {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026, one column wide
// Rows formatted at a time: a batch of any length (even 2^62 rows of a
// run-end encoded column) is printed slice by slice in bounded memory.
constexpr int64_t kChunkRows = 1024;

// One UTF-8 character at the front of `text`: its byte length and width.
std::pair<size_t, int64_t> NextChar(std::string_view text) {
  utf8proc_int32_t cp = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                        static_cast<utf8proc_ssize_t>(text.size()), &cp);
  if (n <= 0) return {1, 1};  // an invalid byte stands for itself
  int w = utf8proc_charwidth(cp);
  return {static_cast<size_t>(n), w < 0 ? 0 : w};
}

struct Cell {
  std::string text;
  int64_t width = 0;
  bool is_null = false;
};

class TablePrinter final : public BatchPrinter {
 public:
  TablePrinter(const PrintOptions& options, std::ostream* out) : options_(options), out_(*out) {}

  Status Begin(const Schema& schema) override {
    for (const auto& f : schema.fields()) {
      names_.push_back(MakeCell(f->name(), false));
      types_.push_back(MakeCell(f->type()->ToString(), false));
    }
    return Status::OK();
  }

  Status PrintBatch(const RecordBatch& batch) override {
    for (int64_t begin = 0; begin < batch.num_rows(); begin += kChunkRows) {
      RecordBatchPtr chunk = batch.Slice(begin, std::min(kChunkRows, batch.num_rows() - begin));
      std::vector<std::vector<Cell>> rows(static_cast<size_t>(chunk->num_rows()));
      for (int64_t r = 0; r < chunk->num_rows(); ++r) {
        for (int c = 0; c < chunk->num_columns(); ++c) {
          bool cut = false;
          std::string text = FormatCell(*chunk->column_data(c), r, options_.max_cell, &cut);
          // Strings are quoted by FormatValue, so a bare "null" is a null.
          bool is_null = text == "null" && !cut;
          rows[static_cast<size_t>(r)].push_back(MakeCell(std::move(text), is_null, cut));
        }
      }
      if (header_done_) {
        for (const auto& row : rows) PrintRow(row, /*bold=*/false);
        continue;
      }
      for (auto& row : rows) pending_.push_back(std::move(row));
      if (static_cast<int64_t>(pending_.size()) >= kChunkRows) FlushPending();
    }
    if (options_.flush_each_batch && !header_done_) FlushPending();
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("writing to standard output failed");
  }

  Status End(const PrintSummary& summary) override {
    if (!header_done_) FlushPending();
    out_ << rule_ << "\n" << summary.rows_printed << (summary.rows_printed == 1 ? " row" : " rows");
    if (summary.total_rows >= 0 && summary.total_rows != summary.rows_printed)
      out_ << " of " << summary.total_rows;
    out_ << ", " << summary.batches_read << (summary.batches_read == 1 ? " batch" : " batches");
    if (!summary.note.empty()) out_ << " (" << summary.note << ")";
    if (hidden_ > 0) out_ << ", " << hidden_ << (hidden_ == 1 ? " column" : " columns") << " not shown";
    out_ << "\n";
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("writing to standard output failed");
  }

 private:
  // `cut`: the text is the start of a longer value (it ends in "…").
  Cell MakeCell(std::string text, bool is_null, bool cut = false) const {
    Cell cell;
    cell.text = ClipToWidth(text, options_.max_cell, cut);
    cell.width = DisplayWidth(cell.text);
    cell.is_null = is_null;
    return cell;
  }

  // The first rows (up to kChunkRows, from as many batches as it takes)
  // size the columns; then they go out.
  void FlushPending() {
    PrintHeader(pending_);
    for (const auto& row : pending_) PrintRow(row, /*bold=*/false);
    pending_.clear();
    pending_.shrink_to_fit();
  }

  // Column widths come from the header and the first chunk of rows and stay
  // fixed after that, so that rows can go out as they are read; a later,
  // wider cell is cut with "…".
  void PrintHeader(const std::vector<std::vector<Cell>>& rows) {
    header_done_ = true;
    const size_t n = names_.size();
    widths_.assign(n, 1);
    for (size_t c = 0; c < n; ++c) {
      widths_[c] = std::max({widths_[c], names_[c].width, types_[c].width});
      for (const auto& row : rows) widths_[c] = std::max(widths_[c], row[c].width);
    }
    FitColumns();
    rule_.assign(1, '+');
    for (int c : shown_) {
      rule_.append(static_cast<size_t>(Width(c) + 2), '-');
      rule_ += '+';
    }
    out_ << rule_ << "\n";
    PrintRow(names_, /*bold=*/true);
    PrintRow(types_, /*bold=*/false);
    out_ << rule_ << "\n";
  }

  int64_t Width(int c) const { return c < 0 ? 1 : widths_[static_cast<size_t>(c)]; }

  // Chooses the columns to show: all when they fit in max_width, otherwise
  // as many from both ends as fit around one "…" column (-1 in shown_).
  void FitColumns() {
    const int n = static_cast<int>(widths_.size());
    shown_.clear();
    auto line_width = [&](int64_t cells) { return 1 + cells; };
    int64_t all = 0;
    for (int64_t w : widths_) all += w + 3;
    if (options_.max_width <= 0 || line_width(all) <= options_.max_width || n == 0) {
      for (int c = 0; c < n; ++c) shown_.push_back(c);
      return;
    }
    std::vector<int> left, right;
    int64_t used = line_width(1 + 3);  // the marker column
    int l = 0, r = n - 1;
    bool grew = true;
    while (grew && l <= r) {
      grew = false;
      if (l <= r && used + widths_[static_cast<size_t>(l)] + 3 <= options_.max_width) {
        used += widths_[static_cast<size_t>(l)] + 3;
        left.push_back(l++);
        grew = true;
      }
      if (l <= r && used + widths_[static_cast<size_t>(r)] + 3 <= options_.max_width) {
        used += widths_[static_cast<size_t>(r)] + 3;
        right.insert(right.begin(), r--);
        grew = true;
      }
    }
    if (left.empty() && right.empty()) {
      // Not even one column fits: show the first one narrowed.
      widths_[0] = std::max<int64_t>(1, options_.max_width - line_width(4) - 3);
      left.push_back(0);
      l = 1;
    }
    shown_ = left;
    if (l <= r) shown_.push_back(-1);
    shown_.insert(shown_.end(), right.begin(), right.end());
    hidden_ = r - l + 1;
  }

  void PrintRow(const std::vector<Cell>& cells, bool bold) {
    std::string line = "|";
    for (int c : shown_) {
      line += ' ';
      const int64_t w = Width(c);
      if (c < 0) {
        line += kEllipsis;
      } else {
        const Cell& cell = cells[static_cast<size_t>(c)];
        std::string text = cell.width > w ? ClipToWidth(cell.text, w) : cell.text;
        int64_t tw = cell.width > w ? DisplayWidth(text) : cell.width;
        const char* color = !options_.color ? nullptr : bold ? "\x1b[1m" : cell.is_null ? "\x1b[2m" : nullptr;
        if (color != nullptr) line += color;
        line += text;
        if (color != nullptr) line += "\x1b[0m";
        line.append(static_cast<size_t>(std::max<int64_t>(0, w - tw)), ' ');
      }
      line += " |";
    }
    out_ << line << "\n";
  }

  PrintOptions options_;
  std::ostream& out_;
  std::vector<Cell> names_, types_;
  std::vector<std::vector<Cell>> pending_;
  std::vector<int64_t> widths_;
  std::vector<int> shown_;
  int64_t hidden_ = 0;
  std::string rule_;
  bool header_done_ = false;
};

// The library writers write to an io::OutputStream; this one forwards to
// the printer's std::ostream.
class OstreamSink final : public io::OutputStream {
 public:
  explicit OstreamSink(std::ostream* out) : out_(*out) {}
  Status Write(const void* data, int64_t nbytes) override {
    out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(nbytes));
    position_ += nbytes;
    return out_ ? Status::OK() : Status::IOError("writing to standard output failed");
  }
  Result<int64_t> Tell() const override { return position_; }
  Status Flush() override {
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("writing to standard output failed");
  }
  Status Close() override { return Flush(); }
  bool closed() const override { return false; }

 private:
  std::ostream& out_;
  int64_t position_ = 0;
};

// CSV or JSON Lines through the library's writers: data only (no summary),
// each batch flushed as soon as it is written so a pipe sees rows as they
// are read. `Writer` is csv::Writer or jsonl::Writer.
template <typename Writer>
class TextPrinter final : public BatchPrinter {
 public:
  using Factory = std::function<Result<std::unique_ptr<Writer>>(io::OutputStream*, SchemaPtr)>;
  // `unsupported_hint` is added to NotImplemented errors (types the format
  // cannot hold).
  TextPrinter(std::ostream* out, Factory make, std::string unsupported_hint = "")
      : sink_(out), make_(std::move(make)), hint_(std::move(unsupported_hint)) {}

  Status Begin(const Schema& schema) override {
    ALKAID_ASSIGN_OR_RAISE(writer_, make_(&sink_, std::make_shared<Schema>(schema)));
    return Status::OK();
  }
  Status PrintBatch(const RecordBatch& batch) override {
    Status st = writer_->WriteBatch(batch);
    if (st.IsNotImplemented() && !hint_.empty()) return Status::NotImplemented(st.message(), hint_);
    ALKAID_RETURN_NOT_OK(st);
    return sink_.Flush();
  }
  Status End(const PrintSummary&) override {
    ALKAID_RETURN_NOT_OK(writer_->Close());
    return sink_.Flush();
  }

 private:
  OstreamSink sink_;
  Factory make_;
  std::string hint_;
  std::unique_ptr<Writer> writer_;
};

}  // namespace

std::string FormatCell(const ArrayData& data, int64_t row, int64_t width, bool* cut) {
  PrettyPrintOptions options;
  options.container_window = kFormatValueWindow;
  // A column is at most 4 bytes of UTF-8 (an escape like \x1F is 4 columns
  // of 4 bytes), plus room for zero-width characters.
  const int64_t budget = std::min<int64_t>(width, int64_t{1} << 40) * 4 + 64;
  return FormatValue(data, row, options, budget, cut);
}

int64_t DisplayWidth(std::string_view text) {
  int64_t width = 0;
  while (!text.empty()) {
    auto [bytes, w] = NextChar(text);
    width += w;
    text.remove_prefix(bytes);
  }
  return width;
}

std::string ClipToWidth(std::string_view text, int64_t width, bool cut) {
  if (!cut && DisplayWidth(text) <= width) return std::string(text);
  if (width <= 0) return std::string();
  std::string out;
  int64_t used = 0;
  while (!text.empty()) {
    auto [bytes, w] = NextChar(text);
    if (used + w > width - 1) break;  // keep one column for the ellipsis
    out.append(text.substr(0, bytes));
    used += w;
    text.remove_prefix(bytes);
  }
  // Zero-width characters (combining marks) stay with the character before.
  while (!text.empty()) {
    auto [bytes, w] = NextChar(text);
    if (w != 0) break;
    out.append(text.substr(0, bytes));
    text.remove_prefix(bytes);
  }
  out += kEllipsis;
  return out;
}

const std::vector<OutputFormat>& OutputFormats() {
  static const std::vector<OutputFormat> formats = {
      {"table", "aligned table fitted to the terminal",
       [](const PrintOptions& options, std::ostream* out) -> std::unique_ptr<BatchPrinter> {
         return std::make_unique<TablePrinter>(options, out);
       }},
      {"csv", "CSV with a header line (RFC 4180 quoting; nulls as empty fields)",
       [](const PrintOptions&, std::ostream* out) -> std::unique_ptr<BatchPrinter> {
         return std::make_unique<TextPrinter<csv::Writer>>(
             out, [](io::OutputStream* sink, SchemaPtr schema) {
               return csv::Writer::Make(sink, std::move(schema));
             },
             " (--format jsonl writes every type)");
       }},
      {"jsonl", "JSON Lines: one object per row",
       [](const PrintOptions&, std::ostream* out) -> std::unique_ptr<BatchPrinter> {
         return std::make_unique<TextPrinter<jsonl::Writer>>(
             out, [](io::OutputStream* sink, SchemaPtr schema) {
               return jsonl::Writer::Make(sink, std::move(schema));
             });
       }},
  };
  return formats;
}

const OutputFormat* FindOutputFormat(std::string_view name) {
  for (const auto& f : OutputFormats())
    if (f.name == name) return &f;
  return nullptr;
}

Result<std::unique_ptr<BatchPrinter>> MakePrinter(const DisplaySettings& display,
                                                  const std::string& path) {
  const OutputFormat* format = FindOutputFormat(display.format);
  if (format == nullptr) return Status::KeyError("unknown output format '", display.format, "'");
  PrintOptions options;
  options.flush_each_batch = path == "-";
  options.max_cell = std::max<int64_t>(display.max_cell, 1);
  const bool tty = ::isatty(1) == 1;
  if (display.max_width >= 0) {
    options.max_width = display.max_width;
  } else if (const char* columns = std::getenv("COLUMNS");
             columns != nullptr && std::atoll(columns) > 0) {
    options.max_width = std::atoll(columns);
  } else if (tty) {
    struct winsize ws {};
    if (::ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) options.max_width = ws.ws_col;
    else options.max_width = 80;
  }
  const char* no_color = std::getenv("NO_COLOR");
  options.color = tty && (no_color == nullptr || no_color[0] == '\0');
  return format->make(options, &std::cout);
}

}  // namespace alkaid::cli

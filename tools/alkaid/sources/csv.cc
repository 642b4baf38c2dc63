// CSV text: recognised when its first two lines hold the same number of one
// delimiter; read block by block by the library's streaming reader, which
// also selects the columns.
#include <algorithm>

#include "alkaid/csv/api.h"
#include "source.h"
#include "text_sniff.h"

namespace alkaid::cli {

namespace {

// The delimiter the first two lines agree on, or '\0'.
char SniffDelimiter(std::string_view head) {
  if (!LooksLikeText(head)) return '\0';
  std::string_view body = TextBody(head);
  if (body.empty() || body[0] == '{' || body[0] == '[') return '\0';
  std::string_view first = FirstLine(body);
  if (first.size() == body.size()) return '\0';  // one line: cannot tell
  std::string_view second = FirstLine(body.substr(first.size() + 1));
  for (char delimiter : {',', ';', '\t', '|'}) {
    auto n = std::count(first.begin(), first.end(), delimiter);
    if (n > 0 && n == std::count(second.begin(), second.end(), delimiter)) return delimiter;
  }
  return '\0';
}

int Sniff(std::string_view head, const std::string&) { return SniffDelimiter(head) ? 60 : 0; }

Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
  csv::ReadOptions csv = options.text.csv;
  if (!options.columns.empty()) csv.include_columns = options.columns;
  // Without --delimiter, the one the first lines agree on (';', tab, '|').
  if (!options.text.delimiter_given) {
    if (char sniffed = SniffDelimiter(bytes->head())) csv.delimiter = sniffed;
  }
  ALKAID_ASSIGN_OR_RAISE(auto stream, bytes->Stream());
  ALKAID_ASSIGN_OR_RAISE(auto reader, csv::MakeReader(stream, csv));
  ALKAID_ASSIGN_OR_RAISE(auto in, ReaderInput::Make(std::move(reader), "CSV text", options.columns,
                                                    /*project=*/false, std::move(stream)));
  in->set_size(bytes->size());
  return in;
}

}  // namespace

extern const Source kCsvSource = {"csv", "CSV text", kCsvText, Sniff, Open};

}  // namespace alkaid::cli

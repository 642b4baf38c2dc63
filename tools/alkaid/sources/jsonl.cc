// JSON Lines (one object per line): read block by block by the library's
// streaming reader; the columns are selected from each batch.
#include "alkaid/jsonl/api.h"
#include "source.h"
#include "text_sniff.h"

namespace alkaid::cli {

namespace {

int Sniff(std::string_view head, const std::string&) {
  if (!LooksLikeText(head)) return 0;
  if (LooksLikeJsonLines(head)) return 80;
  // One object on one line is a JSON Lines file of one row as well.
  std::string_view body = TextBody(head);
  std::string_view first = FirstLine(body);
  while (!first.empty() && (first.back() == '\r' || first.back() == ' ')) first.remove_suffix(1);
  if (!first.empty() && first[0] == '{' && first.back() == '}') return 30;
  return 0;
}

Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto stream, bytes->Stream());
  ALKAID_ASSIGN_OR_RAISE(auto reader, jsonl::MakeReader(stream, options.text.jsonl));
  ALKAID_ASSIGN_OR_RAISE(auto in, ReaderInput::Make(std::move(reader), "JSON Lines text",
                                                    options.columns, /*project=*/true,
                                                    std::move(stream)));
  in->set_size(bytes->size());
  return in;
}

}  // namespace

extern const Source kJsonLinesSource = {"jsonl", "JSON Lines text", kJsonLinesText, Sniff, Open};

}  // namespace alkaid::cli

// A pull parser of JSON text that arrives in chunks: the caller asks for one
// token at a time, so a reader can decode values straight into arrays and
// never hold a document. It checks the whole grammar (as strictly as
// nlohmann's parser: UTF-8, escapes, surrogate pairs, number syntax) and
// bounds nesting, and can come back to a value it passed (for documents
// whose members come in an inconvenient order).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/integration_json/integration.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"
#include "integration_internal.h"

namespace alkaid::integration_json::internal {

// Text in chunks, from the start or from any byte offset.
class ALKAID_EXPORT TextSource {
 public:
  virtual ~TextSource() = default;
  // The next bytes, valid until the next call; empty at the end.
  virtual Result<std::string_view> Next() = 0;
  // Continues from byte `offset` of the text.
  virtual Status Seek(int64_t offset) = 0;
};

// Text in memory, not copied: `text` must outlive the source.
ALKAID_EXPORT std::unique_ptr<TextSource> MemoryText(std::string_view text);
// Text in memory, kept by the source.
std::unique_ptr<TextSource> OwnedText(std::string text);
// `bytes` gunzipped as they are read when they start with the gzip magic
// (within options.MaxGunzipBytes of their size), else as they are.
std::unique_ptr<TextSource> MaybeGunzipText(std::string bytes, const IntegrationReadOptions& options);
// The file at `path`, read in 1 MiB chunks and gunzipped the same way.
Result<std::unique_ptr<TextSource>> FileText(const std::string& path,
                                             const IntegrationReadOptions& options);

enum class JsonToken : uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kKey,
  kString,
  kNumber,
  kTrue,
  kFalse,
  kNull,
  kEnd,  // the value (or document) is complete
};

// What error messages call a token: "an object", "a string", ...
const char* TokenName(JsonToken token);
// What nlohmann's type_name() calls the value a token starts: "object", "array", ...
const char* JsonTypeName(JsonToken token);

// The double a JSON number's text stands for (too small is zero, as strtod
// has it; too large is an error).
ALKAID_EXPORT Result<double> NumberAsDouble(std::string_view text);

// A place in the text: byte offset, and line and column for messages.
struct TextMark {
  int64_t offset = 0;
  int64_t line = 1;
  int64_t line_start = 0;  // offset of the first byte of `line`
};

class ALKAID_EXPORT JsonPullParser {
 public:
  // Arrays and objects may nest `max_nesting` levels. `start` says where the
  // source's first byte is in the document (for a parser of captured text).
  JsonPullParser(TextSource* source, int max_nesting, TextMark start = {});

  // The next token. Keys, strings and numbers leave their text in text(),
  // valid until the next call (strings unescaped, numbers as written).
  Status Next(JsonToken* token);
  std::string_view text() const { return text_; }
  // For a number: no fraction and no exponent.
  bool is_integer() const { return is_integer_; }
  // Where the last token starts.
  const TextMark& token_mark() const { return token_mark_; }

  // Skips the rest of the value whose first token was `first`.
  Status Skip(JsonToken first);
  // The value whose first token was `first`, built as a DOM (for small
  // values: schemas, view objects).
  Status ReadDom(JsonToken first, Json* out);
  // Where the next value starts; the parser must be where a value is due
  // (after a key) or may follow (in an array, past a comma). Does not
  // consume the value.
  Status MarkNext(TextMark* mark);
  // Copies the raw text of the next value into *out and moves past it;
  // *first is its first token (kEndArray when the array ended instead).
  Status CaptureNext(std::string* out, TextMark* mark, JsonToken* first);
  // Goes back (or forward) to the value starting at `mark`: the parser then
  // reads that one value and reports kEnd after it.
  Status SeekTo(const TextMark& mark);

  // A syntax error at the last token (or at the current position).
  Status SyntaxError(std::string_view what) const;
  // "line L, column C".
  std::string Where(const TextMark& mark) const;

 private:
  enum class State : uint8_t { kValue, kFirstValueOrEnd, kFirstKeyOrEnd, kKey, kAfterValue, kDone };

  int64_t Offset() const { return chunk_base_ + static_cast<int64_t>(pos_); }
  TextMark Here() const { return {Offset(), line_, line_start_}; }
  bool Refill();
  int SkipSpace();  // next byte, -1 at the end, -2 when the source failed
  Status Fail(std::string_view what, const TextMark& at) const;
  Status SourceOrEnd(std::string_view what);
  Status ScanString();
  Status ScanEscape();
  Status ReadHex4(uint32_t* unit);
  Status ScanNumber();
  Status ScanLiteral(std::string_view word);
  Status Push(char bracket);

  TextSource* source_;
  int max_nesting_;
  int64_t source_base_;  // document offset of the source's first byte
  std::string_view chunk_;
  size_t pos_ = 0;
  int64_t chunk_base_ = 0;
  int64_t line_ = 1;
  int64_t line_start_ = 0;
  Status source_status_;

  State state_ = State::kValue;
  bool single_value_ = false;  // after SeekTo: stop after one value
  std::vector<char> stack_;

  std::string_view text_;
  bool text_in_chunk_ = false;
  std::string scratch_;
  bool is_integer_ = false;
  TextMark token_mark_;

  std::string* capture_ = nullptr;
  size_t capture_from_ = 0;
};

}  // namespace alkaid::integration_json::internal

#include "json_pull_parser.h"

#include <charconv>
#include <cmath>

#include "alkaid/utf8.h"
#include "../array/utf8_internal.h"

namespace alkaid::integration_json::internal {

namespace {

bool IsNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool ValidNumber(std::string_view s, bool* is_integer) {
  size_t p = 0;
  const size_t n = s.size();
  auto digits = [&] {
    const size_t from = p;
    while (p < n && s[p] >= '0' && s[p] <= '9') ++p;
    return p > from;
  };
  if (p < n && s[p] == '-') ++p;
  if (p < n && s[p] == '0') {
    ++p;
  } else if (!digits()) {
    return false;
  }
  *is_integer = true;
  if (p < n && s[p] == '.') {
    ++p;
    *is_integer = false;
    if (!digits()) return false;
  }
  if (p < n && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    *is_integer = false;
    if (p < n && (s[p] == '+' || s[p] == '-')) ++p;
    if (!digits()) return false;
  }
  return p == n;
}

}  // namespace

const char* TokenName(JsonToken token) {
  switch (token) {
    case JsonToken::kBeginObject: return "an object";
    case JsonToken::kBeginArray: return "an array";
    case JsonToken::kString: return "a string";
    case JsonToken::kNumber: return "a number";
    case JsonToken::kTrue:
    case JsonToken::kFalse: return "a boolean";
    case JsonToken::kNull: return "null";
    default: return "the end of a value";
  }
}

const char* JsonTypeName(JsonToken token) {
  switch (token) {
    case JsonToken::kBeginObject: return "object";
    case JsonToken::kBeginArray: return "array";
    case JsonToken::kString: return "string";
    case JsonToken::kNumber: return "number";
    case JsonToken::kTrue:
    case JsonToken::kFalse: return "boolean";
    default: return "null";
  }
}

Result<double> NumberAsDouble(std::string_view text) {
  double value = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), value);
  if (res.ec == std::errc::result_out_of_range) {
    // Too small is zero (as strtod has it); too large has no double.
    const size_t e = text.find_first_of("eE");
    const bool tiny = (e != std::string_view::npos && e + 1 < text.size() && text[e + 1] == '-') ||
                      text.substr(0, std::min(e, text.find('.'))).find_first_of("123456789") ==
                          std::string_view::npos;
    if (!tiny) return Status::Invalid("number ", text.substr(0, 40), " is out of the range of a double");
    return text[0] == '-' ? -0.0 : 0.0;
  }
  if (res.ec != std::errc()) return Status::Invalid("cannot read number ", text.substr(0, 40));
  return value;
}

JsonPullParser::JsonPullParser(TextSource* source, int max_nesting, TextMark start)
    : source_(source), max_nesting_(max_nesting), source_base_(start.offset), chunk_base_(start.offset), line_(start.line),
      line_start_(start.line_start), token_mark_(start) {}

std::string JsonPullParser::Where(const TextMark& mark) const {
  return "line " + std::to_string(mark.line) + ", column " +
         std::to_string(mark.offset - mark.line_start + 1);
}

Status JsonPullParser::Fail(std::string_view what, const TextMark& at) const {
  return Status::Invalid("integration JSON is not valid JSON: ", what, " at ", Where(at),
                         " (byte offset ", at.offset, ")");
}

Status JsonPullParser::SyntaxError(std::string_view what) const { return Fail(what, token_mark_); }

// Moves to the next chunk; false at the end of the text or on a failure
// (source_status_ says which).
bool JsonPullParser::Refill() {
  if (!source_status_.ok()) return false;
  // Bytes still referenced survive the chunk: the token text and a capture.
  if (text_in_chunk_) {
    scratch_.assign(text_.data(), text_.size());
    text_ = scratch_;
    text_in_chunk_ = false;
  }
  if (capture_ != nullptr) {
    capture_->append(chunk_.data() + capture_from_, chunk_.size() - capture_from_);
    capture_from_ = 0;
  }
  auto next = source_->Next();
  if (!next.ok()) {
    source_status_ = next.status();
    return false;
  }
  chunk_base_ += static_cast<int64_t>(chunk_.size());
  chunk_ = *next;
  pos_ = 0;
  return !chunk_.empty();
}

int JsonPullParser::SkipSpace() {
  while (true) {
    const char* data = chunk_.data();
    const size_t size = chunk_.size();
    while (pos_ < size) {
      const char c = data[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = chunk_base_ + static_cast<int64_t>(pos_);
      } else {
        return static_cast<unsigned char>(c);
      }
    }
    if (!Refill()) return source_status_.ok() ? -1 : -2;
  }
}

Status JsonPullParser::SourceOrEnd(std::string_view what) {
  if (!source_status_.ok()) return source_status_;
  return Fail(what, Here());
}

Status JsonPullParser::Push(char bracket) {
  if (static_cast<int>(stack_.size()) >= max_nesting_)
    return Status::Invalid("integration JSON: arrays and objects nested deeper than ", max_nesting_,
                           " levels at byte offset ", token_mark_.offset, " (", Where(token_mark_), ")");
  stack_.push_back(bracket);
  ++pos_;
  return Status::OK();
}

Status JsonPullParser::Next(JsonToken* token) {
  text_in_chunk_ = false;
  // Takes the '}' or ']' at pos_ that closes the innermost container.
  auto close = [&](JsonToken end) {
    ++pos_;
    stack_.pop_back();
    state_ = State::kAfterValue;
    *token = end;
    return Status::OK();
  };
  while (true) {
    const int c = SkipSpace();
    if (c == -2) return source_status_;
    token_mark_ = Here();
    switch (state_) {
      case State::kDone:
        *token = JsonToken::kEnd;
        return Status::OK();
      case State::kAfterValue:
        if (stack_.empty()) {
          state_ = State::kDone;
          if (single_value_ || c == -1) {
            *token = JsonToken::kEnd;
            return Status::OK();
          }
          return SyntaxError("unexpected text after the end of the document");
        }
        if (c == ',') {
          ++pos_;
          state_ = stack_.back() == '{' ? State::kKey : State::kValue;
          continue;
        }
        if (c == '}' && stack_.back() == '{') return close(JsonToken::kEndObject);
        if (c == ']' && stack_.back() == '[') return close(JsonToken::kEndArray);
        if (c == -1) return SyntaxError("unexpected end of the text");
        return SyntaxError(stack_.back() == '{' ? "expected ',' or '}' after an object member"
                                                : "expected ',' or ']' after an array element");
      case State::kFirstKeyOrEnd:
        if (c == '}') return close(JsonToken::kEndObject);
        [[fallthrough]];
      case State::kKey: {
        if (c == -1) return SyntaxError("unexpected end of the text");
        if (c != '"') return SyntaxError("expected a member name in double quotes");
        ++pos_;
        ALKAID_RETURN_NOT_OK(ScanString());
        const int colon = SkipSpace();
        if (colon == -2) return source_status_;
        if (colon != ':') return Fail("expected ':' after a member name", Here());
        ++pos_;
        state_ = State::kValue;
        *token = JsonToken::kKey;
        return Status::OK();
      }
      case State::kFirstValueOrEnd:
        if (c == ']') return close(JsonToken::kEndArray);
        [[fallthrough]];
      case State::kValue:
        switch (c) {
          case '{':
            ALKAID_RETURN_NOT_OK(Push('{'));
            state_ = State::kFirstKeyOrEnd;
            *token = JsonToken::kBeginObject;
            return Status::OK();
          case '[':
            ALKAID_RETURN_NOT_OK(Push('['));
            state_ = State::kFirstValueOrEnd;
            *token = JsonToken::kBeginArray;
            return Status::OK();
          case '"':
            ++pos_;
            ALKAID_RETURN_NOT_OK(ScanString());
            *token = JsonToken::kString;
            break;
          case 't':
            ALKAID_RETURN_NOT_OK(ScanLiteral("true"));
            *token = JsonToken::kTrue;
            break;
          case 'f':
            ALKAID_RETURN_NOT_OK(ScanLiteral("false"));
            *token = JsonToken::kFalse;
            break;
          case 'n':
            ALKAID_RETURN_NOT_OK(ScanLiteral("null"));
            *token = JsonToken::kNull;
            break;
          case -1:
            return SyntaxError("unexpected end of the text where a value is due");
          default:
            if (c == '-' || (c >= '0' && c <= '9')) {
              ALKAID_RETURN_NOT_OK(ScanNumber());
              *token = JsonToken::kNumber;
              break;
            }
            return SyntaxError("unexpected character where a value is due");
        }
        state_ = State::kAfterValue;
        return Status::OK();
    }
  }
}

Status JsonPullParser::ScanLiteral(std::string_view word) {
  for (char expected : word) {
    if (pos_ == chunk_.size() && !Refill()) return SourceOrEnd("unexpected end of the text");
    if (chunk_[pos_] != expected) return SyntaxError("invalid literal (expected true, false or null)");
    ++pos_;
  }
  return Status::OK();
}

Status JsonPullParser::ScanNumber() {
  const size_t start = pos_;
  size_t i = pos_;
  while (i < chunk_.size() && IsNumberChar(chunk_[i])) ++i;
  if (i < chunk_.size()) {
    text_ = chunk_.substr(start, i - start);
    text_in_chunk_ = true;
    pos_ = i;
  } else {
    // The number runs to the end of the chunk and may go on in the next one.
    scratch_.assign(chunk_.data() + start, i - start);
    pos_ = i;
    while (Refill()) {
      size_t j = 0;
      while (j < chunk_.size() && IsNumberChar(chunk_[j])) ++j;
      scratch_.append(chunk_.data(), j);
      pos_ = j;
      if (j < chunk_.size()) break;
    }
    if (!source_status_.ok()) return source_status_;
    text_ = scratch_;
  }
  if (text_.size() > 4096) return SyntaxError("a number of more than 4096 characters");
  if (!ValidNumber(text_, &is_integer_))
    return SyntaxError("malformed number '" + std::string(text_.substr(0, 40)) + "'");
  return Status::OK();
}

Status JsonPullParser::ReadHex4(uint32_t* unit) {
  *unit = 0;
  for (int k = 0; k < 4; ++k) {
    if (pos_ == chunk_.size() && !Refill()) return SourceOrEnd("unexpected end of the text in an escape");
    const int digit = HexDigit(chunk_[pos_]);
    if (digit < 0) return Fail("\\u must be followed by four hex digits", Here());
    *unit = (*unit << 4) | static_cast<uint32_t>(digit);
    ++pos_;
  }
  return Status::OK();
}

// After a backslash: one escape, appended to scratch_.
Status JsonPullParser::ScanEscape() {
  if (pos_ == chunk_.size() && !Refill()) return SourceOrEnd("unexpected end of the text in an escape");
  const char c = chunk_[pos_++];
  switch (c) {
    case '"': scratch_.push_back('"'); return Status::OK();
    case '\\': scratch_.push_back('\\'); return Status::OK();
    case '/': scratch_.push_back('/'); return Status::OK();
    case 'b': scratch_.push_back('\b'); return Status::OK();
    case 'f': scratch_.push_back('\f'); return Status::OK();
    case 'n': scratch_.push_back('\n'); return Status::OK();
    case 'r': scratch_.push_back('\r'); return Status::OK();
    case 't': scratch_.push_back('\t'); return Status::OK();
    case 'u': break;
    default: return Fail("invalid escape in a string", Here());
  }
  uint32_t unit;
  ALKAID_RETURN_NOT_OK(ReadHex4(&unit));
  if (unit >= 0xdc00 && unit <= 0xdfff)
    return Fail("a low surrogate \\u escape without a high one before it", Here());
  if (unit >= 0xd800 && unit <= 0xdbff) {
    // A high surrogate must be followed by an escaped low one.
    for (char expected : {'\\', 'u'}) {
      if (pos_ == chunk_.size() && !Refill()) return SourceOrEnd("unexpected end of the text in an escape");
      if (chunk_[pos_] != expected)
        return Fail("a high surrogate \\u escape must be followed by a low one", Here());
      ++pos_;
    }
    uint32_t low;
    ALKAID_RETURN_NOT_OK(ReadHex4(&low));
    if (low < 0xdc00 || low > 0xdfff)
      return Fail("a high surrogate \\u escape must be followed by a low one", Here());
    unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
  }
  alkaid::internal::AppendUtf8(unit, &scratch_);
  return Status::OK();
}

// After the opening quote: the string's text into text_, unescaped.
Status JsonPullParser::ScanString() {
  const char* data = chunk_.data();
  const size_t size = chunk_.size();
  const size_t start = pos_;
  bool high = false;
  size_t i = pos_;
  for (; i < size; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c == '"') {
      text_ = chunk_.substr(start, i - start);
      text_in_chunk_ = true;
      pos_ = i + 1;
      break;
    }
    if (c == '\\' || c < 0x20) break;
    high |= c >= 0x80;
  }
  if (!text_in_chunk_) {
    // Escapes, or a string that goes on in the next chunk.
    scratch_.assign(data + start, i - start);
    pos_ = i;
    while (true) {
      if (pos_ == chunk_.size() && !Refill()) return SourceOrEnd("unexpected end of the text in a string");
      const auto c = static_cast<unsigned char>(chunk_[pos_]);
      if (c == '"') {
        ++pos_;
        break;
      }
      if (c < 0x20) return Fail("a control character in a string must be escaped", Here());
      if (c == '\\') {
        ++pos_;
        ALKAID_RETURN_NOT_OK(ScanEscape());
        continue;
      }
      size_t j = pos_;
      while (j < chunk_.size()) {
        const auto d = static_cast<unsigned char>(chunk_[j]);
        if (d == '"' || d == '\\' || d < 0x20) break;
        high |= d >= 0x80;
        ++j;
      }
      scratch_.append(chunk_.data() + pos_, j - pos_);
      pos_ = j;
    }
    text_ = scratch_;
  }
  if (high) {
    const int64_t bad = FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text_.data()),
                                        static_cast<int64_t>(text_.size()));
    if (bad >= 0) return SyntaxError("a string that is not UTF-8 (byte " + std::to_string(bad) + " of it)");
  }
  return Status::OK();
}

Status JsonPullParser::Skip(JsonToken first) {
  if (first != JsonToken::kBeginObject && first != JsonToken::kBeginArray) return Status::OK();
  const size_t depth = stack_.size() - 1;
  JsonToken token;
  do {
    ALKAID_RETURN_NOT_OK(Next(&token));
    if (token == JsonToken::kEnd) return SyntaxError("unexpected end of the text");
  } while (stack_.size() > depth);
  return Status::OK();
}

namespace {

Result<Json> NumberJson(std::string_view text, bool is_integer) {
  if (is_integer) {
    const char* end = text.data() + text.size();
    if (text[0] == '-') {
      int64_t v;
      auto res = std::from_chars(text.data(), end, v);
      if (res.ec == std::errc() && res.ptr == end) return Json(v);
    } else {
      uint64_t v;
      auto res = std::from_chars(text.data(), end, v);
      if (res.ec == std::errc() && res.ptr == end) return Json(v);
    }
  }
  // Fractions, exponents and integers past 64 bits are doubles (as nlohmann has them).
  ALKAID_ASSIGN_OR_RAISE(double v, NumberAsDouble(text));
  return Json(v);
}

}  // namespace

Status JsonPullParser::ReadDom(JsonToken first, Json* out) {
  auto scalar = [&](JsonToken token, Json* slot) -> Status {
    switch (token) {
      case JsonToken::kString: *slot = std::string(text_); return Status::OK();
      case JsonToken::kTrue: *slot = true; return Status::OK();
      case JsonToken::kFalse: *slot = false; return Status::OK();
      case JsonToken::kNull: *slot = nullptr; return Status::OK();
      case JsonToken::kNumber: {
        auto number = NumberJson(text_, is_integer_);
        if (!number.ok()) return SyntaxError(number.status().message());
        *slot = std::move(*number);
        return Status::OK();
      }
      default: return SyntaxError("unexpected token");
    }
  };
  if (first != JsonToken::kBeginObject && first != JsonToken::kBeginArray) return scalar(first, out);
  *out = first == JsonToken::kBeginObject ? Json::object() : Json::array();
  // Containers being filled, innermost last (no recursion: depth is the input's).
  std::vector<Json*> open{out};
  std::string key;
  while (!open.empty()) {
    JsonToken token;
    ALKAID_RETURN_NOT_OK(Next(&token));
    Json* top = open.back();
    if (token == JsonToken::kEndObject || token == JsonToken::kEndArray) {
      open.pop_back();
      continue;
    }
    if (token == JsonToken::kEnd) return SyntaxError("unexpected end of the text");
    if (token == JsonToken::kKey) {
      key.assign(text_);
      continue;
    }
    Json* slot;
    if (top->is_object()) {
      // A repeated key keeps its last value, as nlohmann's parser does.
      slot = &(*top)[key];
    } else {
      top->push_back(nullptr);
      slot = &top->back();
    }
    if (token == JsonToken::kBeginObject || token == JsonToken::kBeginArray) {
      *slot = token == JsonToken::kBeginObject ? Json::object() : Json::array();
      open.push_back(slot);
    } else {
      ALKAID_RETURN_NOT_OK(scalar(token, slot));
    }
  }
  return Status::OK();
}

Status JsonPullParser::MarkNext(TextMark* mark) {
  int c = SkipSpace();
  if (c == -2) return source_status_;
  if (state_ == State::kAfterValue && !stack_.empty() && c == ',') {
    // The separator before the next element or member.
    ++pos_;
    state_ = stack_.back() == '{' ? State::kKey : State::kValue;
    c = SkipSpace();
    if (c == -2) return source_status_;
  }
  *mark = Here();
  return Status::OK();
}

Status JsonPullParser::CaptureNext(std::string* out, TextMark* mark, JsonToken* first) {
  ALKAID_RETURN_NOT_OK(MarkNext(mark));
  out->clear();
  capture_ = out;
  capture_from_ = pos_;
  Status st = Next(first);
  if (st.ok()) st = Skip(*first);
  if (st.ok()) out->append(chunk_.data() + capture_from_, pos_ - capture_from_);
  capture_ = nullptr;
  return st;
}

Status JsonPullParser::SeekTo(const TextMark& mark) {
  ALKAID_RETURN_NOT_OK(source_->Seek(mark.offset - source_base_));
  chunk_ = {};
  pos_ = 0;
  chunk_base_ = mark.offset;
  line_ = mark.line;
  line_start_ = mark.line_start;
  state_ = State::kValue;
  single_value_ = true;
  stack_.clear();
  text_ = {};
  text_in_chunk_ = false;
  token_mark_ = mark;
  return Status::OK();
}

}  // namespace alkaid::integration_json::internal

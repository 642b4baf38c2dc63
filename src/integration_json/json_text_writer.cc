#include "json_text_writer.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "alkaid/utf8.h"

namespace alkaid::integration_json::internal {

namespace {

constexpr char kUpperHex[] = "0123456789ABCDEF";
constexpr char kLowerHex[] = "0123456789abcdef";

// Characters that leave a string as they are: printable ASCII but the quote
// and the backslash (DEL and everything else is escaped, as nlohmann does
// with ensure_ascii).
constexpr bool IsPlain(uint8_t c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

char* EscapeUnit(char* out, uint32_t unit) {
  *out++ = '\\';
  *out++ = 'u';
  for (int shift = 12; shift >= 0; shift -= 4) *out++ = kLowerHex[(unit >> shift) & 15];
  return out;
}

// The escape of one code point (at most 12 bytes).
char* EscapeCodePoint(char* out, uint32_t cp) {
  char short_form = 0;
  switch (cp) {
    case 0x08: short_form = 'b'; break;
    case 0x09: short_form = 't'; break;
    case 0x0a: short_form = 'n'; break;
    case 0x0c: short_form = 'f'; break;
    case 0x0d: short_form = 'r'; break;
    case '"': short_form = '"'; break;
    case '\\': short_form = '\\'; break;
    default: break;
  }
  if (short_form != 0) {
    *out++ = '\\';
    *out++ = short_form;
    return out;
  }
  if (cp <= 0xffff) return EscapeUnit(out, cp);
  // A surrogate pair.
  out = EscapeUnit(out, 0xd7c0 + (cp >> 10));
  return EscapeUnit(out, 0xdc00 + (cp & 0x3ff));
}

// Decodes the code point at text[*i] (known to be well-formed UTF-8) and
// advances *i past it.
uint32_t DecodeUtf8(const uint8_t* text, size_t* i) {
  const uint8_t lead = text[*i];
  if (lead < 0x80) {
    ++*i;
    return lead;
  }
  const int extra = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
  uint32_t cp = lead & (0x3f >> extra);
  for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (text[*i + static_cast<size_t>(k)] & 0x3f);
  *i += static_cast<size_t>(extra) + 1;
  return cp;
}

}  // namespace

JsonTextWriter::JsonTextWriter(io::OutputStream* sink, int level, size_t buffer_size)
    : sink_(sink), buffer_(std::max(buffer_size, 2 * kMaxReserve)), base_level_(level) {}

Status JsonTextWriter::Flush() {
  if (used_ > 0 && status_.ok()) status_ = sink_->Write(buffer_.data(), static_cast<int64_t>(used_));
  flushed_ += static_cast<int64_t>(used_);
  used_ = 0;
  return status_;
}

void JsonTextWriter::FlushForRoom() { (void)Flush(); }

void JsonTextWriter::Append(std::string_view text) {
  while (!text.empty()) {
    const size_t n = std::min(text.size(), kMaxReserve);
    char* out = Reserve(n);
    std::memcpy(out, text.data(), n);
    Commit(out + n);
    text.remove_prefix(n);
  }
}

void JsonTextWriter::Indent(char* out, size_t depth) const {
  std::memset(out, ' ', 2 * (depth + static_cast<size_t>(base_level_)));
}

void JsonTextWriter::Separate() {
  Container& top = open_.back();
  const size_t depth = open_.size();
  const size_t indent = 2 * (depth + static_cast<size_t>(base_level_));
  char* out = Reserve(indent + 2);
  if (!top.empty) *out++ = ',';
  *out++ = '\n';
  Indent(out, depth);
  Commit(out + indent);
  top.empty = false;
}

void JsonTextWriter::Open(char bracket, bool is_object) {
  BeforeValue();
  char* out = Reserve(1);
  *out = bracket;
  Commit(out + 1);
  open_.push_back({is_object, true});
}

void JsonTextWriter::Close(char bracket) {
  const bool empty = open_.back().empty;
  open_.pop_back();
  const size_t indent = 2 * (open_.size() + static_cast<size_t>(base_level_));
  char* out = Reserve(indent + 2);
  if (!empty) {
    *out++ = '\n';
    Indent(out, open_.size());
    out += indent;
  }
  *out++ = bracket;
  Commit(out);
}

void JsonTextWriter::BeginObject() { Open('{', true); }
void JsonTextWriter::EndObject() { Close('}'); }
void JsonTextWriter::BeginArray() { Open('[', false); }
void JsonTextWriter::EndArray() { Close(']'); }

Status JsonTextWriter::Key(std::string_view key) {
  Separate();
  ALKAID_RETURN_NOT_OK(String(key));
  char* out = Reserve(2);
  out[0] = ':';
  out[1] = ' ';
  Commit(out + 2);
  return Status::OK();
}

void JsonTextWriter::PlainKey(std::string_view key) {
  Separate();
  char* out = Reserve(key.size() + 4);
  *out++ = '"';
  std::memcpy(out, key.data(), key.size());
  out += key.size();
  *out++ = '"';
  *out++ = ':';
  *out++ = ' ';
  Commit(out);
}

void JsonTextWriter::Int(int64_t value) {
  BeforeValue();
  char* out = Reserve(24);
  Commit(std::to_chars(out, out + 24, value).ptr);
}

void JsonTextWriter::UInt(uint64_t value) {
  BeforeValue();
  char* out = Reserve(24);
  Commit(std::to_chars(out, out + 24, value).ptr);
}

void JsonTextWriter::QuotedInt(int64_t value) {
  BeforeValue();
  char* out = Reserve(26);
  *out++ = '"';
  out = std::to_chars(out, out + 24, value).ptr;
  *out++ = '"';
  Commit(out);
}

void JsonTextWriter::QuotedUInt(uint64_t value) {
  BeforeValue();
  char* out = Reserve(26);
  *out++ = '"';
  out = std::to_chars(out, out + 24, value).ptr;
  *out++ = '"';
  Commit(out);
}

void JsonTextWriter::Double(double value) {
  BeforeValue();
  // nlohmann's own number printer, so that the digits match its dump().
  char* out = Reserve(64);
  Commit(::nlohmann::detail::to_chars(out, out + 64, value));
}

void JsonTextWriter::Bool(bool value) {
  BeforeValue();
  Append(value ? "true" : "false");
}

void JsonTextWriter::Null() {
  BeforeValue();
  Append("null");
}

void JsonTextWriter::PlainString(std::string_view text) {
  BeforeValue();
  char* out = Reserve(1);
  *out = '"';
  Commit(out + 1);
  Append(text);
  out = Reserve(1);
  *out = '"';
  Commit(out + 1);
}

Status JsonTextWriter::String(std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  bool ascii = true;
  const int64_t bad = FindInvalidUtf8(bytes, static_cast<int64_t>(text.size()), &ascii);
  if (bad >= 0)
    return Status::Invalid("integration JSON: cannot write a string that is not UTF-8 (byte ", bad,
                           " of ", text.size(), ")");
  BeforeValue();
  char* out = Reserve(1);
  *out = '"';
  Commit(out + 1);
  // Pieces small enough that their escapes (at most 6 bytes per byte) fit
  // one reservation; a piece may run up to 3 bytes over to end a character.
  constexpr size_t kPiece = kMaxReserve / 6 - 4;
  size_t i = 0;
  while (i < text.size()) {
    const size_t piece_end = std::min(text.size(), i + kPiece);
    out = Reserve(kMaxReserve);
    while (i < piece_end) {
      const uint8_t c = bytes[i];
      if (IsPlain(c)) {
        *out++ = static_cast<char>(c);
        ++i;
      } else if (c < 0x80) {
        out = EscapeCodePoint(out, c);
        ++i;
      } else {
        out = EscapeCodePoint(out, DecodeUtf8(bytes, &i));
      }
    }
    Commit(out);
  }
  out = Reserve(1);
  *out = '"';
  Commit(out + 1);
  return Status::OK();
}

void JsonTextWriter::HexString(const uint8_t* data, int64_t size) {
  BeforeValue();
  char* out = Reserve(1);
  *out = '"';
  Commit(out + 1);
  constexpr int64_t kPiece = static_cast<int64_t>(kMaxReserve / 2);
  for (int64_t i = 0; i < size; i += kPiece) {
    const int64_t n = std::min(kPiece, size - i);
    out = Reserve(static_cast<size_t>(2 * n));
    for (int64_t k = 0; k < n; ++k) {
      const uint8_t b = data[i + k];
      *out++ = kUpperHex[b >> 4];
      *out++ = kUpperHex[b & 15];
    }
    Commit(out);
  }
  out = Reserve(1);
  *out = '"';
  Commit(out + 1);
}

Status JsonTextWriter::Dom(const OrderedJson& value) {
  switch (value.type()) {
    case OrderedJson::value_t::object:
      BeginObject();
      for (const auto& [key, member] : value.items()) {
        ALKAID_RETURN_NOT_OK(Key(key));
        ALKAID_RETURN_NOT_OK(Dom(member));
      }
      EndObject();
      return Status::OK();
    case OrderedJson::value_t::array:
      BeginArray();
      for (const auto& element : value) ALKAID_RETURN_NOT_OK(Dom(element));
      EndArray();
      return Status::OK();
    case OrderedJson::value_t::string:
      return String(value.get_ref<const std::string&>());
    case OrderedJson::value_t::boolean:
      Bool(value.get<bool>());
      return Status::OK();
    case OrderedJson::value_t::number_integer:
      Int(value.get<int64_t>());
      return Status::OK();
    case OrderedJson::value_t::number_unsigned:
      UInt(value.get<uint64_t>());
      return Status::OK();
    case OrderedJson::value_t::number_float:
      if (!std::isfinite(value.get<double>())) {
        Null();
      } else {
        Double(value.get<double>());
      }
      return Status::OK();
    default:
      Null();
      return Status::OK();
  }
}

}  // namespace alkaid::integration_json::internal

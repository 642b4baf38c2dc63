// Type names back to types: a small recursive-descent parser over the
// grammar that DataType::ToString() writes (see alkaid/type_name.h).
#include "alkaid/type_name.h"

#include <cctype>
#include <charconv>
#include <map>
#include <string>

#include "alkaid/extension_registry.h"
#include "alkaid/validate.h"

namespace alkaid {

namespace {

class TypeNameParser {
 public:
  explicit TypeNameParser(std::string_view text) : text_(text) {}

  Result<DataTypePtr> ParseAll() {
    SkipSpaces();
    ALKAID_ASSIGN_OR_RAISE(DataTypePtr type, Type(0));
    SkipSpaces();
    if (pos_ != text_.size()) return Error("unexpected '", text_.substr(pos_), "' after the type");
    return type;
  }

 private:
  template <typename... Args>
  Status Error(Args&&... args) const {
    // A long text (say, hostile nesting) is quoted by its first bytes only.
    constexpr size_t kQuoted = 120;
    const bool cut = text_.size() > kQuoted;
    return Status::KeyError(std::forward<Args>(args)..., " (at byte ", pos_, " of '",
                            text_.substr(0, kQuoted), cut ? "...'" : "'", ")");
  }

  void SkipSpaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool Peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool Accept(std::string_view token) {
    SkipSpaces();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  Status Expect(std::string_view token) {
    if (Accept(token)) return Status::OK();
    return Error("expected '", token, "'");
  }

  // The two types of "<{first}T, {second}U[, {flag}]>", the form of map,
  // dictionary and run_end_encoded; `flag` null: none may follow.
  struct TwoTypes {
    DataTypePtr first;
    DataTypePtr second;
    bool flagged = false;
  };
  Result<TwoTypes> Pair(std::string_view first, std::string_view second, const char* flag,
                        int depth) {
    TwoTypes out;
    ALKAID_RETURN_NOT_OK(Expect("<"));
    ALKAID_RETURN_NOT_OK(Expect(first));
    ALKAID_ASSIGN_OR_RAISE(out.first, Type(depth + 1));
    ALKAID_RETURN_NOT_OK(Expect(","));
    ALKAID_RETURN_NOT_OK(Expect(second));
    ALKAID_ASSIGN_OR_RAISE(out.second, Type(depth + 1));
    if (flag != nullptr && Accept(",")) {
      ALKAID_RETURN_NOT_OK(Expect(flag));
      out.flagged = true;
    }
    ALKAID_RETURN_NOT_OK(Expect(">"));
    return out;
  }

  // Letters, digits, '_' and '.' (extension names are dotted).
  std::string_view Word() {
    SkipSpaces();
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) break;
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  // Up to (not including) the first of `stops` at this level.
  std::string_view Until(std::string_view stops) {
    const size_t start = pos_;
    while (pos_ < text_.size() && stops.find(text_[pos_]) == std::string_view::npos) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  Result<int32_t> Number() {
    SkipSpaces();
    int32_t v = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec != std::errc() || end == text_.data() + pos_) return Error("expected a number");
    pos_ = static_cast<size_t>(end - text_.data());
    return v;
  }

  Result<TimeUnit> Unit() {
    const size_t at = pos_;
    std::string_view u = Word();
    if (u == "s") return TimeUnit::kSecond;
    if (u == "ms") return TimeUnit::kMilli;
    if (u == "us") return TimeUnit::kMicro;
    if (u == "ns") return TimeUnit::kNano;
    pos_ = at;
    return Error("unknown time unit '", u, "' (expected s, ms, us or ns)");
  }

  // name: type[ not null], or a bare type (a field named `default_name`).
  Result<FieldPtr> Field(int depth, const char* default_name) {
    SkipSpaces();
    std::string name(default_name);
    const size_t start = pos_;
    std::string_view head = Until(":<>[](),=");
    if (Peek(':')) {
      name = std::string(head);
      ++pos_;
    } else {
      pos_ = start;
    }
    ALKAID_ASSIGN_OR_RAISE(DataTypePtr type, Type(depth));
    const bool nullable = !Accept(" not null") && !Accept("not null");
    return std::make_shared<alkaid::Field>(std::move(name), std::move(type), nullable);
  }

  Result<DataTypePtr> Type(int depth) {
    if (depth > kDefaultMaxRecursionDepth)
      return Error("types nested more than ", kDefaultMaxRecursionDepth, " levels deep");
    const size_t at = pos_;
    const std::string name(Word());
    if (name.empty()) return Error("expected a type name");
    if (auto simple = Simple(name); simple != nullptr) return simple;

    if (name == "date32" || name == "date64") {
      if (Accept("[")) {
        ALKAID_RETURN_NOT_OK(Expect(name == "date32" ? "day" : "ms"));
        ALKAID_RETURN_NOT_OK(Expect("]"));
      }
      return name == "date32" ? date32() : date64();
    }
    if (name == "time32" || name == "time64" || name == "duration" || name == "timestamp") {
      ALKAID_RETURN_NOT_OK(Expect("["));
      ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, Unit());
      std::string zone;
      if (name == "timestamp" && Accept(",")) {
        SkipSpaces();
        if (text_.substr(pos_, 3) == "tz=") pos_ += 3;
        zone = std::string(Until("]"));
        if (zone.empty()) return Error("expected a time zone");
      }
      ALKAID_RETURN_NOT_OK(Expect("]"));
      if (name == "timestamp") return timestamp(unit, std::move(zone));
      if (name == "duration") return duration(unit);
      Result<DataTypePtr> t = name == "time32" ? Time32Type::Make(unit) : Time64Type::Make(unit);
      if (!t.ok()) return Error(t.status().message());
      return t;
    }
    if (name == "fixed_size_binary") {
      ALKAID_RETURN_NOT_OK(Expect("["));
      ALKAID_ASSIGN_OR_RAISE(int32_t width, Number());
      ALKAID_RETURN_NOT_OK(Expect("]"));
      return Checked(FixedSizeBinaryType::Make(width));
    }
    if (name.rfind("decimal", 0) == 0) return Decimal(name, at);
    if (name == "list" || name == "large_list" || name == "list_view" ||
        name == "large_list_view" || name == "fixed_size_list") {
      ALKAID_RETURN_NOT_OK(Expect("<"));
      ALKAID_ASSIGN_OR_RAISE(FieldPtr item, Field(depth + 1, "item"));
      ALKAID_RETURN_NOT_OK(Expect(">"));
      if (name == "list") return list(std::move(item));
      if (name == "large_list") return large_list(std::move(item));
      if (name == "list_view") return list_view(std::move(item));
      if (name == "large_list_view") return large_list_view(std::move(item));
      ALKAID_RETURN_NOT_OK(Expect("["));
      ALKAID_ASSIGN_OR_RAISE(int32_t size, Number());
      ALKAID_RETURN_NOT_OK(Expect("]"));
      return Checked(FixedSizeListType::Make(std::move(item), size));
    }
    if (name == "struct" || name == "sparse_union" || name == "dense_union") {
      const bool is_union = name != "struct";
      ALKAID_RETURN_NOT_OK(Expect("<"));
      FieldVector fields;
      std::vector<int8_t> codes;
      if (!Accept(">")) {
        do {
          ALKAID_ASSIGN_OR_RAISE(FieldPtr f, Field(depth + 1, ""));
          fields.push_back(std::move(f));
          if (is_union) {
            ALKAID_RETURN_NOT_OK(Expect("="));
            ALKAID_ASSIGN_OR_RAISE(int32_t code, Number());
            if (code < 0 || code > UnionType::kMaxTypeCode) return Error("bad union type code ", code);
            codes.push_back(static_cast<int8_t>(code));
          }
        } while (Accept(","));
        ALKAID_RETURN_NOT_OK(Expect(">"));
      }
      if (!is_union) return struct_(std::move(fields));
      return Checked(UnionType::Make(std::move(fields), std::move(codes),
                                     name == "sparse_union" ? UnionMode::kSparse : UnionMode::kDense));
    }
    if (name == "map") {
      ALKAID_ASSIGN_OR_RAISE(TwoTypes t, Pair("", "", "keys_sorted", depth));
      return map(std::move(t.first), std::move(t.second), t.flagged);
    }
    if (name == "dictionary") {
      ALKAID_ASSIGN_OR_RAISE(TwoTypes t, Pair("values=", "indices=", "ordered", depth));
      return Checked(DictionaryType::Make(std::move(t.second), std::move(t.first), t.flagged));
    }
    if (name == "run_end_encoded") {
      ALKAID_ASSIGN_OR_RAISE(TwoTypes t, Pair("run_ends:", "values:", nullptr, depth));
      return Checked(RunEndEncodedType::Make(std::move(t.first), std::move(t.second)));
    }
    if (name == "extension") {
      ALKAID_RETURN_NOT_OK(Expect("<"));
      SkipSpaces();
      const std::string ext_name(Until(","));
      ALKAID_RETURN_NOT_OK(Expect(","));
      ALKAID_RETURN_NOT_OK(Expect("storage="));
      ALKAID_ASSIGN_OR_RAISE(DataTypePtr storage, Type(depth + 1));
      ALKAID_RETURN_NOT_OK(Expect(">"));
      Result<DataTypePtr> ext = MakeRegisteredExtension(ext_name, storage, "");
      if (!ext.ok()) return Error("extension '", ext_name, "': ", ext.status().message());
      if (*ext == nullptr) return Error("extension type '", ext_name, "' is not registered");
      return ext;
    }
    pos_ = at;
    return Error("unknown type '", name, "'");
  }

  // Parameterless types, by every name accepted.
  static DataTypePtr Simple(const std::string& name) {
    static const std::map<std::string, DataTypePtr (*)(), std::less<>> table = {
        {"null", null},
        {"bool", boolean},
        {"boolean", boolean},
        {"int8", int8},
        {"int16", int16},
        {"int32", int32},
        {"int64", int64},
        {"uint8", uint8},
        {"uint16", uint16},
        {"uint32", uint32},
        {"uint64", uint64},
        {"halffloat", float16},
        {"float16", float16},
        {"float", float32},
        {"float32", float32},
        {"double", float64},
        {"float64", float64},
        {"month_interval", month_interval},
        {"day_time_interval", day_time_interval},
        {"month_day_nano_interval", month_day_nano_interval},
        {"binary", binary},
        {"string", utf8},
        {"utf8", utf8},
        {"large_binary", large_binary},
        {"large_string", large_utf8},
        {"large_utf8", large_utf8},
        {"binary_view", binary_view},
        {"string_view", utf8_view},
        {"utf8_view", utf8_view},
    };
    auto it = table.find(name);
    return it == table.end() ? nullptr : it->second();
  }

  Result<DataTypePtr> Decimal(const std::string& name, size_t at) {
    int bits = 0;
    if (name == "decimal" || name == "decimal128") bits = 128;
    else if (name == "decimal32") bits = 32;
    else if (name == "decimal64") bits = 64;
    else if (name == "decimal256") bits = 256;
    if (bits == 0) {
      pos_ = at;
      return Error("unknown type '", name, "'");
    }
    ALKAID_RETURN_NOT_OK(Expect("("));
    ALKAID_ASSIGN_OR_RAISE(int32_t precision, Number());
    ALKAID_RETURN_NOT_OK(Expect(","));
    ALKAID_ASSIGN_OR_RAISE(int32_t scale, Number());
    ALKAID_RETURN_NOT_OK(Expect(")"));
    return Checked(MakeDecimal(bits, precision, scale));
  }

  // A constructor's refusal, located in the text.
  Result<DataTypePtr> Checked(Result<DataTypePtr> made) const {
    if (!made.ok()) return Error(made.status().message());
    return made;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<DataTypePtr> ParseTypeName(std::string_view text) { return TypeNameParser(text).ParseAll(); }

}  // namespace alkaid

// See infer.h.
#include "infer.h"

namespace alkaid::csv::internal {

void ColumnInference::AddRows(const char* data, const Tokens& tokens, int column, int64_t rows,
                              const NullMatcher& nulls) {
  const auto ncols = static_cast<int64_t>(tokens.num_columns);
  for (int64_t r = 0; r < rows && kind_ != Kind::kString; ++r) {
    FieldRef f = tokens.fields[static_cast<size_t>(r * ncols + column)];
    if (!(f.bits & FieldRef::kQuoted) &&
        ((f.bits & FieldRef::kMissing) || nulls.Match(data + f.start, f.length()))) {
      continue;
    }
    // Quoted fields are inferred from their content too (many writers
    // quote every field); text with doubled quotes is text.
    if (f.bits & FieldRef::kEscaped) {
      kind_ = Kind::kString;
      continue;
    }
    Add(std::string_view(data + f.start, f.length()));
  }
}


void ColumnInference::Add(std::string_view s) {
  bool b;
  int64_t i;
  double d;
  switch (kind_) {
    case Kind::kNull:
      if (text::ParseBool(s, &b)) {
        kind_ = Kind::kBool;
      } else if (text::ParseInt64(s, &i)) {
        kind_ = Kind::kInt;
      } else if (text::ParseDouble(s, &d)) {
        kind_ = Kind::kFloat;
      } else {
        kind_ = temporal_.Add(s) ? Kind::kTemporal : Kind::kString;
      }
      return;
    case Kind::kBool:
      if (!text::ParseBool(s, &b)) kind_ = Kind::kString;
      return;
    case Kind::kInt:
      if (text::ParseInt64(s, &i)) return;
      kind_ = text::ParseDouble(s, &d) ? Kind::kFloat : Kind::kString;
      return;
    case Kind::kFloat:
      if (!text::ParseDouble(s, &d)) kind_ = Kind::kString;
      return;
    case Kind::kTemporal:
      if (!temporal_.Add(s)) kind_ = Kind::kString;
      return;
    case Kind::kString:
      return;
  }
}

DataTypePtr ColumnInference::Type(bool whole_input) const {
  switch (kind_) {
    case Kind::kNull: return whole_input ? null() : utf8();
    case Kind::kBool: return boolean();
    case Kind::kInt: return int64();
    case Kind::kFloat: return float64();
    case Kind::kTemporal: {
      DataTypePtr t = temporal_.Type();
      return t ? t : utf8();
    }
    case Kind::kString: return utf8();
  }
  return utf8();
}

}  // namespace alkaid::csv::internal

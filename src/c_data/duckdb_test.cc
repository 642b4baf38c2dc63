// A real consumer nobody here wrote: DuckDB, loaded in-process from
// libduckdb.so, scans what alkaid exports through the C Stream Interface and
// hands query results back as Arrow, which alkaid imports.
//
// For every gold file: DuckDB's verdict on the schema, per-column aggregates
// compared with alkaid's own computation, and SELECT * imported back and
// compared value by value with the original (after DuckDB's documented
// conversions, recorded per type). With ALKAID_DUCKDB_REPORT=<file> the test
// writes the two tables of docs/c-data-and-duckdb.md there as Markdown.
//
// The library comes from $ALKAID_DUCKDB_LIB or the CMake cache variable of the
// same name (.ci/install-duckdb); without it the tests are skipped, unless
// ALKAID_REQUIRE_DUCKDB=1 (CI) makes that a failure.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/c_data/bridge.h"
#include "alkaid/extension.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/pretty_print.h"
#include "src/c_data/duckdb_api.h"
#include "test_util/duckdb.h"
#include "src/c_data/test_cases.h"
#include "test_util/test_data.h"

namespace alkaid::c_data {
namespace {

// ---------------------------------------------------------------------------
// alkaid's side of the aggregates

// DuckDB 1.5.6 turns durations and month / day-time intervals into its
// INTERVAL type without keeping their nulls: null slots come back as 0 and
// count(col) is wrong. Recorded in the tables, not counted as our failure
// (the same validity buffers of every other type come through intact).
constexpr const char* kLosesNulls =
    "DuckDB 1.5.6 does not keep the nulls of this type through its INTERVAL conversion";
bool DuckDBLosesNulls(const DataType& type) {
  return type.id() == TypeId::kDuration || type.id() == TypeId::kIntervalMonths ||
         type.id() == TypeId::kIntervalDayTime;
}

bool LogicallyNull(const ArrayData& data, int64_t i) {
  if (data.IsNull(i)) return true;
  if (data.storage_type().id() != TypeId::kDictionary) return false;
  const auto& index_type = *checked_cast<DictionaryType>(data.storage_type()).index_type();
  int64_t index = 0;
  switch (index_type.id()) {
    case TypeId::kInt8: index = data.GetValues<int8_t>(1)[i]; break;
    case TypeId::kUInt8: index = data.GetValues<uint8_t>(1)[i]; break;
    case TypeId::kInt16: index = data.GetValues<int16_t>(1)[i]; break;
    case TypeId::kUInt16: index = data.GetValues<uint16_t>(1)[i]; break;
    case TypeId::kInt32: index = data.GetValues<int32_t>(1)[i]; break;
    case TypeId::kUInt32: index = data.GetValues<uint32_t>(1)[i]; break;
    case TypeId::kInt64: index = data.GetValues<int64_t>(1)[i]; break;
    default: index = static_cast<int64_t>(data.GetValues<uint64_t>(1)[i]); break;
  }
  return data.dictionary->IsNull(index);
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

enum class AggKind { kText, kDouble };
struct Aggregate {
  std::string sql;       // expression over column "c<i>"
  AggKind kind;
  std::string expected;  // kText: exact text or "null"
  double expected_double = 0;
  bool expected_null = false;
  double tolerance = 0;
  const char* known_defect = nullptr;  // a DuckDB defect makes it differ
};

template <typename T>
void IntegerAggregates(const std::vector<const ArrayData*>& chunks, const std::string& col,
                       std::vector<Aggregate>* out) {
  bool any = false;
  __int128 min = 0, max = 0, sum = 0;
  for (const ArrayData* d : chunks) {
    const T* v = d->GetValues<T>(1);
    for (int64_t i = 0; i < d->length; ++i) {
      if (d->IsNull(i)) continue;
      __int128 x = v[i];
      if (!any || x < min) min = x;
      if (!any || x > max) max = x;
      sum += x;
      any = true;
    }
  }
  auto text = [&](__int128 x) { return any ? Int128ToString(x) : std::string("null"); };
  out->push_back({"min(" + col + ")::VARCHAR", AggKind::kText, text(min)});
  out->push_back({"max(" + col + ")::VARCHAR", AggKind::kText, text(max)});
  out->push_back({"sum(" + col + ")::VARCHAR", AggKind::kText, text(sum)});
}

template <typename T>
void FloatAggregates(const std::vector<const ArrayData*>& chunks, const std::string& col,
                     std::vector<Aggregate>* out) {
  bool any = false;
  double min = 0, max = 0, sum = 0, magnitude = 0;
  for (const ArrayData* d : chunks) {
    const T* v = d->GetValues<T>(1);
    for (int64_t i = 0; i < d->length; ++i) {
      if (d->IsNull(i)) continue;
      double x = v[i];
      // DuckDB orders NaN above every number.
      auto less = [](double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; };
      if (!any || less(x, min)) min = x;
      if (!any || less(max, x)) max = x;
      sum += x;
      magnitude += std::fabs(x);
      any = true;
    }
  }
  out->push_back({"min(" + col + ")::DOUBLE", AggKind::kDouble, "", min, !any, 0});
  out->push_back({"max(" + col + ")::DOUBLE", AggKind::kDouble, "", max, !any, 0});
  out->push_back({"sum(" + col + ")::DOUBLE", AggKind::kDouble, "", sum, !any, magnitude * 1e-12});
}

void LengthAggregate(const std::vector<const ArrayData*>& chunks, const std::string& col,
                     bool utf8, std::vector<Aggregate>* out) {
  bool any = false;
  __int128 total = 0;
  for (const ArrayData* d : chunks) {
    for (int64_t i = 0; i < d->length; ++i) {
      if (d->IsNull(i)) continue;
      any = true;
      const DataType& t = d->storage_type();
      if (t.id() == TypeId::kLargeString || t.id() == TypeId::kLargeBinary) {
        const int64_t* o = d->GetValues<int64_t>(1);
        total += o[i + 1] - o[i];
      } else if (t.is_view()) {
        total += d->GetValues<BinaryViewValue>(1)[i].size();
      } else if (t.id() == TypeId::kFixedSizeBinary) {
        total += checked_cast<FixedSizeBinaryType>(t).byte_width();
      } else {
        const int32_t* o = d->GetValues<int32_t>(1);
        total += o[i + 1] - o[i];
      }
    }
  }
  std::string fn = utf8 ? "strlen" : "octet_length";
  out->push_back({"sum(" + fn + "(" + col + "))::VARCHAR", AggKind::kText,
                  any ? Int128ToString(total) : "null"});
}

std::vector<Aggregate> AlkaidAggregates(const Schema& schema,
                                        const std::vector<RecordBatchPtr>& batches) {
  std::vector<Aggregate> out;
  int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows();
  out.push_back({"count(*)::VARCHAR", AggKind::kText, std::to_string(rows)});
  for (int c = 0; c < schema.num_fields(); ++c) {
    std::string col = "\"c" + std::to_string(c) + "\"";
    std::vector<const ArrayData*> chunks;
    int64_t non_null = 0;
    for (const auto& b : batches) {
      const ArrayData& d = *b->column_data(c);
      chunks.push_back(&d);
      for (int64_t i = 0; i < d.length; ++i) non_null += !LogicallyNull(d, i);
    }
    const DataType& type = *schema.field(c)->type();
    out.push_back({"count(" + col + ")::VARCHAR", AggKind::kText, std::to_string(non_null)});
    if (DuckDBLosesNulls(type)) out.back().known_defect = kLosesNulls;
    switch (type.id()) {
      case TypeId::kInt8: IntegerAggregates<int8_t>(chunks, col, &out); break;
      case TypeId::kUInt8: IntegerAggregates<uint8_t>(chunks, col, &out); break;
      case TypeId::kInt16: IntegerAggregates<int16_t>(chunks, col, &out); break;
      case TypeId::kUInt16: IntegerAggregates<uint16_t>(chunks, col, &out); break;
      case TypeId::kInt32: IntegerAggregates<int32_t>(chunks, col, &out); break;
      case TypeId::kUInt32: IntegerAggregates<uint32_t>(chunks, col, &out); break;
      case TypeId::kInt64: IntegerAggregates<int64_t>(chunks, col, &out); break;
      case TypeId::kUInt64: IntegerAggregates<uint64_t>(chunks, col, &out); break;
      case TypeId::kFloat: FloatAggregates<float>(chunks, col, &out); break;
      case TypeId::kDouble: FloatAggregates<double>(chunks, col, &out); break;
      case TypeId::kString:
      case TypeId::kLargeString:
      case TypeId::kStringView: LengthAggregate(chunks, col, true, &out); break;
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kBinaryView:
      case TypeId::kFixedSizeBinary: LengthAggregate(chunks, col, false, &out); break;
      default: break;
    }
  }
  return out;
}

// The scan under positional names c0, c1, ... (gold files repeat names).
std::string Renamed(const std::string& view, int num_fields) {
  std::string s = view + " AS s(";
  for (int i = 0; i < num_fields; ++i) s += (i ? ", \"c" : "\"c") + std::to_string(i) + "\"";
  return s + ")";
}

// ---------------------------------------------------------------------------
// Comparing what comes back

// Renderings that differ only by DuckDB's documented conversions are made
// equal: trailing zeros of fractions (a time or timestamp unit widened) and a
// named zone's annotation (instants normalised to UTC).
std::string Normalize(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
        i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]))) {
      size_t j = i + 1;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      std::string digits = text.substr(i + 1, j - i - 1);
      while (!digits.empty() && digits.back() == '0') digits.pop_back();
      if (!digits.empty()) out += "." + digits;
      i = j - 1;
      continue;
    }
    if (ch == 'Z' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t close = text.find(']', i);
      if (close != std::string::npos) {
        out += 'Z';
        i = close;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

// One slot as comparable text. Timestamps are compared as instants in
// nanoseconds (units and zones differ on purpose; this also stays clear of
// FormatValue's overflow on extreme timestamps, see the report).
std::string Render(const ArrayData& data, int64_t i, const PrettyPrintOptions& options) {
  if (data.type->id() == TypeId::kTimestamp && !data.IsNull(i)) {
    static constexpr int64_t kNanos[] = {1'000'000'000, 1'000'000, 1'000, 1};
    const auto unit = static_cast<size_t>(checked_cast<TimestampType>(*data.type).unit());
    return Int128ToString(static_cast<__int128>(data.GetValues<int64_t>(1)[i]) * kNanos[unit]) +
           "ns";
  }
  return Normalize(FormatValue(data, i, options));
}

// First difference of column `c` between the original and DuckDB's result
// (both as a sequence of rows over all batches); empty when equal.
std::string ColumnDifference(const std::vector<RecordBatchPtr>& a, const std::vector<RecordBatchPtr>& b,
                             int c) {
  PrettyPrintOptions options;
  options.container_window = 1 << 20;
  std::vector<std::string> left, right;
  for (const auto& batch : a) {
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      left.push_back(Render(*batch->column_data(c), i, options));
    }
  }
  for (const auto& batch : b) {
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      right.push_back(Render(*batch->column_data(c), i, options));
    }
  }
  if (left.size() != right.size()) {
    return std::to_string(left.size()) + " rows vs " + std::to_string(right.size());
  }
  for (size_t i = 0; i < left.size(); ++i) {
    if (left[i] != right[i]) return "row " + std::to_string(i) + ": " + left[i] + " vs " + right[i];
  }
  return "";
}

bool HasDictionary(const DataType& type) {
  if (type.id() == TypeId::kDictionary) return true;
  for (const FieldPtr& f : type.fields()) {
    if (HasDictionary(*f->type())) return true;
  }
  return false;
}

// Value changes DuckDB makes on purpose (or, for list views, by a defect of
// 1.5.6 that the test records instead of hiding); empty for any other pair,
// whose differences fail the test.
std::string KnownConversion(const DataType& from, const DataType& to) {
  auto unit = [](const DataType& t) { return checked_cast<TimestampType>(t).unit(); };
  if (from.id() == TypeId::kDate64 && to.id() == TypeId::kDate32) {
    return "date64 milliseconds rounded to whole days";
  }
  if (from.id() == TypeId::kTimestamp && to.id() == TypeId::kTimestamp && unit(from) == TimeUnit::kNano &&
      unit(to) == TimeUnit::kMicro) {
    return "nanoseconds rounded to microseconds (TIMESTAMPTZ)";
  }
  if (from.id() == TypeId::kIntervalMonthDayNano) return "interval nanoseconds rounded to microseconds";
  if (DuckDBLosesNulls(from)) return kLosesNulls;
  if (from.id() == TypeId::kDictionary &&
      HasDictionary(*checked_cast<DictionaryType>(from).value_type())) {
    return "DuckDB 1.5.6 gives the indices of a dictionary nested in a dictionary, not its values";
  }
  if (from.id() == TypeId::kExtension && to.id() == TypeId::kString) {
    return "extension values given back as text";
  }
  if ((from.id() == TypeId::kListView || from.id() == TypeId::kLargeListView) &&
      to.id() == TypeId::kList) {
    return "DuckDB 1.5.6 reads null list-view items as 0";
  }
  return "";
}

// DuckDB settings under which the result types are recorded.
struct Setting {
  const char* name;
  std::vector<const char*> statements;
};
const std::vector<Setting>& Settings() {
  static const std::vector<Setting> settings = {
      {"default", {}},
      {"views", {"SET produce_arrow_string_view=true", "SET arrow_output_list_view=true",
                 "SET arrow_output_version='1.4'"}},
      {"lossless", {"SET arrow_lossless_conversion=true"}},
  };
  return settings;
}

// Everything one gold case produced, for the tables of docs/c-data-and-duckdb.md.
struct CaseReport {
  std::string label;
  std::string export_result;     // "accepted" or DuckDB's message
  std::string aggregate_result;  // "N/N equal" or the first mismatch
  std::string import_result;     // "equal" or what differed
  // Per column: original type -> type DuckDB returned, per setting.
  std::vector<std::pair<std::string, std::vector<std::string>>> types;
};

std::vector<CaseReport>& Reports() {
  static std::vector<CaseReport> reports;
  return reports;
}

std::string OneLine(std::string s) {
  // DuckDB's internal errors append a stack trace with local paths.
  if (size_t trace = s.find("Stack Trace"); trace != std::string::npos) s.resize(trace);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  for (char& ch : s) {
    if (ch == '\n' || ch == '|') ch = ' ';
  }
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

class DuckDBGold : public ::testing::TestWithParam<std::string> {};

TEST_P(DuckDBGold, ScanAggregateAndReadBack) {
  ALKAID_REQUIRE_DUCKDB(api);
  if (GetParam() == "<no test data>") GTEST_SKIP() << "SKIPPED: test data not found";
  RegisterCanonicalExtensionTypes();
  auto reader = ipc::FileReader::OpenMapped(GetParam());
  ASSERT_TRUE(reader.ok()) << reader.status();
  SchemaPtr schema = (*reader)->schema();
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status();

  CaseReport report;
  report.label = GoldCaseLabel(GetParam());
  auto finish = [&] { Reports().push_back(report); };

  // A fresh database per case: one DuckDB failure mode poisons the database.
  Database db(api);
  ASSERT_TRUE(db.ok());
  std::string rejected = db.CheckSchema(*schema);
  if (!rejected.empty()) {
    report.export_result = "rejected: " + OneLine(rejected);
    report.aggregate_result = report.import_result = "-";
    for (const FieldPtr& f : schema->fields()) {
      report.types.emplace_back(f->type()->ToString(),
                                std::vector<std::string>(Settings().size(),
                                                         "schema rejected: " + OneLine(rejected)));
    }
    finish();
    return;  // recorded, with DuckDB's own message
  }
  report.export_result = "accepted";

  // Aggregates, compared with alkaid's computation.
  std::vector<Aggregate> aggregates = AlkaidAggregates(*schema, *batches);
  int equal = 0, failed = 0;
  std::string first_mismatch, first_error;
  std::set<std::string> defects;
  // Runs the aggregates listed in `which` as one query on a fresh view of
  // `database` and compares each with alkaid's figure.
  auto run = [&](Database& database, const std::string& view,
                 const std::vector<size_t>& which) -> Status {
    std::string sql = "SELECT ";
    for (size_t k = 0; k < which.size(); ++k) sql += (k ? ", " : "") + aggregates[which[k]].sql;
    ALKAID_RETURN_NOT_OK(database.Register(view, schema, *batches));
    SchemaPtr agg_schema;
    std::vector<RecordBatchPtr> agg_batches;
    ALKAID_RETURN_NOT_OK(database.QueryArrow(
        sql + " FROM " + Renamed(view, schema->num_fields()), &agg_schema, &agg_batches));
    if (agg_batches.size() != 1) return Status::Invalid("aggregate query gave ", agg_batches.size(), " batches");
    for (size_t k = 0; k < which.size(); ++k) {
      const Aggregate& a = aggregates[which[k]];
      const ArrayData& col = *agg_batches[0]->column_data(static_cast<int>(k));
      bool same;
      std::string got;
      if (a.kind == AggKind::kText) {
        got = col.IsNull(0) ? "null" : std::string(FormatValue(col, 0));
        if (got.size() >= 2 && got.front() == '"') got = got.substr(1, got.size() - 2);
        same = got == a.expected;
      } else {
        double v = col.IsNull(0) ? 0 : col.GetValues<double>(1)[0];
        got = col.IsNull(0) ? "null" : FormatValue(col, 0);
        same = col.IsNull(0) == a.expected_null &&
               (a.expected_null || v == a.expected_double ||
                (std::isnan(v) && std::isnan(a.expected_double)) ||
                std::fabs(v - a.expected_double) <= a.tolerance);
      }
      if (!same && a.known_defect != nullptr) {
        defects.insert(a.sql + " (DuckDB " + got + ", alkaid " + a.expected + "): " + a.known_defect);
        continue;
      }
      EXPECT_TRUE(same) << a.sql << ": DuckDB " << got << ", alkaid "
                        << (a.kind == AggKind::kText ? a.expected
                                                     : std::to_string(a.expected_double));
      if (same) {
        ++equal;
      } else if (first_mismatch.empty()) {
        first_mismatch = a.sql + ": " + got;
      }
    }
    return Status::OK();
  };
  std::vector<size_t> all(aggregates.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  Status st = run(db, "agg", all);
  if (!st.ok()) {
    // One column DuckDB cannot read fails the whole query: one query per
    // aggregate (each on a fresh database) to check the others.
    for (size_t i : all) {
      Database single(api);
      ASSERT_TRUE(single.ok());
      Status one = run(single, "agg", {i});
      if (!one.ok()) {
        ++failed;
        if (first_error.empty()) first_error = aggregates[i].sql + ": " + OneLine(one.message());
      }
    }
  }
  report.aggregate_result = std::to_string(equal) + "/" + std::to_string(aggregates.size()) +
                            " equal" + (first_mismatch.empty() ? "" : "; " + first_mismatch);
  if (failed > 0) {
    report.aggregate_result += "; " + std::to_string(failed) + " DuckDB could not compute (" +
                               first_error + ")";
  }
  for (const std::string& d : defects) report.aggregate_result += "; differs: " + d;

  // SELECT * back as Arrow, under each setting.
  report.types.resize(static_cast<size_t>(schema->num_fields()));
  for (int c = 0; c < schema->num_fields(); ++c) {
    report.types[static_cast<size_t>(c)].first = schema->field(c)->type()->ToString();
  }
  for (size_t s = 0; s < Settings().size(); ++s) {
    const Setting& setting = Settings()[s];
    Database fresh(api);  // settings and one-shot views do not carry over
    ASSERT_TRUE(fresh.ok());
    for (const char* statement : setting.statements) ASSERT_TRUE(fresh.Execute(statement).ok());
    ASSERT_TRUE(fresh.Register("t", schema, *batches).ok());
    SchemaPtr back_schema;
    std::vector<RecordBatchPtr> back;
    st = fresh.QueryArrow("SELECT * FROM t", &back_schema, &back);
    std::vector<std::string> differences;  // unexpected: fail the test
    std::vector<std::string> lossy;        // documented conversions
    if (!st.ok()) {
      // DuckDB could not take the data at query time: recorded with its message.
      lossy.push_back("DuckDB query error: " + OneLine(st.message()));
      // Which columns DuckDB cannot read back, one query per column.
      for (int c = 0; c < schema->num_fields(); ++c) {
        Database single(api);
        ASSERT_TRUE(single.ok());
        for (const char* statement : setting.statements) ASSERT_TRUE(single.Execute(statement).ok());
        ASSERT_TRUE(single.Register("t", schema, *batches).ok());
        SchemaPtr one_schema;
        std::vector<RecordBatchPtr> one;
        Status one_st = single.QueryArrow("SELECT \"c" + std::to_string(c) + "\" FROM " +
                                              Renamed("t", schema->num_fields()),
                                          &one_schema, &one);
        report.types[static_cast<size_t>(c)].second.push_back(
            one_st.ok() ? one_schema->field(0)->type()->ToString()
                        : "query error: " + OneLine(one_st.message()));
        if (!one_st.ok()) continue;
        // The columns DuckDB can read are compared on their own.
        std::vector<RecordBatchPtr> original;
        for (const auto& b : *batches) {
          original.push_back(b->SelectColumns({c}).ValueOrDie());
        }
        std::string diff = ColumnDifference(original, one, 0);
        if (diff.empty()) continue;
        const DataType& from = *schema->field(c)->type();
        const DataType& to = *one_schema->field(0)->type();
        std::string known = KnownConversion(from, to);
        if (known.empty()) {
          differences.push_back(schema->field(c)->name() + " (" + from.ToString() + " -> " +
                                to.ToString() + "): " + diff);
        } else {
          lossy.push_back(schema->field(c)->name() + ": " + known);
        }
      }
    } else {
      ASSERT_EQ(back_schema->num_fields(), schema->num_fields());
      for (int c = 0; c < schema->num_fields(); ++c) {
        const DataType& from = *schema->field(c)->type();
        const DataType& to = *back_schema->field(c)->type();
        report.types[static_cast<size_t>(c)].second.push_back(to.ToString());
        std::string diff = ColumnDifference(*batches, back, c);
        if (diff.empty()) continue;
        std::string what = schema->field(c)->name() + " (" + from.ToString() + " -> " +
                           to.ToString() + "): " + diff;
        std::string known = KnownConversion(from, to);
        if (known.empty()) {
          differences.push_back(what);
        } else {
          lossy.push_back(schema->field(c)->name() + ": " + known);
        }
      }
    }
    if (s == 0) {
      if (!differences.empty()) {
        report.import_result = std::to_string(differences.size()) + " column(s) differ: " +
                               OneLine(differences[0]);
      } else if (!lossy.empty()) {
        std::set<std::string> unique(lossy.begin(), lossy.end());
        report.import_result = "equal up to conversions: ";
        for (const std::string& l : unique) report.import_result += OneLine(l) + "; ";
        report.import_result.resize(report.import_result.size() - 2);
      } else {
        report.import_result = "equal";
      }
      for (const std::string& d : differences) ADD_FAILURE() << "read back differs: " << d;
    }
  }
  finish();
}

INSTANTIATE_TEST_SUITE_P(Gold, DuckDBGold,
                         ::testing::ValuesIn([] {
                           std::string root = ::alkaid::testing::TestDataDir();
                           auto files = root.empty() ? std::vector<std::string>()
                                                     : GoldFilePaths(root);
                           if (files.empty()) files.push_back("<no test data>");
                           return files;
                         }()),
                         GoldCaseName);

// Writes the docs/c-data-and-duckdb.md tables when ALKAID_DUCKDB_REPORT names a file.
class ReportWriter : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* path = std::getenv("ALKAID_DUCKDB_REPORT");
    if (path == nullptr || *path == '\0' || Reports().empty()) return;
    std::ostringstream out;
    out << "| gold case | export (DuckDB schema check) | aggregates | SELECT * read back |\n"
        << "|---|---|---|---|\n";
    for (const CaseReport& r : Reports()) {
      out << "| " << r.label << " | " << r.export_result << " | " << r.aggregate_result << " | "
          << r.import_result << " |\n";
    }
    // Decimal parameters do not change what DuckDB does: one row per width.
    auto family = [](const std::string& t) {
      return std::regex_replace(t, std::regex(R"(\(\d+, \d+\))"), "(P, S)");
    };
    std::map<std::string, std::vector<std::string>> types;
    for (const CaseReport& r : Reports()) {
      for (const auto& [from, to] : r.types) {
        if (to.empty()) continue;
        std::vector<std::string> mapped;
        for (const std::string& t : to) mapped.push_back(family(t));
        auto [it, inserted] = types.emplace(family(from), mapped);
        // Prefer an entry where the column could be read back.
        if (!inserted && it->second[0].starts_with("query error") &&
            !mapped[0].starts_with("query error")) {
          it->second = mapped;
        }
      }
    }
    out << "\n| alkaid type |";
    for (const Setting& s : Settings()) out << " DuckDB gives back (" << s.name << ") |";
    out << "\n|---|";
    for (size_t i = 0; i < Settings().size(); ++i) out << "---|";
    out << "\n";
    for (const auto& [from, to] : types) {
      out << "| " << OneLine(from) << " |";
      for (const std::string& t : to) out << " " << (t == from ? "same" : OneLine(t)) << " |";
      out << "\n";
    }
    std::string tmp = std::string(path) + ".tmp";
    std::ofstream(tmp) << out.str();
    std::rename(tmp.c_str(), path);
  }
};
const auto* const kReportWriter = ::testing::AddGlobalTestEnvironment(new ReportWriter);

}  // namespace
}  // namespace alkaid::c_data

// Text <-> value conversions shared by the CSV and JSON Lines readers and
// writers (internal; not installed). Parsers take the exact field text (no
// surrounding blanks) and return false on anything they do not accept, so the
// caller can say which line, column and text were at fault. Formatters append
// to a std::string.
//
// Text forms (the ones the writers produce and the readers accept):
//   bool       true / false (readers also accept True, TRUE, False, FALSE)
//   integers   optional sign and decimal digits, range-checked for the type
//   floats     shortest round-trip decimal; nan, inf, -inf
//   date       YYYY-MM-DD; years outside 0000..9999 as ISO 8601
//              expanded years: a sign and at least 4 digits (util/civil_time.h)
//   time       HH:MM:SS with 3, 6 or 9 fraction digits for ms, us, ns
//   timestamp  date, then 'T' or ' ', then HH:MM[:SS[.fraction]] and an
//              optional zone Z or +HH:MM / -HH:MM / +HHMM / +HH. A value with
//              a zone is converted to UTC. Writers print the unit's fraction
//              digits (so readers infer the same unit back) and 'Z' when the
//              type has a time zone (values are stored in UTC).
//   duration   the integer count of its unit
//   interval   months: the integer count; day_time and month_day_nano: an
//              ISO 8601 duration (see AppendInterval)
//   halffloat  as float (every half is exactly a float)
//   decimal    exact decimal text at the type's scale
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <functional>

#include "alkaid/array_data.h"
#include "alkaid/table.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"
#include "../util/civil_time.h"

// Not installed, but the CSV and JSON Lines libraries and the tests call these
// across library boundaries in shared builds, hence ALKAID_EXPORT.

namespace alkaid::text {

ALKAID_EXPORT bool ParseBool(std::string_view s, bool* out);
ALKAID_EXPORT bool ParseInt64(std::string_view s, int64_t* out);
ALKAID_EXPORT bool ParseUInt64(std::string_view s, uint64_t* out);
ALKAID_EXPORT bool ParseDouble(std::string_view s, double* out);
ALKAID_EXPORT bool ParseFloat(std::string_view s, float* out);
// Days since 1970-01-01.
ALKAID_EXPORT bool ParseDate(std::string_view s, int64_t* days);

// A parsed timestamp before it is put in a unit.
struct ALKAID_EXPORT TimestampText {
  int64_t seconds = 0;     // since the epoch, UTC when has_zone (0 if out of range)
  __int128 seconds128 = 0;  // the same, never out of range
  int32_t nanos = 0;       // 0..999'999'999
  int frac_digits = 0;     // digits written after the decimal point
  bool has_zone = false;   // Z or an offset was present
  bool date_only = false;  // just YYYY-MM-DD
};
ALKAID_EXPORT bool ParseTimestamp(std::string_view s, TimestampText* out);
// ParseTimestamp without its fast path for the common fixed layout (tests
// compare the two).
ALKAID_EXPORT bool ParseTimestampGeneral(std::string_view s, TimestampText* out);
// ParseTimestamp then TimestampToUnit, requiring a zone exactly when `zoned`
// (the value of a timestamp(unit, zone) column); fast for the fixed layout.
ALKAID_EXPORT bool ParseTimestampAs(std::string_view s, TimeUnit unit, bool zoned, int64_t* out);
// The value in `unit`; false on overflow or when digits finer than the unit
// would be dropped.
ALKAID_EXPORT bool TimestampToUnit(const TimestampText& ts, TimeUnit unit, int64_t* out);
// The coarsest unit that holds `frac_digits` fraction digits exactly.
ALKAID_EXPORT TimeUnit UnitForFractionDigits(int frac_digits);
// The type both text readers infer for a run of texts that are all dates or
// timestamps (ParseTimestamp's forms), or all times of day (HH:MM:SS with an
// optional fraction), fed one text at a time.
struct ALKAID_EXPORT TemporalInference {
  int frac_digits = 0;     // the most seen
  bool any = false;        // some text was noted
  bool times = false;      // the texts are times of day
  bool dates_only = true;  // every text was YYYY-MM-DD
  bool zoned = false;      // some timestamp had a zone
  bool unzoned = false;    // some timestamp (a date included) had none
  // False, noting nothing, when `s` is not of the kind the texts so far were
  // (a date or timestamp, or a time of day).
  bool Add(std::string_view s);
  // Times of day: time32 in seconds or milliseconds, time64 in micro- or
  // nanoseconds, the coarsest unit that holds every fraction. Otherwise
  // date32 when every text was a date, else a timestamp in the coarsest unit
  // that holds every fraction, "UTC" when every text had a zone; null when
  // texts with and without a zone were mixed (no timestamp type holds both)
  // and when no text was noted.
  DataTypePtr Type() const;
};
// HH:MM:SS[.fraction] as nanoseconds since midnight.
ALKAID_EXPORT bool ParseTimeOfDay(std::string_view s, int64_t* nanos, int* frac_digits);

using civil::UnitsPerSecond;

// Text of a date32 (days), date64 (milliseconds; a date or a zone-less
// timestamp), timestamp (its unit; a zone is required exactly when the type
// has one), time32 or time64 (a time of day, or an integer count of the unit
// as writers put values that are not a time of day) value of `type`.
ALKAID_EXPORT bool ParseTemporal(std::string_view s, const DataType& type, int64_t* out);

ALKAID_EXPORT void AppendInt(std::string* out, int64_t v);
ALKAID_EXPORT void AppendUInt(std::string* out, uint64_t v);
ALKAID_EXPORT void AppendDouble(std::string* out, double v);
ALKAID_EXPORT void AppendFloat(std::string* out, float v);
ALKAID_EXPORT void AppendDate(std::string* out, int64_t days);
ALKAID_EXPORT void AppendTimestamp(std::string* out, int64_t v, TimeUnit unit, bool zone);
ALKAID_EXPORT void AppendTimeOfDay(std::string* out, int64_t v, TimeUnit unit);

// Intervals as ISO 8601 durations, each component signed on its own:
// "P1Y2M3W4DT5H6M7.5S" (years count 12 months, weeks 7 days; the time part
// becomes nanoseconds). Writers print months, days and the time part as
// seconds: "P14M2DT-0.25S"; all zero is "PT0S". Parse fails on anything
// else, on more than 9 fraction digits and on int64 overflow.
ALKAID_EXPORT void AppendInterval(std::string* out, int64_t months, int64_t days, int64_t nanos);
ALKAID_EXPORT bool ParseInterval(std::string_view s, int64_t* months, int64_t* days,
                                 int64_t* nanos);

// Text of one slot of a column, a whole column at a time: the formatters
// write every slot's text into `bytes` and its end into `ends`, so writers
// can interleave columns row by row with plain copies (no per-value dispatch).
struct ALKAID_EXPORT ColumnText {
  std::string bytes;
  std::vector<int64_t> ends;
  std::string_view get(int64_t i) const {
    int64_t begin = i == 0 ? 0 : ends[static_cast<size_t>(i - 1)];
    return std::string_view(bytes).substr(static_cast<size_t>(begin),
                                          static_cast<size_t>(ends[static_cast<size_t>(i)] - begin));
  }
  void clear() { bytes.clear(); ends.clear(); }
  void end_slot() { ends.push_back(static_cast<int64_t>(bytes.size())); }
};

// How text values (strings, binary) are written.
enum class TextEscape : int8_t {
  kCsv,   // as is, quoted (with doubled quotes) when needed; see CsvEscape
  kJson,  // a JSON string; binary as a JSON string of lower-case hex digits
};

struct ALKAID_EXPORT CsvEscape {
  char delimiter = ',';
  char quote = '"';
  // Text written for nulls; strings equal to it are quoted so they read back
  // as strings.
  std::string null_text;
  bool quote_all_strings = false;
  // More texts that must be quoted to read back as strings (null spellings).
  const std::vector<std::string>* reserved = nullptr;
};

// Formats slots [offset, offset + length) (relative to data.offset) of a
// column of any non-nested type (dictionary and extension arrays through their
// values / storage) into `out`, appending. Nulls become `null_text`. JSON mode
// quotes temporal, decimal and non-finite float values as strings.
ALKAID_EXPORT Status FormatColumn(const ArrayData& data, int64_t offset, int64_t length,
                                  TextEscape escape, const CsvEscape& csv,
                                  std::string_view null_text, ColumnText* out);

// Formats `batch` in chunks of rows and calls emit(columns, first, count)
// for each chunk (columns[c].get(i) is row first + i of column c). Errors name
// the column with `what` ("CSV", "JSON Lines").
ALKAID_EXPORT Status FormatBatchInChunks(
    const RecordBatch& batch, TextEscape escape, const CsvEscape& csv, std::string_view null_text,
    const char* what,
    const std::function<Status(const std::vector<ColumnText>&, int64_t)>& emit);

// A table's columns combined into one batch (writers take batches).
ALKAID_EXPORT Result<RecordBatchPtr> TableAsBatch(const Table& table);

// Appends `s` as a JSON string (quotes included), escaping as RFC 8259 asks.
ALKAID_EXPORT void AppendJsonString(std::string* out, std::string_view s);

}  // namespace alkaid::text


// Test-only: the writer's round trip as a function of arbitrary bytes, for the libFuzzer
// target fuzz/fuzz_parquet_roundtrip.cc and the tests that replay it. The bytes pick up to
// four columns of any writable type, the writer's settings and the random data; the batch
// is written, read back and must be equal (a difference aborts, which the fuzzer reports).
//
// Input layout: [0] column count (1..4), [1..4] column types (indices into
// WritableFields), [5] codec, [6] flags (bit 0 v2 pages, bit 1 no dictionary, bit 2 tiny
// pages and row groups, bit 3 dictionary limit of 64 bytes, bit 4 threads, bits 5-7 value
// encoding), [7] null percentage, [8..9] rows (0..1023), the rest hashed into the seed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "alkaid/compare.h"
#include "alkaid/extension/json.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "alkaid/table.h"
#include "test_util/random_json.h"

namespace alkaid::parquet::testing {

/// Every Arrow type with a Parquet form, flat and nested.
inline FieldVector WritableFields() {
  return {
      field("null", null()),
      field("bool", boolean()),
      field("i8", int8()),
      field("u8", uint8()),
      field("i16", int16()),
      field("u16", uint16()),
      field("i32", int32(), false),
      field("u32", uint32()),
      field("i64", int64()),
      field("u64", uint64()),
      field("f16", float16()),
      field("f32", float32()),
      field("f64", float64()),
      field("dec32", decimal32(7, 2)),
      field("dec64", decimal64(15, 3)),
      field("dec128", decimal128(38, 10)),
      field("dec256", decimal256(60, 5)),
      field("date32", date32()),
      field("date64", date64()),
      field("time_s", time32(TimeUnit::kSecond)),
      field("time_ms", time32(TimeUnit::kMilli)),
      field("time_us", time64(TimeUnit::kMicro)),
      field("time_ns", time64(TimeUnit::kNano)),
      field("ts_s", timestamp(TimeUnit::kSecond)),
      field("ts_ms_zone", timestamp(TimeUnit::kMilli, "Europe/Paris")),
      field("ts_us_utc", timestamp(TimeUnit::kMicro, "UTC")),
      field("ts_ns", timestamp(TimeUnit::kNano)),
      field("dur", duration(TimeUnit::kMilli)),
      field("months", month_interval()),
      field("day_time", day_time_interval()),
      field("mdn", month_day_nano_interval()),
      field("bin", binary()),
      field("str", utf8()),
      field("large_bin", large_binary()),
      field("large_str", large_utf8()),
      field("view_str", utf8_view()),
      field("view_bin", binary_view()),
      field("fsb", fixed_size_binary(3)),
      field("uuid", std::static_pointer_cast<DataType>(UuidType::Make())),
      field("json", JsonExtensionType::Make(utf8()).ValueOrDie()),
      field("dict_str", dictionary(int32(), utf8())),
      field("dict_i64", dictionary(int8(), int64())),
      field("ree_str", run_end_encoded(int32(), utf8())),
      field("list", list(int32())),
      field("list_req", list(field("item", utf8(), false))),
      field("large_list", large_list(float64())),
      field("fsl", fixed_size_list(int16(), 3)),
      field("list_view", list_view(int32())),
      field("large_list_view", large_list_view(utf8())),
      field("list_list", list(list(int64()))),
      field("struct", struct_({field("a", int32()), field("b", utf8(), false),
                                field("c", list(boolean()))})),
      field("list_struct", list(struct_({field("x", int64()), field("y", utf8())}))),
      field("map", map(utf8(), int32())),
      field("map_nested", map(int32(), list(utf8()))),
      field("struct_req", struct_({field("p", float64())}), false),
  };
}

/// `rows` random rows of `fields` (nullable fields null with probability `nulls`).
inline Result<RecordBatchPtr> MakeRandomBatch(const FieldVector& fields, int64_t rows,
                                              uint64_t seed, double nulls = 0.15) {
  ::alkaid::testing::RandomJson gen(seed);
  ArrayDataVector columns;
  for (const auto& f : fields) {
    auto array = gen.MakeArray(f->type(), rows, f->nullable() ? nulls : 0.0);
    if (!array.ok()) return array.status().WithContext(f->name() + ": ");
    columns.push_back(*array);
  }
  return RecordBatch::Make(schema(fields), rows, std::move(columns));
}

/// The first difference between a table and its round trip, column by column (NaN equals
/// NaN); empty when equal.
inline std::string TableDifference(const Table& expected, const Table& actual) {
  if (expected.num_columns() != actual.num_columns() ||
      expected.num_rows() != actual.num_rows()) {
    return "shape: " + std::to_string(expected.num_columns()) + "x" +
           std::to_string(expected.num_rows()) + " vs " + std::to_string(actual.num_columns()) +
           "x" + std::to_string(actual.num_rows());
  }
  for (int c = 0; c < expected.num_columns(); ++c) {
    const Field& want = *expected.schema()->field(c);
    const Field& got = *actual.schema()->field(c);
    if (!want.type()->Equals(*got.type())) {
      return want.name() + ": wrote " + want.type()->ToString() + ", read " +
             got.type()->ToString();
    }
    if (want.nullable() != got.nullable()) return want.name() + ": nullability differs";
    auto a = expected.column(c)->Combine();
    auto b = actual.column(c)->Combine();
    if (!a.ok() || !b.ok()) return want.name() + ": cannot combine chunks";
    std::string diff = ArrayDiff(**a, **b, EqualOptions::Defaults().with_nans_equal());
    if (!diff.empty()) return want.name() + ": " + diff.substr(0, 600);
  }
  return "";
}

/// One fuzz input (see the layout above). Returns the difference found ("" when the round
/// trip is equal or the input asks for nothing the writer can do).
inline std::string RoundTripOnce(const uint8_t* data, size_t size) {
  if (size < 10) return "";
  const FieldVector all = WritableFields();
  FieldVector fields;
  const int count = 1 + data[0] % 4;
  for (int i = 0; i < count; ++i) {
    FieldPtr f = all[data[1 + i] % all.size()];
    fields.push_back(f->WithName(f->name() + "_" + std::to_string(i)));
  }
  WriterProperties props;
  static constexpr Compression kCodecs[] = {Compression::kUncompressed, Compression::kSnappy,
                                            Compression::kGzip,         Compression::kZstd,
                                            Compression::kLz4Raw,       Compression::kLz4,
                                            Compression::kBrotli};
  props.compression = kCodecs[data[5] % 7];
  const uint8_t flags = data[6];
  if (flags & 1) props.data_page_version = DataPageVersion::kV2;
  if (flags & 2) props.dictionary = false;
  if (flags & 4) {
    props.data_page_size = 64;
    props.data_page_row_limit = 5;
    props.max_row_group_rows = 17;
  }
  if (flags & 8) props.dictionary_page_size_limit = 64;
  props.use_threads = (flags & 16) != 0;
  static constexpr Encoding kEncodings[] = {
      Encoding::kPlain,         Encoding::kDeltaBinaryPacked, Encoding::kDeltaLengthByteArray,
      Encoding::kDeltaByteArray, Encoding::kByteStreamSplit,  Encoding::kRle,
      Encoding::kPlain,         Encoding::kPlain};
  props.encoding = kEncodings[flags >> 5];  // applied to the columns it fits
  const double nulls = (data[7] % 101) / 100.0;
  const int64_t rows = (data[8] | (data[9] << 8)) % 1024;
  uint64_t seed = 1469598103934665603ull;
  for (size_t i = 10; i < size; ++i) seed = (seed ^ data[i]) * 1099511628211ull;

  auto batch = MakeRandomBatch(fields, rows, seed, nulls);
  if (!batch.ok()) return "random batch: " + batch.status().ToString();
  auto table = Table::FromRecordBatches({*batch});
  if (!table.ok()) return table.status().ToString();
  auto file = WriteTableToBuffer(**table, props);
  if (!file.ok()) return "write: " + file.status().ToString();
  auto reader = FileReader::Open(*file);
  if (!reader.ok()) return "open: " + reader.status().ToString();
  auto back = (*reader)->ReadTable();
  if (!back.ok()) return "read: " + back.status().ToString();
  Status valid = (*back)->ValidateFull();
  if (!valid.ok()) return "invalid: " + valid.ToString();
  return TableDifference(**table, **back);
}

}  // namespace alkaid::parquet::testing

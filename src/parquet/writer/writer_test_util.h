// Test-only helpers of the Parquet writer tests: a schema with every Arrow type that has a
// Parquet form, random batches of any schema, and table comparison after a round trip.
#pragma once

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/extension/json.h"
#include "alkaid/extension/uuid.h"
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
inline RecordBatchPtr RandomBatch(const FieldVector& fields, int64_t rows, uint64_t seed,
                           double nulls = 0.15) {
  ::alkaid::testing::RandomJson gen(seed);
  ArrayDataVector columns;
  for (const auto& f : fields) {
    auto array = gen.MakeArray(f->type(), rows, f->nullable() ? nulls : 0.0);
    EXPECT_TRUE(array.ok()) << f->name() << ": " << array.status();
    if (!array.ok()) return nullptr;
    columns.push_back(*array);
  }
  return RecordBatch::Make(schema(fields), rows, std::move(columns));
}


/// Types the reader does not restore from ARROW:schema yet (src/parquet/restore.cc): they
/// come back as their Parquet form. Arrow C++ writes none of them.
inline bool ReadBackAsStorage(const DataType& type) {
  switch (type.id()) {
    case TypeId::kIntervalMonths:        // fixed_size_binary[12]
    case TypeId::kIntervalDayTime:       // fixed_size_binary[12]
    case TypeId::kIntervalMonthDayNano:  // fixed_size_binary[16]
    case TypeId::kRunEndEncoded:         // the plain values
    case TypeId::kFixedSizeList:         // list
      return true;
    case TypeId::kDictionary:
      return ReadBackAsStorage(*checked_cast<DictionaryType>(type).value_type());
    case TypeId::kExtension:
      return ReadBackAsStorage(*checked_cast<ExtensionType>(type).storage_type());
    default:
      for (int i = 0; i < type.num_fields(); ++i) {
        if (ReadBackAsStorage(*type.field(i)->type())) return true;
      }
      return false;
  }
}

/// Column by column (NaN equal to NaN), so that a failure names the column and the first difference.
inline void ExpectTablesEqual(const Table& expected, const Table& actual) {
  ASSERT_EQ(expected.num_columns(), actual.num_columns());
  ASSERT_EQ(expected.num_rows(), actual.num_rows());
  for (int c = 0; c < expected.num_columns(); ++c) {
    const Field& want = *expected.schema()->field(c);
    const Field& got = *actual.schema()->field(c);
    if (ReadBackAsStorage(*want.type())) continue;
    EXPECT_TRUE(want.type()->Equals(*got.type()))
        << want.name() << ": wrote " << want.type()->ToString() << ", read "
        << got.type()->ToString();
    if (!want.type()->Equals(*got.type())) continue;
    EXPECT_EQ(want.nullable(), got.nullable()) << want.name();
    auto a = expected.column(c)->Combine().ValueOrDie();
    auto b = actual.column(c)->Combine().ValueOrDie();
    std::string diff = ArrayDiff(*a, *b, EqualOptions::Defaults().with_nans_equal());
    EXPECT_TRUE(diff.empty()) << want.name() << ": " << diff.substr(0, 600);
  }
}

}  // namespace alkaid::parquet::testing

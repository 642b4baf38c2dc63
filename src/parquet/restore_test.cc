// Types the writer stores in another physical form come back as they went in when the
// footer holds ARROW:schema (restore.cc, RestoredType): intervals, fixed-size lists,
// run-end encoded columns, uint32 of format 1.0, nanosecond timestamps of format 2.4; and
// values that the stored form cannot hold are errors naming the row group and field, on
// both sides (date64 past DATE's int32 day count when writing, a hostile ARROW:schema
// when reading).
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "src/parquet/parquet_test_util.h"
#include "src/parquet/schema/arrow_schema_key.h"
#include "src/parquet/thrift/parquet_types.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet {
namespace {

using integration_json::ArrayFromJSONString;

std::shared_ptr<Table> OneColumn(const FieldPtr& f, const std::string& json) {
  auto data = ArrayFromJSONString(f->type(), json).ValueOrDie();
  auto batch = RecordBatch::Make(schema({f}), data->length, {data});
  return Table::FromRecordBatches({batch}).ValueOrDie();
}

Result<std::shared_ptr<Table>> RoundTrip(const Table& table, const WriterProperties& props,
                                         const ReaderOptions& options = {}) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr file, WriteTableToBuffer(table, props));
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(file, options));
  ALKAID_ASSIGN_OR_RAISE(auto back, reader->ReadTable());
  ALKAID_RETURN_NOT_OK(back->ValidateFull());
  return back;
}

void ExpectSameColumn(const Table& want, const Table& got) {
  ASSERT_EQ(got.num_columns(), 1);
  EXPECT_TRUE(got.schema()->field(0)->type()->Equals(*want.schema()->field(0)->type()))
      << got.schema()->field(0)->type()->ToString();
  auto a = want.column(0)->Combine().ValueOrDie();
  auto b = got.column(0)->Combine().ValueOrDie();
  EXPECT_EQ(ArrayDiff(*a, *b), "");
}

struct Case {
  const char* name;
  FieldPtr field;
  const char* json;
  void (*apply)(WriterProperties*);
};

void NoChange(WriterProperties*) {}

std::vector<Case> Cases() {
  return {
      {"month_interval", field("m", month_interval()), "[1, null, -7, 2147483647]", NoChange},
      {"day_time_interval", field("dt", day_time_interval()),
       "[[1, 2], null, [-3, -86400000], [0, 0]]", NoChange},
      {"month_day_nano", field("mdn", month_day_nano_interval()),
       "[[1, 2, 3], null, [-1, -2, -9223372036854775807]]", NoChange},
      {"fixed_size_list", field("fsl", fixed_size_list(int32(), 2)),
       "[[1, 2], null, null, [3, null], [5, 6], null]", NoChange},
      {"fixed_size_list_nested", field("fsl2", fixed_size_list(list(utf8()), 2)),
       R"([[["a"], []], null, [null, ["b", "c"]]])", NoChange},
      {"list_of_fixed_size_list", field("lfsl", list(fixed_size_list(int64(), 3))),
       "[[[1, 2, 3], null], [], null, [[4, 5, 6]]]", NoChange},
      {"run_end_encoded", field("ree", run_end_encoded(int32(), utf8())),
       R"(["a", "a", null, null, "b", "a"])", NoChange},
      {"run_end_encoded_int16_ends", field("ree16", run_end_encoded(int16(), float64())),
       "[1.5, 1.5, 1.5, null, 2.5]", NoChange},
      {"dictionary_of_intervals", field("di", dictionary(int8(), month_interval())),
       "[1, 1, null, 2]", NoChange},
      {"uint32_format_1_0", field("u", uint32()), "[0, 4294967295, null, 7]",
       [](WriterProperties* p) { p->version = FormatVersion::k1_0; }},
      {"timestamp_ns_format_2_4", field("ts", timestamp(TimeUnit::kNano, "UTC")),
       "[1000, null, -2000, 1700000000123456000]",
       [](WriterProperties* p) { p->version = FormatVersion::k2_4; }},
  };
}

TEST(ParquetRestore, StoredFormsComeBackAsTheirArrowType) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    auto table = OneColumn(c.field, c.json);
    for (auto version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
      WriterProperties props;
      props.data_page_version = version;
      props.max_row_group_rows = 2;  // several row groups, each restored on its own
      c.apply(&props);
      ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, props));
      ExpectSameColumn(*table, *back);
    }
  }
}

TEST(ParquetRestore, WithoutArrowSchemaTheStoredFormIsRead) {
  auto table = OneColumn(field("fsl", fixed_size_list(int32(), 2)), "[[1, 2], null]");
  ReaderOptions options;
  options.use_arrow_schema = false;
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, WriterProperties(), options));
  EXPECT_EQ(back->schema()->field(0)->type()->id(), TypeId::kList);
  auto intervals = OneColumn(field("m", month_interval()), "[1]");
  ASSERT_OK_AND_ASSIGN(back, RoundTrip(*intervals, WriterProperties(), options));
  EXPECT_EQ(back->schema()->field(0)->type()->ToString(), "fixed_size_binary[12]");
}

// A file whose stored column is `stored` and whose footer's ARROW:schema claims the Arrow
// type `claimed` (the writer keeps its own key, so the footer is rewritten).
BufferPtr WithClaimedType(const std::shared_ptr<Table>& stored, const DataTypePtr& claimed) {
  WriterProperties props;
  props.store_arrow_schema = false;
  props.max_row_group_rows = 2;
  BufferPtr file = WriteTableToBuffer(*stored, props).ValueOrDie();
  const uint8_t* bytes = file->data();
  const int64_t size = file->size();
  uint32_t footer_size;
  std::memcpy(&footer_size, bytes + size - 8, 4);
  const int64_t footer_start = size - 8 - footer_size;
  auto footer = thrift::DeserializeThrift<format::FileMetaData>(bytes + footer_start,
                                                                footer_size)
                    .ValueOrDie();
  auto key = internal::EncodeArrowSchemaKey(
      *schema({field(stored->schema()->field(0)->name(), claimed)}));
  footer.key_value_metadata = std::vector<format::KeyValue>{{"ARROW:schema", key.ValueOrDie()}};
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<size_t>(footer_start));
  std::string encoded;
  thrift::SerializeThrift(footer, &encoded);
  out += encoded;
  const auto length = static_cast<uint32_t>(encoded.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  return Buffer::FromString(std::move(out));
}

TEST(ParquetRestore, ValuesTheClaimedTypeCannotHoldAreErrors) {
  struct Bad {
    const char* name;
    std::shared_ptr<Table> stored;
    DataTypePtr claimed;
    const char* message;
  };
  const Bad bad[] = {
      {"uint32 past its range", OneColumn(field("u", int64()), "[1, 2, 3, 4294967296]"),
       uint32(), "row group 1, field u: value 4294967296 at row 1 does not fit uint32"},
      {"nanoseconds past int64", OneColumn(field("t", timestamp(TimeUnit::kMicro)),
                                           "[0, 0, 9223372036854776]"),
       timestamp(TimeUnit::kNano), "row group 1, field t: value 9223372036854776 at row 0"},
      {"list of the wrong size", OneColumn(field("l", list(int32())), "[[1, 2], [3]]"),
       fixed_size_list(int32(), 2), "row group 0, field l: list 1 holds 1 values"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(WithClaimedType(b.stored, b.claimed)));
    auto table = reader->ReadTable();
    ASSERT_FALSE(table.ok());
    EXPECT_NE(table.status().message().find(b.message), std::string::npos) << table.status();
  }
}

TEST(ParquetRestore, Date64PastTheDaysOfDateIsAWriteError) {
  // 2^31 days after the epoch, in milliseconds: one day past what an int32 DATE counts.
  const std::string past = std::to_string((int64_t{1} << 31) * 86'400'000);
  auto table = OneColumn(field("d", date64()), "[0, 86400000, null, " + past + "]");
  WriterProperties props;
  props.max_row_group_rows = 2;
  auto file = WriteTableToBuffer(*table, props);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("row group 1, column 'd': date64 value " + past +
                                         " (slot 1 of the column)"),
            std::string::npos)
      << file.status();
  // The most negative day that fits still round-trips.
  const std::string first = std::to_string(int64_t{INT32_MIN} * 86'400'000);
  auto edge = OneColumn(field("d", date64()), "[" + first + ", null]");
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*edge, WriterProperties()));
  ExpectSameColumn(*edge, *back);
}

}  // namespace
}  // namespace alkaid::parquet

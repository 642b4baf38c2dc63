// alkaid's compact codec against libthrift's generated code for format/parquet.thrift: every
// field of every struct, filled with distinct values, written by one side and read by the
// other, must come back byte for byte and value for value. A wrong id, wire type or missing
// field in parquet_types.h shows up as a difference here.
#include <gtest/gtest.h>

#include <string>

#include "src/parquet/thrift/thrift.h"
#include "src/parquet/thrift/thrift_test_util.h"

#ifdef ALKAID_HAVE_LIBTHRIFT
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "alkaid/parquet_thrift/parquet_types.h"
#endif

namespace alkaid::parquet::thrift {
namespace {

#ifdef ALKAID_HAVE_LIBTHRIFT
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TMemoryBuffer;

// Reads `bytes` with libthrift's generated G, writes it back with libthrift.
template <typename G>
std::string ThroughLibthrift(const std::string& bytes) {
  auto in = std::make_shared<TMemoryBuffer>(
      reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data())),
      static_cast<uint32_t>(bytes.size()));
  TCompactProtocol in_proto(in);
  G value;
  value.read(&in_proto);
  auto out = std::make_shared<TMemoryBuffer>();
  TCompactProtocol out_proto(out);
  value.write(&out_proto);
  return out->getBufferAsString();
}

template <typename Ours, typename Generated>
void CrossCheck() {
  Ours original = testing::Filled<Ours>(/*long_lists=*/true, /*i32_in_enum_range=*/true);
  std::string ours;
  SerializeThrift(original, &ours);
  std::string theirs = ThroughLibthrift<Generated>(ours);
  ASSERT_EQ(ours.size(), theirs.size()) << Ours::kName;
  EXPECT_TRUE(ours == theirs) << Ours::kName << ": libthrift re-encodes differently";
  Ours back;
  ASSERT_TRUE(DeserializeThrift(reinterpret_cast<const uint8_t*>(theirs.data()), theirs.size(),
                                &back)
                  .ok());
  EXPECT_TRUE(back == original) << Ours::kName;
}

namespace gen = ::alkaid_parquet_thrift;

TEST(ParquetThriftCrossCheck, EveryFieldMatchesLibthrift) {
  CrossCheck<format::FileMetaData, gen::FileMetaData>();
  CrossCheck<format::FileCryptoMetaData, gen::FileCryptoMetaData>();
  CrossCheck<format::PageHeader, gen::PageHeader>();
  CrossCheck<format::ColumnMetaData, gen::ColumnMetaData>();
  CrossCheck<format::ColumnIndex, gen::ColumnIndex>();
  CrossCheck<format::OffsetIndex, gen::OffsetIndex>();
  CrossCheck<format::BloomFilterHeader, gen::BloomFilterHeader>();
}

TEST(ParquetThriftCrossCheck, LibthriftOutputReadsBack) {
  // A footer built with the generated types, in the shape a writer makes.
  gen::FileMetaData md;
  md.version = 2;
  gen::SchemaElement root;
  root.name = "schema";
  root.__set_num_children(1);
  gen::SchemaElement leaf;
  leaf.name = "x";
  leaf.__set_type(gen::Type::INT64);
  leaf.__set_repetition_type(gen::FieldRepetitionType::OPTIONAL);
  gen::LogicalType logical;
  gen::TimestampType ts;
  ts.isAdjustedToUTC = true;
  ts.unit.__set_NANOS(gen::NanoSeconds());
  logical.__set_TIMESTAMP(ts);
  leaf.__set_logicalType(logical);
  md.schema = {root, leaf};
  md.num_rows = 5;
  md.__set_created_by("parquet-cpp-arrow version 20.0.0");
  auto out = std::make_shared<TMemoryBuffer>();
  TCompactProtocol proto(out);
  md.write(&proto);
  std::string bytes = out->getBufferAsString();

  format::FileMetaData ours;
  ASSERT_TRUE(
      DeserializeThrift(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &ours)
          .ok());
  ASSERT_EQ(ours.schema.size(), 2u);
  EXPECT_EQ(ours.schema[1].name, "x");
  ASSERT_TRUE(ours.schema[1].logicalType.has_value());
  ASSERT_TRUE(ours.schema[1].logicalType->TIMESTAMP.has_value());
  EXPECT_TRUE(ours.schema[1].logicalType->TIMESTAMP->isAdjustedToUTC);
  EXPECT_TRUE(ours.schema[1].logicalType->TIMESTAMP->unit.NANOS.has_value());
  EXPECT_EQ(ours.created_by, "parquet-cpp-arrow version 20.0.0");
  EXPECT_EQ(ours.num_rows, 5);
}
#else
TEST(ParquetThriftCrossCheck, EveryFieldMatchesLibthrift) {
  GTEST_SKIP() << "SKIPPED: built without the thrift compiler and libthrift (libthrift-dev, "
                  "thrift-compiler), which generate the oracle code";
}
#endif

}  // namespace
}  // namespace alkaid::parquet::thrift

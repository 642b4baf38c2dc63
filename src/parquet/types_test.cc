#include "alkaid/parquet/types.h"

#include <gtest/gtest.h>

#include <sstream>

namespace alkaid::parquet {

TEST(ParquetTypes, NamesAndWireNumbers) {
  EXPECT_STREQ(PhysicalTypeName(PhysicalType::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_STREQ(EncodingName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_STREQ(CompressionName(Compression::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(PhysicalTypeFromWire(6), PhysicalType::kByteArray);
  EXPECT_FALSE(PhysicalTypeFromWire(8).has_value());
  EXPECT_FALSE(PhysicalTypeFromWire(-1).has_value());
  EXPECT_EQ(EncodingFromWire(9), Encoding::kByteStreamSplit);
  EXPECT_FALSE(EncodingFromWire(1).has_value());  // GROUP_VAR_INT was never used
  EXPECT_FALSE(EncodingFromWire(11).has_value());
  EXPECT_EQ(CompressionFromWire(7), Compression::kLz4Raw);
  EXPECT_FALSE(CompressionFromWire(8).has_value());
  std::ostringstream os;
  os << Compression::kZstd << " " << Encoding::kPlain << " " << PhysicalType::kInt96;
  EXPECT_EQ(os.str(), "ZSTD PLAIN INT96");
}

}  // namespace alkaid::parquet

#include "alkaid/type_name.h"

#include <gtest/gtest.h>

#include "alkaid/extension_registry.h"

namespace alkaid {
namespace {

// Every kind of type ToString() can name, nested ones included.
std::vector<DataTypePtr> EveryNamedType() {
  std::vector<DataTypePtr> types = {
      null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(),
      uint64(), float16(), float32(), float64(), decimal32(9, 2), decimal64(18, -3),
      decimal128(38, 10), decimal256(76, 0), date32(), date64(), time32(TimeUnit::kSecond),
      time32(TimeUnit::kMilli), time64(TimeUnit::kMicro), time64(TimeUnit::kNano),
      timestamp(TimeUnit::kSecond), timestamp(TimeUnit::kNano, "UTC"),
      timestamp(TimeUnit::kMicro, "Europe/Paris"), timestamp(TimeUnit::kMilli, "+05:30"),
      duration(TimeUnit::kMilli), month_interval(), day_time_interval(),
      month_day_nano_interval(), fixed_size_binary(0), fixed_size_binary(16), binary(), utf8(),
      large_binary(), large_utf8(), binary_view(), utf8_view()};
  const std::vector<DataTypePtr> leaves = types;
  types.push_back(list(int32()));
  types.push_back(list(field("values", utf8(), /*nullable=*/false)));
  types.push_back(large_list(list(float64())));
  types.push_back(list_view(timestamp(TimeUnit::kMicro, "UTC")));
  types.push_back(large_list_view(decimal128(10, 2)));
  types.push_back(fixed_size_list(float32(), 3));
  types.push_back(fixed_size_list(field("xy", int64(), false), 2));
  types.push_back(struct_({}));
  types.push_back(struct_({field("a", int32(), false), field("b", list(utf8())),
                           field("with space", struct_({field("x", date32())}))}));
  types.push_back(map(utf8(), int64()));
  types.push_back(map(int32(), list(utf8()), /*keys_sorted=*/true));
  types.push_back(sparse_union({field("a", int32()), field("b", utf8(), false)}, {0, 5}));
  types.push_back(dense_union({field("i", int8()), field("l", list(int8()))}));
  types.push_back(dense_union({}));
  types.push_back(dictionary(int8(), utf8()));
  types.push_back(dictionary(uint32(), list(int32()), /*ordered=*/true));
  types.push_back(run_end_encoded(int16(), utf8()));
  types.push_back(run_end_encoded(int64(), struct_({field("q", float64())})));
  // Every leaf inside a container too.
  for (const auto& leaf : leaves) types.push_back(struct_({field("f", leaf)}));
  return types;
}

TEST(ParseTypeName, RoundTripsEveryToString) {
  for (const auto& type : EveryNamedType()) {
    auto parsed = ParseTypeName(type->ToString());
    ASSERT_TRUE(parsed.ok()) << type->ToString() << ": " << parsed.status();
    EXPECT_TRUE((*parsed)->Equals(*type)) << type->ToString() << " came back as "
                                          << (*parsed)->ToString();
    EXPECT_EQ((*parsed)->ToString(), type->ToString());
  }
}

class TestPointType final : public ExtensionType {
 public:
  TestPointType() : ExtensionType(fixed_size_list(float64(), 2)) {}
  std::string extension_name() const override { return "test.type_name.point"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return DataTypePtr(std::make_shared<TestPointType>());
  }
};

TEST(ParseTypeName, RegisteredExtensionsRoundTrip) {
  auto point = std::make_shared<TestPointType>();
  ASSERT_TRUE(RegisterExtensionType(point).ok());
  for (const DataTypePtr& type : {DataTypePtr(point), list(point), struct_({field("p", point)})}) {
    auto parsed = ParseTypeName(type->ToString());
    ASSERT_TRUE(parsed.ok()) << type->ToString() << ": " << parsed.status();
    EXPECT_TRUE((*parsed)->Equals(*type)) << (*parsed)->ToString();
  }
  ASSERT_TRUE(UnregisterExtensionType("test.type_name.point").ok());
  auto gone = ParseTypeName(point->ToString());
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find("'test.type_name.point' is not registered"),
            std::string::npos)
      << gone.status();
}

TEST(ParseTypeName, AcceptsCommonSpellings) {
  const std::vector<std::pair<std::string, DataTypePtr>> cases = {
      {"boolean", boolean()},
      {"float32", float32()},
      {"float64", float64()},
      {"float16", float16()},
      {"utf8", utf8()},
      {"large_utf8", large_utf8()},
      {"utf8_view", utf8_view()},
      {"date32", date32()},
      {"date64", date64()},
      {"decimal(10,2)", decimal128(10, 2)},
      {"decimal128(10,2)", decimal128(10, 2)},
      {"timestamp[us,UTC]", timestamp(TimeUnit::kMicro, "UTC")},
      {"timestamp[ms, tz=UTC]", timestamp(TimeUnit::kMilli, "UTC")},
      {"list<int32>", list(int32())},
      {"  struct<a:int32,b:string not null>  ",
       struct_({field("a", int32()), field("b", utf8(), false)})},
      {"map<string,int64,keys_sorted>", map(utf8(), int64(), true)},
  };
  for (const auto& [text, want] : cases) {
    auto parsed = ParseTypeName(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_TRUE((*parsed)->Equals(*want)) << text << " -> " << (*parsed)->ToString();
  }
}

TEST(ParseTypeName, ErrorsSayWhatAndWhere) {
  struct Case {
    std::string text, expect;
  };
  const std::vector<Case> cases = {
      {"", "expected a type name (at byte 0 of '')"},
      {"int33", "unknown type 'int33' (at byte 0 of 'int33')"},
      {"list<int33>", "unknown type 'int33' (at byte 5 of 'list<int33>')"},
      {"int32 x", "unexpected 'x' after the type"},
      {"time32[us]", "time32 takes a unit of s or ms"},
      {"time64[xs]", "unknown time unit 'xs'"},
      {"decimal32(10, 2)", "precision must be in [1, 9]"},
      {"decimal(10)", "expected ','"},
      {"fixed_size_binary[-1]", "fixed_size_binary width must be in"},
      {"struct<a: int32", "expected '>'"},
      {"dictionary<values=string, indices=float>", "index type must be an integer"},
      {"run_end_encoded<run_ends: int8, values: int8>", "run end type must be"},
      {"sparse_union<a: int32=0, b: int32=0>", "declared twice"},
      {"sparse_union<a: int32=200>", "bad union type code 200"},
      {"extension<nobody.knows, storage=int32>", "'nobody.knows' is not registered"},
  };
  for (const auto& c : cases) {
    auto parsed = ParseTypeName(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_TRUE(parsed.status().IsKeyError()) << parsed.status();
    EXPECT_NE(parsed.status().message().find(c.expect), std::string::npos)
        << c.text << ": " << parsed.status();
  }
}

TEST(ParseTypeName, DeepNestingIsRefusedNotFollowed) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "list<";
  deep += "int32";
  for (int i = 0; i < 100000; ++i) deep += ">";
  auto parsed = ParseTypeName(deep);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nested more than"), std::string::npos);
  std::string ok = "list<list<list<int8>>>";
  EXPECT_TRUE(ParseTypeName(ok).ok());
}

}  // namespace
}  // namespace alkaid

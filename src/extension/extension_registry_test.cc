#include "alkaid/extension_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "alkaid/extension/api.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using ::testing::HasSubstr;

// A third-party type used to exercise registration.
class PointType final : public ExtensionType {
 public:
  explicit PointType(std::string tag = "")
      : ExtensionType(fixed_size_list(float64(), 2)), tag_(std::move(tag)) {}
  std::string extension_name() const override { return "test.point"; }
  std::string Serialize() const override { return tag_; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage,
                                  const std::string& serialized) const override {
    if (!storage->Equals(*storage_type())) return Status::Invalid("test.point: bad storage");
    if (serialized == "throw") throw std::runtime_error("boom");
    return DataTypePtr(std::make_shared<PointType>(serialized));
  }

 private:
  std::string tag_;
};

struct Case {
  std::string name;
  DataTypePtr storage;
  std::string metadata;
};

std::vector<Case> CanonicalCases() {
  return {
      {"arrow.fixed_shape_tensor", fixed_size_list(float32(), 6), R"({"shape":[2,3]})"},
      {"arrow.variable_shape_tensor",
       struct_({field("data", list(int8())), field("shape", fixed_size_list(int32(), 2))}),
       R"({"dim_names":["H","W"]})"},
      {"arrow.json", utf8(), ""},
      {"arrow.uuid", fixed_size_binary(16), ""},
      {"arrow.opaque", null(), R"({"type_name":"varray","vendor_name":"Oracle"})"},
      {"arrow.bool8", int8(), ""},
      {"arrow.parquet.variant",
       struct_({field("metadata", binary(), false), field("value", binary())}), ""},
      {"arrow.timestamp_with_offset",
       struct_({field("timestamp", timestamp(TimeUnit::kMicro, "UTC"), false),
                field("offset_minutes", int16(), false)}),
       ""},
  };
}

TEST(ExtensionRegistry, CanonicalTypesAreRegistered) {
  RegisterCanonicalExtensionTypes();
  RegisterCanonicalExtensionTypes();  // idempotent
  auto names = RegisteredExtensionNames();
  for (const auto& c : CanonicalCases()) {
    EXPECT_NE(std::find(names.begin(), names.end(), c.name), names.end()) << c.name;
    ASSERT_NE(GetExtensionType(c.name), nullptr) << c.name;
    auto made = MakeRegisteredExtension(c.name, c.storage, c.metadata);
    ASSERT_TRUE(made.ok()) << c.name << ": " << made.status();
    ASSERT_NE(*made, nullptr) << c.name;
    const auto& ext = checked_cast<ExtensionType>(**made);
    EXPECT_EQ(ext.extension_name(), c.name);
    EXPECT_TRUE(ext.storage_type()->Equals(*c.storage)) << c.name;
    EXPECT_EQ(ext.Serialize(), c.metadata) << c.name;
  }
}

TEST(ExtensionRegistry, MadeTypesAreTheConcreteClasses) {
  RegisterCanonicalExtensionTypes();
  auto tensor = MakeRegisteredExtension("arrow.fixed_shape_tensor", fixed_size_list(int32(), 4),
                                        R"({"shape":[2,2],"permutation":[1,0]})")
                    .ValueOrDie();
  auto* typed = dynamic_cast<const FixedShapeTensorType*>(tensor.get());
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->logical_shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_TRUE(tensor->Equals(*FixedShapeTensorType::Make(int32(), {2, 2}, {1, 0}).ValueOrDie()));
  auto uuid = MakeRegisteredExtension("arrow.uuid", fixed_size_binary(16), "").ValueOrDie();
  EXPECT_TRUE(uuid->Equals(*UuidType::Make()));
}

TEST(ExtensionRegistry, UnknownNameGivesNull) {
  RegisterCanonicalExtensionTypes();
  auto made = MakeRegisteredExtension("arrow.nonexistent", int32(), "");
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(*made, nullptr);
  EXPECT_EQ(GetExtensionType("arrow.nonexistent"), nullptr);
}

TEST(ExtensionRegistry, RejectedStorageOrMetadataIsAnError) {
  RegisterCanonicalExtensionTypes();
  auto wrong_storage = MakeRegisteredExtension("arrow.uuid", fixed_size_binary(4), "");
  ASSERT_FALSE(wrong_storage.ok());
  EXPECT_THAT(wrong_storage.status().message(), HasSubstr("fixed_size_binary[16]"));
  auto bad_metadata = MakeRegisteredExtension("arrow.fixed_shape_tensor",
                                              fixed_size_list(int32(), 4), R"({"shape":[-2,-2]})");
  ASSERT_FALSE(bad_metadata.ok());
  EXPECT_THAT(bad_metadata.status().message(), HasSubstr("non-negative"));
  auto tz = MakeRegisteredExtension(
      "arrow.timestamp_with_offset",
      struct_({field("timestamp", timestamp(TimeUnit::kMicro)), field("offset_minutes", int16())}),
      "");
  EXPECT_FALSE(tz.ok());
  EXPECT_FALSE(MakeRegisteredExtension("arrow.json", nullptr, "").ok());
}

TEST(ExtensionRegistry, DuplicateRegistrationFails) {
  RegisterCanonicalExtensionTypes();
  Status st = RegisterExtensionType(Bool8Type::Make());
  EXPECT_EQ(st.code(), StatusCode::kKeyError);
  EXPECT_THAT(st.message(), HasSubstr("'arrow.bool8' is already registered"));
  EXPECT_FALSE(RegisterExtensionType(nullptr).ok());
}

TEST(ExtensionRegistry, RegisterAndUnregisterCustomType) {
  ASSERT_TRUE(RegisterExtensionType(std::make_shared<PointType>()).ok());
  EXPECT_EQ(RegisterExtensionType(std::make_shared<PointType>()).code(), StatusCode::kKeyError);
  auto made =
      MakeRegisteredExtension("test.point", fixed_size_list(float64(), 2), "xy").ValueOrDie();
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(checked_cast<ExtensionType>(*made).Serialize(), "xy");
  EXPECT_THAT(MakeRegisteredExtension("test.point", int8(), "").status().message(),
              HasSubstr("bad storage"));
  // An exception thrown by a third-party type does not escape.
  auto thrown = MakeRegisteredExtension("test.point", fixed_size_list(float64(), 2), "throw");
  ASSERT_FALSE(thrown.ok());
  EXPECT_THAT(thrown.status().message(), HasSubstr("boom"));

  ASSERT_TRUE(UnregisterExtensionType("test.point").ok());
  EXPECT_EQ(GetExtensionType("test.point"), nullptr);
  EXPECT_EQ(MakeRegisteredExtension("test.point", fixed_size_list(float64(), 2), "").ValueOrDie(),
            nullptr);
  EXPECT_EQ(UnregisterExtensionType("test.point").code(), StatusCode::kKeyError);
}

TEST(ExtensionRegistry, ConcurrentLookupsAndRegistrations) {
  RegisterCanonicalExtensionTypes();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&failures, t] {
      for (int i = 0; i < 200; ++i) {
        auto made = MakeRegisteredExtension("arrow.bool8", int8(), "");
        if (!made.ok() || *made == nullptr) ++failures;
        if (t == 0) {
          // One writer churns a custom name while the others read.
          if (!RegisterExtensionType(std::make_shared<PointType>()).ok()) ++failures;
          if (!UnregisterExtensionType("test.point").ok()) ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ValidateExtensionArray, PassesOtherArraysAndFindsNestedProblems) {
  RegisterCanonicalExtensionTypes();
  auto plain = testing::ArrayFromJSON(int32(), "[1, 2]");
  ASSERT_NE(plain, nullptr);
  EXPECT_TRUE(ValidateExtensionArray(*plain).ok());

  auto json_type = JsonExtensionType::Make().ValueOrDie();
  auto nested = testing::ArrayFromJSON(struct_({field("doc", list(json_type))}),
                                       R"([{"doc": ["1", "{}"]}, {"doc": ["[", "2"]}])");
  ASSERT_NE(nested, nullptr);
  Status st = ValidateExtensionArray(*nested);
  EXPECT_EQ(st.message(), "doc.item: arrow.json: slot 2 is not valid JSON (RFC 8259)");

  auto tensor = FixedShapeTensorType::Make(int8(), {2}).ValueOrDie();
  auto tensors = testing::ArrayFromJSON(tensor, "[[1, 2], null]");
  ASSERT_NE(tensors, nullptr);
  EXPECT_TRUE(ValidateExtensionArray(*tensors).ok());

  auto uuids = MakeUuidArray({"00112233-4455-6677-8899-aabbccddeeff"}).ValueOrDie();
  EXPECT_TRUE(ValidateExtensionArray(*uuids).ok());
  auto bool8 = testing::ArrayFromJSON(Bool8Type::Make(), "[1, 0]");
  ASSERT_NE(bool8, nullptr);
  EXPECT_TRUE(ValidateExtensionArray(*bool8).ok());
}

// A type that claims a canonical name but is not our class is re-read
// through the canonical class, so its storage is still checked.
class FakeUuid final : public ExtensionType {
 public:
  FakeUuid() : ExtensionType(fixed_size_binary(8)) {}
  std::string extension_name() const override { return "arrow.uuid"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return Status::NotImplemented("fake");
  }
};

TEST(ValidateExtensionArray, ForeignClassWithCanonicalNameIsChecked) {
  auto data = testing::ArrayFromJSON(fixed_size_binary(8), R"(["abcdefgh"])");
  ASSERT_NE(data, nullptr);
  auto fake = std::make_shared<ArrayData>(*data);
  fake->type = std::make_shared<FakeUuid>();
  EXPECT_THAT(ValidateExtensionArray(*fake).message(), HasSubstr("fixed_size_binary[16]"));
}

}  // namespace
}  // namespace alkaid

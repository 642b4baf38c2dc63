#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "alkaid/extension/api.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string SerializeOf(const DataTypePtr& type) {
  return checked_cast<ExtensionType>(*type).Serialize();
}

// ---------------------------------------------------------------------------
// Fixed shape tensor: type

TEST(FixedShapeTensorType, MakeBuildsStorageFromShape) {
  auto type = FixedShapeTensorType::Make(float32(), {2, 3}).ValueOrDie();
  EXPECT_EQ(type->extension_name(), "arrow.fixed_shape_tensor");
  EXPECT_EQ(type->list_size(), 6);
  EXPECT_EQ(type->ndim(), 2);
  EXPECT_TRUE(type->storage_type()->Equals(*fixed_size_list(float32(), 6)));
  EXPECT_TRUE(type->value_type()->Equals(*float32()));
  EXPECT_EQ(type->Serialize(), R"({"shape":[2,3]})");
  EXPECT_THAT(type->strides(), ElementsAre(12, 4));
  EXPECT_THAT(type->logical_shape(), ElementsAre(2, 3));
}

TEST(FixedShapeTensorType, PermutationAndDimNames) {
  auto type =
      FixedShapeTensorType::Make(int16(), {100, 200, 500}, {2, 0, 1}, {"C", "H", "W"}).ValueOrDie();
  EXPECT_EQ(type->Serialize(),
            R"({"shape":[100,200,500],"dim_names":["C","H","W"],"permutation":[2,0,1]})");
  EXPECT_THAT(type->logical_shape(), ElementsAre(500, 100, 200));
  EXPECT_THAT(type->strides(), ElementsAre(200000, 1000, 2));
}

TEST(FixedShapeTensorType, ZeroSizedAndScalarShapes) {
  auto empty = FixedShapeTensorType::Make(int8(), {3, 0}).ValueOrDie();
  EXPECT_EQ(empty->list_size(), 0);
  auto scalar = FixedShapeTensorType::Make(int8(), {}).ValueOrDie();
  EXPECT_EQ(scalar->list_size(), 1);
  EXPECT_EQ(scalar->Serialize(), R"({"shape":[]})");
}

TEST(FixedShapeTensorType, MakeRejectsBadParameters) {
  auto negative = FixedShapeTensorType::Make(float32(), {2, -1});
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(), HasSubstr("shape[1] is -1"));

  auto not_perm = FixedShapeTensorType::Make(float32(), {2, 3}, {0, 0});
  ASSERT_FALSE(not_perm.ok());
  EXPECT_THAT(not_perm.status().message(), HasSubstr("not a permutation of 0..1"));

  auto out_of_range = FixedShapeTensorType::Make(float32(), {2, 3}, {0, 2});
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_THAT(out_of_range.status().message(), HasSubstr("entry 1 is 2"));

  auto short_perm = FixedShapeTensorType::Make(float32(), {2, 3}, {0});
  ASSERT_FALSE(short_perm.ok());
  EXPECT_THAT(short_perm.status().message(), HasSubstr("permutation has 1 entries"));

  auto names = FixedShapeTensorType::Make(float32(), {2, 3}, {}, {"x"});
  ASSERT_FALSE(names.ok());
  EXPECT_THAT(names.status().message(), HasSubstr("dim_names has 1 entries but the tensor has 2"));

  auto huge = FixedShapeTensorType::Make(float32(), {1 << 20, 1 << 20});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::kCapacityError);

  EXPECT_FALSE(FixedShapeTensorType::Make(nullptr, {2}).ok());
}

TEST(FixedShapeTensorType, MakeFromStorageChecksStorage) {
  auto ok = FixedShapeTensorType::MakeFromStorage(fixed_size_list(int32(), 6), {3, 2});
  ASSERT_TRUE(ok.ok()) << ok.status();

  auto wrong_kind = FixedShapeTensorType::MakeFromStorage(list(int32()), {3, 2});
  ASSERT_FALSE(wrong_kind.ok());
  EXPECT_THAT(wrong_kind.status().message(), HasSubstr("storage must be a fixed_size_list"));

  auto wrong_size = FixedShapeTensorType::MakeFromStorage(fixed_size_list(int32(), 5), {3, 2});
  ASSERT_FALSE(wrong_size.ok());
  EXPECT_THAT(wrong_size.status().message(),
              HasSubstr("storage list size 5 is not the product of the shape (6)"));
}

TEST(FixedShapeTensorType, DeserializeRoundTrip) {
  auto type =
      FixedShapeTensorType::Make(float64(), {2, 2, 3}, {1, 2, 0}, {"a", "b", "c"}).ValueOrDie();
  auto back = type->Deserialize(type->storage_type(), type->Serialize()).ValueOrDie();
  EXPECT_TRUE(back->Equals(*type));
  const auto& tensor = checked_cast<FixedShapeTensorType>(*back);
  EXPECT_THAT(tensor.shape(), ElementsAre(2, 2, 3));
  EXPECT_THAT(tensor.permutation(), ElementsAre(1, 2, 0));
  EXPECT_THAT(tensor.dim_names(), ElementsAre("a", "b", "c"));
  EXPECT_EQ(SerializeOf(back),
            R"({"shape":[2,2,3],"dim_names":["a","b","c"],"permutation":[1,2,0]})");
}

TEST(FixedShapeTensorType, DeserializeSpecExamples) {
  auto proto = FixedShapeTensorType::Make(float32(), {1}).ValueOrDie();
  auto a = proto->Deserialize(fixed_size_list(float32(), 10), R"({ "shape": [2, 5]})");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(SerializeOf(*a), R"({"shape":[2,5]})");
  auto b = proto->Deserialize(fixed_size_list(float32(), 100 * 200 * 500),
                              R"({ "shape": [100, 200, 500], "permutation": [2, 0, 1]})");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_THAT(checked_cast<FixedShapeTensorType>(**b).logical_shape(), ElementsAre(500, 100, 200));
}

TEST(FixedShapeTensorType, DeserializeErrors) {
  auto proto = FixedShapeTensorType::Make(float32(), {1}).ValueOrDie();
  auto storage = fixed_size_list(float32(), 6);
  auto message = [&](const std::string& json) {
    auto r = proto->Deserialize(storage, json);
    EXPECT_FALSE(r.ok()) << json;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_THAT(message("{"), HasSubstr("arrow.fixed_shape_tensor metadata: not valid JSON"));
  EXPECT_THAT(message("[2, 3]"), HasSubstr("must be a JSON object"));
  EXPECT_THAT(message("{}"), HasSubstr("'shape' is required"));
  EXPECT_EQ(message(R"({"shape": [2, -3]})"),
            "arrow.fixed_shape_tensor metadata: 'shape' must be an array of non-negative integers");
  EXPECT_THAT(message(R"({"shape": 6})"), HasSubstr("'shape' must be an array"));
  EXPECT_THAT(message(R"({"shape": [2.5, 3]})"), HasSubstr("'shape' must be an array"));
  EXPECT_THAT(message(R"({"shape": ["2", 3]})"), HasSubstr("'shape' must be an array"));
  EXPECT_THAT(message(R"({"shape": [2, 3], "dim_names": [1, 2]})"),
              HasSubstr("'dim_names' must be an array of strings"));
  EXPECT_THAT(message(R"({"shape": [2, 3], "permutation": [1, 1]})"),
              HasSubstr("not a permutation"));
  EXPECT_THAT(message(R"({"shape": [2, 4]})"), HasSubstr("not the product of the shape (8)"));
  EXPECT_THAT(message(R"({"shape": [18446744073709551615]})"), HasSubstr("'shape' must be"));
  auto wrong_storage = proto->Deserialize(list(float32()), R"({"shape":[2]})");
  EXPECT_FALSE(wrong_storage.ok());
}

TEST(FixedShapeTensorType, Equality) {
  auto a = FixedShapeTensorType::Make(float32(), {2, 3}).ValueOrDie();
  auto identity = FixedShapeTensorType::Make(float32(), {2, 3}, {0, 1}).ValueOrDie();
  auto permuted = FixedShapeTensorType::Make(float32(), {2, 3}, {1, 0}).ValueOrDie();
  auto named = FixedShapeTensorType::Make(float32(), {2, 3}, {}, {"x", "y"}).ValueOrDie();
  auto other_shape = FixedShapeTensorType::Make(float32(), {3, 2}).ValueOrDie();
  auto other_value = FixedShapeTensorType::Make(int32(), {2, 3}).ValueOrDie();
  EXPECT_TRUE(a->Equals(*identity));  // identity permutation = no permutation
  EXPECT_FALSE(a->Equals(*permuted));
  EXPECT_FALSE(a->Equals(*named));
  EXPECT_FALSE(a->Equals(*other_shape));
  EXPECT_FALSE(a->Equals(*other_value));
  EXPECT_FALSE(a->Equals(*fixed_size_list(float32(), 6)));
}

// ---------------------------------------------------------------------------
// Fixed shape tensor: arrays

TEST(FixedShapeTensorArray, TensorViews) {
  auto type = FixedShapeTensorType::Make(int32(), {2, 3}, {1, 0}).ValueOrDie();
  auto data = ArrayFromJSON(type, "[[1,2,3,4,5,6], null, [7,8,9,10,11,12]]");
  ASSERT_NE(data, nullptr);
  auto array = FixedShapeTensorArray::Make(data).ValueOrDie();
  EXPECT_EQ(array.length(), 3);
  EXPECT_TRUE(array.IsNull(1));

  TensorView view = array.GetTensor(2).ValueOrDie();
  EXPECT_EQ(view.element_offset, 12);
  EXPECT_EQ(view.num_elements, 6);
  EXPECT_THAT(view.shape, ElementsAre(2, 3));
  EXPECT_THAT(view.strides, ElementsAre(12, 4));
  EXPECT_THAT(view.logical_shape, ElementsAre(3, 2));
  EXPECT_THAT(view.logical_strides, ElementsAre(4, 12));
  ASSERT_NE(view.data, nullptr);
  // Element [1][2] of the physical tensor sits at 1*12 + 2*4 bytes.
  int32_t element;
  std::memcpy(&element, view.data + 1 * view.strides[0] + 2 * view.strides[1], 4);
  EXPECT_EQ(element, 12);
  std::memcpy(&element, view.data, 4);
  EXPECT_EQ(element, 7);
}

TEST(FixedShapeTensorArray, SlicedArrayUsesParentOffset) {
  auto type = FixedShapeTensorType::Make(int8(), {2}).ValueOrDie();
  auto data = ArrayFromJSON(type, "[[1,2],[3,4],[5,6],[7,8]]");
  ASSERT_NE(data, nullptr);
  auto array = FixedShapeTensorArray::Make(data->Slice(1, 3)).ValueOrDie();
  TensorView view = array.GetTensor(1).ValueOrDie();
  EXPECT_EQ(view.element_offset, 4);
  EXPECT_EQ(static_cast<int8_t>(view.data[0]), 5);
  EXPECT_EQ(static_cast<int8_t>(view.data[1]), 6);
  EXPECT_EQ(array.GetTensor(3).status().code(), StatusCode::kIndexError);
  EXPECT_EQ(array.GetTensor(-1).status().code(), StatusCode::kIndexError);
}

TEST(FixedShapeTensorArray, NonByteValuesHaveNoStrides) {
  auto type = FixedShapeTensorType::Make(boolean(), {2, 2}, {1, 0}).ValueOrDie();
  auto data = ArrayFromJSON(type, "[[true,false,true,true]]");
  ASSERT_NE(data, nullptr);
  TensorView view = FixedShapeTensorArray::Make(data).ValueOrDie().GetTensor(0).ValueOrDie();
  EXPECT_EQ(view.data, nullptr);
  EXPECT_TRUE(view.strides.empty());
  EXPECT_TRUE(view.logical_strides.empty());
  EXPECT_THAT(view.logical_shape, ElementsAre(2, 2));
}

TEST(FixedShapeTensorArray, RejectsOtherTypes) {
  auto data = ArrayFromJSON(fixed_size_list(int8(), 2), "[[1,2]]");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(FixedShapeTensorArray::Make(data).status().code(), StatusCode::kTypeError);
}

// ---------------------------------------------------------------------------
// Variable shape tensor: type

TEST(VariableShapeTensorType, MakeBuildsStorage) {
  auto type = VariableShapeTensorType::Make(float32(), 3).ValueOrDie();
  EXPECT_EQ(type->extension_name(), "arrow.variable_shape_tensor");
  EXPECT_EQ(type->ndim(), 3);
  auto expected =
      struct_({field("data", list(float32())), field("shape", fixed_size_list(int32(), 3))});
  EXPECT_TRUE(type->storage_type()->Equals(*expected)) << type->storage_type()->ToString();
  EXPECT_TRUE(type->value_type()->Equals(*float32()));
  EXPECT_EQ(type->Serialize(), "");
}

TEST(VariableShapeTensorType, SerializeParameters) {
  auto type =
      VariableShapeTensorType::Make(uint8(), 3, {2, 0, 1}, {"H", "W", "C"}, {400, std::nullopt, 3})
          .ValueOrDie();
  EXPECT_EQ(type->Serialize(),
            R"({"dim_names":["H","W","C"],"permutation":[2,0,1],"uniform_shape":[400,null,3]})");
  auto back = type->Deserialize(type->storage_type(), type->Serialize()).ValueOrDie();
  EXPECT_TRUE(back->Equals(*type));
  const auto& t = checked_cast<VariableShapeTensorType>(*back);
  ASSERT_EQ(t.uniform_shape().size(), 3u);
  EXPECT_EQ(t.uniform_shape()[0], 400);
  EXPECT_EQ(t.uniform_shape()[1], std::nullopt);
  EXPECT_EQ(t.uniform_shape()[2], 3);
}

TEST(VariableShapeTensorType, DeserializeMinimalMetadata) {
  auto proto = VariableShapeTensorType::Make(float32(), 1).ValueOrDie();
  auto storage =
      struct_({field("data", list(int64())), field("shape", fixed_size_list(int32(), 2))});
  for (const char* json : {"", "{}", R"({ "dim_names": ["C", "H"] })"}) {
    auto r = proto->Deserialize(storage, json);
    ASSERT_TRUE(r.ok()) << json << ": " << r.status();
    EXPECT_EQ(checked_cast<VariableShapeTensorType>(**r).ndim(), 2);
  }
  EXPECT_EQ(SerializeOf(proto->Deserialize(storage, "{}").ValueOrDie()), "");
}

TEST(VariableShapeTensorType, FieldOrderIsByName) {
  auto storage =
      struct_({field("shape", fixed_size_list(int32(), 2)), field("data", list(int8()))});
  auto type = VariableShapeTensorType::MakeFromStorage(storage).ValueOrDie();
  EXPECT_EQ(type->data_field_index(), 1);
  EXPECT_EQ(type->shape_field_index(), 0);
  EXPECT_TRUE(type->value_type()->Equals(*int8()));
}

TEST(VariableShapeTensorType, RejectsBadParameters) {
  auto message = [](Result<std::shared_ptr<VariableShapeTensorType>> r) {
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_THAT(message(VariableShapeTensorType::Make(float32(), -1)), HasSubstr("ndim is -1"));
  EXPECT_THAT(message(VariableShapeTensorType::Make(float32(), 2, {1, 1})),
              HasSubstr("not a permutation"));
  EXPECT_THAT(message(VariableShapeTensorType::Make(float32(), 2, {}, {"a", "b", "c"})),
              HasSubstr("dim_names has 3 entries but the tensor has 2"));
  EXPECT_THAT(message(VariableShapeTensorType::Make(float32(), 2, {}, {}, {1})),
              HasSubstr("uniform_shape has 1 entries"));
  EXPECT_THAT(message(VariableShapeTensorType::Make(float32(), 2, {}, {}, {1, -4})),
              HasSubstr("uniform_shape[1] is -4"));
}

TEST(VariableShapeTensorType, RejectsBadStorage) {
  auto message = [](DataTypePtr storage) {
    auto r = VariableShapeTensorType::MakeFromStorage(std::move(storage));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_THAT(message(list(int32())), HasSubstr("storage must be struct"));
  EXPECT_THAT(message(struct_({field("data", list(int32()))})),
              HasSubstr("exactly the fields 'data' and 'shape'"));
  EXPECT_THAT(
      message(struct_({field("data", list(int32())), field("shape", fixed_size_list(int32(), 2)),
                       field("extra", int8())})),
      HasSubstr("exactly the fields"));
  EXPECT_THAT(message(struct_({field("data", large_list(int32())),
                               field("shape", fixed_size_list(int32(), 2))})),
              HasSubstr("'data' must be a list"));
  EXPECT_THAT(
      message(struct_({field("data", list(int32())), field("shape", fixed_size_list(int64(), 2))})),
      HasSubstr("'shape' must be fixed_size_list<int32>"));
  EXPECT_THAT(message(struct_({field("data", list(int32())), field("shape", list(int32()))})),
              HasSubstr("'shape' must be fixed_size_list<int32>"));
}

TEST(VariableShapeTensorType, DeserializeErrors) {
  auto proto = VariableShapeTensorType::Make(float32(), 2).ValueOrDie();
  auto storage = proto->storage_type();
  auto message = [&](const std::string& json) {
    auto r = proto->Deserialize(storage, json);
    EXPECT_FALSE(r.ok()) << json;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_THAT(message("not json"),
              HasSubstr("arrow.variable_shape_tensor metadata: not valid JSON"));
  EXPECT_THAT(message("3"), HasSubstr("must be a JSON object"));
  EXPECT_THAT(message(R"({"uniform_shape": ["a", 2]})"),
              HasSubstr("'uniform_shape' must be an array of non-negative integers and nulls"));
  EXPECT_THAT(message(R"({"uniform_shape": [-1, 2]})"), HasSubstr("'uniform_shape'"));
  EXPECT_THAT(message(R"({"uniform_shape": [1, 2, 3]})"), HasSubstr("uniform_shape has 3 entries"));
  EXPECT_THAT(message(R"({"permutation": [0]})"), HasSubstr("permutation has 1 entries"));
  EXPECT_THAT(message(R"({"dim_names": "xy"})"),
              HasSubstr("'dim_names' must be an array of strings"));
}

TEST(VariableShapeTensorType, Equality) {
  auto a = VariableShapeTensorType::Make(float32(), 2).ValueOrDie();
  auto b = VariableShapeTensorType::Make(float32(), 2, {0, 1}).ValueOrDie();
  auto c = VariableShapeTensorType::Make(float32(), 2, {}, {}, {2, std::nullopt}).ValueOrDie();
  auto d = VariableShapeTensorType::Make(float32(), 3).ValueOrDie();
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_FALSE(a->Equals(*d));
}

// ---------------------------------------------------------------------------
// Variable shape tensor: arrays

DataTypePtr Int32Tensor2D(std::vector<std::optional<int64_t>> uniform = {}) {
  return VariableShapeTensorType::Make(int32(), 2, {1, 0}, {}, std::move(uniform)).ValueOrDie();
}

TEST(VariableShapeTensorArray, ShapesAndViews) {
  auto data = ArrayFromJSON(Int32Tensor2D(), R"([
      {"data": [1, 2, 3, 4, 5, 6], "shape": [2, 3]},
      null,
      {"data": [7], "shape": [1, 1]},
      {"data": [], "shape": [0, 4]}])");
  ASSERT_NE(data, nullptr);
  auto array = VariableShapeTensorArray::Make(data).ValueOrDie();
  ASSERT_TRUE(array.ValidateFull().ok()) << array.ValidateFull();
  EXPECT_THAT(array.GetShape(0).ValueOrDie(), ElementsAre(2, 3));
  EXPECT_FALSE(array.GetShape(1).ok());

  VariableTensorView view = array.GetTensor(0).ValueOrDie();
  EXPECT_EQ(view.element_offset, 0);
  EXPECT_EQ(view.num_elements, 6);
  EXPECT_THAT(view.strides, ElementsAre(12, 4));
  EXPECT_THAT(view.logical_shape, ElementsAre(3, 2));
  int32_t element;
  std::memcpy(&element, view.data + view.strides[0] + 2 * view.strides[1], 4);
  EXPECT_EQ(element, 6);

  view = array.GetTensor(2).ValueOrDie();
  EXPECT_EQ(view.element_offset, 6);
  EXPECT_EQ(view.num_elements, 1);
  std::memcpy(&element, view.data, 4);
  EXPECT_EQ(element, 7);

  auto sliced = VariableShapeTensorArray::Make(data->Slice(2, 2)).ValueOrDie();
  EXPECT_THAT(sliced.GetShape(0).ValueOrDie(), ElementsAre(1, 1));
  EXPECT_THAT(sliced.GetShape(1).ValueOrDie(), ElementsAre(0, 4));
  EXPECT_EQ(sliced.GetShape(2).status().code(), StatusCode::kIndexError);
}

TEST(VariableShapeTensorArray, ElementCountMustMatchShape) {
  auto data = ArrayFromJSON(Int32Tensor2D(), R"([
      {"data": [1, 2], "shape": [1, 2]},
      {"data": [1, 2, 3], "shape": [2, 2]}])");
  ASSERT_NE(data, nullptr);
  auto status = VariableShapeTensorArray::Make(data).ValueOrDie().ValidateFull();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "arrow.variable_shape_tensor: slot 1: data holds 3 elements but shape [2, 2] needs 4");
  // The offending row sliced away leaves a valid array.
  EXPECT_TRUE(VariableShapeTensorArray::Make(data->Slice(0, 1)).ValueOrDie().ValidateFull().ok());
  // Slot numbers are relative to the slice.
  auto tail = VariableShapeTensorArray::Make(data->Slice(1, 1)).ValueOrDie().ValidateFull();
  EXPECT_THAT(tail.message(), HasSubstr("slot 0:"));
}

TEST(VariableShapeTensorArray, RejectsNegativeAndNullShapes) {
  auto negative = ArrayFromJSON(Int32Tensor2D(), R"([{"data": [], "shape": [-1, 0]}])");
  ASSERT_NE(negative, nullptr);
  auto status = VariableShapeTensorArray::Make(negative).ValueOrDie().ValidateFull();
  EXPECT_THAT(status.message(), HasSubstr("slot 0: shape[0] is -1"));

  auto null_shape = ArrayFromJSON(Int32Tensor2D(), R"([{"data": [1]}])");
  ASSERT_NE(null_shape, nullptr);
  status = VariableShapeTensorArray::Make(null_shape).ValueOrDie().ValidateFull();
  EXPECT_THAT(status.message(), HasSubstr("slot 0: shape is null in a non-null tensor"));

  auto null_dim = ArrayFromJSON(Int32Tensor2D(), R"([{"data": [1], "shape": [1, null]}])");
  ASSERT_NE(null_dim, nullptr);
  status = VariableShapeTensorArray::Make(null_dim).ValueOrDie().ValidateFull();
  EXPECT_THAT(status.message(), HasSubstr("slot 0: shape[1] is null"));

  auto null_data = ArrayFromJSON(Int32Tensor2D(), R"([{"shape": [0, 0]}])");
  ASSERT_NE(null_data, nullptr);
  status = VariableShapeTensorArray::Make(null_data).ValueOrDie().ValidateFull();
  EXPECT_THAT(status.message(), HasSubstr("slot 0: data is null in a non-null tensor"));
}

TEST(VariableShapeTensorArray, UniformDimensionsAreChecked) {
  auto type = Int32Tensor2D({2, std::nullopt});
  auto good = ArrayFromJSON(type, R"([{"data": [1, 2], "shape": [2, 1]},
                                      {"data": [1, 2, 3, 4], "shape": [2, 2]}])");
  ASSERT_NE(good, nullptr);
  EXPECT_TRUE(VariableShapeTensorArray::Make(good).ValueOrDie().ValidateFull().ok());
  auto bad = ArrayFromJSON(type, R"([{"data": [1, 2], "shape": [2, 1]},
                                     {"data": [1, 2, 3], "shape": [3, 1]}])");
  ASSERT_NE(bad, nullptr);
  auto status = VariableShapeTensorArray::Make(bad).ValueOrDie().ValidateFull();
  EXPECT_EQ(status.message(),
            "arrow.variable_shape_tensor: slot 1: shape[0] is 3 but uniform_shape[0] is 2");
}

TEST(VariableShapeTensorArray, ValidateExtensionArrayFindsBadTensor) {
  auto data = ArrayFromJSON(Int32Tensor2D(), R"([{"data": [1, 2, 3], "shape": [1, 2]}])");
  ASSERT_NE(data, nullptr);
  Status st = ValidateExtensionArray(*data);
  EXPECT_THAT(st.message(), HasSubstr("data holds 3 elements but shape [1, 2] needs 2"));

  auto column = struct_({field("t", Int32Tensor2D())});
  auto nested = ArrayFromJSON(column, R"([{"t": {"data": [1], "shape": [1, 1]}},
                                          {"t": {"data": [], "shape": [1, 1]}}])");
  ASSERT_NE(nested, nullptr);
  st = ValidateExtensionArray(*nested);
  EXPECT_THAT(st.message(), HasSubstr("t: arrow.variable_shape_tensor: slot 1:"));
}

}  // namespace
}  // namespace alkaid

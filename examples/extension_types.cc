// Canonical extension types: a column of 2x3 float tensors (arrow.fixed_shape_tensor) and a
// column of UUIDs (arrow.uuid). Both are ordinary Arrow storage (a fixed-size list, 16-byte
// binary) plus a type name and parameters that travel in the field metadata of IPC, so any
// Arrow implementation can read them, and those that know the type see tensors and UUIDs.
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/builder.h"
#include "alkaid/extension/fixed_shape_tensor.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/extension.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace {

alkaid::Status Run() {
  // A reader needs the canonical types registered to turn metadata back into them.
  alkaid::RegisterCanonicalExtensionTypes();

  // Tensor column: each row is a 2x3 float32 tensor stored row-major in a fixed_size_list<6>.
  ALKAID_ASSIGN_OR_RAISE(auto tensor_type,
                         alkaid::FixedShapeTensorType::Make(alkaid::float32(), {2, 3}));
  // The builder tree: an ExtensionBuilder over a FixedSizeListBuilder over a FloatBuilder.
  ALKAID_ASSIGN_OR_RAISE(auto builder, alkaid::MakeBuilderAs<alkaid::ExtensionBuilder>(tensor_type));
  auto* list = static_cast<alkaid::FixedSizeListBuilder*>(builder->storage_builder());
  auto* values = static_cast<alkaid::FloatBuilder*>(list->value_builder());
  for (int row = 0; row < 2; ++row) {
    // Open the slot first, then append its list_size() values to the child.
    ALKAID_RETURN_NOT_OK(list->Append());
    for (int k = 0; k < 6; ++k) ALKAID_RETURN_NOT_OK(values->Append(row * 10.0f + k));
  }
  ALKAID_ASSIGN_OR_RAISE(auto tensors, builder->Finish());

  // UUID column from text; nullopt is a null.
  ALKAID_ASSIGN_OR_RAISE(auto uuids, alkaid::MakeUuidArray(
                                         {"0f8fad5b-d9cb-469f-a165-70867728950e", std::nullopt}));

  auto schema = alkaid::schema(
      {alkaid::field("tensor", tensors->type), alkaid::field("id", uuids->type)});
  auto batch = alkaid::RecordBatch::Make(schema, 2, {tensors, uuids});

  // Round trip through the IPC stream format in memory.
  ALKAID_ASSIGN_OR_RAISE(auto bytes, alkaid::ipc::SerializeStream(schema, {batch}));
  ALKAID_ASSIGN_OR_RAISE(auto reader, alkaid::ipc::StreamReader::Open(bytes));
  std::cout << "schema: " << reader->schema()->ToString() << "\n";
  ALKAID_ASSIGN_OR_RAISE(auto read, reader->Next());

  ALKAID_ASSIGN_OR_RAISE(auto tensor_column, alkaid::FixedShapeTensorArray::Make(read->column_data(0)));
  ALKAID_ASSIGN_OR_RAISE(auto uuid_column, alkaid::UuidArray::Make(read->column_data(1)));
  for (int64_t row = 0; row < read->num_rows(); ++row) {
    ALKAID_ASSIGN_OR_RAISE(alkaid::TensorView t, tensor_column.GetTensor(row));
    const float* f = reinterpret_cast<const float*>(t.data);
    std::cout << "row " << row << ": tensor " << t.shape[0] << "x" << t.shape[1] << " [";
    for (int64_t i = 0; i < t.shape[0]; ++i) {
      std::cout << (i ? " [" : "[");
      for (int64_t j = 0; j < t.shape[1]; ++j) {
        // Strides are in bytes, so the element address does not assume row-major order.
        const int64_t byte = i * t.strides[0] + j * t.strides[1];
        std::cout << (j ? " " : "") << f[byte / static_cast<int64_t>(sizeof(float))];
      }
      std::cout << "]";
    }
    std::cout << "], id " << (uuid_column.IsNull(row) ? "null" : uuid_column.GetText(row))
              << "\n";
  }
  return alkaid::Status::OK();
}

}  // namespace

int main() {
  alkaid::Status st = Run();
  if (!st.ok()) {
    std::cerr << "error: " << st.ToString() << "\n";
    return 1;
  }
  return 0;
}

#include "scenario_util.h"

#include "alkaid/array.h"
#include "alkaid/builder/primitive.h"
#include "alkaid/record_batch_reader.h"

namespace alkaid::flight_integration {

namespace {

template <typename Builder>
Result<ArrayDataPtr> Build(const std::vector<int64_t>& values) {
  Builder builder;
  for (int64_t v : values) {
    ALKAID_RETURN_NOT_OK(builder.Append(static_cast<typename Builder::value_type>(v)));
  }
  return builder.Finish();
}

template <typename ArrayType>
void Append(const ArrayPtr& column, std::vector<int64_t>* out) {
  const auto& typed = static_cast<const ArrayType&>(*column);
  for (int64_t i = 0; i < typed.length(); ++i) out->push_back(static_cast<int64_t>(typed.Value(i)));
}

}  // namespace

Result<std::unique_ptr<flight::FlightClient>> ConnectTo(const std::string& host, int port,
                                                        const flight::ClientOptions& options) {
  return flight::FlightClient::Connect(flight::Location::ForGrpcTcp(host, port), options);
}

SchemaPtr IntegerSchema(const std::string& name, DataTypePtr type) {
  return schema({field(name, std::move(type), /*nullable=*/false)});
}

Result<RecordBatchPtr> IntegerBatch(const SchemaPtr& schema, const std::vector<int64_t>& values) {
  ArrayDataPtr column;
  if (schema->field(0)->type()->id() == TypeId::kInt32) {
    ALKAID_ASSIGN_OR_RAISE(column, Build<Int32Builder>(values));
  } else {
    ALKAID_ASSIGN_OR_RAISE(column, Build<UInt32Builder>(values));
  }
  return RecordBatch::Make(schema, static_cast<int64_t>(values.size()), ArrayDataVector{column});
}

Result<std::unique_ptr<flight::FlightDataStream>> IntegerStream(const SchemaPtr& schema,
                                                                const std::vector<int64_t>& values) {
  ALKAID_ASSIGN_OR_RAISE(auto batch, IntegerBatch(schema, values));
  ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make({batch}, schema));
  return flight::MakeRecordBatchStream(std::move(reader));
}

Status ReadIntegers(flight::FlightStreamReader& reader, const SchemaPtr& schema,
                    std::vector<int64_t>* out) {
  ALKAID_ASSIGN_OR_RAISE(auto got, reader.GetSchema());
  if (!got->Equals(*schema)) {
    return Status::Invalid("expected schema ", schema->ToString(), ", got ", got->ToString());
  }
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
    if (!chunk) return Status::OK();
    if (!chunk->batch) continue;
    if (schema->field(0)->type()->id() == TypeId::kInt32) {
      Append<Int32Array>(chunk->batch->column(0), out);
    } else {
      Append<UInt32Array>(chunk->batch->column(0), out);
    }
  }
}

std::string FormatIntegers(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

Status ExpectNoLocations(const flight::FlightEndpoint& endpoint, size_t index) {
  if (endpoint.locations.empty()) return Status::OK();
  std::string uris;
  for (const auto& location : endpoint.locations) uris += (uris.empty() ? "" : ", ") + location.uri;
  return Status::Invalid("endpoint ", index,
                         " must have no locations (read from the server that answered), got [",
                         uris, "]");
}

}  // namespace alkaid::flight_integration

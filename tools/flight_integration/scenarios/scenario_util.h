// What the named scenarios share: connecting, the one-column integer batches most of them
// serve, and reading such batches back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/flight/api.h"
#include "alkaid/status.h"

namespace alkaid::flight_integration {

/// A client of the scenario's server at host:port (plain TCP).
Result<std::unique_ptr<flight::FlightClient>> ConnectTo(const std::string& host, int port,
                                                        const flight::ClientOptions& options = {});

/// A schema of one non-nullable integer column `name` of `type` (int32 or uint32).
SchemaPtr IntegerSchema(const std::string& name, DataTypePtr type);

/// One batch of `schema` (from IntegerSchema) holding `values`.
Result<RecordBatchPtr> IntegerBatch(const SchemaPtr& schema, const std::vector<int64_t>& values);

/// A DoGet answer of one IntegerBatch.
Result<std::unique_ptr<flight::FlightDataStream>> IntegerStream(const SchemaPtr& schema,
                                                                const std::vector<int64_t>& values);

/// Reads a whole DoGet stream whose schema must equal `schema` (from IntegerSchema) and
/// appends its values to `out`.
Status ReadIntegers(flight::FlightStreamReader& reader, const SchemaPtr& schema,
                    std::vector<int64_t>* out);

/// "[1, 2, 3]", for messages.
std::string FormatIntegers(const std::vector<int64_t>& values);

/// Invalid unless `endpoint` has no locations (DoGet goes to the server that answered).
Status ExpectNoLocations(const flight::FlightEndpoint& endpoint, size_t index);

}  // namespace alkaid::flight_integration

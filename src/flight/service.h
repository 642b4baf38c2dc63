// The gRPC service of a Flight server, written by hand rather than generated.
//
// Why by hand: the data methods (DoGet, DoPut, DoExchange) carry wire::FlightData, alkaid's own
// FlightData type with its zero-copy SerializationTraits, while the generated service fixes
// them to the protobuf class. The generated service could be used with a reinterpret_cast of
// its stream objects (what other implementations do), but that relies on the layout of
// grpc::ServerWriter<T> not depending on T. Registering the ten methods ourselves with
// grpc::internal::RpcServiceMethod (the same calls the generated code makes, from gRPC's public
// headers) is as short and needs no cast. The other methods use the generated messages.
#pragma once

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/method_handler.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/impl/codegen/rpc_service_method.h>

#include "alkaid/flight_proto/Flight.pb.h"
#include "flight_data.h"

namespace alkaid::flight {

namespace pb = ::arrow::flight::protocol;

/// What the service calls; FlightServerBase::Impl implements it.
class FlightServiceHandlers {
 public:
  virtual ~FlightServiceHandlers() = default;
  virtual grpc::Status Handshake(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<pb::HandshakeResponse, pb::HandshakeRequest>* stream) = 0;
  virtual grpc::Status ListFlights(grpc::ServerContext* ctx, const pb::Criteria* request,
                                   grpc::ServerWriter<pb::FlightInfo>* writer) = 0;
  virtual grpc::Status GetFlightInfo(grpc::ServerContext* ctx,
                                     const pb::FlightDescriptor* request,
                                     pb::FlightInfo* response) = 0;
  virtual grpc::Status PollFlightInfo(grpc::ServerContext* ctx,
                                      const pb::FlightDescriptor* request,
                                      pb::PollInfo* response) = 0;
  virtual grpc::Status GetSchema(grpc::ServerContext* ctx, const pb::FlightDescriptor* request,
                                 pb::SchemaResult* response) = 0;
  virtual grpc::Status DoGet(grpc::ServerContext* ctx, const pb::Ticket* request,
                             grpc::ServerWriter<wire::FlightData>* writer) = 0;
  virtual grpc::Status DoPut(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<pb::PutResult, wire::FlightData>* stream) = 0;
  virtual grpc::Status DoExchange(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<wire::FlightData, wire::FlightData>* stream) = 0;
  virtual grpc::Status DoAction(grpc::ServerContext* ctx, const pb::Action* request,
                                grpc::ServerWriter<pb::Result>* writer) = 0;
  virtual grpc::Status ListActions(grpc::ServerContext* ctx, const pb::Empty* request,
                                   grpc::ServerWriter<pb::ActionType>* writer) = 0;
};

/// The service "arrow.flight.protocol.FlightService" over a set of handlers.
class FlightGrpcService final : public grpc::Service {
 public:
  explicit FlightGrpcService(FlightServiceHandlers* handlers);
};

}  // namespace alkaid::flight

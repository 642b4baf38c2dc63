#include "service.h"

#include "grpc_util.h"

namespace alkaid::flight {

namespace {

using H = FlightServiceHandlers;
using grpc::internal::RpcMethod;
using grpc::internal::RpcServiceMethod;

// One registration per call shape, the message types deduced from the handler's signature.
// gRPC's handlers take a std::function, which calls a member function pointer as it is.

template <typename Req, typename Resp>
RpcServiceMethod* Unary(FlightMethod method,
                        grpc::Status (H::*handler)(grpc::ServerContext*, const Req*, Resp*),
                        H* h) {
  // Serialized through MessageLite, as the generated services do.
  return new RpcServiceMethod(
      grpc_util::MethodPath(method), RpcMethod::NORMAL_RPC,
      new grpc::internal::RpcMethodHandler<H, Req, Resp, google::protobuf::MessageLite,
                                           google::protobuf::MessageLite>(handler, h));
}

template <typename Req, typename Resp>
RpcServiceMethod* ServerStreaming(
    FlightMethod method,
    grpc::Status (H::*handler)(grpc::ServerContext*, const Req*, grpc::ServerWriter<Resp>*),
    H* h) {
  return new RpcServiceMethod(
      grpc_util::MethodPath(method), RpcMethod::SERVER_STREAMING,
      new grpc::internal::ServerStreamingHandler<H, Req, Resp>(handler, h));
}

template <typename Req, typename Resp>
RpcServiceMethod* BidiStreaming(
    FlightMethod method,
    grpc::Status (H::*handler)(grpc::ServerContext*, grpc::ServerReaderWriter<Resp, Req>*),
    H* h) {
  return new RpcServiceMethod(
      grpc_util::MethodPath(method), RpcMethod::BIDI_STREAMING,
      new grpc::internal::BidiStreamingHandler<H, Req, Resp>(handler, h));
}

}  // namespace

FlightGrpcService::FlightGrpcService(FlightServiceHandlers* h) {
  AddMethod(BidiStreaming(FlightMethod::kHandshake, &H::Handshake, h));
  AddMethod(ServerStreaming(FlightMethod::kListFlights, &H::ListFlights, h));
  AddMethod(Unary(FlightMethod::kGetFlightInfo, &H::GetFlightInfo, h));
  AddMethod(Unary(FlightMethod::kPollFlightInfo, &H::PollFlightInfo, h));
  AddMethod(Unary(FlightMethod::kGetSchema, &H::GetSchema, h));
  AddMethod(ServerStreaming(FlightMethod::kDoGet, &H::DoGet, h));
  AddMethod(BidiStreaming(FlightMethod::kDoPut, &H::DoPut, h));
  AddMethod(BidiStreaming(FlightMethod::kDoExchange, &H::DoExchange, h));
  AddMethod(ServerStreaming(FlightMethod::kDoAction, &H::DoAction, h));
  AddMethod(ServerStreaming(FlightMethod::kListActions, &H::ListActions, h));
}

}  // namespace alkaid::flight

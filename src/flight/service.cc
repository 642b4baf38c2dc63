#include "service.h"

#include "grpc_util.h"

namespace alkaid::flight {

namespace {

using H = FlightServiceHandlers;
using grpc::internal::RpcMethod;
using grpc::internal::RpcServiceMethod;

}  // namespace

FlightGrpcService::FlightGrpcService(FlightServiceHandlers* h) {
  auto path = grpc_util::MethodPath;
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kHandshake), RpcMethod::BIDI_STREAMING,
      new grpc::internal::BidiStreamingHandler<H, pb::HandshakeRequest, pb::HandshakeResponse>(
          [](H* s, grpc::ServerContext* c,
             grpc::ServerReaderWriter<pb::HandshakeResponse, pb::HandshakeRequest>* st) {
            return s->Handshake(c, st);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kListFlights), RpcMethod::SERVER_STREAMING,
      new grpc::internal::ServerStreamingHandler<H, pb::Criteria, pb::FlightInfo>(
          [](H* s, grpc::ServerContext* c, const pb::Criteria* r,
             grpc::ServerWriter<pb::FlightInfo>* w) { return s->ListFlights(c, r, w); },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kGetFlightInfo), RpcMethod::NORMAL_RPC,
      new grpc::internal::RpcMethodHandler<H, pb::FlightDescriptor, pb::FlightInfo,
                                           google::protobuf::MessageLite,
                                           google::protobuf::MessageLite>(
          [](H* s, grpc::ServerContext* c, const pb::FlightDescriptor* r, pb::FlightInfo* o) {
            return s->GetFlightInfo(c, r, o);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kPollFlightInfo), RpcMethod::NORMAL_RPC,
      new grpc::internal::RpcMethodHandler<H, pb::FlightDescriptor, pb::PollInfo,
                                           google::protobuf::MessageLite,
                                           google::protobuf::MessageLite>(
          [](H* s, grpc::ServerContext* c, const pb::FlightDescriptor* r, pb::PollInfo* o) {
            return s->PollFlightInfo(c, r, o);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kGetSchema), RpcMethod::NORMAL_RPC,
      new grpc::internal::RpcMethodHandler<H, pb::FlightDescriptor, pb::SchemaResult,
                                           google::protobuf::MessageLite,
                                           google::protobuf::MessageLite>(
          [](H* s, grpc::ServerContext* c, const pb::FlightDescriptor* r, pb::SchemaResult* o) {
            return s->GetSchema(c, r, o);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kDoGet), RpcMethod::SERVER_STREAMING,
      new grpc::internal::ServerStreamingHandler<H, pb::Ticket, wire::FlightData>(
          [](H* s, grpc::ServerContext* c, const pb::Ticket* r,
             grpc::ServerWriter<wire::FlightData>* w) { return s->DoGet(c, r, w); },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kDoPut), RpcMethod::BIDI_STREAMING,
      new grpc::internal::BidiStreamingHandler<H, wire::FlightData, pb::PutResult>(
          [](H* s, grpc::ServerContext* c,
             grpc::ServerReaderWriter<pb::PutResult, wire::FlightData>* st) {
            return s->DoPut(c, st);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kDoExchange), RpcMethod::BIDI_STREAMING,
      new grpc::internal::BidiStreamingHandler<H, wire::FlightData, wire::FlightData>(
          [](H* s, grpc::ServerContext* c,
             grpc::ServerReaderWriter<wire::FlightData, wire::FlightData>* st) {
            return s->DoExchange(c, st);
          },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kDoAction), RpcMethod::SERVER_STREAMING,
      new grpc::internal::ServerStreamingHandler<H, pb::Action, pb::Result>(
          [](H* s, grpc::ServerContext* c, const pb::Action* r,
             grpc::ServerWriter<pb::Result>* w) { return s->DoAction(c, r, w); },
          h)));
  AddMethod(new RpcServiceMethod(
      path(FlightMethod::kListActions), RpcMethod::SERVER_STREAMING,
      new grpc::internal::ServerStreamingHandler<H, pb::Empty, pb::ActionType>(
          [](H* s, grpc::ServerContext* c, const pb::Empty* r,
             grpc::ServerWriter<pb::ActionType>* w) { return s->ListActions(c, r, w); },
          h)));
}

}  // namespace alkaid::flight

// The generated code of format/Flight.proto over a real gRPC loopback connection: the service
// compiles, links and answers, and the wire facts alkaid's hand-written FlightData serializer
// relies on hold.
#include <grpcpp/grpcpp.h>

#include <gtest/gtest.h>

#include "alkaid/flight_proto/Flight.grpc.pb.h"
#include "alkaid/flight_proto/Flight.pb.h"

namespace alkaid::flight {
namespace {

namespace pb = ::arrow::flight::protocol;

// A service that overrides only ListActions: one action, so the test sees real data flow.
class OneActionService final : public pb::FlightService::Service {
  grpc::Status ListActions(grpc::ServerContext*, const pb::Empty*,
                           grpc::ServerWriter<pb::ActionType>* writer) override {
    pb::ActionType type;
    type.set_type("ping");
    type.set_description("answers pong");
    writer->Write(type);
    return grpc::Status::OK;
  }
};

TEST(FlightProtocol, GeneratedServiceAnswersOverLoopback) {
  OneActionService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  ASSERT_GT(port, 0);

  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                                     grpc::InsecureChannelCredentials());
  auto stub = pb::FlightService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  auto reader = stub->ListActions(&context, pb::Empty());
  std::vector<std::string> types;
  pb::ActionType type;
  while (reader->Read(&type)) types.push_back(type.type() + ":" + type.description());
  grpc::Status status = reader->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(types, std::vector<std::string>{"ping:answers pong"});

  // An RPC the service does not override answers UNIMPLEMENTED, not a crash or a hang.
  grpc::ClientContext context2;
  pb::FlightInfo info;
  grpc::Status unimplemented = stub->GetFlightInfo(&context2, pb::FlightDescriptor(), &info);
  EXPECT_EQ(unimplemented.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  server->Shutdown();
}

// The zero-copy FlightData path writes these tags by hand: field 1 (descriptor), 2 (header),
// 3 (app metadata) as length-delimited, and the body as field 1000, last.
TEST(FlightProtocol, FlightDataWireTagsAreTheOnesTheSerializerWrites) {
  pb::FlightData data;
  data.set_data_header("H");
  data.set_app_metadata("M");
  data.set_data_body("B");
  data.mutable_flight_descriptor()->set_type(pb::FlightDescriptor::PATH);
  std::string bytes = data.SerializeAsString();
  // Key = (field << 3) | 2 (length-delimited); 1000 needs two varint bytes: 0xc2 0x3e.
  const std::string expected = std::string("\x0a\x02\x08\x01", 4) + "\x12\x01H" + "\x1a\x01M" +
                               std::string("\xc2\x3e\x01", 3) + "B";
  EXPECT_EQ(bytes, expected);

  pb::FlightData parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.data_body(), "B");
  EXPECT_EQ(parsed.flight_descriptor().type(), pb::FlightDescriptor::PATH);
}

TEST(FlightProtocol, EnumValuesMatchThePublicTypes) {
  EXPECT_EQ(static_cast<int>(pb::FlightDescriptor::CMD), 2);
  EXPECT_EQ(static_cast<int>(pb::CANCEL_STATUS_NOT_CANCELLABLE), 3);
  EXPECT_EQ(static_cast<int>(pb::CloseSessionResult::NOT_CLOSEABLE), 3);
  EXPECT_EQ(static_cast<int>(pb::SetSessionOptionsResult::INVALID_VALUE), 2);
}

}  // namespace
}  // namespace alkaid::flight

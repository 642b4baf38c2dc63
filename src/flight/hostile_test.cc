// Hostile clients: raw bytes sent straight into the data methods (no alkaid client in the
// way). Each gets a clear error, and the server keeps serving everyone else.
#include "src/util/sanitizers.h"
#if ALKAID_ADDRESS_SANITIZER
#include <sanitizer/lsan_interface.h>
#endif
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/method_handler.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/impl/codegen/rpc_service_method.h>
#include <grpcpp/impl/codegen/sync_stream.h>

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "alkaid/fbs/Message_generated.h"
#include "alkaid/flight/api.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/flight_proto/Flight.pb.h"
#include "flight_data.h"
#include "grpc_util.h"

namespace alkaid::flight {
namespace {

class CountingServer : public FlightServerBase {
 public:
  Status DoPut(const ServerCallContext&, FlightMessageReader& reader,
               FlightMetadataWriter&) override {
    int64_t n = 0;
    while (true) {
      auto chunk = reader.Next();
      if (!chunk.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        last_error = chunk.status().ToString();
        ++errors;
        return chunk.status();
      }
      if (!*chunk) break;
      ++n;
      ++received;
    }
    metadata_messages = n;
    return Status::OK();
  }
  Result<FlightInfo> GetFlightInfo(const ServerCallContext&, const FlightDescriptor& d) override {
    FlightInfo info;
    info.descriptor = d;
    return info;
  }
  std::atomic<int64_t> metadata_messages{-1};
  std::atomic<int64_t> received{0};
  std::atomic<int> errors{0};
  std::mutex mu;
  std::string last_error;
};

// A DoPut call that sends raw protobuf bytes.
class RawPut {
 public:
  explicit RawPut(const std::shared_ptr<grpc::Channel>& channel, bool gzip = false)
      : method_(grpc_util::MethodPath(FlightMethod::kDoPut),
                grpc::internal::RpcMethod::BIDI_STREAMING, channel) {
    context_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    if (gzip) context_.set_compression_algorithm(GRPC_COMPRESS_GZIP);
    stream_.reset(grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::
                      Create(channel.get(), method_, &context_));
  }
  bool Send(const std::string& bytes) {
    grpc::Slice slice(bytes);
    grpc::ByteBuffer bb(&slice, 1);
    return stream_->Write(bb);
  }
  bool SendBuffer(const grpc::ByteBuffer& bb) { return stream_->Write(bb); }
  grpc::ClientContext& context() { return context_; }
  grpc::Status Finish() {
    stream_->WritesDone();
    grpc::ByteBuffer ignored;
    while (stream_->Read(&ignored)) {
    }
    return stream_->Finish();
  }

 private:
  grpc::internal::RpcMethod method_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream_;
};

class FlightHostileTest : public ::testing::Test {
 protected:
  void Start(ServerOptions options) {
    options.location = "grpc://127.0.0.1:0";
    ASSERT_TRUE(server_.Init(options).ok());
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(-1);
    channel_ = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(server_.port()),
                                         grpc::InsecureChannelCredentials(), args);
  }
  void TearDown() override { ASSERT_TRUE(server_.Shutdown().ok()); }
  // The server still answers a well-behaved client.
  void ExpectStillServing() {
    auto client = FlightClient::Connect(server_.location()).ValueOrDie();
    auto info = client->GetFlightInfo(FlightDescriptor::Command("still there?"));
    EXPECT_TRUE(info.ok()) << info.status().ToString();
  }
  CountingServer server_;
  std::shared_ptr<grpc::Channel> channel_;
};

TEST_F(FlightHostileTest, MalformedFlightDataIsRefusedWithAClearError) {
  Start({});
  const std::string cases[] = {
      std::string("\x13", 1),                   // a group
      std::string("\x12\x05" "ab", 4),          // header claims 5 bytes, 2 remain
      std::string("\xc2\x3e\xff\xff\xff\xff\x0f", 7),  // body claims 4 GiB
      std::string(12, '\xff'),                  // endless varint
  };
  for (const auto& bytes : cases) {
    RawPut put(channel_);
    put.Send(bytes);
    grpc::Status st = put.Finish();
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find("Flight data message 0"), std::string::npos)
        << st.error_message();
  }
  ExpectStillServing();
}

TEST_F(FlightHostileTest, ManyTinyMessagesAreServedInBoundedTime) {
  Start({});
  RawPut put(channel_);
  // app_metadata "x", no header: 100,000 metadata-only messages.
  const std::string tiny("\x1a\x01x", 3);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 100000; ++i) ASSERT_TRUE(put.Send(tiny));
  grpc::Status st = put.Finish();
  EXPECT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(server_.metadata_messages.load(), 100000);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  ExpectStillServing();
}

TEST_F(FlightHostileTest, AMessageOverTheLimitIsRefused) {
  ServerOptions options;
  options.max_receive_message_bytes = 64 * 1024;
  Start(options);
  for (int round = 0; round < 20; ++round) {
    int errors_before = server_.errors.load();
    RawPut put(channel_);
    // 96 KiB of app_metadata: over the limit, refused by the handler's reader, so the handler
    // sees an error (never a clean end), every time.
    std::string big = std::string("\x1a\x80\x80\x06", 4) + std::string(96 * 1024, 'm');
    put.Send(big);
    grpc::Status st = put.Finish();
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
    EXPECT_NE(st.error_message().find("over the receive limit of 65536 bytes"), std::string::npos)
        << st.error_message();
    EXPECT_EQ(server_.errors.load(), errors_before + 1) << "round " << round;
    EXPECT_EQ(server_.metadata_messages.load(), -1) << "round " << round;
  }
  ExpectStillServing();
}

// gRPC's own inflation is off (it inflates whole messages before checking their size, and a
// message it refuses ends the handler's reads like a clean half-close): alkaid inflates under
// the receive limit, so a gzip message that inflates past it is an error the DoPut handler
// sees, every time.
TEST_F(FlightHostileTest, AGzipMessageThatInflatesOverTheLimitIsAnErrorTheHandlerSees) {
  ServerOptions options;
  options.max_receive_message_bytes = 64 * 1024;
  Start(options);
  std::string bytes = std::string("\x1a\x80\x80\x80\x04", 5) + std::string(8 << 20, 'm');
  for (int round = 0; round < 20; ++round) {
    int errors_before = server_.errors.load();
    RawPut put(channel_, /*gzip=*/true);
    put.Send(bytes);
    grpc::Status st = put.Finish();
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
    EXPECT_NE(st.error_message().find("inflates past the receive limit of 65536 bytes"),
              std::string::npos)
        << st.error_message();
    EXPECT_EQ(server_.errors.load(), errors_before + 1) << "round " << round;
    EXPECT_EQ(server_.metadata_messages.load(), -1) << "round " << round;
  }
  ExpectStillServing();
}

TEST_F(FlightHostileTest, AGzipMessageWithinTheLimitIsAccepted) {
  ServerOptions options;
  options.max_receive_message_bytes = 64 * 1024;
  Start(options);
  RawPut put(channel_, /*gzip=*/true);
  // 60,000 bytes of app_metadata inflate to just under the limit.
  ASSERT_TRUE(put.Send(std::string("\x1a\xe0\xd4\x03", 4) + std::string(60000, 'm')));
  grpc::Status st = put.Finish();
  EXPECT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(server_.metadata_messages.load(), 1);
}

// Peak resident memory of this process in KiB, after resetting it (0 when the kernel does not
// let the process reset it).
int64_t ResetPeakRss() {
  FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return 0;
  bool ok = std::fputs("5", f) >= 0;
  ok = std::fclose(f) == 0 && ok;
  return ok ? 1 : 0;
}
int64_t PeakRssKiB() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  int64_t kib = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atoll(line + 6);
  }
  std::fclose(f);
  return kib;
}

// A gzip "bomb": 256 KiB on the wire that inflates to 256 MiB, sent already compressed (the
// test's client never holds the inflated bytes). Under a 256 KiB limit (gRPC lets through
// compressed messages up to twice that), the server's peak memory must not grow by anything
// near 256 MiB: the cap holds while inflating, not after.
TEST_F(FlightHostileTest, AGzipBombCostsTheServerNoMoreThanTheLimit) {
  if (!ResetPeakRss()) GTEST_SKIP() << "this kernel does not let a process reset its peak RSS";
  ServerOptions options;
  options.max_receive_message_bytes = 256 * 1024;
  Start(options);
  constexpr int64_t kInflated = int64_t{256} << 20;
  std::string compressed;
  {
    z_stream z{};
    ASSERT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
    // app_metadata (field 3) of kInflated - 5 bytes, then zeros.
    std::string head("\x1a\xfb\xff\xff\x7f", 5);
    std::string zeros(1 << 20, '\0');
    std::string chunk(64 << 10, '\0');
    auto pump = [&](const std::string& in, int flush) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z.avail_in = static_cast<uInt>(in.size());
      do {
        z.next_out = reinterpret_cast<Bytef*>(chunk.data());
        z.avail_out = static_cast<uInt>(chunk.size());
        deflate(&z, flush);
        compressed.append(chunk.data(), chunk.size() - z.avail_out);
      } while (z.avail_out == 0);
    };
    pump(head, Z_NO_FLUSH);
    for (int64_t i = 0; i < kInflated / (1 << 20) - 1; ++i) pump(zeros, Z_NO_FLUSH);
    pump(std::string((1 << 20) - 5, '\0'), Z_FINISH);
    deflateEnd(&z);
  }
  ASSERT_LT(compressed.size(), 512u * 1024);
  ResetPeakRss();
  int64_t before = PeakRssKiB();
  RawPut put(channel_, /*gzip=*/true);
#if ALKAID_ADDRESS_SANITIZER
  // gRPC 1.51 keeps this message's slice when the server ends the call while the client is
  // still writing it (seen under LeakSanitizer: one allocation of the compressed input's size,
  // made here, never freed by gRPC). It is the test's own input, not memory of the server
  // under test, so LeakSanitizer is told to ignore it.
  __lsan_disable();
#endif
  grpc::Slice slice(compressed);
#if ALKAID_ADDRESS_SANITIZER
  __lsan_enable();
#endif
  grpc_slice raw = slice.c_slice();
  grpc_byte_buffer* c = grpc_raw_compressed_byte_buffer_create(&raw, 1, GRPC_COMPRESS_GZIP);
  grpc::ByteBuffer bb;
  grpc::internal::GrpcByteBufferPeer(&bb).set_buffer(c);
  put.SendBuffer(bb);
  grpc::Status st = put.Finish();
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
  EXPECT_NE(st.error_message().find("inflates past the receive limit"), std::string::npos)
      << st.error_message();
  EXPECT_EQ(server_.metadata_messages.load(), -1);
  int64_t growth_kib = PeakRssKiB() - before;
  EXPECT_LT(growth_kib, 64 * 1024) << "peak RSS grew by " << growth_kib << " KiB";
  ExpectStillServing();
}

TEST_F(FlightHostileTest, TheDefaultLimitIsNotGrpcs4MiB) {
  Start({});
  RawPut put(channel_);
  // 8 MiB of app_metadata: over gRPC's default, within alkaid's.
  std::string meta(8 << 20, 'm');
  std::string bytes = std::string("\x1a\x80\x80\x80\x04", 5) + meta;
  ASSERT_TRUE(put.Send(bytes));
  grpc::Status st = put.Finish();
  EXPECT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(server_.metadata_messages.load(), 1);
}

// A FlightData message: protobuf field 2 (data_header) holding `header`.
std::string HeaderOnly(std::string_view header) {
  std::string out = "\x12";
  uint64_t n = header.size();
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  out += header;
  return out;
}

// A record batch header that claims 2^62 rows and has no body: refused before anything is
// allocated for it.
TEST_F(FlightHostileTest, ABatchClaiming2To62RowsIsRefused) {
  Start({});
  namespace fb = org::apache::arrow::flatbuf;
  auto schema = alkaid::schema({field("x", int32())});
  BufferPtr framed = ipc::SerializeSchema(*schema).ValueOrDie();
  // Framed: continuation marker and length, then the Message flatbuffer.
  std::string schema_header(framed->view().substr(8));

  flatbuffers::FlatBufferBuilder builder;
  const int64_t rows = int64_t{1} << 62;
  std::vector<fb::FieldNode> nodes = {fb::FieldNode(rows, 0)};
  std::vector<fb::Buffer> buffers = {fb::Buffer(0, 0), fb::Buffer(0, 0)};
  auto batch = fb::CreateRecordBatchDirect(builder, rows, &nodes, &buffers);
  builder.Finish(fb::CreateMessage(builder, fb::MetadataVersion::V5,
                                   fb::MessageHeader::RecordBatch, batch.Union(), 0));
  std::string batch_header(reinterpret_cast<const char*>(builder.GetBufferPointer()),
                           builder.GetSize());

  RawPut put(channel_);
  ASSERT_TRUE(put.Send(HeaderOnly(schema_header)));
  put.Send(HeaderOnly(batch_header));
  grpc::Status st = put.Finish();
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
  EXPECT_NE(st.error_message().find("4611686018427387904"), std::string::npos)
      << st.error_message();
  ExpectStillServing();
}

// A hostile server: DoGet answers raw bytes chosen by the ticket.
class RawDoGetService final : public grpc::Service {
 public:
  RawDoGetService() {
    AddMethod(new grpc::internal::RpcServiceMethod(
        grpc_util::MethodPath(FlightMethod::kDoGet), grpc::internal::RpcMethod::SERVER_STREAMING,
        new grpc::internal::ServerStreamingHandler<RawDoGetService,
                                                   ::arrow::flight::protocol::Ticket,
                                                   grpc::ByteBuffer>(
            [](RawDoGetService*, grpc::ServerContext*, const ::arrow::flight::protocol::Ticket* t,
               grpc::ServerWriter<grpc::ByteBuffer>* w) {
              if (t->ticket() == "long-error") {
                return grpc::Status(grpc::StatusCode::INTERNAL, std::string(1 << 20, 'e'));
              }
              grpc::Slice slice(t->ticket());
              grpc::ByteBuffer bb(&slice, 1);
              w->Write(bb);
              return grpc::Status::OK;
            },
            this)));
  }
};

TEST(FlightHostileServer, TheClientRefusesMalformedDataAndCapsErrorText) {
  RawDoGetService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  auto client = FlightClient::Connect(Location::ForGrpcTcp("127.0.0.1", port)).ValueOrDie();
  for (const std::string& bytes : {std::string("\x13", 1), std::string("\x12\x09short", 7)}) {
    auto schema = client->DoGet(Ticket{bytes}).ValueOrDie()->GetSchema();
    ASSERT_FALSE(schema.ok());
    EXPECT_TRUE(schema.status().IsSerializationError()) << schema.status().ToString();
    EXPECT_NE(schema.status().message().find("Flight data message 0"), std::string::npos);
  }
  // A data header that is not a flatbuffer.
  auto garbage = client->DoGet(Ticket{"\x12\x08garbage!"}).ValueOrDie()->GetSchema();
  EXPECT_FALSE(garbage.ok());
  auto long_error = client->DoGet(Ticket{"long-error"}).ValueOrDie()->GetSchema();
  ASSERT_FALSE(long_error.ok());
  EXPECT_LT(long_error.status().message().size(), 2 * kDefaultMaxErrorTextBytes);
  server->Shutdown();
}

// The handler tells a clean half-close (Next() gives nullopt: commit) from a cancelled call
// (Next() gives an error: keep nothing), many times over to catch a race between the failed
// read and the cancellation flag.
TEST_F(FlightHostileTest, CancelledUploadIsAnErrorAndHalfCloseIsAnEnd) {
  Start({});
  const std::string tiny("\x1a\x01x", 3);
  for (int round = 0; round < 50; ++round) {
    server_.received = 0;
    server_.metadata_messages = -1;
    int errors_before = server_.errors.load();
    {
      RawPut put(channel_);
      ASSERT_TRUE(put.Send(tiny));
      // Wait until the server has the message, so it is blocked in its next read.
      for (int i = 0; i < 2000 && server_.received.load() == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      put.context().TryCancel();
    }
    for (int i = 0; i < 2000 && server_.errors.load() == errors_before; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(server_.errors.load(), errors_before + 1) << "round " << round;
    EXPECT_EQ(server_.metadata_messages.load(), -1) << "round " << round;
    {
      std::lock_guard<std::mutex> lock(server_.mu);
      EXPECT_NE(server_.last_error.find("cancelled"), std::string::npos) << server_.last_error;
    }
    RawPut clean(channel_);
    ASSERT_TRUE(clean.Send(tiny));
    EXPECT_TRUE(clean.Finish().ok());
    EXPECT_EQ(server_.metadata_messages.load(), 1) << "round " << round;
  }
}

}  // namespace
}  // namespace alkaid::flight

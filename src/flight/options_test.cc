// Options that reach gRPC: the default message limits carry batches far over gRPC's own 4 MiB
// default both ways, the flow-control window becomes channel arguments, and channel arguments
// given by the user reach the client's and the server's gRPC (observed through a message
// limit set that way). Also the receive buffers that are reused across messages.
#include <gtest/gtest.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "alkaid/flight/api.h"
#include "grpc_util.h"
#include "receive_buffer.h"

namespace alkaid::flight {
namespace {

// A batch of one int64 column with `rows` rows (8 bytes each).
RecordBatchPtr Int64Batch(int64_t rows) {
  auto values = AllocateBuffer(rows * 8).ValueOrDie();
  auto* v = reinterpret_cast<int64_t*>(values->mutable_data());
  for (int64_t i = 0; i < rows; ++i) v[i] = i * 7;
  auto data = ArrayData::Make(int64(), rows, {nullptr, values});
  return RecordBatch::Make(schema({field("x", int64())}), rows, ArrayDataVector{data});
}

constexpr int64_t kBigRows = int64_t{6} << 17;  // 6 MiB of values: over gRPC's 4 MiB default

// DoGet answers a batch of the number of rows in the ticket; DoPut counts the rows it reads.
class SizedServer : public FlightServerBase {
 public:
  Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext&,
                                                  const Ticket& ticket) override {
    auto batch = Int64Batch(std::stoll(ticket.ticket));
    ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make({batch}, batch->schema()));
    return MakeRecordBatchStream(std::move(reader));
  }
  Status DoPut(const ServerCallContext&, FlightMessageReader& reader,
               FlightMetadataWriter&) override {
    int64_t rows = 0;
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) break;
      if (chunk->batch) rows += chunk->batch->num_rows();
    }
    put_rows = rows;
    return Status::OK();
  }
  std::atomic<int64_t> put_rows{-1};
};

Status PutBatch(FlightClient& client, const RecordBatch& batch) {
  ALKAID_ASSIGN_OR_RAISE(auto put, client.DoPut(FlightDescriptor::Path({"x"}), batch.schema()));
  ALKAID_RETURN_NOT_OK(put.writer->WriteRecordBatch(batch));
  return put.writer->Close();
}

TEST(FlightOptions, DefaultsCarryBatchesOverFourMebibytesBothWays) {
  SizedServer server;
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  ASSERT_TRUE(server.Init(options).ok());
  auto client = FlightClient::Connect(server.location()).ValueOrDie();
  auto got = client->DoGet(Ticket{std::to_string(kBigRows)}).ValueOrDie()->ToTable();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)->num_rows(), kBigRows);
  Status put = PutBatch(*client, *Int64Batch(kBigRows));
  ASSERT_TRUE(put.ok()) << put.ToString();
  EXPECT_EQ(server.put_rows.load(), kBigRows);
  ASSERT_TRUE(server.Shutdown().ok());
}

TEST(FlightOptions, TheWindowBecomesChannelArgumentsAndExtraArgumentsReplaceOurs) {
  auto args = grpc_util::ChannelIntArgs(kDefaultMaxMessageBytes, int64_t{1} << 40,
                                        kDefaultFlowControlWindowBytes,
                                        {{"grpc.x", 5}, {"grpc.max_send_message_length", 7}});
  std::vector<std::pair<std::string, int>> expected = {
      {"grpc.max_receive_message_length", INT_MAX},
      {"grpc.max_send_message_length", 7},
      {"grpc.http2.bdp_probe", 0},
      {"grpc.http2.lookahead_bytes", 8 << 20},
      {"grpc.x", 5},
      {"grpc.per_message_decompression", 0}};
  EXPECT_EQ(args, expected);
  // 0 leaves gRPC's probing alone; sizes past int's range mean gRPC's ceiling (-1); a window
  // past it is clamped, not wrapped; gRPC's inflation stays off whatever the user asks.
  args = grpc_util::ChannelIntArgs(-1, int64_t{1} << 40, 0,
                                   {{"grpc.per_message_decompression", 1}});
  expected = {{"grpc.max_receive_message_length", -1},
              {"grpc.max_send_message_length", -1},
              {"grpc.per_message_decompression", 0}};
  EXPECT_EQ(args, expected);
  EXPECT_EQ(grpc_util::ChannelIntArgs(0, 0, int64_t{1} << 40, {})[3].second, INT_MAX);
}

// A message limit set through channel_int_args overrides alkaid's own: proof that the
// arguments reach gRPC, on the client and on the server.
TEST(FlightOptions, ChannelArgumentsReachTheClientsAndTheServersGrpc) {
  SizedServer server;
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  options.channel_int_args = {{"grpc.max_receive_message_length", 1 << 20}};
  ASSERT_TRUE(server.Init(options).ok());
  ClientOptions small;
  small.channel_int_args = {{"grpc.max_receive_message_length", 1 << 20}};
  auto client = FlightClient::Connect(server.location(), small).ValueOrDie();

  // 2 MiB of values, over the 1 MiB limit of both sides.
  auto got = client->DoGet(Ticket{std::to_string(1 << 18)}).ValueOrDie()->ToTable();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(FlightStatusCodeOf(got.status()), FlightStatusCode::kResourceExhausted)
      << got.status().ToString();
  auto other = FlightClient::Connect(server.location()).ValueOrDie();
  Status put = PutBatch(*other, *Int64Batch(1 << 18));
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(FlightStatusCodeOf(put), FlightStatusCode::kResourceExhausted) << put.ToString();
  // Under the limit all is well.
  got = client->DoGet(Ticket{"1000"}).ValueOrDie()->ToTable();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(server.Shutdown().ok());
}

TEST(FlightReceiveBuffer, LargeBlocksAreReusedOnceReleased) {
  const int64_t size = (int64_t{2} << 20) + 3;
  uint8_t* first = nullptr;
  auto a = wire::AllocateReceiveBuffer(size, &first).ValueOrDie();
  ASSERT_EQ(reinterpret_cast<uintptr_t>(first) % kAlignment, 0u);
  std::memset(first, 0xab, static_cast<size_t>(size));
  EXPECT_EQ(a->size(), size);
  // The padding past the size reads as zero.
  EXPECT_EQ(first[size], 0);
  EXPECT_EQ(first[RoundUpToMultipleOf64(size) - 1], 0);
  a.reset();
  auto before = wire::GetReceiveBlockStats();
  uint8_t* second = nullptr;
  auto b = wire::AllocateReceiveBuffer(size - 1000, &second).ValueOrDie();
  auto after = wire::GetReceiveBlockStats();
  EXPECT_EQ(second, first);
  EXPECT_EQ(after.reused, before.reused + 1);
  EXPECT_EQ(second[size - 1000], 0);
  // A block is not handed out twice while in use.
  uint8_t* third = nullptr;
  auto c = wire::AllocateReceiveBuffer(size, &third).ValueOrDie();
  EXPECT_NE(third, second);
  // Small and huge buffers are not cached.
  uint8_t* small = nullptr;
  auto d = wire::AllocateReceiveBuffer(1000, &small).ValueOrDie();
  EXPECT_EQ(d->size(), 1000);
  EXPECT_EQ(wire::GetReceiveBlockStats().allocated, after.allocated + 1);
}

TEST(FlightReceiveBuffer, TheCacheKeepsABoundedNumberOfBytes) {
  std::vector<BufferPtr> held;
  for (int i = 0; i < 40; ++i) {
    uint8_t* p = nullptr;
    held.push_back(wire::AllocateReceiveBuffer(int64_t{1} << 20, &p).ValueOrDie());
  }
  held.clear();
  EXPECT_LE(wire::GetReceiveBlockStats().cached_bytes, wire::kReusedBytesMax);
}

}  // namespace
}  // namespace alkaid::flight

// DoGet, DoPut and DoExchange over loopback with every integration gold file: batches, schema
// metadata, dictionaries, compression and app_metadata on every message (metadata-only messages
// included) arrive as sent. Also dictionary replacement and deltas, and the clean end of an
// upload told apart from a cancelled one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "alkaid/compare.h"
#include "alkaid/flight/api.h"
#include "alkaid/ipc/reader.h"
#include "flight_data.h"
#include "test_util/array_from_json.h"
#include "test_util/test_data.h"

namespace alkaid::flight {
namespace {

namespace fs = std::filesystem;
using ::alkaid::testing::ArrayFromJSON;

// What a client uploaded, kept only when the upload ended cleanly.
struct Upload {
  SchemaPtr schema;
  std::vector<FlightStreamChunk> chunks;
};

class StoreServer : public FlightServerBase {
 public:
  Status DoPut(const ServerCallContext&, FlightMessageReader& reader,
               FlightMetadataWriter& writer) override {
    if (reader.descriptor().path.empty()) return Status::Invalid("DoPut needs a path");
    std::string name = reader.descriptor().path[0];
    Upload upload;
    ALKAID_ASSIGN_OR_RAISE(upload.schema, reader.GetSchema());
    while (true) {
      auto chunk = reader.Next();
      if (!chunk.ok()) {
        std::lock_guard<std::mutex> lock(mu_);
        failed_uploads_.push_back(name + ": " + chunk.status().ToString());
        return chunk.status();
      }
      if (!*chunk) break;
      if ((*chunk)->batch) {
        ALKAID_RETURN_NOT_OK(writer.WriteMetadata("ack " + std::to_string(upload.chunks.size())));
      }
      upload.chunks.push_back(std::move(**chunk));
    }
    std::lock_guard<std::mutex> lock(mu_);
    uploads_[name] = std::move(upload);
    return Status::OK();
  }

  Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext&,
                                                  const Ticket& ticket) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = uploads_.find(ticket.ticket);
    if (it == uploads_.end()) return Status::KeyError("no upload ", ticket.ticket);
    return std::unique_ptr<FlightDataStream>(new ChunkStream(it->second));
  }

  // Echoes every chunk back, batch and metadata.
  Status DoExchange(const ServerCallContext&, FlightMessageReader& reader,
                    FlightMessageWriter& writer) override {
    ALKAID_ASSIGN_OR_RAISE(auto schema, reader.GetSchema());
    ALKAID_RETURN_NOT_OK(writer.Begin(schema));
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) return Status::OK();
      if (chunk->batch && chunk->app_metadata) {
        ALKAID_RETURN_NOT_OK(writer.WriteWithMetadata(*chunk->batch, chunk->app_metadata->view()));
      } else if (chunk->batch) {
        ALKAID_RETURN_NOT_OK(writer.WriteRecordBatch(*chunk->batch));
      } else if (chunk->app_metadata) {
        ALKAID_RETURN_NOT_OK(writer.WriteMetadata(chunk->app_metadata->view()));
      }
    }
  }

  std::optional<Upload> Get(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = uploads_.find(name);
    if (it == uploads_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> failed_uploads() {
    std::lock_guard<std::mutex> lock(mu_);
    return failed_uploads_;
  }

 private:
  class ChunkStream final : public FlightDataStream {
   public:
    explicit ChunkStream(Upload upload) : upload_(std::move(upload)) {}
    SchemaPtr schema() const override { return upload_.schema; }
    Result<std::optional<FlightStreamChunk>> Next() override {
      if (next_ == upload_.chunks.size()) return std::optional<FlightStreamChunk>();
      return std::optional<FlightStreamChunk>(upload_.chunks[next_++]);
    }

   private:
    Upload upload_;
    size_t next_ = 0;
  };

  std::mutex mu_;
  std::map<std::string, Upload> uploads_;
  std::vector<std::string> failed_uploads_;
};

std::vector<std::string> GoldCases() { return ::alkaid::testing::GoldIntegrationCases(".arrow_file"); }

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// The chunks a test sends: every batch with metadata "m<i>", a metadata-only message first and
// one after the last batch.
std::vector<FlightStreamChunk> ChunksOf(const std::vector<RecordBatchPtr>& batches) {
  std::vector<FlightStreamChunk> chunks;
  chunks.push_back({nullptr, Buffer::FromString("before")});
  for (size_t i = 0; i < batches.size(); ++i) {
    chunks.push_back({batches[i], Buffer::FromString("m" + std::to_string(i))});
  }
  chunks.push_back({nullptr, Buffer::FromString("after")});
  return chunks;
}

Status Send(FlightMessageWriter& writer, const std::vector<FlightStreamChunk>& chunks) {
  for (const auto& c : chunks) {
    if (c.batch) {
      ALKAID_RETURN_NOT_OK(writer.WriteWithMetadata(*c.batch, c.app_metadata->view()));
    } else {
      ALKAID_RETURN_NOT_OK(writer.WriteMetadata(c.app_metadata->view()));
    }
  }
  return Status::OK();
}

void ExpectSameChunks(const std::vector<FlightStreamChunk>& expected,
                      const std::vector<FlightStreamChunk>& actual, const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i].batch == nullptr, actual[i].batch == nullptr) << what << " chunk " << i;
    ASSERT_EQ(expected[i].app_metadata == nullptr, actual[i].app_metadata == nullptr) << what;
    if (expected[i].app_metadata) {
      EXPECT_EQ(expected[i].app_metadata->view(), actual[i].app_metadata->view()) << what;
    }
    if (!expected[i].batch) continue;
    const auto& a = *expected[i].batch;
    const auto& b = *actual[i].batch;
    ASSERT_EQ(a.num_rows(), b.num_rows()) << what << " chunk " << i;
    ASSERT_EQ(a.num_columns(), b.num_columns());
    for (int c = 0; c < a.num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*a.column_data(c), *b.column_data(c),
                              EqualOptions().with_nans_equal()))
          << what << " chunk " << i << " column " << c;
    }
  }
}

Result<std::vector<FlightStreamChunk>> ReadChunks(FlightStreamReader& reader) {
  std::vector<FlightStreamChunk> out;
  ALKAID_RETURN_NOT_OK(reader.GetSchema().status());
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
    if (!chunk) return out;
    out.push_back(std::move(*chunk));
  }
}

class FlightDataPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Init({.location = "grpc://127.0.0.1:0"}).ok());
    client_ = FlightClient::Connect(server_.location()).ValueOrDie();
  }
  void TearDown() override {
    client_.reset();
    ASSERT_TRUE(server_.Shutdown().ok());
  }
  StoreServer server_;
  std::unique_ptr<FlightClient> client_;
};

class FlightGold : public FlightDataPathTest,
                   public ::testing::WithParamInterface<std::string> {};

TEST_P(FlightGold, DoPutDoGetAndDoExchangeCarryEveryMessage) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  std::string path = data_dir + "/arrow-testing/integration/" + GetParam() + ".arrow_file";
  auto file = ipc::FileReader::OpenMapped(path).ValueOrDie();
  SchemaPtr schema = file->schema();
  auto batches = file->ReadAll().ValueOrDie();
  auto chunks = ChunksOf(batches);
  const std::string name = GetParam();

  // DoPut: the server acknowledges each batch and keeps the upload.
  auto put = client_->DoPut(FlightDescriptor::Path({name}), schema);
  ASSERT_TRUE(put.ok()) << put.status().ToString();
  ASSERT_TRUE(Send(*put->writer, chunks).ok());
  ASSERT_TRUE(put->writer->DoneWriting().ok());
  std::vector<std::string> acks;
  while (true) {
    auto ack = put->reader->Read();
    ASSERT_TRUE(ack.ok()) << ack.status().ToString();
    if (!*ack) break;
    acks.push_back(**ack);
  }
  Status closed = put->writer->Close();
  ASSERT_TRUE(closed.ok()) << closed.ToString();
  EXPECT_EQ(acks.size(), batches.size());
  auto stored = server_.Get(name);
  ASSERT_TRUE(stored.has_value()) << ::testing::PrintToString(server_.failed_uploads());
  EXPECT_TRUE(stored->schema->Equals(*schema, /*check_metadata=*/true))
      << stored->schema->ToString(true);
  ExpectSameChunks(chunks, stored->chunks, "DoPut " + name);

  // DoGet gives back the same messages.
  auto get = client_->DoGet(Ticket{name});
  ASSERT_TRUE(get.ok());
  auto got_schema = (*get)->GetSchema();
  ASSERT_TRUE(got_schema.ok()) << got_schema.status().ToString();
  EXPECT_TRUE((*got_schema)->Equals(*schema, true));
  auto got = ReadChunks(**get);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectSameChunks(chunks, *got, "DoGet " + name);

  // DoExchange echoes them.
  auto exchange = client_->DoExchange(FlightDescriptor::Command(name));
  ASSERT_TRUE(exchange.ok()) << exchange.status().ToString();
  std::vector<FlightStreamChunk> echoed;
  std::thread reader([&] {
    auto r = ReadChunks(*exchange->reader);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) echoed = std::move(*r);
  });
  ASSERT_TRUE(exchange->writer->Begin(schema).ok());
  ASSERT_TRUE(Send(*exchange->writer, chunks).ok());
  ASSERT_TRUE(exchange->writer->DoneWriting().ok());
  reader.join();
  EXPECT_TRUE(exchange->writer->Close().ok());
  ExpectSameChunks(chunks, echoed, "DoExchange " + name);
}

INSTANTIATE_TEST_SUITE_P(Gold, FlightGold, ::testing::ValuesIn(GoldCases()), CaseName);

ArrayDataPtr DictArray(const DataTypePtr& type, const std::string& indices,
                       const ArrayDataPtr& dict) {
  auto data = ArrayFromJSON(int8(), indices);
  data->type = type;
  data->dictionary = dict;
  return data;
}

TEST_F(FlightDataPathTest, DictionaryDeltasReplacementsAndCompressionRoundTrip) {
  auto type = dictionary(int8(), utf8());
  auto s = schema({field("d", type)});
  std::vector<RecordBatchPtr> batches = {
      RecordBatch::Make(s, 2, ArrayDataVector{DictArray(type, "[0, 0]", ArrayFromJSON(utf8(), R"(["a"])"))}),
      // Grows: a delta.
      RecordBatch::Make(s, 2, ArrayDataVector{DictArray(type, "[1, 0]", ArrayFromJSON(utf8(), R"(["a", "b"])"))}),
      // Changes: a replacement.
      RecordBatch::Make(s, 1, ArrayDataVector{DictArray(type, "[0]", ArrayFromJSON(utf8(), R"(["z"])"))}),
  };
  for (auto compression : {ipc::CompressionType::kNone, ipc::CompressionType::kLz4Frame,
                           ipc::CompressionType::kZstd}) {
    for (bool deltas : {true, false}) {
      CallOptions options;
      options.write_options.emit_dictionary_deltas = deltas;
      options.write_options.compression = compression;
      std::string name = "dict" + std::to_string(static_cast<int>(compression)) + (deltas ? "d" : "r");
      auto put = client_->DoPut(FlightDescriptor::Path({name}), s, options);
      ASSERT_TRUE(put.ok());
      auto chunks = ChunksOf(batches);
      ASSERT_TRUE(Send(*put->writer, chunks).ok());
      Status closed = put->writer->Close();
      ASSERT_TRUE(closed.ok()) << closed.ToString();
      auto stored = server_.Get(name);
      ASSERT_TRUE(stored.has_value()) << name;
      ExpectSameChunks(chunks, stored->chunks, name);
      for (size_t i = 1; i + 1 < chunks.size(); ++i) {
        EXPECT_TRUE(stored->chunks[i].batch->ValidateFull().ok()) << name;
      }
    }
  }
}

TEST_F(FlightDataPathTest, AnAbandonedUploadIsNotACleanEnd) {
  auto s = schema({field("x", int32())});
  auto batch = RecordBatch::Make(s, 3, ArrayDataVector{ArrayFromJSON(int32(), "[1, 2, 3]")});
  {
    auto put = client_->DoPut(FlightDescriptor::Path({"abandoned"}), s);
    ASSERT_TRUE(put.ok());
    ASSERT_TRUE(put->writer->WriteRecordBatch(*batch).ok());
    // Wait for the server's acknowledgement, so the server is inside its read loop.
    auto ack = put->reader->Read();
    ASSERT_TRUE(ack.ok());
    // Destroyed without DoneWriting: the call is cancelled.
  }
  for (int i = 0; i < 200 && server_.failed_uploads().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(server_.Get("abandoned").has_value());
  ASSERT_EQ(server_.failed_uploads().size(), 1u);
  EXPECT_NE(server_.failed_uploads()[0].find("cancelled"), std::string::npos)
      << server_.failed_uploads()[0];

  // The same upload finished with DoneWriting is kept.
  auto put = client_->DoPut(FlightDescriptor::Path({"finished"}), s);
  ASSERT_TRUE(put->writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(put->writer->Close().ok());
  EXPECT_TRUE(server_.Get("finished").has_value());
}

TEST_F(FlightDataPathTest, DoGetSendsBodiesWithoutCopying) {
  auto s = schema({field("x", int64())});
  std::string json = "[";
  for (int i = 0; i < 10000; ++i) json += (i ? "," : "") + std::to_string(i);
  json += "]";
  auto batch = RecordBatch::Make(s, 10000, ArrayDataVector{ArrayFromJSON(int64(), json)});
  auto put = client_->DoPut(FlightDescriptor::Path({"big"}), s);
  auto before = wire::GetCopyCounters();
  ASSERT_TRUE(put->writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(put->writer->Close().ok());
  auto after = wire::GetCopyCounters();
  // The 80,000 value bytes went out as a slice over the batch's own buffer.
  EXPECT_GE(after.body_bytes_referenced_on_send - before.body_bytes_referenced_on_send, 80000);
  auto got = client_->DoGet(Ticket{"big"}).ValueOrDie()->ToTable();
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)->num_rows(), 10000);
}

// A client that stops reading mid-stream holds only its own call: others are served, and
// cancelling it frees the server's handler.
TEST_F(FlightDataPathTest, AStalledReaderDoesNotStopOthers) {
  auto s = schema({field("x", int64())});
  std::string json = "[";
  for (int i = 0; i < 50000; ++i) json += (i ? "," : "") + std::to_string(i);
  json += "]";
  auto batch = RecordBatch::Make(s, 50000, ArrayDataVector{ArrayFromJSON(int64(), json)});
  auto put = client_->DoPut(FlightDescriptor::Path({"many"}), s);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(put->writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(put->writer->Close().ok());

  // 40 MB of batches; the stalled reader takes one and stops.
  auto stalled = client_->DoGet(Ticket{"many"}).ValueOrDie();
  ASSERT_TRUE(stalled->Next().ok());
  auto other = FlightClient::Connect(server_.location()).ValueOrDie();
  auto got = other->DoGet(Ticket{"many"}).ValueOrDie()->ToTable();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)->num_rows(), 100 * 50000);
  stalled->Cancel();
  auto after = stalled->Next();
  // Batches already received may still come out; the stream then ends with Cancelled.
  while (after.ok() && *after) after = stalled->Next();
  EXPECT_EQ(FlightStatusCodeOf(after.status()), FlightStatusCode::kCancelled)
      << after.status().ToString();
}

}  // namespace
}  // namespace alkaid::flight

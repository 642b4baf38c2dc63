// The one message framer: its own checks, and the same errors through every
// reader that drives it (stream reader over memory and over an InputStream,
// push decoder, file reader blocks).
#include "src/ipc/message_framer.h"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "alkaid/io/input.h"
#include "src/ipc/reader_test_util.h"

namespace alkaid::ipc {
namespace {

using internal::MessageFramer;
using Part = internal::MessageFramer::Part;
using testing::BodyBuilder;
using testing::CollectingListener;
using testing::IpcBuilder;
using internal::RecordBatchMeta;

SchemaPtr OneInt32() { return schema({field("x", int32())}); }

std::string Word(uint32_t value) {
  std::string out(4, '\0');
  std::memcpy(out.data(), &value, 4);
  return out;
}

// A schema message followed by `tail`.
std::string SchemaThen(const std::string& tail) {
  IpcBuilder b(OneInt32());
  b.AddSchema();
  return b.bytes() + tail;
}

// One record batch of [7] (its framed bytes).
std::string OneBatch(int64_t declared_body_length = -1) {
  IpcBuilder b(OneInt32());
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 1;
  meta.nodes = {{1, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{7})};
  b.AddRecordBatch(meta, body.bytes(), declared_body_length);
  return b.bytes();
}

// The status of reading every batch of `bytes` with the stream reader,
// either from memory or through an InputStream.
Status ReadAllOf(const std::string& bytes, bool from_memory) {
  BufferPtr buffer = Buffer::FromString(bytes);
  Result<std::unique_ptr<StreamReader>> reader =
      from_memory ? StreamReader::Open(buffer)
                  : StreamReader::Open(std::make_shared<io::BufferReader>(buffer));
  if (!reader.ok()) return reader.status();
  return (*reader)->ReadAll().status();
}

// Pushes `bytes` into a StreamDecoder, in one buffer or byte by byte.
Status PushAll(const std::string& bytes, bool byte_by_byte,
               std::shared_ptr<CollectingListener>* out = nullptr) {
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  Status st;
  if (byte_by_byte) {
    for (char c : bytes) {
      st = decoder.Consume(reinterpret_cast<const uint8_t*>(&c), 1);
      if (!st.ok()) break;
    }
  } else {
    st = decoder.Consume(Buffer::FromString(bytes));
  }
  if (out != nullptr) *out = listener;
  return st;
}

void ExpectEveryStreamReaderFails(const std::string& bytes, const std::string& text) {
  for (bool from_memory : {true, false}) {
    SCOPED_TRACE(from_memory ? "memory" : "InputStream");
    EXPECT_ERROR_CONTAINS(ReadAllOf(bytes, from_memory), text);
  }
}

// ---------------------------------------------------------------------------
// The framer alone

TEST(MessageFramer, ContinuationThenLength) {
  MessageFramer framer(default_memory_pool(), 64, "the input");
  framer.Begin(100);
  EXPECT_EQ(framer.part(), Part::kPrefix);
  EXPECT_EQ(framer.need(), 4);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  EXPECT_EQ(framer.part(), Part::kLength);
  ASSERT_TRUE(framer.OnWord(16).ok());
  EXPECT_EQ(framer.part(), Part::kMetadata);
  EXPECT_EQ(framer.need(), 16);
  EXPECT_EQ(framer.prefix_size(), 8);
  EXPECT_EQ(framer.offset(), 108);
}

TEST(MessageFramer, LegacyPrefixAndEndOfStream) {
  MessageFramer framer(default_memory_pool(), 64, "the input");
  framer.Begin(0);
  ASSERT_TRUE(framer.OnWord(24).ok());
  EXPECT_EQ(framer.part(), Part::kMetadata);
  EXPECT_EQ(framer.prefix_size(), 4);
  framer.Begin(0);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  ASSERT_TRUE(framer.OnWord(0).ok());
  EXPECT_EQ(framer.part(), Part::kEndOfStream);
  EXPECT_EQ(framer.need(), 0);
  framer.Begin(0);
  ASSERT_TRUE(framer.OnWord(0).ok());
  EXPECT_EQ(framer.part(), Part::kEndOfStream);
}

TEST(MessageFramer, NegativeLengthNamesItsByte) {
  MessageFramer framer(default_memory_pool(), 64, "the input");
  framer.Begin(40);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  Status st = framer.OnWord(0x80000000u);
  EXPECT_ERROR_CONTAINS(st, "negative metadata length -2147483648");
  EXPECT_ERROR_CONTAINS(st, "at byte 44");
}

TEST(MessageFramer, LengthPastTheLimit) {
  MessageFramer framer(default_memory_pool(), 64, "the block");
  framer.Begin(8, /*limit=*/64);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  ASSERT_TRUE(framer.OnWord(56).ok());  // exactly fits
  framer.Begin(8, 64);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  Status st = framer.OnWord(57);
  EXPECT_ERROR_CONTAINS(st, "metadata length 57 does not fit: only 56 bytes are left in the block");
  EXPECT_ERROR_CONTAINS(st, "at byte 12");
  // INT32_MAX never wraps around the limit.
  framer.Begin(8, 64);
  EXPECT_ERROR_CONTAINS(framer.OnWord(0x7FFFFFFFu), "does not fit");
}

TEST(MessageFramer, TruncationsNameThePartAndByte) {
  MessageFramer framer(default_memory_pool(), 64, "the input");
  framer.Begin(16);
  EXPECT_ERROR_CONTAINS(framer.Truncated(3), "the input ends inside a message prefix (3 of 4 bytes, at byte 16)");
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  EXPECT_ERROR_CONTAINS(framer.Truncated(1), "ends inside a message length (1 of 4 bytes, at byte 20)");
  ASSERT_TRUE(framer.OnWord(1000).ok());
  EXPECT_ERROR_CONTAINS(framer.Truncated(40), "metadata length 1000 exceeds the 40 bytes left in the input");
  EXPECT_ERROR_CONTAINS(framer.Truncated(40), "metadata at byte 24");
}

TEST(MessageFramer, MetadataIsVerifiedAndAligned) {
  // A real record batch message, placed at 4 mod 8: the framer copies it.
  std::string bytes = OneBatch();
  const int64_t length = static_cast<int64_t>(bytes.size()) - 8 - 8;  // minus prefix and body
  std::string shifted = "1234" + bytes.substr(8, static_cast<size_t>(length));
  const std::string padded = shifted + std::string(8, '\0');
  auto storage = Buffer::Copy(reinterpret_cast<const uint8_t*>(padded.data()),
                              static_cast<int64_t>(padded.size()))
                     .ValueOrDie();  // pool memory: 64-byte aligned
  MessageFramer framer(default_memory_pool(), 64, "the input");
  framer.Begin(0);
  ASSERT_TRUE(framer.OnWord(internal::kContinuationMarker).ok());
  ASSERT_TRUE(framer.OnWord(static_cast<uint32_t>(length)).ok());
  std::shared_ptr<ResizableBuffer> scratch;
  const uint8_t* data = storage->data() + 4;
  Status st = framer.OnMetadata(data, &scratch);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_NE(framer.message(), nullptr);
  ASSERT_NE(scratch, nullptr);  // copied for alignment
  EXPECT_EQ(framer.part(), Part::kBody);
  EXPECT_EQ(framer.body_length(), 8);
  EXPECT_ERROR_CONTAINS(framer.Truncated(5), "message body of 8 bytes is truncated: only 5 bytes left");
  framer.OnBody();
  EXPECT_EQ(framer.part(), Part::kDone);
  EXPECT_EQ(framer.wire_size(), static_cast<int64_t>(bytes.size()));
  EXPECT_TRUE(framer.MatchBlock(8 + length, 8).ok());
  EXPECT_ERROR_CONTAINS(framer.MatchBlock(8 + length, 16), "body length 16 disagrees");
  EXPECT_ERROR_CONTAINS(framer.MatchBlock(16 + length, 8), "disagrees with the message it points to");

  // Garbage metadata fails verification and says where it was.
  std::string junk(64, '\x7f');
  auto junk_buffer = Buffer::Copy(reinterpret_cast<const uint8_t*>(junk.data()), 64).ValueOrDie();
  framer.Begin(200);
  ASSERT_TRUE(framer.OnWord(64).ok());
  EXPECT_ERROR_CONTAINS(framer.OnMetadata(junk_buffer->data(), &scratch), "metadata at byte 204");
}

// ---------------------------------------------------------------------------
// The same errors through every reader

TEST(MessageFramerReaders, TruncatedMarker) {
  // Two bytes of a continuation marker after the schema.
  const std::string bytes = SchemaThen(std::string("\xff\xff", 2));
  ExpectEveryStreamReaderFails(bytes, "the stream ends inside a message prefix (2 of 4 bytes");
  ExpectEveryStreamReaderFails(bytes, "stream message 1");
  // The marker whole, the length cut.
  const std::string cut = SchemaThen(Word(internal::kContinuationMarker) + "\x10");
  ExpectEveryStreamReaderFails(cut, "ends inside a message length (1 of 4 bytes");
  // The push decoder waits for the rest instead: it knows no end of input.
  for (bool byte_by_byte : {false, true}) {
    std::shared_ptr<CollectingListener> listener;
    EXPECT_TRUE(PushAll(cut, byte_by_byte, &listener).ok());
    EXPECT_FALSE(listener->eos);
  }
}

TEST(MessageFramerReaders, NegativeLength) {
  const std::string bytes =
      SchemaThen(Word(internal::kContinuationMarker) + Word(0xFFFFFF00u) + std::string(16, '\0'));
  ExpectEveryStreamReaderFails(bytes, "negative metadata length -256");
  for (bool byte_by_byte : {false, true}) {
    Status st = PushAll(bytes, byte_by_byte);
    EXPECT_ERROR_CONTAINS(st, "negative metadata length -256");
    EXPECT_ERROR_CONTAINS(st, "stream message 1");
  }
}

TEST(MessageFramerReaders, MetadataPastTheEnd) {
  const std::string schema_only = SchemaThen("");
  const std::string bytes =
      schema_only + Word(internal::kContinuationMarker) + Word(1000) + std::string(40, 'x');
  const std::string at = "metadata at byte " + std::to_string(schema_only.size() + 8);
  ExpectEveryStreamReaderFails(bytes, "metadata length 1000 exceeds the 40 bytes left in the stream");
  ExpectEveryStreamReaderFails(bytes, at);
  // The push decoder asks for exactly the rest.
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  ASSERT_TRUE(decoder.Consume(Buffer::FromString(bytes)).ok());
  EXPECT_EQ(decoder.next_required_size(), 1000 - 40);
}

TEST(MessageFramerReaders, BodyPastTheEnd) {
  std::string batch = OneBatch();
  batch.resize(batch.size() - 3);  // the body's last 3 bytes are missing
  const std::string bytes = SchemaThen(batch);
  ExpectEveryStreamReaderFails(bytes, "message body of 8 bytes is truncated: only 5 bytes left in the stream");
  ExpectEveryStreamReaderFails(bytes, "stream message 1");
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  ASSERT_TRUE(decoder.Consume(Buffer::FromString(bytes)).ok());
  EXPECT_EQ(decoder.next_required_size(), 3);
  EXPECT_TRUE(listener->batches.empty());
}

TEST(MessageFramerReaders, FileBlocksGoThroughTheSameFramer) {
  IpcBuilder b(OneInt32());
  b.BeginFile();
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 1;
  meta.nodes = {{1, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{7})};
  internal::FileBlock block = b.AddRecordBatch(meta, body.bytes());
  b.AddEndOfStream();
  const std::string prefix_bytes = b.bytes();
  std::vector<internal::FileBlock> none;
  auto read_with = [&](internal::FileBlock lying) {
    IpcBuilder copy = b;
    std::vector<internal::FileBlock> batches{lying};
    return testing::ReadFile(copy.FinishFile("ARROW1", nullptr, &none, &batches)).status();
  };
  // A block too short for a length word.
  internal::FileBlock short_block = block;
  short_block.metadata_length = 6;
  EXPECT_ERROR_CONTAINS(read_with(short_block), "the block's metadata ends inside a message length (2 of 4 bytes");
  // Metadata length reaching past the block.
  internal::FileBlock cut = block;
  cut.metadata_length = 16;
  EXPECT_ERROR_CONTAINS(read_with(cut), "does not fit: only 8 bytes are left in the block's metadata");
  // A block at the end-of-stream marker.
  internal::FileBlock eos = block;
  eos.offset = static_cast<int64_t>(prefix_bytes.size()) - 8;
  eos.metadata_length = 8;
  eos.body_length = 0;
  EXPECT_ERROR_CONTAINS(read_with(eos), "end-of-stream marker");
  // The body length must agree.
  internal::FileBlock longer = block;
  longer.body_length += 8;
  EXPECT_ERROR_CONTAINS(read_with(longer), "disagrees with the message's body length 8");
  EXPECT_TRUE(read_with(block).ok());
}

}  // namespace
}  // namespace alkaid::ipc

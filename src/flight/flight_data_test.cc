// The hand-written FlightData serialization: byte-compatible with protobuf's generated
// FlightData both ways, zero-copy on send, zero-copy on receive when the body is one aligned
// slice, and a clear error (never a crash) for malformed bytes.
#include "flight_data.h"

#include <grpcpp/support/slice.h>

#include <gtest/gtest.h>

#include "alkaid/flight_proto/Flight.pb.h"

namespace alkaid::flight::wire {
namespace {

namespace pb = ::arrow::flight::protocol;

BufferPtr Bytes(std::string_view s) { return Buffer::FromString(std::string(s)); }

BufferPtr PoolBytes(std::string_view s) {
  return *Buffer::Copy(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

std::string Flatten(const grpc::ByteBuffer& bb) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(bb.Dump(&slices).ok());
  std::string out;
  for (const auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

grpc::ByteBuffer FromString(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

std::string BodyString(const FlightData& d) {
  std::string out;
  for (const auto& b : d.body) out += std::string(b->view());
  return out;
}

FlightData Sample() {
  FlightData d;
  pb::FlightDescriptor desc;
  desc.set_type(pb::FlightDescriptor::PATH);
  desc.add_path("a");
  desc.add_path("b");
  d.descriptor = desc.SerializeAsString();
  d.data_header = Bytes("header-flatbuffer");
  d.app_metadata = Bytes(std::string("meta\0data", 9));
  d.body = {PoolBytes("0123456789abcdef"), PoolBytes("xyz"), PoolBytes(std::string(300, 'q'))};
  return d;
}

TEST(FlightData, RoundTripsEveryField) {
  FlightData d = Sample();
  grpc::ByteBuffer bb;
  ASSERT_TRUE(SerializeFlightData(d, &bb).ok());
  auto parsed = ParseFlightData(bb);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->descriptor, d.descriptor);
  EXPECT_EQ(parsed->data_header->view(), "header-flatbuffer");
  EXPECT_EQ(parsed->app_metadata->view(), std::string_view("meta\0data", 9));
  ASSERT_EQ(parsed->body.size(), 1u);
  EXPECT_EQ(BodyString(*parsed), BodyString(d));
  EXPECT_TRUE(parsed->parse_status.ok());
}

TEST(FlightData, AbsentFieldsStayAbsent) {
  FlightData d;
  d.app_metadata = Bytes("only metadata");
  grpc::ByteBuffer bb;
  ASSERT_TRUE(SerializeFlightData(d, &bb).ok());
  auto parsed = ParseFlightData(bb);
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->descriptor.has_value());
  EXPECT_EQ(parsed->data_header, nullptr);
  EXPECT_TRUE(parsed->body.empty());
  EXPECT_EQ(parsed->app_metadata->view(), "only metadata");
}

TEST(FlightData, GeneratedProtobufParsesOurBytesAndWeParseItsBytes) {
  FlightData d = Sample();
  grpc::ByteBuffer bb;
  ASSERT_TRUE(SerializeFlightData(d, &bb).ok());
  pb::FlightData theirs;
  ASSERT_TRUE(theirs.ParseFromString(Flatten(bb)));
  EXPECT_EQ(theirs.flight_descriptor().path_size(), 2);
  EXPECT_EQ(theirs.flight_descriptor().path(1), "b");
  EXPECT_EQ(theirs.data_header(), "header-flatbuffer");
  EXPECT_EQ(theirs.app_metadata(), std::string("meta\0data", 9));
  EXPECT_EQ(theirs.data_body(), BodyString(d));

  // And the other way, with an unknown field (number 77, varint and length-delimited) mixed in:
  // skipped, as protobuf would.
  std::string bytes = theirs.SerializeAsString();
  bytes += std::string("\xe8\x04\x05", 3);       // field 77, varint 5
  bytes += std::string("\xea\x04\x02zz", 5);     // field 77, 2 bytes
  bytes += std::string("\x0d\x01\x02\x03\x04", 5);  // field 1 as fixed32: unknown shape, skipped
  auto parsed = ParseFlightData(FromString(bytes));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed->descriptor, theirs.flight_descriptor().SerializeAsString());
  EXPECT_EQ(parsed->data_header->view(), theirs.data_header());
  EXPECT_EQ(parsed->app_metadata->view(), theirs.app_metadata());
  EXPECT_EQ(BodyString(*parsed), theirs.data_body());
}

TEST(FlightData, MalformedInputGivesClearErrors) {
  FlightData d = Sample();
  grpc::ByteBuffer bb;
  ASSERT_TRUE(SerializeFlightData(d, &bb).ok());
  std::string good = Flatten(bb);
  // Cut inside the body: its length claims more than what remains.
  auto cut = ParseFlightData(FromString(good.substr(0, good.size() - 10)));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("field 1000"), std::string::npos) << cut.status().ToString();
  EXPECT_NE(cut.status().message().find("remain"), std::string::npos);
  // Every prefix either parses (cut at a field boundary) or fails cleanly.
  for (size_t n = 0; n < good.size(); ++n) {
    auto r = ParseFlightData(FromString(good.substr(0, n)));
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsSerializationError()) << n;
    }
  }
  // A length of 2^62.
  std::string huge = "\x12";
  uint64_t v = uint64_t{1} << 62;
  while (v >= 0x80) {
    huge.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  huge.push_back(static_cast<char>(v));
  huge += "abc";
  auto big = ParseFlightData(FromString(huge));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("4611686018427387904"), std::string::npos)
      << big.status().ToString();
  // An endless varint, a group, field number zero, a truncated key.
  for (const std::string& bad :
       {std::string(11, '\xff'), std::string("\x13", 1), std::string("\x02\x00", 2),
        std::string("\x80", 1)}) {
    auto r = ParseFlightData(FromString(bad));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsSerializationError()) << r.status().ToString();
  }
  // The gRPC traits never fail (a failure would look like the end of the stream); they carry
  // the error in parse_status instead.
  grpc::ByteBuffer bad_bb = FromString(std::string("\x13", 1));
  FlightData out;
  EXPECT_TRUE((grpc::SerializationTraits<FlightData>::Deserialize(&bad_bb, &out)).ok());
  EXPECT_FALSE(out.parse_status.ok());
}

TEST(FlightData, SendReferencesBodyBuffersWithoutCopying) {
  FlightData d = Sample();
  std::vector<const uint8_t*> addresses;
  for (const auto& b : d.body) addresses.push_back(b->data());
  long uses_before = d.body[0].use_count();
  CopyCounters before = GetCopyCounters();
  {
    grpc::ByteBuffer bb;
    ASSERT_TRUE(SerializeFlightData(d, &bb).ok());
    std::vector<grpc::Slice> slices;
    ASSERT_TRUE(bb.Dump(&slices).ok());
    ASSERT_EQ(slices.size(), 1 + d.body.size());
    for (size_t i = 0; i < d.body.size(); ++i) {
      EXPECT_EQ(slices[1 + i].begin(), addresses[i]) << i;
      EXPECT_EQ(slices[1 + i].size(), static_cast<size_t>(d.body[i]->size()));
    }
    // The slices hold the buffers alive while gRPC has them.
    EXPECT_EQ(d.body[0].use_count(), uses_before + 1);
  }
  EXPECT_EQ(d.body[0].use_count(), uses_before);
  EXPECT_EQ(GetCopyCounters().body_bytes_referenced_on_send - before.body_bytes_referenced_on_send,
            d.body_length());
}

TEST(FlightData, ReceiveKeepsAnAlignedSingleSliceBodyAndCopiesAFragmentedOne) {
  BufferPtr body = PoolBytes(std::string(256, 'b'));  // 64-byte aligned pool memory
  std::string prefix = std::string("\x12\x01H", 3) + std::string("\xc2\x3e\x80\x02", 4);
  auto* ref = new BufferPtr(body);
  grpc::Slice parts[2] = {
      grpc::Slice(prefix),
      grpc::Slice(const_cast<uint8_t*>(body->data()), 256,
                  [](void* p) { delete static_cast<BufferPtr*>(p); }, ref)};
  CopyCounters before = GetCopyCounters();
  auto parsed = ParseFlightData(grpc::ByteBuffer(parts, 2));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->body.size(), 1u);
  EXPECT_EQ(parsed->body[0]->data(), body->data());
  EXPECT_EQ(GetCopyCounters().body_bytes_referenced_on_receive -
                before.body_bytes_referenced_on_receive, 256);

  // The same body split over two slices: copied once, into an aligned buffer.
  grpc::Slice split[3] = {grpc::Slice(prefix), grpc::Slice(body->data(), 100),
                          grpc::Slice(body->data() + 100, 156)};
  before = GetCopyCounters();
  auto copied = ParseFlightData(grpc::ByteBuffer(split, 3));
  ASSERT_TRUE(copied.ok());
  EXPECT_NE(copied->body[0]->data(), body->data());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copied->body[0]->data()) % 64, 0u);
  EXPECT_EQ(copied->body[0]->view(), body->view());
  EXPECT_EQ(GetCopyCounters().body_bytes_copied_on_receive - before.body_bytes_copied_on_receive,
            256);
}

}  // namespace
}  // namespace alkaid::flight::wire

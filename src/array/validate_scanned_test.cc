// Tests of the facts a reader hands to the data pass of full validation
// (validate_internal.h): what ScanBuffer finds, how ScannedBuffers matches
// a buffer to them, and that validation with true facts decides exactly as
// validation without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/type.h"
#include "validate_internal.h"

namespace alkaid::internal {
namespace {

BufferPtr Owned(const void* data, size_t size) {
  std::shared_ptr<uint8_t[]> memory(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(memory.get(), data, size);
  return std::make_shared<Buffer>(memory.get(), static_cast<int64_t>(size),
                                  std::shared_ptr<const void>(memory, memory.get()));
}

template <typename T>
BufferPtr Owned(const std::vector<T>& values) {
  return Owned(values.data(), values.size() * sizeof(T));
}

BufferPtr Owned(const std::string& bytes) { return Owned(bytes.data(), bytes.size()); }

uint8_t Scan(BufferScan scan, const std::string& bytes) {
  return ScanBuffer(scan, reinterpret_cast<const uint8_t*>(bytes.data()),
                    static_cast<int64_t>(bytes.size()));
}

template <typename T>
uint8_t ScanValues(BufferScan scan, const std::vector<T>& values) {
  return ScanBuffer(scan, reinterpret_cast<const uint8_t*>(values.data()),
                    static_cast<int64_t>(values.size() * sizeof(T)));
}

TEST(ScanBufferTest, Utf8Facts) {
  EXPECT_EQ(Scan(BufferScan::kUtf8, "hello"), kFactAscii | kFactUtf8);
  EXPECT_EQ(Scan(BufferScan::kUtf8, std::string(1000, 'q')), kFactAscii | kFactUtf8);
  EXPECT_EQ(Scan(BufferScan::kUtf8, "caf\xC3\xA9"), kFactUtf8);
  EXPECT_EQ(Scan(BufferScan::kUtf8, std::string(300, 'a') + "\xE4\xB8\xAD"), kFactUtf8);
  EXPECT_EQ(Scan(BufferScan::kUtf8, "caf\xC3"), 0);
  EXPECT_EQ(Scan(BufferScan::kUtf8, std::string(300, 'a') + "\xFF"), 0);
  EXPECT_EQ(Scan(BufferScan::kNone, "hello"), 0);
}

TEST(ScanBufferTest, OffsetFacts) {
  EXPECT_EQ(ScanValues(BufferScan::kOffsets32, std::vector<int32_t>{0, 3, 3, 7}), kFactOrdered32);
  EXPECT_EQ(ScanValues(BufferScan::kOffsets32, std::vector<int32_t>{5}), kFactOrdered32);
  EXPECT_EQ(ScanValues(BufferScan::kOffsets32, std::vector<int32_t>{0, 3, 2}), 0);
  EXPECT_EQ(ScanValues(BufferScan::kOffsets32, std::vector<int32_t>{-1, 0}), 0);
  EXPECT_EQ(ScanValues(BufferScan::kOffsets64, std::vector<int64_t>{0, 1, int64_t{1} << 40}),
            kFactOrdered64);
  EXPECT_EQ(ScanValues(BufferScan::kOffsets64, std::vector<int64_t>{int64_t{1} << 40, 1}), 0);
  // Read as int64, {0, 1, 0, 0} is 1 << 32 then 0: decreasing.
  EXPECT_EQ(ScanValues(BufferScan::kOffsets64, std::vector<int32_t>{0, 1, 0, 0}), 0);
  // A trailing partial value is not looked at; fewer bytes than one value
  // give no fact.
  EXPECT_EQ(ScanBuffer(BufferScan::kOffsets32, reinterpret_cast<const uint8_t*>("\0\0\0\0\xFF"), 5),
            kFactOrdered32);
  EXPECT_EQ(ScanBuffer(BufferScan::kOffsets32, reinterpret_cast<const uint8_t*>("\0\0\0"), 3), 0);
}

TEST(ScannedBuffersTest, FindsOnlyRangesInsideOneScannedBuffer) {
  uint8_t memory[256] = {};
  ScannedBuffers scanned;
  EXPECT_TRUE(scanned.empty());
  scanned.Add(memory + 64, 64, kFactAscii);
  scanned.Add(memory + 0, 32, kFactOrdered32);
  scanned.Add(memory + 160, 16, 0);  // no facts: not recorded
  scanned.Add(memory + 192, 0, kFactAscii);  // empty: not recorded
  scanned.Seal();
  EXPECT_FALSE(scanned.empty());
  const uint8_t* base = nullptr;
  EXPECT_EQ(scanned.Find(memory + 64, 64, &base), kFactAscii);
  EXPECT_EQ(base, memory + 64);
  EXPECT_EQ(scanned.Find(memory + 70, 10, &base), kFactAscii);
  EXPECT_EQ(base, memory + 64);
  EXPECT_EQ(scanned.Find(memory + 0, 32, &base), kFactOrdered32);
  EXPECT_EQ(base, memory);
  EXPECT_EQ(scanned.Find(memory + 100, 40, &base), 0);  // runs past the end
  EXPECT_EQ(scanned.Find(memory + 32, 8, &base), 0);    // between two
  EXPECT_EQ(scanned.Find(memory + 160, 4, &base), 0);
  EXPECT_EQ(scanned.Find(memory + 192, 1, &base), 0);
  scanned.Clear();
  EXPECT_TRUE(scanned.empty());
  EXPECT_EQ(scanned.Find(memory + 64, 64, &base), 0);
}

// Facts about a string column's offsets and data buffers.
ScannedBuffers Facts(const BufferPtr& offsets, uint8_t offset_facts, const BufferPtr& data,
                     uint8_t data_facts) {
  ScannedBuffers facts;
  facts.Add(offsets->data(), offsets->size(), offset_facts);
  facts.Add(data->data(), data->size(), data_facts);
  facts.Seal();
  return facts;
}

Status ValidateWith(const ArrayDataPtr& column, const ScannedBuffers* scanned) {
  size_t failed = 0;
  BatchColumns batch;
  batch.columns = &column;
  batch.num_columns = 1;
  batch.scanned = scanned;
  return ValidateColumnsDataOfValidStructure(batch, ValidateOptions{}, &failed);
}

// Facts are only looked up for arrays of at least this many slots (shorter
// ones cost less to check than to look up).
constexpr int64_t kSlots = 100;

// kSlots string slots of 2 bytes each: "ab" in every slot but the last,
// which holds two bytes that are not UTF-8; offsets[3] is 3 where 6 belongs
// (decreasing).
struct BrokenColumn {
  BufferPtr offsets, data;
  ArrayDataPtr column;
  BrokenColumn() {
    std::vector<int32_t> o;
    std::string d;
    for (int64_t i = 0; i <= kSlots; ++i) o.push_back(static_cast<int32_t>(2 * i));
    for (int64_t i = 0; i + 1 < kSlots; ++i) d += "ab";
    d += "\xFF\xFF";
    o[3] = 3;
    offsets = Owned(o);
    data = Owned(d);
    column = ArrayData::Make(utf8(), kSlots, {nullptr, offsets, data}, 0);
  }
};

// Facts are taken on trust: this shows they are consulted at all (the IPC
// tests show the reader only records true ones).
TEST(ScannedBuffersTest, ValidationTakesTheFacts) {
  BrokenColumn c;
  EXPECT_FALSE(ValidateWith(c.column, nullptr).ok());
  ScannedBuffers none;
  none.Seal();
  EXPECT_FALSE(ValidateWith(c.column, &none).ok());

  ScannedBuffers facts = Facts(c.offsets, kFactOrdered32, c.data, kFactAscii);
  EXPECT_TRUE(ValidateWith(c.column, &facts).ok());

  // A fact for the other offset width does not apply.
  ScannedBuffers wrong_width = Facts(c.offsets, kFactOrdered64, c.data, kFactAscii);
  Status st = ValidateWith(c.column, &wrong_width);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("offset[3] = 3 is less than"), std::string::npos) << st.ToString();

  // Nor are facts looked up for short arrays.
  auto short_column = ArrayData::Make(utf8(), 4, {nullptr, c.offsets, c.data}, 0);
  EXPECT_FALSE(ValidateWith(short_column, &facts).ok());
}

TEST(ScannedBuffersTest, OrderedOffsetsStillNeedToEndInsideTheData) {
  std::vector<int32_t> o;
  for (int64_t i = 0; i <= kSlots; ++i) o.push_back(static_cast<int32_t>(i));
  o[kSlots] = kSlots + 5;
  auto offsets = Owned(o);
  auto data = Owned(std::string(kSlots, 'a'));
  auto column = ArrayData::Make(utf8(), kSlots, {nullptr, offsets, data}, 0);
  ScannedBuffers facts = Facts(offsets, kFactOrdered32, data, kFactAscii);
  Status st = ValidateWith(column, &facts);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("past the end of the data buffer"), std::string::npos)
      << st.ToString();
}

// Text of 1- to 4-byte characters cut into `slots` slots (starting at
// `offset`): most cuts on character boundaries, about one in 150 anywhere;
// about one slot in five is null.
struct RandomColumn {
  ArrayDataPtr column;
  BufferPtr offsets, data;
};

RandomColumn MakeRandomColumn(std::mt19937_64& rng, int64_t slots, int64_t offset) {
  std::string text;
  std::vector<int32_t> boundaries = {0};
  const char* pieces[] = {"a", "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
  const int64_t chars = 1 + static_cast<int64_t>(rng() % 400);
  for (int64_t i = 0; i < chars; ++i) {
    text += pieces[rng() % 4];
    boundaries.push_back(static_cast<int32_t>(text.size()));
  }
  std::vector<int32_t> cuts(static_cast<size_t>(slots + offset + 1));
  for (auto& c : cuts) {
    c = rng() % 150 == 0 ? static_cast<int32_t>(rng() % (text.size() + 1))
                         : boundaries[rng() % boundaries.size()];
  }
  std::sort(cuts.begin(), cuts.end());
  std::vector<uint8_t> bits(static_cast<size_t>((slots + offset + 7) / 8), 0);
  int64_t nulls = 0;
  for (int64_t i = 0; i < slots + offset; ++i) {
    if (rng() % 5 != 0) {
      bits[static_cast<size_t>(i / 8)] |= static_cast<uint8_t>(1u << (i % 8));
    } else if (i >= offset) {
      ++nulls;
    }
  }
  RandomColumn out;
  out.offsets = Owned(cuts);
  out.data = Owned(text);
  out.column = ArrayData::Make(utf8(), slots, {Owned(bits), out.offsets, out.data}, nulls, offset);
  return out;
}

TEST(ScannedBuffersTest, ValidUtf8FactDecidesAsAFullCheckDoes) {
  std::mt19937_64 rng(20261126);
  int refused = 0, accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    const int64_t slots = kSlots + static_cast<int64_t>(rng() % 100);
    const int64_t offset = static_cast<int64_t>(rng() % 3);
    RandomColumn c = MakeRandomColumn(rng, slots, offset);
    const Status plain = ValidateWith(c.column, nullptr);
    ScannedBuffers facts =
        Facts(c.offsets, ScanBuffer(BufferScan::kOffsets32, c.offsets->data(), c.offsets->size()),
              c.data, ScanBuffer(BufferScan::kUtf8, c.data->data(), c.data->size()));
    const Status with_facts = ValidateWith(c.column, &facts);
    ASSERT_EQ(plain.ok(), with_facts.ok()) << "round " << round << ": " << plain.ToString()
                                           << " vs " << with_facts.ToString();
    ASSERT_EQ(plain.message(), with_facts.message()) << "round " << round;
    (plain.ok() ? accepted : refused) += 1;
  }
  // Both outcomes were exercised many times.
  EXPECT_GT(refused, 1000);
  EXPECT_GT(accepted, 1000);
}

}  // namespace
}  // namespace alkaid::internal

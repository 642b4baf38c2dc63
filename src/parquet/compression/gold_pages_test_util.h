// Test-only: just enough of the Parquet footer and page headers (Thrift
// compact protocol) to find every page of the gold files, so codecs and
// decoders can be checked against real files without the reader. The values
// are read generically into a tree; tests pick fields by id.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace alkaid::parquet::testing {

// A Thrift value: integers (bool, i8..i64 as int64), binary, lists, structs.
struct ThriftValue {
  int64_t i = 0;
  std::string bin;
  std::vector<ThriftValue> list;
  std::map<int, ThriftValue> fields;
  const ThriftValue* Field(int id) const {
    auto it = fields.find(id);
    return it == fields.end() ? nullptr : &it->second;
  }
  int64_t Int(int id, int64_t otherwise = -1) const {
    const ThriftValue* f = Field(id);
    return f ? f->i : otherwise;
  }
};

class CompactReader {
 public:
  CompactReader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool ok() const { return ok_; }
  size_t consumed(const uint8_t* start) const { return p_ - start; }

  ThriftValue Struct(int depth = 0) {
    ThriftValue v;
    int last = 0;
    while (ok_) {
      const uint8_t b = Byte();
      if (b == 0) break;
      const int type = b & 0x0f;
      const int delta = b >> 4;
      const int id = delta ? last + delta : static_cast<int>(ZigZag());
      last = id;
      v.fields[id] = Value(type, depth);
    }
    return v;
  }

 private:
  uint8_t Byte() {
    if (p_ >= end_) {
      ok_ = false;
      return 0;
    }
    return *p_++;
  }
  uint64_t Varint() {
    uint64_t r = 0;
    for (int shift = 0; ok_ && shift < 64; shift += 7) {
      const uint8_t b = Byte();
      r |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return r;
    }
    ok_ = false;
    return 0;
  }
  int64_t ZigZag() {
    const uint64_t u = Varint();
    return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  }
  ThriftValue Value(int type, int depth) {
    ThriftValue v;
    if (depth > 64) {
      ok_ = false;
      return v;
    }
    switch (type) {
      case 1: v.i = 1; break;
      case 2: v.i = 0; break;
      case 3: v.i = static_cast<int8_t>(Byte()); break;
      case 4:
      case 5:
      case 6: v.i = ZigZag(); break;
      case 7:
        for (int k = 0; k < 8; ++k) Byte();
        break;
      case 8: {
        const uint64_t n = Varint();
        if (n > static_cast<uint64_t>(end_ - p_)) {
          ok_ = false;
          break;
        }
        v.bin.assign(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        break;
      }
      case 9:
      case 10: {
        const uint8_t h = Byte();
        uint64_t n = h >> 4;
        if (n == 15) n = Varint();
        if (n > static_cast<uint64_t>(end_ - p_)) {
          ok_ = false;
          break;
        }
        for (uint64_t k = 0; k < n && ok_; ++k) {
          const int et = h & 0x0f;
          // Booleans in containers are one byte each.
          ThriftValue element;
          if (et == 1 || et == 2) element.i = Byte() == 1;
          else element = Value(et, depth + 1);
          v.list.push_back(std::move(element));
        }
        break;
      }
      case 11: {
        const uint64_t n = Varint();
        if (n == 0) break;
        const uint8_t kv = Byte();
        for (uint64_t k = 0; k < n && ok_; ++k) {
          v.list.push_back(Value(kv >> 4, depth + 1));
          v.list.push_back(Value(kv & 0x0f, depth + 1));
        }
        break;
      }
      case 12: v = Struct(depth + 1); break;
      default: ok_ = false;
    }
    return v;
  }

  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

struct GoldPage {
  int type = 0;  // 0 data v1, 2 dictionary, 3 data v2
  ThriftValue header;
  int64_t uncompressed_size = 0;
  std::string body;  // the bytes after the header (compressed_page_size of them)
};

struct GoldColumnChunk {
  int physical_type = 0;
  int codec = 0;
  int64_t num_values = 0;
  std::string path;  // dotted column path
  std::vector<GoldPage> pages;
};

struct GoldFile {
  std::string bytes;
  ThriftValue metadata;
  std::vector<GoldColumnChunk> chunks;  // every column chunk of every row group
};

// Reads `path` and finds every page; nullopt when it is not a plain (unencrypted) file
// or its metadata cannot be walked.
inline std::optional<GoldFile> ReadGoldFile(const std::string& path) {
  GoldFile f;
  std::ifstream in(path, std::ios::binary);
  f.bytes.assign(std::istreambuf_iterator<char>(in), {});
  const std::string& b = f.bytes;
  if (b.size() < 12 || b.compare(0, 4, "PAR1") != 0 || b.compare(b.size() - 4, 4, "PAR1") != 0) {
    return std::nullopt;
  }
  const auto* base = reinterpret_cast<const uint8_t*>(b.data());
  uint32_t footer_len;
  std::memcpy(&footer_len, base + b.size() - 8, 4);
  if (footer_len > b.size() - 12) return std::nullopt;
  CompactReader footer(base + b.size() - 8 - footer_len, footer_len);
  f.metadata = footer.Struct();
  if (!footer.ok()) return std::nullopt;
  const ThriftValue* groups = f.metadata.Field(4);
  if (groups == nullptr) return f;
  for (const ThriftValue& group : groups->list) {
    const ThriftValue* columns = group.Field(1);
    if (columns == nullptr) continue;
    for (const ThriftValue& column : columns->list) {
      const ThriftValue* meta = column.Field(3);
      if (meta == nullptr) return std::nullopt;
      GoldColumnChunk chunk;
      chunk.physical_type = static_cast<int>(meta->Int(1));
      chunk.codec = static_cast<int>(meta->Int(4));
      chunk.num_values = meta->Int(5);
      if (const ThriftValue* names = meta->Field(3)) {
        for (const ThriftValue& n : names->list) chunk.path += (chunk.path.empty() ? "" : ".") + n.bin;
      }
      int64_t start = meta->Int(9);
      const int64_t dict = meta->Int(11, 0);
      if (dict > 0 && dict < start) start = dict;
      const int64_t end = start + meta->Int(7);
      if (start < 4 || end > static_cast<int64_t>(b.size()) || start > end) return std::nullopt;
      int64_t values = 0;
      int64_t pos = start;
      while (pos < end && values < chunk.num_values) {
        CompactReader r(base + pos, static_cast<size_t>(end - pos));
        GoldPage page;
        page.header = r.Struct();
        if (!r.ok()) return std::nullopt;
        page.type = static_cast<int>(page.header.Int(1));
        page.uncompressed_size = page.header.Int(2);
        const int64_t compressed = page.header.Int(3);
        pos += static_cast<int64_t>(r.consumed(base + pos));
        if (compressed < 0 || compressed > end - pos) return std::nullopt;
        page.body.assign(b, static_cast<size_t>(pos), static_cast<size_t>(compressed));
        pos += compressed;
        if (page.type == 0) values += page.header.Field(5)->Int(1);
        if (page.type == 3) values += page.header.Field(8)->Int(1);
        chunk.pages.push_back(std::move(page));
      }
      f.chunks.push_back(std::move(chunk));
    }
  }
  return f;
}

}  // namespace alkaid::parquet::testing

// The fuzz targets' own checks run on real inputs as ordinary tests (see
// fuzz/replay.cmake): the gold files and fuzz corpora of arrow-testing, the
// bundled samples, and for the C Data targets their minimized corpora
// (fuzz/seeds/) and fixed pseudo-random inputs.
// A target reports a wrong answer by aborting, which fails the test; each
// test also checks that it fed the inputs it expected to find.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/integration_json/integration.h"
#include "test_util/test_data.h"

extern "C" {
int FuzzOne_ipc_stream(const uint8_t* data, size_t size);
int FuzzOne_ipc_file(const uint8_t* data, size_t size);
int FuzzOne_ipc_decoder(const uint8_t* data, size_t size);
int FuzzOne_csv(const uint8_t* data, size_t size);
int FuzzOne_jsonl(const uint8_t* data, size_t size);
int FuzzOne_integration_json(const uint8_t* data, size_t size);
int FuzzOne_c_schema(const uint8_t* data, size_t size);
int FuzzOne_c_array(const uint8_t* data, size_t size);
int FuzzOne_parquet_read(const uint8_t* data, size_t size);
}

namespace {

namespace fs = std::filesystem;
using FuzzTarget = int (*)(const uint8_t*, size_t);

void Feed(FuzzTarget target, const std::string& bytes) {
  target(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Files directly in `dir` (sorted), or those whose name ends in `suffix`
// in each subdirectory of `dir` when `suffix` is given.
std::vector<fs::path> Files(const fs::path& dir, const std::string& suffix = "") {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (suffix.empty()) {
      if (entry.is_regular_file()) out.push_back(entry.path());
      continue;
    }
    if (!entry.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(entry.path())) {
      const std::string name = file.path().filename().string();
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(file.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// arrow-testing's fuzz corpus `corpus` and the gold files ending in `suffix`.
std::vector<fs::path> CorpusAndGold(const std::string& data, const std::string& corpus,
                                    const std::string& suffix) {
  const fs::path root = fs::path(data) / "arrow-testing";
  auto files = Files(root / corpus);
  const auto gold = Files(root / "integration", suffix);
  files.insert(files.end(), gold.begin(), gold.end());
  return files;
}

TEST(FuzzReplay, IpcStreamTargetOnStreams) {
  ALKAID_REQUIRE_TEST_DATA(data);
  const auto files = CorpusAndGold(data, "fuzz-stream", ".stream");
  ASSERT_GT(files.size(), 90u);
  for (const auto& f : files) Feed(FuzzOne_ipc_stream, ReadBytes(f));
}

TEST(FuzzReplay, IpcFileTargetOnFiles) {
  ALKAID_REQUIRE_TEST_DATA(data);
  const auto files = CorpusAndGold(data, "fuzz-file", ".arrow_file");
  ASSERT_GT(files.size(), 80u);
  for (const auto& f : files) Feed(FuzzOne_ipc_file, ReadBytes(f));
}

TEST(FuzzReplay, IpcDecoderTargetOnStreamsInPieces) {
  ALKAID_REQUIRE_TEST_DATA(data);
  const auto files = Files(fs::path(data) / "arrow-testing" / "integration", ".stream");
  ASSERT_GT(files.size(), 50u);
  // The first byte picks the piece size: 1, 7 and 255 bytes.
  for (const auto& f : files) {
    const std::string bytes = ReadBytes(f);
    for (char piece : {'\0', '\6', '\xFE'}) Feed(FuzzOne_ipc_decoder, piece + bytes);
  }
}

// The Parquet target's first byte picks the reader options: plain defaults; dictionary
// arrays with large strings; dictionary arrays, string views, no ARROW:schema and 98-row
// batches; large strings, no CRC checks and 680-row batches.
TEST(FuzzReplay, ParquetReadTargetOnGoldFiles) {
  ALKAID_REQUIRE_TEST_DATA(data);
  std::vector<fs::path> files;
  for (const char* dir : {"data", "variant", "shredded_variant"}) {
    for (const auto& f : Files(fs::path(data) / "parquet-testing" / dir)) {
      if (f.extension() == ".parquet") files.push_back(f);
    }
  }
  ASSERT_GT(files.size(), 150u);
  for (const auto& f : files) {
    const std::string bytes = ReadBytes(f);
    for (char choice : {'\x00', '\x03', '\x2D', '\xF2'}) Feed(FuzzOne_parquet_read, choice + bytes);
  }
}

TEST(FuzzReplay, IntegrationJsonTargetOnGoldDocuments) {
  ALKAID_REQUIRE_TEST_DATA(data);
  const auto files = Files(fs::path(data) / "arrow-testing" / "integration", ".json.gz");
  ASSERT_GT(files.size(), 50u);
  for (const auto& f : files) {
    auto text = alkaid::integration_json::MaybeGunzip(ReadBytes(f));
    ASSERT_TRUE(text.ok()) << f << ": " << text.status().message();
    Feed(FuzzOne_integration_json, *text);
  }
}

// The first byte of a text target's input picks the reader options; every
// 7th value (37 of them, each option bit both set and clear) is tried on
// each sample.
void FeedTextModes(FuzzTarget target, const std::string& text) {
  for (int mode = 0; mode < 256; mode += 7) Feed(target, static_cast<char>(mode) + text);
}

TEST(FuzzReplay, CsvTargetOnSamples) {
  const std::string sample = ReadBytes(fs::path(ALKAID_SOURCE_DIR) / "samples" / "cities.csv");
  ASSERT_GT(sample.size(), 100u);
  FeedTextModes(FuzzOne_csv, sample);
  FeedTextModes(FuzzOne_csv, "a,b\n1,\"x\"\"y\"\n2,\n,\n");
  FeedTextModes(FuzzOne_csv, "\xEF\xBB\xBFid;name\n1;\xE4\xB8\x8A\xE6\xB5\xB7\n");
}

TEST(FuzzReplay, JsonlTargetOnSamples) {
  FeedTextModes(FuzzOne_jsonl, R"({"a": 1, "b": "x", "c": [1, 2], "d": {"e": null}})" "\n"
                               R"({"a": 2.5, "b": null, "c": [], "d": {"e": true}})" "\n");
  FeedTextModes(FuzzOne_jsonl, "{\"t\": \"2024-01-02T03:04:05Z\"}\n{\"t\": \"x\"}\n");
  FeedTextModes(FuzzOne_jsonl, "{\"deep\": [[[[[[1]]]]]]}\n{\"deep\": [[[[[[2, 3]]]]]]}\n");
}

// Fixed pseudo-random inputs: the same ones in every run.
void FeedRandom(FuzzTarget target, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes;
  for (int i = 0; i < count; ++i) {
    bytes.resize(1 + rng() % 600);
    for (char& c : bytes) c = static_cast<char>(rng());
    Feed(target, bytes);
  }
}

// fuzz/seeds/NAME.seeds.gz: a libFuzzer corpus of the target, minimized
// with -merge=1 and packed as (uint32 little-endian length, bytes) records.
// Returns how many inputs it fed.
int FeedSeeds(FuzzTarget target, const std::string& name) {
  const fs::path path = fs::path(ALKAID_SOURCE_DIR) / "fuzz" / "seeds" / (name + ".seeds.gz");
  auto packed = alkaid::integration_json::MaybeGunzip(ReadBytes(path));
  if (!packed.ok()) {
    ADD_FAILURE() << path << ": " << packed.status().message();
    return 0;
  }
  int fed = 0;
  size_t at = 0;
  while (at + 4 <= packed->size()) {
    const auto* p = reinterpret_cast<const uint8_t*>(packed->data() + at);
    const size_t n = p[0] | (p[1] << 8) | (p[2] << 16) | (size_t{p[3]} << 24);
    at += 4;
    if (n > packed->size() - at) {
      ADD_FAILURE() << path << ": record " << fed << " runs past the end";
      return fed;
    }
    Feed(target, packed->substr(at, n));
    at += n;
    ++fed;
  }
  return fed;
}

TEST(FuzzReplay, CSchemaTargetOnSeedsAndRandomTrees) {
  EXPECT_GT(FeedSeeds(FuzzOne_c_schema, "c_schema"), 500);
  FeedRandom(FuzzOne_c_schema, 20000, 1);
}

TEST(FuzzReplay, CArrayTargetOnSeedsAndRandomTrees) {
  EXPECT_GT(FeedSeeds(FuzzOne_c_array, "c_array"), 1000);
  FeedRandom(FuzzOne_c_array, 20000, 2);
}

}  // namespace

// Projection in the file reader: a file read with pread fetches only the
// selected columns' buffers, a mapped file is told exactly which pages will
// be read, and either way the arrays are those of a full read.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "alkaid/bitmap.h"
#include "alkaid/compare.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/table.h"
#include "reader_test_util.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

namespace fs = std::filesystem;

// A file that copies what it reads (no zero copy, like ReadableFile) and
// counts the bytes it hands out and the hints it receives. Reads past `cut`
// come back short, as if the file had been truncated after it was opened.
class CountingFile final : public io::RandomAccessFile {
 public:
  explicit CountingFile(BufferPtr bytes) : inner_(std::move(bytes)) {}

  Result<BufferPtr> Read(int64_t nbytes) override {
    ALKAID_ASSIGN_OR_RAISE(int64_t pos, inner_.Tell());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr out, ReadAt(pos, nbytes));
    ALKAID_RETURN_NOT_OK(inner_.Seek(pos + out->size()));
    return out;
  }
  Result<int64_t> Read(int64_t nbytes, void* out) override {
    ALKAID_ASSIGN_OR_RAISE(int64_t pos, inner_.Tell());
    ALKAID_ASSIGN_OR_RAISE(int64_t n, ReadAt(pos, nbytes, out));
    ALKAID_RETURN_NOT_OK(inner_.Seek(pos + n));
    return n;
  }
  Result<int64_t> Tell() const override { return inner_.Tell(); }
  Status Close() override { return inner_.Close(); }
  bool closed() const override { return inner_.closed(); }
  Result<int64_t> GetSize() override { return inner_.GetSize(); }
  Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) override {
    ALKAID_ASSIGN_OR_RAISE(auto out, AllocateBuffer(std::max<int64_t>(nbytes, 0)));
    ALKAID_ASSIGN_OR_RAISE(int64_t n, ReadAt(offset, nbytes, out->mutable_data()));
    ALKAID_RETURN_NOT_OK(out->Resize(n));
    return BufferPtr(std::move(out));
  }
  Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) override {
    if (cut >= 0 && offset + nbytes > cut) nbytes = std::max<int64_t>(cut - offset, 0);
    ALKAID_ASSIGN_OR_RAISE(int64_t n, inner_.ReadAt(offset, nbytes, out));
    bytes_read += n;
    ++reads;
    return n;
  }
  Status Seek(int64_t position) override { return inner_.Seek(position); }
  Status WillNeed(std::span<const io::ReadRange> ranges) override {
    for (const auto& r : ranges) will_need.push_back(r);
    return Status::OK();
  }
  Status Advise(io::AccessPattern pattern) override {
    advised = pattern;
    return Status::OK();
  }

  std::atomic<int64_t> bytes_read{0};
  std::atomic<int64_t> reads{0};
  std::vector<io::ReadRange> will_need;
  io::AccessPattern advised = io::AccessPattern::kNormal;
  int64_t cut = -1;  // reads past this come back short

 private:
  io::BufferReader inner_;
};

IpcReadOptions Select(std::vector<int> fields) {
  IpcReadOptions options;
  options.included_fields = std::move(fields);
  return options;
}

// Batch by batch, column `column` of `full` must equal column 0 of `projected`.
void ExpectColumnMatches(const std::vector<RecordBatchPtr>& full,
                         const std::vector<RecordBatchPtr>& projected, int column,
                         const std::string& what) {
  ASSERT_EQ(full.size(), projected.size()) << what;
  for (size_t b = 0; b < full.size(); ++b) {
    ASSERT_EQ(projected[b]->num_columns(), 1) << what;
    EXPECT_EQ(projected[b]->num_rows(), full[b]->num_rows()) << what;
    const ArrayData& want = *full[b]->column_data(column);
    const ArrayData& got = *projected[b]->column_data(0);
    EXPECT_TRUE(ArrayEquals(want, got)) << what << ", batch " << b << ": "
                                        << ArrayDiff(want, got);
  }
}

// A file of `num_columns` int64 columns (column c holds c * 1000 + row; every
// third column has nulls) in `num_batches` batches of `rows` rows.
BufferPtr IntFile(int num_columns, int64_t rows, int num_batches,
                  IpcWriteOptions write = IpcWriteOptions::Defaults()) {
  FieldVector fields;
  for (int c = 0; c < num_columns; ++c) fields.push_back(field("c" + std::to_string(c), int64()));
  SchemaPtr s = schema(fields);
  io::BufferOutputStream sink;
  auto writer = MakeFileWriter(&sink, s, write).ValueOrDie();
  for (int b = 0; b < num_batches; ++b) {
    ArrayDataVector columns;
    for (int c = 0; c < num_columns; ++c) {
      auto values = AllocateBuffer(rows * 8).ValueOrDie();
      auto* v = values->mutable_data_as<int64_t>();
      for (int64_t r = 0; r < rows; ++r) v[r] = c * 1000 + r + b;
      BufferPtr validity;
      int64_t nulls = 0;
      if (c % 3 == 0) {
        validity = AllocateBitmap(rows, true).ValueOrDie();
        for (int64_t r = 0; r < rows; r += 7) {
          bit_util::ClearBit(validity->mutable_data(), r);
          ++nulls;
        }
      }
      columns.push_back(ArrayData::Make(int64(), rows, {validity, values}, nulls));
    }
    EXPECT_TRUE(writer->WriteRecordBatch(*RecordBatch::Make(s, rows, columns)).ok());
  }
  EXPECT_TRUE(writer->Close().ok());
  return sink.Finish().ValueOrDie();
}

TEST(FileProjection, PreadReadsOnlySelectedBuffers) {
  constexpr int kColumns = 40;
  constexpr int64_t kRows = 20000;  // 160,000 bytes per column and batch
  constexpr int kBatches = 3;
  BufferPtr bytes = IntFile(kColumns, kRows, kBatches);
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  for (int column : {0, 1, 17, kColumns - 1}) {
    auto file = std::make_shared<CountingFile>(bytes);
    auto reader = FileReader::Open(file, Select({column})).ValueOrDie();
    EXPECT_EQ(file->advised, io::AccessPattern::kRandom);
    const int64_t opened = file->bytes_read;
    auto projected = reader->ReadAll().ValueOrDie();
    ExpectColumnMatches(full, projected, column, "column " + std::to_string(column));
    // The column's own bytes (values and, for every third, its bitmap, each
    // padded to 8) and the batches' metadata, nothing else.
    int64_t column_bytes = 0;
    for (const auto& batch : full) {
      for (const auto& buf : batch->column_data(column)->buffers) {
        if (buf) column_bytes += (buf->size() + 7) / 8 * 8;
      }
    }
    // Metadata: ~2 KB per batch here, read twice when the scan prefetches.
    const int64_t metadata_bytes = 2 * kBatches * 2100;
    const int64_t batch_bytes = file->bytes_read - opened;
    EXPECT_GE(batch_bytes, column_bytes) << "column " << column;
    EXPECT_LE(batch_bytes, column_bytes + metadata_bytes) << "column " << column;
    EXPECT_LT(batch_bytes * 10, bytes->size()) << "column " << column;
  }
}

TEST(FileProjection, SequentialScanPrefetchesTheNextBatch) {
  // 20 columns of 8,000 int64: 1.28 MB bodies, large enough to prefetch.
  BufferPtr bytes = IntFile(20, 8000, 3);
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  auto values_at = [&](size_t b) {
    return full[b]->column_data(7)->buffers[1]->data() - bytes->data();
  };
  {
    auto file = std::make_shared<CountingFile>(bytes);
    auto reader = FileReader::Open(file, Select({7})).ValueOrDie();
    ExpectColumnMatches(full, reader->ReadAll().ValueOrDie(), 7, "scan");
    // Reading batch 0 hints batch 1, reading 1 hints 2; the last hints nothing.
    ASSERT_EQ(file->will_need.size(), 2u);
    EXPECT_EQ(file->will_need[0].offset, values_at(1));
    EXPECT_EQ(file->will_need[1].offset, values_at(2));
    EXPECT_EQ(file->will_need[0].length, 8000 * 8);
  }
  {
    // Random access is not a scan: nothing is prefetched.
    auto file = std::make_shared<CountingFile>(bytes);
    auto reader = FileReader::Open(file, Select({7})).ValueOrDie();
    ASSERT_TRUE(reader->ReadRecordBatch(1).ok());
    ASSERT_TRUE(reader->ReadRecordBatch(0).ok());
    EXPECT_TRUE(file->will_need.empty());
  }
}

TEST(FileProjection, NearbyColumnsAreReadTogether) {
  // Columns of 80 bytes: two selected columns with one left out between them
  // are closer than the coalescing gap, so each batch is one read.
  BufferPtr bytes = IntFile(10, 10, 2);
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  auto file = std::make_shared<CountingFile>(bytes);
  auto reader = FileReader::Open(file, Select({4, 2})).ValueOrDie();
  const int64_t opened = file->reads;
  auto batches = reader->ReadAll().ValueOrDie();
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(file->reads - opened, 4);  // metadata and one run of each batch
  for (size_t b = 0; b < 2; ++b) {
    EXPECT_TRUE(ArrayEquals(*full[b]->column_data(4), *batches[b]->column_data(0)));
    EXPECT_TRUE(ArrayEquals(*full[b]->column_data(2), *batches[b]->column_data(1)));
  }
}

TEST(FileProjection, SelectingEveryColumnReadsWholeBodies) {
  BufferPtr bytes = IntFile(4, 1000, 2);
  auto file = std::make_shared<CountingFile>(bytes);
  auto reader = FileReader::Open(file, Select({3, 2, 1, 0})).ValueOrDie();
  EXPECT_EQ(file->advised, io::AccessPattern::kNormal);
  const int64_t opened = file->reads;
  auto batches = reader->ReadAll().ValueOrDie();
  EXPECT_EQ(batches.size(), 2u);
  EXPECT_EQ(file->reads - opened, 4);  // metadata and body of each batch
}

TEST(FileProjection, BuffersKeepTheirAlignment) {
  BufferPtr bytes = IntFile(12, 3001, 2, [] {
    IpcWriteOptions w;
    w.alignment = 64;
    return w;
  }());
  for (int column = 0; column < 12; ++column) {
    auto file = std::make_shared<CountingFile>(bytes);
    auto batches = FileReader::Open(file, Select({column})).ValueOrDie()->ReadAll().ValueOrDie();
    for (const auto& batch : batches) {
      for (const auto& buf : batch->column_data(0)->buffers) {
        if (buf && buf->size() > 0) {
          EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % 64, 0u) << "column " << column;
        }
      }
    }
  }
}

TEST(FileProjection, CompressedBodies) {
  for (CompressionType codec : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
    IpcWriteOptions w;
    w.compression = codec;
    BufferPtr bytes = IntFile(8, 5000, 2, w);
    auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
    for (int column = 0; column < 8; ++column) {
      auto file = std::make_shared<CountingFile>(bytes);
      auto batches = FileReader::Open(file, Select({column})).ValueOrDie()->ReadAll().ValueOrDie();
      ExpectColumnMatches(full, batches, column, "compressed column " + std::to_string(column));
    }
  }
}

TEST(FileProjection, FileCutShortAfterOpenIsAClearError) {
  BufferPtr bytes = IntFile(20, 20000, 2);
  // Where the values of column 9 of the first batch lie (zero-copy read).
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  const int64_t values_at = full[0]->column_data(9)->buffers[1]->data() - bytes->data();
  // Opening (magic, footer) still works; the column's bytes then end early.
  auto file = std::make_shared<CountingFile>(bytes);
  auto reader = FileReader::Open(file, Select({9})).ValueOrDie();
  file->cut = values_at + 100;
  auto first = reader->ReadRecordBatch(0);
  EXPECT_ERROR_CONTAINS(first, "record batch block 0");
  EXPECT_ERROR_CONTAINS(first, "file ends inside the message body: wanted ");
}

TEST(FileProjection, TruncatedFileStillRefusedAtOpen) {
  BufferPtr bytes = IntFile(5, 100, 1);
  auto cut = SliceBuffer(bytes, 0, bytes->size() - 20);
  auto file = std::make_shared<CountingFile>(cut);
  EXPECT_ERROR_CONTAINS(FileReader::Open(file, Select({1})), "magic");
}

TEST(FileProjection, MappedFileIsToldExactlyTheSelectedRanges) {
  // A zero-copy file is not read in part, but hinted.
  class ZeroCopyCounting final : public io::RandomAccessFile {
   public:
    explicit ZeroCopyCounting(BufferPtr b) : inner_(std::move(b)) {}
    Result<BufferPtr> Read(int64_t n) override { return inner_.Read(n); }
    Result<int64_t> Read(int64_t n, void* out) override { return inner_.Read(n, out); }
    Result<int64_t> Tell() const override { return inner_.Tell(); }
    Status Close() override { return inner_.Close(); }
    bool closed() const override { return inner_.closed(); }
    bool supports_zero_copy() const override { return true; }
    Result<int64_t> GetSize() override { return inner_.GetSize(); }
    Result<BufferPtr> ReadAt(int64_t o, int64_t n) override { return inner_.ReadAt(o, n); }
    Result<int64_t> ReadAt(int64_t o, int64_t n, void* out) override {
      return inner_.ReadAt(o, n, out);
    }
    Status Seek(int64_t p) override { return inner_.Seek(p); }
    Status WillNeed(std::span<const io::ReadRange> ranges) override {
      for (const auto& r : ranges) will_need.push_back(r);
      return Status::OK();
    }
    Status Advise(io::AccessPattern p) override {
      advised = p;
      return Status::OK();
    }
    std::vector<io::ReadRange> will_need;
    io::AccessPattern advised = io::AccessPattern::kNormal;

   private:
    io::BufferReader inner_;
  };
  BufferPtr bytes = IntFile(10, 5000, 2);
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  auto file = std::make_shared<ZeroCopyCounting>(bytes);
  auto reader = FileReader::Open(file, Select({5})).ValueOrDie();
  EXPECT_EQ(file->advised, io::AccessPattern::kRandom);
  auto batches = reader->ReadAll().ValueOrDie();
  ExpectColumnMatches(full, batches, 5, "mapped");
  // One run per batch (column 5 has no bitmap), covering exactly its values.
  ASSERT_EQ(file->will_need.size(), 2u);
  for (size_t b = 0; b < 2; ++b) {
    const uint8_t* values = batches[b]->column_data(0)->buffers[1]->data();
    EXPECT_EQ(file->will_need[b].offset, values - bytes->data());
    EXPECT_EQ(file->will_need[b].length, 5000 * 8);
  }
}

TEST(FileProjection, MemoryMappedFileOnDisk) {
  BufferPtr bytes = IntFile(30, 4000, 3);
  auto full = FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  fs::path path = fs::temp_directory_path() /
                  ("alkaid_projection_" + std::to_string(::getpid()) + ".arrow");
  {
    auto sink = io::FileOutputStream::Open(path.string()).ValueOrDie();
    ASSERT_TRUE(sink->Write(bytes->data(), bytes->size()).ok());
    ASSERT_TRUE(sink->Close().ok());
  }
  for (int column : {0, 13, 29}) {
    auto mapped = FileReader::OpenMapped(path.string(), Select({column})).ValueOrDie();
    ExpectColumnMatches(full, mapped->ReadAll().ValueOrDie(), column, "mmap");
    auto file = io::ReadableFile::Open(path.string()).ValueOrDie();
    auto pread = FileReader::Open(file, Select({column})).ValueOrDie();
    ExpectColumnMatches(full, pread->ReadAll().ValueOrDie(), column, "pread");
  }
  // Whole-file reads through the mapping give no hints and read the same.
  auto whole = FileReader::OpenMapped(path.string()).ValueOrDie()->ReadAll().ValueOrDie();
  ASSERT_EQ(whole.size(), full.size());
  for (size_t b = 0; b < whole.size(); ++b) EXPECT_TRUE(whole[b]->Equals(*full[b]));
  fs::remove(path);
}

// Every gold file, every single-column selection, read with pread in part:
// the same arrays as a full read.
std::vector<std::string> GoldFiles() {
  std::vector<std::string> out;
  std::string root = ::alkaid::testing::TestDataDir();
  fs::path dir = fs::path(root) / "arrow-testing" / "integration";
  std::error_code ec;
  if (root.empty() || !fs::is_directory(dir, ec)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".arrow_file") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FileProjection, GoldFilesEverySingleColumn) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  std::vector<std::string> files = GoldFiles();
  ASSERT_FALSE(files.empty());
  int checked = 0;
  for (const std::string& path : files) {
    auto readable = io::ReadableFile::Open(path).ValueOrDie();
    const int64_t size = readable->GetSize().ValueOrDie();
    BufferPtr bytes = readable->ReadAt(0, size).ValueOrDie();
    auto full_reader = FileReader::Open(bytes);
    if (!full_reader.ok()) continue;  // files other tests expect to be refused
    auto full = (*full_reader)->ReadAll();
    if (!full.ok()) continue;
    const int num_fields = (*full_reader)->schema()->num_fields();
    for (int column = 0; column < num_fields; ++column) {
      const std::string what = path + " column " + std::to_string(column);
      auto file = std::make_shared<CountingFile>(bytes);
      auto reader = FileReader::Open(file, Select({column}));
      ASSERT_TRUE(reader.ok()) << what << ": " << reader.status().ToString();
      EXPECT_TRUE((*reader)->schema()->field(0)->Equals(*(*full_reader)->schema()->field(column)))
          << what;
      auto projected = (*reader)->ReadAll();
      ASSERT_TRUE(projected.ok()) << what << ": " << projected.status().ToString();
      ExpectColumnMatches(*full, *projected, column, what);
      EXPECT_LE(file->bytes_read, size) << what;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace alkaid::ipc

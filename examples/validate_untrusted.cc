// Reading bytes you do not trust: a file from a user, a message from the network. alkaid
// checks every length, offset and count before it touches memory and validates each batch
// before returning it, so bad input gives an error that says what is wrong and where, never a
// crash or a silently wrong answer.
//
//   validate_untrusted [path]   checks an IPC stream file and prints OK or the error;
//                               without a path, checks three damaged copies of a stream.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/builder.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"
#include "alkaid/validate.h"

namespace {

// Reads a whole stream and fully validates every batch (UTF-8 included; the reader's own
// checks are structural and O(buffers)).
alkaid::Status CheckStream(alkaid::Result<std::unique_ptr<alkaid::ipc::StreamReader>> opened) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, std::move(opened));
  ALKAID_ASSIGN_OR_RAISE(auto batches, reader->ReadAll());
  for (const auto& batch : batches) {
    for (int c = 0; c < batch->num_columns(); ++c) {
      ALKAID_RETURN_NOT_OK(alkaid::ValidateArrayFull(*batch->column_data(c),
                                                     batch->schema()->field(c)->name()));
    }
  }
  return alkaid::Status::OK();
}

void Report(const std::string& what, const alkaid::Status& st) {
  std::cout << what << ": " << (st.ok() ? "OK" : st.ToString()) << "\n";
}

// A copy of `bytes` that the demo can damage.
alkaid::Result<alkaid::BufferPtr> Copy(const std::vector<uint8_t>& bytes) {
  ALKAID_ASSIGN_OR_RAISE(auto buffer, alkaid::AllocateBuffer(static_cast<int64_t>(bytes.size())));
  std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
  return alkaid::BufferPtr(buffer);
}

alkaid::Status CheckStream(alkaid::BufferPtr bytes) {
  return CheckStream(alkaid::ipc::StreamReader::Open(std::move(bytes)));
}

alkaid::Status Demo() {
  alkaid::StringBuilder words;
  for (const char* w : {"a", "bb", "ccc"}) ALKAID_RETURN_NOT_OK(words.Append(w));
  ALKAID_ASSIGN_OR_RAISE(auto column, words.Finish());
  auto schema = alkaid::schema({alkaid::field("word", alkaid::utf8())});
  ALKAID_ASSIGN_OR_RAISE(auto stream, alkaid::ipc::SerializeStream(
                                          schema, {alkaid::RecordBatch::Make(schema, 3, {column})}));
  const std::vector<uint8_t> good(stream->data(), stream->data() + stream->size());

  ALKAID_ASSIGN_OR_RAISE(auto intact, Copy(good));
  Report("intact stream", CheckStream(intact));

  // 1. Cut off in the middle of the record batch.
  std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<long>(good.size() - 20));
  ALKAID_ASSIGN_OR_RAISE(auto truncated, Copy(cut));
  Report("truncated stream", CheckStream(truncated));

  // 2. The string offsets 0, 1, 3, 6 with the last one pointing far past the data.
  std::vector<uint8_t> bad_offset = good;
  const uint8_t offsets[16] = {0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0};
  for (size_t i = 0; i + 16 <= bad_offset.size(); ++i) {
    if (std::memcmp(&bad_offset[i], offsets, 16) == 0) {
      bad_offset[i + 13] = 0x10;  // 6 -> 4102
      break;
    }
  }
  ALKAID_ASSIGN_OR_RAISE(auto damaged, Copy(bad_offset));
  Report("string offset past the data", CheckStream(damaged));

  // 3. Bytes that are not UTF-8 in a utf8 column.
  std::vector<uint8_t> bad_utf8 = good;
  for (size_t i = 0; i + 6 <= bad_utf8.size(); ++i) {
    if (std::memcmp(&bad_utf8[i], "abbccc", 6) == 0) {
      bad_utf8[i + 1] = 0xff;
      break;
    }
  }
  ALKAID_ASSIGN_OR_RAISE(auto not_utf8, Copy(bad_utf8));
  Report("invalid UTF-8", CheckStream(not_utf8));
  return alkaid::Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  alkaid::Status st;
  if (argc > 1) {
    // A file, read as it arrives: the reader never trusts a length before checking it.
    auto file = alkaid::io::FdInputStream::Open(argv[1]);
    st = file.ok() ? CheckStream(alkaid::ipc::StreamReader::Open(*file)) : file.status();
    Report(argv[1], st);
    return st.ok() ? 0 : 2;
  }
  st = Demo();
  if (!st.ok()) {
    std::cerr << "error: " << st.ToString() << "\n";
    return 1;
  }
  return 0;
}

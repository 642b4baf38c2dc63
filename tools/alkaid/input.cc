#include "input.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "alkaid/io/input.h"
#include "alkaid/ipc/reader.h"

namespace alkaid::cli {

namespace {

// Pipes cannot be mapped or read twice, so stdin is read into memory once.
Result<BufferPtr> ReadAllStdin() {
  std::string bytes;
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(0, chunk, sizeof(chunk));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError("reading standard input: ", std::strerror(errno));
    }
    bytes.append(chunk, static_cast<size_t>(n));
  }
  return Buffer::FromString(std::move(bytes));
}

bool HasFileMagic(const Buffer& head) {
  std::string_view v = head.view();
  return v.substr(0, 6) == "ARROW1" || v.substr(0, 7) == "ALKAID1";
}

Result<std::vector<int>> ResolveColumns(const Schema& schema, const std::vector<std::string>& names) {
  std::vector<int> indices;
  for (const auto& name : names) {
    int i = schema.GetFieldIndex(name);
    if (i < 0) {
      std::string known;
      for (const auto& f : schema.fields()) known += (known.empty() ? "" : ", ") + f->name();
      return Status::KeyError("no column named '", name, "' (columns: ", known, ")");
    }
    indices.push_back(i);
  }
  return indices;
}

template <typename Reader>
Result<InputData> Drain(Reader& reader, bool is_file) {
  InputData data;
  data.is_file_format = is_file;
  data.schema = reader.schema();
  data.dictionary_ids = reader.dictionary_ids();
  ALKAID_ASSIGN_OR_RAISE(data.batches, reader.ReadAll());
  return data;
}

// Opens the right reader over `source`; a projection needs the schema first,
// so the reader is opened once to learn it and again with included_fields.
Result<InputData> ReadFrom(std::shared_ptr<io::RandomAccessFile> source,
                           const std::vector<std::string>& columns, ipc::IpcReadOptions options) {
  ALKAID_ASSIGN_OR_RAISE(int64_t size, source->GetSize());
  if (size == 0) return Status::Invalid("the input is empty");
  ALKAID_ASSIGN_OR_RAISE(BufferPtr head, source->ReadAt(0, std::min<int64_t>(size, 8)));
  bool is_file = HasFileMagic(*head);
  if (is_file) {
    if (!columns.empty()) {
      ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::FileReader::Open(source, options));
      ALKAID_ASSIGN_OR_RAISE(options.included_fields, ResolveColumns(*probe->schema(), columns));
    }
    ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::FileReader::Open(source, options));
    return Drain(*reader, true);
  }
  if (!columns.empty()) {
    ALKAID_RETURN_NOT_OK(source->Seek(0));
    ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::StreamReader::Open(source.get(), options));
    ALKAID_ASSIGN_OR_RAISE(options.included_fields, ResolveColumns(*probe->schema(), columns));
  }
  ALKAID_RETURN_NOT_OK(source->Seek(0));
  ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::StreamReader::Open(source.get(), options));
  return Drain(*reader, false);
}

}  // namespace

Result<InputData> ReadInput(const std::string& path, const std::vector<std::string>& columns,
                            const ipc::IpcReadOptions& options) {
  std::shared_ptr<io::RandomAccessFile> source;
  if (path == "-") {
    ALKAID_ASSIGN_OR_RAISE(BufferPtr all, ReadAllStdin());
    source = std::make_shared<io::BufferReader>(std::move(all));
  } else {
    ALKAID_ASSIGN_OR_RAISE(source, io::MemoryMappedFile::Open(path));
  }
  return ReadFrom(std::move(source), columns, options);
}

}  // namespace alkaid::cli

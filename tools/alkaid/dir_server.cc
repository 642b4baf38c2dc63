#include "dir_server.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "alkaid/io/atomic_file.h"
#include "alkaid/ipc/writer.h"
#include "sources/source.h"

namespace alkaid::cli {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// Temporary files of uploads in progress: never listed, served or written.
constexpr std::string_view kTempMarker = ".alkaid-tmp-";
constexpr size_t kMaxPathBytes = 4096;

std::vector<std::string> SplitPath(const std::string& rel) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t end = rel.find('/', start);
    parts.push_back(rel.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

Result<std::string> RealPath(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return Status::IOError(path, ": ", std::strerror(errno));
  std::string out(real);
  std::free(real);
  return out;
}

Status Outside(const std::string& rel) {
  return flight::FlightError(flight::FlightStatusCode::kUnauthorized,
                             "'" + rel + "' leads outside the served directory");
}

std::string Outcome(const Status& st) { return st.ok() ? "OK" : st.ToString(); }

// "12ms": the time since `start`, as the log prints it.
std::string Elapsed(Clock::time_point start) {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count()) +
         "ms";
}

// How the log names a descriptor before its path is checked.
std::string DescriptorName(const flight::FlightDescriptor& descriptor) {
  if (descriptor.type != flight::FlightDescriptor::Type::kPath) return descriptor.ToString();
  std::string out;
  for (const auto& part : descriptor.path) out += (out.empty() ? "" : "/") + part;
  return out.substr(0, 200);
}

// Opens `path` with the tool's sources (any format alkaid reads).
Result<std::unique_ptr<Input>> OpenData(const std::string& path, const Source** chosen) {
  return OpenInput(path, "auto", SourceOptions(), nullptr, chosen);
}

// DoGet's answer: the file's batches as the source reads them, one at a time.
class FileStream final : public flight::FlightDataStream {
 public:
  FileStream(DirServer* server, std::unique_ptr<Input> input, std::string peer, std::string rel,
             Clock::time_point start)
      : server_(server), input_(std::move(input)), peer_(std::move(peer)), rel_(std::move(rel)),
        start_(start) {}

  ~FileStream() override {
    std::string outcome = done_ ? "OK" : !status_.ok() ? status_.ToString() : "stopped early";
    server_->Log("DoGet " + peer_ + " " + rel_ + " rows=" + std::to_string(rows_) +
                 " batches=" + std::to_string(batches_) + " " + outcome + " " + Elapsed(start_));
  }

  SchemaPtr schema() const override { return input_->schema(); }

  Result<std::optional<flight::FlightStreamChunk>> Next() override {
    if (done_) return std::nullopt;
    Result<RecordBatchPtr> batch = input_->Next();
    if (!batch.ok()) {
      status_ = batch.status();
      return status_;
    }
    if (*batch == nullptr) {
      done_ = true;
      return std::nullopt;
    }
    rows_ += (*batch)->num_rows();
    ++batches_;
    return flight::FlightStreamChunk{std::move(batch).MoveValueUnsafe(), nullptr};
  }

 private:
  DirServer* server_;
  std::unique_ptr<Input> input_;
  std::string peer_, rel_;
  Clock::time_point start_;
  int64_t rows_ = 0, batches_ = 0;
  bool done_ = false;
  Status status_;
};

}  // namespace

Result<std::unique_ptr<DirServer>> DirServer::Make(const std::string& root, bool allow_overwrite) {
  std::unique_ptr<DirServer> server(new DirServer());
  auto real = RealPath(root);
  if (!real.ok()) return Status::IOError(root, ": no such directory");
  struct stat st;
  if (::stat(real->c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return Status::IOError(root, ": not a directory");
  server->root_ = *real == "/" ? "" : *real;
  server->allow_overwrite_ = allow_overwrite;
  return server;
}

void DirServer::Log(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(stderr, "alkaid serve: %s\n", line.c_str());
  std::fflush(stderr);
}

Result<std::string> DirServer::RelativePath(const std::vector<std::string>& parts) const {
  std::string rel;
  for (const auto& part : parts) rel += (rel.empty() ? "" : "/") + part;
  if (rel.empty()) return Status::Invalid("the flight path is empty");
  if (rel.size() > kMaxPathBytes)
    return Status::Invalid("the flight path is longer than ", kMaxPathBytes, " bytes");
  if (rel.find('\0') != std::string::npos) return Status::Invalid("the flight path holds a NUL");
  if (rel.front() == '/')
    return flight::FlightError(flight::FlightStatusCode::kUnauthorized,
                               "'" + rel + "' is absolute; paths are relative to the served "
                               "directory");
  for (const auto& part : SplitPath(rel)) {
    if (part.empty()) return Status::Invalid("'", rel, "' has an empty part");
    if (part == "." || part == "..") return Outside(rel);
    if (part.find(kTempMarker) != std::string::npos)
      return Status::KeyError("'", rel, "' names a temporary file of an upload");
  }
  return rel;
}

Result<std::string> DirServer::ReadablePath(const std::string& rel) const {
  auto real = RealPath(root_ + "/" + rel);
  if (!real.ok()) return Status::KeyError("no file '", rel, "' in the served directory");
  if (real->compare(0, root_.size() + 1, root_ + "/") != 0) return Outside(rel);
  struct stat st;
  if (::stat(real->c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return Status::KeyError("'", rel, "' is not a file");
  return *real;
}

Result<std::string> DirServer::WritablePath(const std::string& rel) const {
  const std::string full = root_ + "/" + rel;
  const size_t slash = full.rfind('/');
  auto dir = RealPath(full.substr(0, slash));
  if (!dir.ok()) return Status::KeyError("the directory of '", rel, "' does not exist");
  if (*dir != root_ && dir->compare(0, root_.size() + 1, root_ + "/") != 0) return Outside(rel);
  const std::string path = *dir + full.substr(slash);
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return Status::Invalid("'", rel, "' is a symbolic link; uploads do not replace links");
    if (!S_ISREG(st.st_mode)) return Status::Invalid("'", rel, "' exists and is not a file");
  }
  return path;
}

Result<std::string> DirServer::ReadableFile(const flight::FlightDescriptor& descriptor,
                                            std::string* rel) const {
  if (descriptor.type != flight::FlightDescriptor::Type::kPath)
    return Status::Invalid("this server names flights by path, not by command");
  ALKAID_ASSIGN_OR_RAISE(*rel, RelativePath(descriptor.path));
  return ReadablePath(*rel);
}

Status DirServer::RefuseOverwrite(const std::string& rel, const std::string& path) const {
  struct stat st;
  if (!allow_overwrite_ && ::lstat(path.c_str(), &st) == 0)
    return Status::Invalid("'", rel, "' already exists (the server runs without --allow-overwrite)");
  return Status::OK();
}

Result<flight::FlightInfo> DirServer::Describe(const std::string& rel,
                                               const std::string& path) const {
  const Source* chosen = nullptr;
  ALKAID_ASSIGN_OR_RAISE(auto input, OpenData(path, &chosen));
  flight::FlightInfo info;
  ALKAID_RETURN_NOT_OK(info.SetSchema(*input->schema()));
  info.descriptor = flight::FlightDescriptor::Path(SplitPath(rel));
  info.endpoints.push_back(flight::FlightEndpoint{flight::Ticket{rel}, {}, std::nullopt, ""});
  info.ordered = true;
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  info.total_bytes = ec ? -1 : static_cast<int64_t>(size);
  // Rows only where metadata holds them: an IPC file's footer, Parquet's.
  const std::string name = chosen->name;
  if (name == "parquet" || (name == "ipc" && input->num_batches() >= 0)) {
    ALKAID_ASSIGN_OR_RAISE(info.total_records, input->CountRows());
  }
  return info;
}

Status DirServer::ListFlights(const flight::ServerCallContext& context,
                              const flight::Criteria& criteria, const FlightInfoSink& emit) {
  const auto start = Clock::now();
  std::vector<std::string> rels;
  std::error_code ec;
  fs::recursive_directory_iterator it(root_.empty() ? "/" : root_,
                                      fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(ec)) continue;
    std::string rel = it->path().lexically_relative(root_.empty() ? "/" : root_).string();
    if (rel.compare(0, criteria.expression.size(), criteria.expression) == 0)
      rels.push_back(std::move(rel));
  }
  std::sort(rels.begin(), rels.end());
  int64_t listed = 0;
  Status st;
  for (const auto& rel : rels) {
    if (context.is_cancelled()) break;
    auto path = ReadablePath(rel);
    if (!path.ok()) continue;
    auto info = Describe(rel, *path);
    if (!info.ok()) continue;  // not a format alkaid reads
    st = emit(*info);
    if (!st.ok()) break;
    ++listed;
  }
  Log("ListFlights " + context.peer() + " '" + criteria.expression + "' flights=" +
      std::to_string(listed) + " " + Outcome(st) + " " + Elapsed(start));
  return Status::OK();
}

Result<flight::FlightInfo> DirServer::GetFlightInfo(const flight::ServerCallContext& context,
                                                    const flight::FlightDescriptor& descriptor) {
  const auto start = Clock::now();
  std::string rel = DescriptorName(descriptor);
  auto info = [&]() -> Result<flight::FlightInfo> {
    ALKAID_ASSIGN_OR_RAISE(std::string path, ReadableFile(descriptor, &rel));
    return Describe(rel, path);
  }();
  Log("GetFlightInfo " + context.peer() + " " + rel +
      (info.ok() ? " rows=" + std::to_string(info->total_records) +
                       " bytes=" + std::to_string(info->total_bytes)
                 : "") +
      " " + Outcome(info.status()) + " " + Elapsed(start));
  return info;
}

Result<flight::SchemaResult> DirServer::GetSchema(const flight::ServerCallContext& context,
                                                  const flight::FlightDescriptor& descriptor) {
  const auto start = Clock::now();
  std::string rel = DescriptorName(descriptor);
  auto result = [&]() -> Result<flight::SchemaResult> {
    ALKAID_ASSIGN_OR_RAISE(std::string path, ReadableFile(descriptor, &rel));
    const Source* chosen = nullptr;
    ALKAID_ASSIGN_OR_RAISE(auto input, OpenData(path, &chosen));
    flight::FlightInfo carrier;  // SetSchema writes the IPC schema message
    ALKAID_RETURN_NOT_OK(carrier.SetSchema(*input->schema()));
    return flight::SchemaResult{std::move(carrier.schema)};
  }();
  Log("GetSchema " + context.peer() + " " + rel + " " + Outcome(result.status()) + " " +
      Elapsed(start));
  return result;
}

Result<std::unique_ptr<flight::FlightDataStream>> DirServer::DoGet(
    const flight::ServerCallContext& context, const flight::Ticket& ticket) {
  const auto start = Clock::now();
  auto stream = [&]() -> Result<std::unique_ptr<flight::FlightDataStream>> {
    ALKAID_ASSIGN_OR_RAISE(std::string rel, RelativePath({ticket.ticket}));
    ALKAID_ASSIGN_OR_RAISE(std::string path, ReadablePath(rel));
    const Source* chosen = nullptr;
    ALKAID_ASSIGN_OR_RAISE(auto input, OpenData(path, &chosen));
    return std::unique_ptr<flight::FlightDataStream>(
        std::make_unique<FileStream>(this, std::move(input), context.peer(), rel, start));
  }();
  // A stream logs itself when it ends; a refused call is logged here.
  if (!stream.ok()) {
    Log("DoGet " + context.peer() + " " + ticket.ticket.substr(0, 200) + " " +
        Outcome(stream.status()) + " " + Elapsed(start));
  }
  return stream;
}

Status DirServer::Store(flight::FlightMessageReader& reader, const std::string& rel,
                        const std::string& path, int64_t* rows, int64_t* bytes) {
  ALKAID_ASSIGN_OR_RAISE(SchemaPtr schema, reader.GetSchema());
  ALKAID_ASSIGN_OR_RAISE(auto file, io::AtomicFile::Create(path));
  ALKAID_ASSIGN_OR_RAISE(auto writer, ipc::MakeFileWriter(file->stream(), schema));
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
    if (!chunk.has_value()) break;
    if (chunk->batch == nullptr) continue;
    ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*chunk->batch));
    *rows += chunk->batch->num_rows();
  }
  ALKAID_RETURN_NOT_OK(writer->Close());
  ALKAID_ASSIGN_OR_RAISE(*bytes, file->stream()->Tell());
  // Checked again at the rename: another upload may have finished first.
  std::lock_guard<std::mutex> lock(mutex_);
  ALKAID_RETURN_NOT_OK(RefuseOverwrite(rel, path));
  return file->Commit();
}

Status DirServer::DoPut(const flight::ServerCallContext& context,
                        flight::FlightMessageReader& reader,
                        flight::FlightMetadataWriter& writer) {
  const auto start = Clock::now();
  const flight::FlightDescriptor& descriptor = reader.descriptor();
  std::string rel = DescriptorName(descriptor);
  int64_t rows = 0, bytes = -1;
  std::string note;
  Status st = [&]() -> Status {
    if (descriptor.type != flight::FlightDescriptor::Type::kPath)
      return Status::Invalid("this server stores uploads by path, not by command");
    ALKAID_ASSIGN_OR_RAISE(rel, RelativePath(descriptor.path));
    ALKAID_ASSIGN_OR_RAISE(std::string path, WritablePath(rel));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ALKAID_RETURN_NOT_OK(RefuseOverwrite(rel, path));
      if (!uploading_.insert(rel).second)
        return Status::Invalid("an upload to '", rel, "' is already running");
    }
    Status stored = Store(reader, rel, path, &rows, &bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      uploading_.erase(rel);
    }
    ALKAID_RETURN_NOT_OK(stored);
    // The file is stored whole; a client gone before reading the answer does
    // not undo that, so the call counts as OK.
    Status answered = writer.WriteMetadata("stored " + rel + ": " + std::to_string(rows) +
                                           " rows, " + std::to_string(bytes) +
                                           " bytes (Arrow IPC file)");
    if (!answered.ok()) note = " (stored; the client left before the answer)";
    return Status::OK();
  }();
  Log("DoPut " + context.peer() + " " + rel + " rows=" + std::to_string(rows) +
      " bytes=" + std::to_string(bytes) + " " + Outcome(st) + " " + Elapsed(start) +
      note);
  return st;
}

}  // namespace alkaid::cli

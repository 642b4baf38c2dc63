// The Flight server of `alkaid serve`: the data files under one directory,
// named by their path relative to it.
//
// - ListFlights: every file some source reads (criteria: a path prefix), with
//   rows where metadata tells them (IPC files, Parquet) and the file's bytes.
// - GetFlightInfo / GetSchema: one file; the ticket of its one endpoint is
//   the relative path.
// - DoGet: the file read batch by batch through the source registry.
// - DoPut: a new IPC file written through io::AtomicFile, so the file appears
//   whole or not at all; an existing file is replaced only with
//   allow_overwrite.
//
// Paths are confined to the directory: absolute paths, "..", and symbolic
// links that lead out of it are refused. One line per call goes to stderr.
//
// Threads: gRPC calls the handlers from many threads at once; the state they
// share (uploads running, the log) is guarded by a mutex.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "alkaid/flight/server.h"

namespace alkaid::cli {

class DirServer final : public flight::FlightServerBase {
 public:
  // `root` must be an existing directory.
  static Result<std::unique_ptr<DirServer>> Make(const std::string& root, bool allow_overwrite);

  Status ListFlights(const flight::ServerCallContext& context, const flight::Criteria& criteria,
                     const FlightInfoSink& emit) override;
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext& context,
                                           const flight::FlightDescriptor& descriptor) override;
  Result<flight::SchemaResult> GetSchema(const flight::ServerCallContext& context,
                                         const flight::FlightDescriptor& descriptor) override;
  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext& context,
                                                          const flight::Ticket& ticket) override;
  Status DoPut(const flight::ServerCallContext& context, flight::FlightMessageReader& reader,
               flight::FlightMetadataWriter& writer) override;

  // One line on stderr (whole, even with many threads writing).
  void Log(const std::string& line);

 private:
  DirServer() = default;
  // The relative path a descriptor or ticket names, checked for shape ("a/b.arrow").
  Result<std::string> RelativePath(const std::vector<std::string>& parts) const;
  // The file to read for `rel`: exists, is a regular file, inside the root.
  Result<std::string> ReadablePath(const std::string& rel) const;
  // The file to write for `rel`: its directory inside the root, not a link.
  Result<std::string> WritablePath(const std::string& rel) const;
  // The file a path descriptor names, for reading; sets `rel` once the path is checked.
  Result<std::string> ReadableFile(const flight::FlightDescriptor& descriptor,
                                   std::string* rel) const;
  // An error when `path` exists and the server may not replace it. Called under mutex_.
  Status RefuseOverwrite(const std::string& rel, const std::string& path) const;
  Result<flight::FlightInfo> Describe(const std::string& rel, const std::string& path) const;
  Status Store(flight::FlightMessageReader& reader, const std::string& rel,
               const std::string& path, int64_t* rows, int64_t* bytes);

  std::string root_;  // canonical, no trailing '/'
  bool allow_overwrite_ = false;
  std::mutex mutex_;
  std::set<std::string> uploading_;  // relative paths of running DoPuts
};

}  // namespace alkaid::cli

// parquet::WriteTable(table, path): never leaves a partial file where the caller asked for
// one. The bytes go to an io::AtomicFile, which replaces the target only once the footer is
// written.
#include "alkaid/io/atomic_file.h"
#include "alkaid/parquet/writer.h"

namespace alkaid::parquet {

Status WriteTable(const Table& table, const std::string& path,
                  const WriterProperties& properties) {
  ALKAID_ASSIGN_OR_RAISE(auto file, io::AtomicFile::Create(path));
  ALKAID_ASSIGN_OR_RAISE(auto writer,
                         FileWriter::Open(file->stream(), table.schema(), properties));
  ALKAID_RETURN_NOT_OK(writer->WriteTable(table));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return file->Commit();
}

}  // namespace alkaid::parquet

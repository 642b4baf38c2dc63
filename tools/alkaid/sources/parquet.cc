// Apache Parquet (PAR1 magic): batches streamed a row group at a time by
// alkaid::parquet; rows counted and the last rows found from the footer.
#include "alkaid/parquet/reader.h"
#include "source.h"

namespace alkaid::cli {

namespace {

int Sniff(std::string_view head, const std::string&) {
  return head.substr(0, 4) == "PAR1" ? 100 : 0;
}

class ParquetInput final : public Input {
 public:
  static Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
    std::unique_ptr<ParquetInput> in(new ParquetInput());
    // A Parquet file is read from its footer: standard input is held whole.
    ALKAID_ASSIGN_OR_RAISE(auto file, bytes->RandomAccess());
    ALKAID_ASSIGN_OR_RAISE(in->size_, file->GetSize());
    parquet::ReaderOptions reader_options;
    reader_options.columns = options.columns;
    reader_options.num_threads = options.text.csv.num_threads;  // --threads (0: every core)
    ALKAID_ASSIGN_OR_RAISE(in->file_, parquet::FileReader::Open(std::move(file), reader_options));
    in->schema_ = in->file_->projected_schema();
    in->ids_ = DictionaryIds::AssignSequential(*in->schema_);
    return std::unique_ptr<Input>(std::move(in));
  }
  std::string Describe() const override {
    int n = file_->num_row_groups();
    return "Parquet file, " + std::to_string(n) + (n == 1 ? " row group, " : " row groups, ") +
           std::to_string(file_->metadata().num_rows()) + " rows";
  }
  Result<RecordBatchPtr> Next() override {
    if (reader_ == nullptr) {
      ALKAID_ASSIGN_OR_RAISE(reader_, file_->GetRecordBatchReader());
    }
    return reader_->Next();
  }
  // From the footer: no page is read.
  Result<int64_t> CountRows() override { return file_->CountRows(); }
  // Only the last row groups that hold the rows (counted from the footer).
  Result<std::vector<RecordBatchPtr>> LastRows(int64_t n, int64_t* read, int64_t* total) override {
    const FileMetaData& meta = file_->metadata();
    std::vector<int> groups;
    int64_t rows = 0;
    for (int i = meta.num_row_groups() - 1; i >= 0 && rows < n; --i) {
      groups.insert(groups.begin(), i);
      rows += meta.row_group(i).num_rows();
    }
    *total = meta.num_rows();
    if (groups.empty()) {
      *read = 0;
      return std::vector<RecordBatchPtr>();
    }
    ALKAID_ASSIGN_OR_RAISE(reader_, file_->GetRecordBatchReader(groups, {}));
    int64_t ignored_total = 0;
    return Input::LastRows(n, read, &ignored_total);
  }

 private:
  using FileMetaData = parquet::FileMetaData;
  std::unique_ptr<parquet::FileReader> file_;
  std::unique_ptr<RecordBatchReader> reader_;
};

}  // namespace

extern const Source kParquetSource = {"parquet", "a Parquet file", kParquetInput, Sniff,
                                      ParquetInput::Open};

}  // namespace alkaid::cli

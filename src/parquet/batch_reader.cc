// FileReader::GetRecordBatchReader: row groups decoded one at a time (the next one in the
// background when threads are allowed) and handed out as slices of batch_size rows, so at
// most two row groups are held at once.
#include <condition_variable>
#include <mutex>

#include "alkaid/thread_pool.h"
#include "src/parquet/reader_internal.h"

namespace alkaid::parquet {

namespace {

// A row group being decoded on a pool thread.
struct Prefetch {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  Result<RecordBatchPtr> result = Status::UnknownError("not read");

  Result<RecordBatchPtr> Wait() {
    std::unique_lock<std::mutex> lock(mutex);
    done_cv.wait(lock, [&] { return done; });
    return std::move(result);
  }
};

class ParquetBatchReader final : public RecordBatchReader {
 public:
  ParquetBatchReader(std::shared_ptr<const FileReader::Impl> impl,
                     std::shared_ptr<const internal::Projection> projection,
                     std::vector<int> groups, int64_t batch_size)
      : impl_(std::move(impl)), projection_(std::move(projection)), groups_(std::move(groups)),
        batch_size_(batch_size > 0 ? batch_size : 64 * 1024) {
    const int threads = impl_->options.num_threads > 0 ? impl_->options.num_threads
                                                        : HardwareThreads();
    background_ = threads > 1;
  }

  ~ParquetBatchReader() override {
    // A decode still running holds only shared state; wait so its work is not orphaned
    // while the file may be unmapped.
    if (pending_) (void)pending_->Wait();
  }

  const SchemaPtr& schema() const override { return projection_->schema; }

  Result<RecordBatchPtr> Next() override {
    while (current_ == nullptr || offset_ >= current_->num_rows()) {
      current_ = nullptr;
      if (next_group_ >= groups_.size()) return RecordBatchPtr();
      ALKAID_ASSIGN_OR_RAISE(current_, TakeGroup());
      offset_ = 0;
    }
    int64_t length = std::min(batch_size_, current_->num_rows() - offset_);
    RecordBatchPtr batch = offset_ == 0 && length == current_->num_rows()
                               ? current_
                               : current_->Slice(offset_, length);
    offset_ += length;
    return batch;
  }

 private:
  // The next row group: the one decoded in the background, or decoded now; starts the one
  // after it in the background.
  Result<RecordBatchPtr> TakeGroup() {
    Result<RecordBatchPtr> out = Status::UnknownError("unset");
    if (pending_) {
      out = pending_->Wait();
      pending_.reset();
    } else {
      out = impl_->ReadRowGroup(groups_[next_group_], *projection_);
    }
    ++next_group_;
    if (background_ && out.ok() && next_group_ < groups_.size()) {
      auto prefetch = std::make_shared<Prefetch>();
      pending_ = prefetch;
      RunInBackground([prefetch, impl = impl_, projection = projection_,
                       g = groups_[next_group_]] {
        auto result = impl->ReadRowGroup(g, *projection);
        std::lock_guard<std::mutex> lock(prefetch->mutex);
        prefetch->result = std::move(result);
        prefetch->done = true;
        prefetch->done_cv.notify_all();
      });
    }
    return out;
  }

  std::shared_ptr<const FileReader::Impl> impl_;
  std::shared_ptr<const internal::Projection> projection_;
  std::vector<int> groups_;
  int64_t batch_size_;
  bool background_ = false;
  size_t next_group_ = 0;
  RecordBatchPtr current_;
  int64_t offset_ = 0;
  std::shared_ptr<Prefetch> pending_;
};

}  // namespace

Result<std::unique_ptr<RecordBatchReader>> FileReader::GetRecordBatchReader() {
  return GetRecordBatchReader({}, {}, 0);
}

Result<std::unique_ptr<RecordBatchReader>> FileReader::GetRecordBatchReader(
    const std::vector<int>& row_groups, const std::vector<std::string>& columns,
    int64_t batch_size) {
  std::shared_ptr<const internal::Projection> projection;
  if (columns.empty()) {
    projection = std::make_shared<internal::Projection>(impl_->projection);
  } else {
    ALKAID_ASSIGN_OR_RAISE(auto p, impl_->MakeProjection(columns, {}));
    projection = std::make_shared<internal::Projection>(std::move(p));
  }
  std::vector<int> groups = row_groups.empty() ? impl_->selected_row_groups : row_groups;
  for (int g : groups) {
    if (g < 0 || g >= num_row_groups()) {
      return Status::IndexError(impl_->name, ": row group ", g, " of ", num_row_groups());
    }
  }
  return std::unique_ptr<RecordBatchReader>(new ParquetBatchReader(
      impl_, std::move(projection), std::move(groups),
      batch_size > 0 ? batch_size : impl_->options.batch_size));
}

}  // namespace alkaid::parquet

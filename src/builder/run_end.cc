// RunEndEncodedBuilder: merges equal neighbours into runs and collects int64
// run ends, narrowed to the run-end type at Finish.
#include "alkaid/builder/run_end.h"

#include "integer_width.h"

namespace alkaid {

RunEndEncodedBuilder::RunEndEncodedBuilder(DataTypePtr type, ArrayBuilderPtr values_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), run_ends_(pool) {
  children_.push_back(std::move(values_builder));
  max_run_end_ = builder_internal::IntegerMax(*ree_type().run_end_type()).ValueOr(-1);
}

int64_t RunEndEncodedBuilder::num_runs() const {
  return run_ends_.size() / static_cast<int64_t>(sizeof(int64_t)) +
         (run_kind_ == RunKind::kNone ? 0 : 1);
}

Status RunEndEncodedBuilder::CheckRunEnd(int64_t added) const {
  if (added < 0) return Status::Invalid("a run cannot have negative length ", added);
  if (length_ + added > max_run_end_) {
    return Status::CapacityError(type_->ToString(), " builder: logical length ", length_ + added,
                                 " exceeds the largest run end ",
                                 ree_type().run_end_type()->ToString(), " can hold (",
                                 max_run_end_, ")");
  }
  return Status::OK();
}

Status RunEndEncodedBuilder::CloseRun() {
  if (run_kind_ == RunKind::kNone) return Status::OK();
  ALKAID_RETURN_NOT_OK(run_ends_.Append(&length_, sizeof(length_)));
  run_kind_ = RunKind::kNone;
  run_bytes_.clear();
  return Status::OK();
}

Status RunEndEncodedBuilder::StartRun(RunKind kind, int64_t run_length) {
  ALKAID_RETURN_NOT_OK(CloseRun());
  run_kind_ = kind;
  length_ += run_length;
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendBytes(std::string_view value_bytes, int64_t repeat) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(repeat));
  if (run_kind_ == RunKind::kBytes && run_bytes_ == value_bytes) {
    length_ += repeat;
    return Status::OK();
  }
  ALKAID_RETURN_NOT_OK(values_builder()->AppendValueBytes(value_bytes));
  ALKAID_RETURN_NOT_OK(StartRun(RunKind::kBytes, repeat));
  run_bytes_.assign(value_bytes);
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendRun(int64_t run_length) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(run_length));
  int64_t expected_values = num_runs() + 1;
  if (values_builder()->length() != expected_values) {
    return Status::Invalid(type_->ToString(), " builder: AppendRun expects exactly one new value in ",
                           "the values builder (", expected_values, " values for as many runs), found ",
                           values_builder()->length());
  }
  return StartRun(RunKind::kOpaque, run_length);
}

Status RunEndEncodedBuilder::ExtendRun(int64_t n) {
  if (run_kind_ == RunKind::kNone) {
    return Status::Invalid(type_->ToString(), " builder: there is no open run to extend");
  }
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  length_ += n;
  return Status::OK();
}

Status RunEndEncodedBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  if (run_kind_ == RunKind::kNull) {
    length_ += n;
    return Status::OK();
  }
  ALKAID_RETURN_NOT_OK(values_builder()->AppendNull());
  return StartRun(RunKind::kNull, n);
}

Status RunEndEncodedBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckRunEnd(n));
  ALKAID_RETURN_NOT_OK(values_builder()->AppendEmptyValue());
  return StartRun(RunKind::kOpaque, n);
}

void RunEndEncodedBuilder::Reset() {
  ArrayBuilder::Reset();
  run_ends_.Reset();
  run_kind_ = RunKind::kNone;
  run_bytes_.clear();
}

Status RunEndEncodedBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(CloseRun());
  int64_t runs = run_ends_.size() / static_cast<int64_t>(sizeof(int64_t));
  const DataTypePtr& run_end_type = ree_type().run_end_type();
  ALKAID_ASSIGN_OR_RAISE(BufferPtr ends, builder_internal::NarrowIntegers(run_ends_.data(), runs,
                                                                         *run_end_type, pool_));
  run_ends_.Reset();
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, values_builder()->Finish());
  out->buffers.clear();  // no buffers of its own
  out->null_count = 0;
  out->child_data = {ArrayData::Make(run_end_type, runs, {nullptr, std::move(ends)}, 0),
                     std::move(values)};
  return Status::OK();
}

}  // namespace alkaid

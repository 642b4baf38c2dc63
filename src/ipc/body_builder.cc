// BodyBuilder's walk over one node and its run-end encoded children.
#include "body_builder.h"

#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid::ipc::internal {


// One node: its FieldNode, then its buffers as the type's layout lists them
// (DataType::layout()), then its children. What a buffer contributes is
// decided by its kind alone: bitmaps are windowed by bits, fixed-width
// elements (values, list-view offsets, sizes, type ids, views) by
// byte_width, offsets of length + 1 entries are rebased to start at zero and
// bound the data buffer (or the child) that follows them.
Status BodyBuilder::Append(const NodeView& view, int depth) {
  if (depth > max_depth_) {
    return Fail("arrays are nested deeper than the limit of ", max_depth_, " levels");
  }
  const ArrayData& data = *view.data;
  const DataType& storage = data.storage_type();
  const TypeId id = storage.id();
  if (id == TypeId::kExtension) [[unlikely]] {
    return Fail("extension type ", storage.ToString(), " was not unwrapped to its storage");
  }
  const DataTypeLayout& layout = storage.layout();
  const size_t num_buffers = layout.buffers.size();
  size_t b = 0;
  if (layout.has_validity()) {
    ALKAID_RETURN_NOT_OK(AddNodeWithValidity(view).status());
    b = 1;
  } else {
    // Null arrays are all null; unions and run-end encoded arrays keep their
    // nulls in their children.
    AddNode(view.length, id == TypeId::kNull ? view.length : 0);
  }
  int64_t first = 0, last = 0;  // what the offsets address in the data buffer or child
  for (; b < num_buffers; ++b) {
    const BufferSpec& spec = layout.buffers[b];
    const int index = static_cast<int>(b);
    switch (spec.kind) {
      case BufferSpec::kValidity:
      case BufferSpec::kBitmapValues:
        ALKAID_RETURN_NOT_OK(AddBitmap(data, index, view.offset, view.length, spec.kind));
        break;
      case BufferSpec::kData:
        ALKAID_RETURN_NOT_OK(AddWindow(data, index, first, last - first, BufferSpec::kData));
        break;
      case BufferSpec::kOffsets:
        if (spec.offsets_plus_one) {
          ALKAID_RETURN_NOT_OK(spec.byte_width == 8
                                   ? AddOffsets<int64_t>(view, index, &first, &last)
                                   : AddOffsets<int32_t>(view, index, &first, &last));
          break;
        }
        [[fallthrough]];  // list-view offsets: one element per slot
      case BufferSpec::kFixedWidth:
      case BufferSpec::kSizes:
      case BufferSpec::kTypeIds:
      case BufferSpec::kViews: {
        const int64_t width = spec.byte_width;  // 0 for fixed_size_binary[0]
        ALKAID_RETURN_NOT_OK(
            AddWindow(data, index, view.offset * width, view.length * width, spec.kind));
        break;
      }
    }
  }
  if (layout.variadic_data) {
    // Views may point anywhere in any data buffer: all of them go along.
    const size_t count = data.buffers.size() > num_buffers ? data.buffers.size() - num_buffers : 0;
    for (size_t i = 0; i < count; ++i) {
      const BufferPtr& buffer = data.buffers[num_buffers + i];
      AddRange(buffer ? buffer->data() : nullptr, buffer ? buffer->size() : 0);
    }
    meta_.variadic_buffer_counts.push_back(static_cast<int64_t>(count));
  }
  // Children: which window of each child this node's slots cover.
  switch (id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap:
      return AppendChild(data, 0, first, last - first, depth);
    case TypeId::kFixedSizeList: {
      const int64_t size = static_cast<const FixedSizeListType&>(storage).list_size();
      return AppendChild(data, 0, view.offset * size, view.length * size, depth);
    }
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
      for (int i = 0; i < storage.num_fields(); ++i) {
        ALKAID_RETURN_NOT_OK(AppendChild(data, i, view.offset, view.length, depth));
      }
      return Status::OK();
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kDenseUnion:
      // Offsets (and sizes) may point anywhere in the children: they go whole.
      for (int i = 0; i < storage.num_fields(); ++i) {
        if (i >= static_cast<int>(data.child_data.size()) || !data.child_data[i]) {
          return Fail("child ", i, " is missing");
        }
        ALKAID_RETURN_NOT_OK(AppendChild(data, i, 0, data.child_data[i]->length, depth));
      }
      return Status::OK();
    case TypeId::kRunEndEncoded:
      return AppendRunEndEncodedChildren(view, depth);
    default:
      return Status::OK();  // dictionary values go out in dictionary batches
  }
}

template <typename RunEnd>
Status BodyBuilder::AppendRunEnds(const NodeView& view, int depth) {
  const ArrayData& parent = *view.data;
  const ArrayData& run_ends = *parent.child_data[0];
  const int64_t num_runs_total = run_ends.length;
  const BufferPtr* buffer = BufferAt(run_ends, 1);
  const int64_t width = sizeof(RunEnd);
  if (num_runs_total > 0 &&
      (buffer == nullptr || (*buffer)->size() < (run_ends.offset + num_runs_total) * width)) {
    return Fail("run ends buffer is too small for ", num_runs_total, " runs");
  }
  const uint8_t* ends = num_runs_total > 0 ? (*buffer)->data() + run_ends.offset * width : nullptr;
  auto end_at = [&](int64_t k) { return static_cast<int64_t>(LoadValue<RunEnd>(ends + k * width)); };

  // Runs covering logical [view.offset, view.offset + view.length).
  int64_t first_run = 0;
  int64_t num_runs = 0;
  if (view.length > 0) {
    int64_t lo = 0, hi = num_runs_total;  // first run whose end > view.offset
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (end_at(mid) <= view.offset) lo = mid + 1; else hi = mid;
    }
    first_run = lo;
    const int64_t logical_end = view.offset + view.length;
    hi = num_runs_total;  // first run whose end >= logical_end
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (end_at(mid) < logical_end) lo = mid + 1; else hi = mid;
    }
    if (lo >= num_runs_total) {
      return Fail("run ends stop before logical position ", logical_end);
    }
    num_runs = lo - first_run + 1;
  }

  path_.push_back(0);
  AddNode(num_runs, 0);
  AddRange(nullptr, 0);  // run ends have no nulls
  if (num_runs > 0 && view.offset == 0 && end_at(first_run + num_runs - 1) == view.length) {
    AddRange(ends + first_run * width, num_runs * width);
  } else if (num_runs > 0) {
    // Rebase to the window and clamp the last run to its end.
    ALKAID_ASSIGN_OR_RAISE(uint8_t * out, AllocateTemporary(num_runs * width));
    for (int64_t k = 0; k < num_runs; ++k) {
      const RunEnd e = static_cast<RunEnd>(
          std::min<int64_t>(end_at(first_run + k) - view.offset, view.length));
      std::memcpy(out + k * width, &e, sizeof(RunEnd));
    }
    AddRange(out, num_runs * width);
  } else {
    AddRange(nullptr, 0);
  }
  path_.pop_back();
  return AppendChild(parent, 1, first_run, num_runs, depth);
}

Status BodyBuilder::AppendRunEndEncodedChildren(const NodeView& view, int depth) {
  const ArrayData& parent = *view.data;
  if (parent.child_data.size() != 2 || !parent.child_data[0] || !parent.child_data[1]) {
    return Fail("run-end encoded array needs 2 children, has ", parent.child_data.size());
  }
  Status st = VisitRunEndType(*parent.child_data[0]->type, [&](auto zero) -> Status {
    return AppendRunEnds<decltype(zero)>(view, depth);
  });
  if (st.code() == StatusCode::kTypeError) return Fail(st.message());
  return st;
}

}  // namespace alkaid::ipc::internal

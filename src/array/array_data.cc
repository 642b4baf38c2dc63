#include "alkaid/array_data.h"

#include <algorithm>

#include "alkaid/bitmap.h"
#include "alkaid/visit_width.h"

namespace alkaid {

ArrayDataPtr ArrayData::Slice(int64_t off, int64_t len) const {
  // Clamp to [0, length] without forming off + len, which may overflow.
  off = std::clamp<int64_t>(off, 0, std::max<int64_t>(length, 0));
  len = std::clamp<int64_t>(len, 0, std::max<int64_t>(length, 0) - off);
  auto out = std::make_shared<ArrayData>(*this);
  out->offset = offset + off;
  out->length = len;
  const int64_t known = null_count;
  if (known == 0 || type->id() == TypeId::kNull) {
    out->null_count = known == 0 ? 0 : len;
  } else if (off == 0 && len == length) {
    out->null_count = known;
  } else {
    out->null_count = kUnknownNullCount;
  }
  return out;
}

Result<ArrayDataPtr> ArrayData::SliceSafe(int64_t off, int64_t len) const {
  if (off < 0 || len < 0 || off > length || len > length - off)
    return Status::IndexError("slice [", off, ", ", off, " + ", len,
                              ") is outside an array of length ", length);
  return Slice(off, len);
}

const DataType& ArrayData::storage_type() const {
  const DataType* t = type.get();
  while (t->id() == TypeId::kExtension) t = static_cast<const ExtensionType*>(t)->storage_type().get();
  return *t;
}

int64_t ArrayData::GetNullCount() const {
  // One load: another thread may store the same count at any moment.
  const int64_t cached = null_count.load();
  if (cached >= 0) return cached;
  int64_t count = 0;
  const DataType& t = storage_type();
  if (t.id() == TypeId::kNull) {
    count = length;
  } else if (t.layout().has_validity() && !buffers.empty() && buffers[0] != nullptr) {
    // Layouts without a validity bitmap (unions, run-end encoded) keep their
    // nulls in the children: none at this level.
    count = length - bit_util::CountSetBits(buffers[0]->data(), offset, length);
  }
  null_count.store(count);
  return count;
}

namespace {

template <typename RunEnd>
int64_t FindPhysicalIndex(const ArrayData& run_ends, int64_t logical) {
  const RunEnd* ends = run_ends.GetValues<RunEnd>(1);
  const RunEnd* found = std::upper_bound(ends, ends + run_ends.length, static_cast<RunEnd>(logical));
  return found - ends;
}

}  // namespace

bool ArrayData::IsValid(int64_t i) const {
  const DataType& t = storage_type();
  switch (t.id()) {
    case TypeId::kNull:
      return false;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      const auto& u = static_cast<const UnionType&>(t);
      int8_t code = buffers[0]->data_as<int8_t>()[offset + i];
      int child = u.child_index(code);
      if (child < 0) return false;
      int64_t pos = t.id() == TypeId::kSparseUnion ? offset + i
                                                   : buffers[1]->data_as<int32_t>()[offset + i];
      // Children are not sliced with the union, so `pos` is relative to the child.
      return child_data[static_cast<size_t>(child)]->IsValid(pos);
    }
    case TypeId::kRunEndEncoded: {
      const ArrayData& ends = *child_data[0];
      int64_t logical = offset + i;
      int64_t phys = 0;
      (void)VisitRunEndType(*ends.type, [&](auto zero) -> Status {
        phys = FindPhysicalIndex<decltype(zero)>(ends, logical);
        return Status::OK();
      });
      return child_data[1]->IsValid(phys);
    }
    default:
      if (null_count == 0 || buffers.empty() || buffers[0] == nullptr) return true;
      return bit_util::GetBit(buffers[0]->data(), offset + i);
  }
}

}  // namespace alkaid

// Concatenation: one visitor per layout, each copying the inputs' visible
// windows [offset, offset + length) into fresh buffers. Nested children are
// sliced to the ranges their parents reference and concatenated recursively.
#include "alkaid/concatenate.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>

#include "alkaid/bitmap.h"
#include "alkaid/compare.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid {

namespace {

template <typename T>
inline constexpr bool is_fixed_width_value_v =
    has_c_type_v<T> || is_decimal_v<T> || std::is_same_v<T, FixedSizeBinaryType>;

// The visible validity bit of slot j of `a`, for a bitmap pointer that is
// null when the array has no nulls.
inline bool SlotValid(const uint8_t* validity, const ArrayData& a, int64_t j) {
  return validity == nullptr || bit_util::GetBit(validity, a.offset + j);
}

inline const uint8_t* ValidityOrNull(const ArrayData& a) {
  return a.GetNullCount() == 0 ? nullptr : a.validity();
}

template <typename Int>
Status CheckFits(int64_t value, const char* what) {
  if (value > static_cast<int64_t>(std::numeric_limits<Int>::max()))
    return Status::CapacityError("concatenated ", what, " reach ", value,
                                 ", more than a ", sizeof(Int) * 8, "-bit integer can hold");
  return Status::OK();
}

// A view of `a` as another type over the same buffers (indices of a
// dictionary, storage of an extension).
ArrayDataPtr Retyped(const ArrayData& a, DataTypePtr type) {
  auto out = std::make_shared<ArrayData>(a);
  out->type = std::move(type);
  out->dictionary = nullptr;
  return out;
}

class Concatenator {
 public:
  Concatenator(const ArrayDataVector& in, MemoryPool* pool) : in_(in), pool_(pool) {
    for (const auto& a : in_) overflow_ |= __builtin_add_overflow(total_, a->length, &total_);
  }

  Result<ArrayDataPtr> Run() {
    // Arrays without buffers (null, struct<null>, run-end encoded) may be
    // long enough for their lengths to add up past int64.
    if (overflow_)
      return Status::CapacityError("the concatenated length of ", in_.size(),
                                   " arrays exceeds 2^63 - 1");
    return VisitTypeInline(*in_[0]->type, this);
  }

  Result<ArrayDataPtr> Visit(const NullType&) {
    return ArrayData::Make(type(), total_, {}, total_);
  }

  Result<ArrayDataPtr> Visit(const BooleanType&) {
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> values, AllocateBitmap(total_, false, pool_));
    int64_t pos = 0;
    for (const auto& a : in_) {
      bit_util::CopyBitmap(a->buffers[1]->data(), a->offset, a->length, values->mutable_data(), pos);
      pos += a->length;
    }
    return ArrayData::Make(type(), total_, {validity, values}, nulls);
  }

  template <typename T>
    requires is_fixed_width_value_v<T>
  Result<ArrayDataPtr> Visit(const T& t) {
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    ALKAID_ASSIGN_OR_RAISE(auto values, ConcatFixedWidth(1, t.byte_width()));
    return ArrayData::Make(type(), total_, {validity, values}, nulls);
  }

  template <typename T>
    requires is_base_binary_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    ALKAID_ASSIGN_OR_RAISE(VarLength v, ConcatVarLength<typename T::offset_type>());
    int64_t data_size = 0;
    for (const Range& r : v.ranges) data_size += r.size();
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> data, AllocateBuffer(data_size, pool_));
    int64_t pos = 0;
    for (size_t i = 0; i < in_.size(); ++i) {
      const Range& r = v.ranges[i];
      if (r.size() == 0) continue;
      std::memcpy(data->mutable_data() + pos, in_[i]->buffers[2]->data() + r.begin,
                  static_cast<size_t>(r.size()));
      pos += r.size();
    }
    return ArrayData::Make(type(), total_, {v.validity, v.offsets, data}, v.nulls);
  }

  template <typename T>
    requires is_binary_view_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    ALKAID_ASSIGN_OR_RAISE(auto views_buffer, ConcatFixedWidth(1, sizeof(BinaryViewValue)));
    auto* views = views_buffer->mutable_data_as<BinaryViewValue>();
    // Data buffers are shared as they are; each input's out-of-line views are
    // redirected by the number of data buffers that precede its own.
    BufferVector buffers{validity, views_buffer};
    int64_t pos = 0;
    for (const auto& a : in_) {
      const int64_t shift = static_cast<int64_t>(buffers.size()) - 2;
      const uint8_t* a_validity = ValidityOrNull(*a);
      for (int64_t j = 0; j < a->length; ++j) {
        BinaryViewValue& v = views[pos + j];
        if (!SlotValid(a_validity, *a, j)) {
          v = BinaryViewValue{};  // null slots become empty inline views
        } else if (!v.is_inline() && shift != 0) {
          const int64_t index = int64_t{v.ref.buffer_index} + shift;
          ALKAID_RETURN_NOT_OK(CheckFits<int32_t>(index, "view buffer indexes"));
          v.ref.buffer_index = static_cast<int32_t>(index);
        }
      }
      buffers.insert(buffers.end(), a->buffers.begin() + 2, a->buffers.end());
      pos += a->length;
    }
    return ArrayData::Make(type(), total_, std::move(buffers), nulls);
  }

  template <typename T>
    requires is_var_list_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    ALKAID_ASSIGN_OR_RAISE(VarLength v, ConcatVarLength<typename T::offset_type>());
    ArrayDataVector pieces;
    for (size_t i = 0; i < in_.size(); ++i) {
      pieces.push_back(in_[i]->child_data[0]->Slice(v.ranges[i].begin, v.ranges[i].size()));
    }
    ALKAID_ASSIGN_OR_RAISE(auto child, ConcatChild(pieces, 0));
    return ArrayData::Make(type(), total_, {v.validity, v.offsets}, {child}, v.nulls);
  }

  template <typename T>
    requires is_list_view_v<T>
  Result<ArrayDataPtr> Visit(const T&) {
    using O = typename T::offset_type;
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> offsets_buf, AllocateBuffer(total_ * sizeof(O), pool_));
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> sizes_buf, AllocateBuffer(total_ * sizeof(O), pool_));
    O* out_offsets = offsets_buf->mutable_data_as<O>();
    O* out_sizes = sizes_buf->mutable_data_as<O>();
    ArrayDataVector pieces;
    int64_t pos = 0;
    int64_t child_pos = 0;
    for (const auto& a : in_) {
      const O* offsets = a->GetValues<O>(1);
      const O* sizes = a->GetValues<O>(2);
      const uint8_t* a_validity = ValidityOrNull(*a);
      // Only the child range used by visible, non-empty views is carried over.
      int64_t lo = std::numeric_limits<int64_t>::max();
      int64_t hi = 0;
      for (int64_t j = 0; j < a->length; ++j) {
        if (!SlotValid(a_validity, *a, j) || sizes[j] <= 0) continue;
        lo = std::min<int64_t>(lo, offsets[j]);
        hi = std::max<int64_t>(hi, int64_t{offsets[j]} + sizes[j]);
      }
      if (hi == 0) lo = 0;
      const int64_t shift = child_pos - lo;
      for (int64_t j = 0; j < a->length; ++j) {
        const bool used = SlotValid(a_validity, *a, j) && sizes[j] > 0;
        out_offsets[pos + j] = used ? static_cast<O>(offsets[j] + shift) : O{0};
        out_sizes[pos + j] = used ? sizes[j] : O{0};
      }
      pieces.push_back(a->child_data[0]->Slice(lo, hi - lo));
      child_pos += hi - lo;
      ALKAID_RETURN_NOT_OK(CheckFits<O>(child_pos, "list view children"));
      pos += a->length;
    }
    ALKAID_ASSIGN_OR_RAISE(auto child, ConcatChild(pieces, 0));
    return ArrayData::Make(type(), total_, {validity, offsets_buf, sizes_buf}, {child}, nulls);
  }

  Result<ArrayDataPtr> Visit(const FixedSizeListType& t) {
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    const int64_t list_size = t.list_size();
    ArrayDataVector pieces;
    for (const auto& a : in_) {
      pieces.push_back(a->child_data[0]->Slice(a->offset * list_size, a->length * list_size));
    }
    ALKAID_ASSIGN_OR_RAISE(auto child, ConcatChild(pieces, 0));
    return ArrayData::Make(type(), total_, {validity}, {child}, nulls);
  }

  Result<ArrayDataPtr> Visit(const StructType& t) {
    int64_t nulls = 0;
    ALKAID_ASSIGN_OR_RAISE(auto validity, ConcatValidity(&nulls));
    ALKAID_ASSIGN_OR_RAISE(auto children, ConcatAlignedChildren(t.num_fields()));
    return ArrayData::Make(type(), total_, {validity}, std::move(children), nulls);
  }

  Result<ArrayDataPtr> Visit(const SparseUnionType& t) {
    ALKAID_ASSIGN_OR_RAISE(auto type_ids, ConcatFixedWidth(0, 1));
    ALKAID_ASSIGN_OR_RAISE(auto children, ConcatAlignedChildren(t.num_fields()));
    return ArrayData::Make(type(), total_, {type_ids}, std::move(children), 0);
  }

  Result<ArrayDataPtr> Visit(const DenseUnionType& t) {
    ALKAID_ASSIGN_OR_RAISE(auto type_ids, ConcatFixedWidth(0, 1));
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> offsets_buf,
                           AllocateBuffer(total_ * static_cast<int64_t>(sizeof(int32_t)), pool_));
    int32_t* out_offsets = offsets_buf->mutable_data_as<int32_t>();
    const size_t num_children = static_cast<size_t>(t.num_fields());
    std::vector<ArrayDataVector> pieces(num_children);
    std::vector<int64_t> child_pos(num_children, 0);
    std::vector<int64_t> lo(num_children), hi(num_children);
    int64_t pos = 0;
    for (size_t i = 0; i < in_.size(); ++i) {
      const ArrayData& a = *in_[i];
      const int8_t* codes = a.GetValues<int8_t>(0);
      const int32_t* offsets = a.GetValues<int32_t>(1);
      // First pass: which window of each child this input references.
      std::fill(lo.begin(), lo.end(), std::numeric_limits<int64_t>::max());
      std::fill(hi.begin(), hi.end(), 0);
      for (int64_t j = 0; j < a.length; ++j) {
        const int k = t.child_index(codes[j]);
        if (k < 0)
          return Status::Invalid("Concatenate: array ", i, " slot ", j, " has type code ",
                                 int{codes[j]}, " not declared by ", t.ToString());
        lo[k] = std::min<int64_t>(lo[k], offsets[j]);
        hi[k] = std::max<int64_t>(hi[k], int64_t{offsets[j]} + 1);
      }
      std::vector<int64_t> shift(num_children, 0);
      for (size_t k = 0; k < num_children; ++k) {
        if (hi[k] == 0) continue;
        pieces[k].push_back(a.child_data[k]->Slice(lo[k], hi[k] - lo[k]));
        shift[k] = child_pos[k] - lo[k];
        child_pos[k] += hi[k] - lo[k];
        ALKAID_RETURN_NOT_OK(CheckFits<int32_t>(child_pos[k], "dense union children"));
      }
      for (int64_t j = 0; j < a.length; ++j) {
        const size_t k = static_cast<size_t>(t.child_index(codes[j]));
        out_offsets[pos + j] = static_cast<int32_t>(offsets[j] + shift[k]);
      }
      pos += a.length;
    }
    ArrayDataVector children;
    for (size_t k = 0; k < num_children; ++k) {
      if (pieces[k].empty()) pieces[k].push_back(in_[0]->child_data[k]->Slice(0, 0));
      ALKAID_ASSIGN_OR_RAISE(auto child, ConcatChild(pieces[k], static_cast<int>(k)));
      children.push_back(std::move(child));
    }
    return ArrayData::Make(type(), total_, {type_ids, offsets_buf}, std::move(children), 0);
  }

  Result<ArrayDataPtr> Visit(const DictionaryType& t) {
    for (size_t i = 0; i < in_.size(); ++i) {
      if (in_[i]->dictionary == nullptr)
        return Status::Invalid("Concatenate: dictionary array ", i, " has no dictionary");
    }
    ArrayDataVector indices;
    for (const auto& a : in_) indices.push_back(Retyped(*a, t.index_type()));
    if (AllDictionariesEqual()) {
      ALKAID_ASSIGN_OR_RAISE(auto out, Concatenate(indices, pool_));
      out->type = type();
      out->dictionary = in_[0]->dictionary;
      return out;
    }
    ArrayDataVector dictionaries;
    for (const auto& a : in_) dictionaries.push_back(a->dictionary);
    ALKAID_ASSIGN_OR_RAISE(auto dictionary, Concatenate(dictionaries, pool_));
    IndexShifter shifter{*this, t};
    ALKAID_ASSIGN_OR_RAISE(auto out, VisitIndexType(*t.index_type(),
                                                    [&](auto zero) -> Result<ArrayDataPtr> {
                                                      return shifter.Shift<decltype(zero)>(
                                                          *t.index_type());
                                                    }));
    out->dictionary = std::move(dictionary);
    return out;
  }

  Result<ArrayDataPtr> Visit(const RunEndEncodedType& t) {
    RunEndConcatenator runs{*this, t};
    return VisitRunEndType(*t.run_end_type(), [&](auto zero) -> Result<ArrayDataPtr> {
      return runs.Build<decltype(zero)>();
    });
  }

  Result<ArrayDataPtr> Visit(const ExtensionType& t) {
    ArrayDataVector storage;
    for (const auto& a : in_) {
      auto s = Retyped(*a, t.storage_type());
      s->dictionary = a->dictionary;
      storage.push_back(std::move(s));
    }
    ALKAID_ASSIGN_OR_RAISE(auto out, Concatenate(storage, pool_));
    out->type = type();
    return out;
  }

 private:
  struct Range {
    int64_t begin;
    int64_t end;
    int64_t size() const { return end - begin; }
  };

  const DataTypePtr& type() const { return in_[0]->type; }

  // Concatenated validity bitmap, or nullptr when no input has a null.
  Result<BufferPtr> ConcatValidity(int64_t* null_count) {
    int64_t nulls = 0;
    for (const auto& a : in_) nulls += a->GetNullCount();
    *null_count = nulls;
    if (nulls == 0) return BufferPtr();
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> out, AllocateBitmap(total_, false, pool_));
    int64_t pos = 0;
    for (const auto& a : in_) {
      const uint8_t* bits = ValidityOrNull(*a);
      if (bits == nullptr) {
        bit_util::SetBitsTo(out->mutable_data(), pos, a->length, true);
      } else {
        bit_util::CopyBitmap(bits, a->offset, a->length, out->mutable_data(), pos);
      }
      pos += a->length;
    }
    return BufferPtr(out);
  }

  // Buffer `index` of every input taken as `width`-byte values, copied back to back.
  Result<std::shared_ptr<Buffer>> ConcatFixedWidth(int index, int64_t width) {
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> out, AllocateBuffer(total_ * width, pool_));
    int64_t pos = 0;
    for (const auto& a : in_) {
      const int64_t nbytes = a->length * width;
      if (nbytes > 0) {
        std::memcpy(out->mutable_data() + pos,
                    a->buffers[static_cast<size_t>(index)]->data() + a->offset * width,
                    static_cast<size_t>(nbytes));
      }
      pos += nbytes;
    }
    return out;
  }

  // Offsets rebased so each input's values follow the previous input's; the
  // value range each input references is reported in `ranges`.
  template <typename O>
  Result<BufferPtr> ConcatOffsets(std::vector<Range>* ranges) {
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> out,
                           AllocateBuffer((total_ + 1) * static_cast<int64_t>(sizeof(O)), pool_));
    O* dst = out->mutable_data_as<O>();
    int64_t pos = 0;
    int64_t base = 0;
    for (const auto& a : in_) {
      const O* src = a->GetValues<O>(1);
      const int64_t first = src[0];
      const int64_t last = src[a->length];
      if (last < first)
        return Status::Invalid("Concatenate: offsets of an input decrease from ", first, " to ",
                               last);
      ALKAID_RETURN_NOT_OK(CheckFits<O>(base + (last - first), "offsets"));
      for (int64_t j = 0; j < a->length; ++j) dst[pos + j] = static_cast<O>(src[j] - first + base);
      ranges->push_back({first, last});
      base += last - first;
      pos += a->length;
    }
    dst[total_] = static_cast<O>(base);
    return BufferPtr(out);
  }

  // The validity and rebased offsets of a var-length layout (binary, list),
  // with the range of values (bytes, child slots) each input references.
  struct VarLength {
    BufferPtr validity;
    int64_t nulls = 0;
    BufferPtr offsets;
    std::vector<Range> ranges;
  };
  template <typename O>
  Result<VarLength> ConcatVarLength() {
    VarLength v;
    ALKAID_ASSIGN_OR_RAISE(v.validity, ConcatValidity(&v.nulls));
    ALKAID_ASSIGN_OR_RAISE(v.offsets, ConcatOffsets<O>(&v.ranges));
    return v;
  }

  // Children that line up slot for slot with the parent (struct, sparse union).
  Result<ArrayDataVector> ConcatAlignedChildren(int num_fields) {
    ArrayDataVector children;
    for (int k = 0; k < num_fields; ++k) {
      ArrayDataVector pieces;
      for (const auto& a : in_) {
        pieces.push_back(a->child_data[static_cast<size_t>(k)]->Slice(a->offset, a->length));
      }
      ALKAID_ASSIGN_OR_RAISE(auto child, ConcatChild(pieces, k));
      children.push_back(std::move(child));
    }
    return children;
  }

  Result<ArrayDataPtr> ConcatChild(const ArrayDataVector& pieces, int child_index) {
    Result<ArrayDataPtr> out = Concatenate(pieces, pool_);
    if (!out.ok()) {
      return out.status().WithContext("child " + std::to_string(child_index) + " (" +
                                      type()->field(child_index)->name() + ")");
    }
    return out;
  }

  bool AllDictionariesEqual() const {
    const ArrayDataPtr& first = in_[0]->dictionary;
    for (size_t i = 1; i < in_.size(); ++i) {
      const ArrayDataPtr& d = in_[i]->dictionary;
      if (d != first && !ArrayEquals(*first, *d)) return false;
    }
    return true;
  }

  // Rewrites the indices of unequal-dictionary inputs: input i's indices move
  // up by the total length of the dictionaries before it.
  struct IndexShifter {
    Concatenator& self;
    const DictionaryType& dict_type;

    template <typename I>
    Result<ArrayDataPtr> Shift(const DataType& index_type) {
      int64_t nulls = 0;
      ALKAID_ASSIGN_OR_RAISE(auto validity, self.ConcatValidity(&nulls));
      ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> values,
                             AllocateBuffer(self.total_ * static_cast<int64_t>(sizeof(I)), self.pool_));
      I* dst = values->mutable_data_as<I>();
      constexpr int64_t kMax = static_cast<int64_t>(
          std::min<uint64_t>(std::numeric_limits<I>::max(), std::numeric_limits<int64_t>::max()));
      int64_t pos = 0;
      int64_t shift = 0;
      for (size_t i = 0; i < self.in_.size(); ++i) {
        const ArrayData& a = *self.in_[i];
        const I* src = a.GetValues<I>(1);
        const uint8_t* a_validity = ValidityOrNull(a);
        for (int64_t j = 0; j < a.length; ++j) {
          if (!SlotValid(a_validity, a, j)) {
            dst[pos + j] = I{0};
            continue;
          }
          const I index = src[j];
          if constexpr (std::is_signed_v<I>) {
            if (index < 0)
              return Status::Invalid("Concatenate: array ", i, " slot ", j,
                                     " has negative dictionary index ", int64_t{index});
          }
          if (shift > kMax || static_cast<uint64_t>(index) > static_cast<uint64_t>(kMax - shift))
            return Status::CapacityError("Concatenate: index ", static_cast<int64_t>(index),
                                         " of array ", i, " slot ", j, " shifted by ", shift,
                                         " (the lengths of the preceding dictionaries) does not fit ",
                                         index_type.ToString());
          dst[pos + j] = static_cast<I>(static_cast<int64_t>(index) + shift);
        }
        shift += a.dictionary->length;
        pos += a.length;
      }
      return ArrayData::Make(self.type(), self.total_, {validity, values}, nulls);
    }
  };

  // Run ends of each input trimmed to its visible window and moved to where
  // that window lands in the output.
  struct RunEndConcatenator {
    Concatenator& self;
    const RunEndEncodedType& ree_type;

    template <typename E>
    Result<ArrayDataPtr> Build() {
      ALKAID_RETURN_NOT_OK(CheckFits<E>(self.total_, "run ends"));
      std::vector<E> ends;
      ArrayDataVector value_pieces;
      int64_t pos = 0;
      for (size_t i = 0; i < self.in_.size(); ++i) {
        const ArrayData& a = *self.in_[i];
        const ArrayData& run_ends = *a.child_data[0];
        const E* re = run_ends.GetValues<E>(1);
        const E* re_end = re + run_ends.length;
        const int64_t begin = a.offset;
        const int64_t end = a.offset + a.length;
        const int64_t first = std::upper_bound(re, re_end, begin, LessThanEnd<E>) - re;
        const int64_t last = std::upper_bound(re, re_end, end - 1, LessThanEnd<E>) - re;
        if (last >= run_ends.length)
          return Status::Invalid("Concatenate: run ends of array ", i, " stop before its logical end ",
                                 end);
        for (int64_t p = first; p <= last; ++p) {
          const int64_t run_end = std::min<int64_t>(re[p], end);
          ends.push_back(static_cast<E>(run_end - begin + pos));
        }
        value_pieces.push_back(a.child_data[1]->Slice(first, last + 1 - first));
        pos += a.length;
      }
      ALKAID_ASSIGN_OR_RAISE(
          auto ends_buffer,
          Buffer::Copy(reinterpret_cast<const uint8_t*>(ends.data()),
                       static_cast<int64_t>(ends.size() * sizeof(E)), self.pool_));
      auto run_ends = ArrayData::Make(ree_type.run_end_type(), static_cast<int64_t>(ends.size()),
                                      {nullptr, ends_buffer}, 0);
      ALKAID_ASSIGN_OR_RAISE(auto values, self.ConcatChild(value_pieces, 1));
      return ArrayData::Make(self.type(), self.total_, {}, {run_ends, values}, 0);
    }

    template <typename E>
    static bool LessThanEnd(int64_t logical, E run_end) {
      return logical < static_cast<int64_t>(run_end);
    }
  };

  const ArrayDataVector& in_;
  MemoryPool* pool_;
  int64_t total_ = 0;
  bool overflow_ = false;
};

}  // namespace

Result<ArrayDataPtr> Concatenate(const ArrayDataVector& arrays, MemoryPool* pool) {
  if (arrays.empty()) return Status::Invalid("Concatenate needs at least one array");
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i] == nullptr || arrays[i]->type == nullptr)
      return Status::Invalid("Concatenate: array ", i, " is null or has no type");
    if (i > 0 && !arrays[i]->type->Equals(*arrays[0]->type))
      return Status::TypeError("Concatenate: array ", i, " has type ", arrays[i]->type->ToString(),
                               " but array 0 has type ", arrays[0]->type->ToString());
  }
  // Empty inputs contribute nothing; skipping them also spares every layout
  // from having to cope with absent buffers of zero-length arrays.
  ArrayDataVector nonempty;
  for (const auto& a : arrays) {
    if (a->length > 0) nonempty.push_back(a);
  }
  if (nonempty.empty()) return MakeArrayOfNull(arrays[0]->type, 0, pool);
  // Buffers come from `pool` (a capped pool bounds what this may build);
  // the little bookkeeping on the heap must not throw through either.
  try {
    Concatenator concatenator(nonempty, pool);
    return concatenator.Run();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory while concatenating ", arrays.size(), " arrays");
  }
}

}  // namespace alkaid

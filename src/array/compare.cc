// Logical comparison of arrays.
//
// Everything is expressed as "compare left[ls, ls + n) with right[rs, rs + n)",
// positions being logical slots of each ArrayData (its own offset is added
// when buffers are read). Nested types recurse into their children with the
// child positions their layout implies, so slices, shifted offsets, list views
// and dense unions all compare by value. The type is dispatched once per call
// (one VisitTypeInline per array level and range), and within a range the
// values are compared in tight loops over runs of valid slots.
//
// The inputs are assumed to be structurally valid (see alkaid/validate.h).
#include "alkaid/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/float16.h"
#include "alkaid/pretty_print.h"
#include "alkaid/validate.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"

namespace alkaid {

namespace {

// The first difference found inside a compared range.
struct Mismatch {
  int64_t index;        // slot within the range, counted from the range start
  std::string suffix;   // path below that slot, e.g. ".b[1]"
  std::string message;  // e.g. "7 vs 8" (empty when not describing)
};
using MaybeMismatch = std::optional<Mismatch>;

bool BytesEqual(const uint8_t* a, const uint8_t* b, int64_t n) {
  // memcmp must not see null pointers, even for n == 0.
  return n <= 0 || std::memcmp(a, b, static_cast<size_t>(n)) == 0;
}

// The validity bitmap to consult, or nullptr when every slot is valid.
const uint8_t* ValidityBits(const ArrayData& data) {
  if (data.null_count == 0 || data.buffers.empty() || data.buffers[0] == nullptr) return nullptr;
  return data.buffers[0]->data();
}

uint64_t LoadBits(const uint8_t* bits, int64_t offset, int64_t n) {
  if (bits == nullptr) return n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  return n == 64 ? bit_util::LoadWord(bits, offset) : bit_util::LoadPartialWord(bits, offset, n);
}

// First position in [0, length) where the two bit ranges differ, or -1.
// A null bitmap reads as all ones.
int64_t FirstBitDifference(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                           int64_t right_offset, int64_t length) {
  if (left == nullptr && right == nullptr) return -1;
  for (int64_t pos = 0; pos < length; pos += 64) {
    const int64_t n = std::min<int64_t>(64, length - pos);
    const uint64_t diff =
        LoadBits(left, left_offset + pos, n) ^ LoadBits(right, right_offset + pos, n);
    if (diff != 0) return pos + __builtin_ctzll(diff);
  }
  return -1;
}

// Calls visit_run(start, count) for each maximal run of set bits in
// [0, length) of the range starting at `offset` (null bits: one run over
// everything). Stops early and returns true as soon as visit_run does.
template <typename VisitRun>
bool ForEachSetRun(const uint8_t* bits, int64_t offset, int64_t length, VisitRun&& visit_run) {
  if (bits == nullptr) return length > 0 && visit_run(int64_t{0}, length);
  int64_t run_start = -1;
  for (int64_t pos = 0; pos < length; pos += 64) {
    const int64_t n = std::min<int64_t>(64, length - pos);
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    const uint64_t word = LoadBits(bits, offset + pos, n);
    if (word == all) {
      if (run_start < 0) run_start = pos;
      continue;
    }
    int64_t b = 0;
    while (b < n) {
      if (run_start < 0) {
        const uint64_t set_rest = word >> b;
        if (set_rest == 0) break;
        b += __builtin_ctzll(set_rest);
        run_start = pos + b;
      }
      const uint64_t clear_rest = (~word & all) >> b;
      if (clear_rest == 0) break;  // the run continues into the next word
      b += __builtin_ctzll(clear_rest);
      if (visit_run(run_start, pos + b - run_start)) return true;
      run_start = -1;
    }
  }
  return run_start >= 0 && visit_run(run_start, length - run_start);
}

template <typename Float>
bool FloatsEqual(Float a, Float b, const EqualOptions& options) {
  if (a == b) return true;  // also +0 == -0 and inf == inf
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return options.nans_equal && a_nan && b_nan;
  return options.use_atol && std::fabs(static_cast<double>(a) - static_cast<double>(b)) <= options.atol;
}

template <typename T>
inline constexpr bool is_float_v = std::is_same_v<T, FloatType> || std::is_same_v<T, DoubleType> ||
                                   std::is_same_v<T, HalfFloatType>;

// Fixed-width types whose equality is equality of their bytes.
template <typename T>
inline constexpr bool is_bytewise_v =
    (has_c_type_v<T> && !is_float_v<T>) || std::is_same_v<T, FixedSizeBinaryType> || is_decimal_v<T>;

class RangeComparer {
 public:
  RangeComparer(const EqualOptions& options, bool describe) : options_(options), describe_(describe) {}

  MaybeMismatch Compare(const ArrayData& left, int64_t left_start, const ArrayData& right,
                        int64_t right_start, int64_t length);

  const EqualOptions& options() const { return options_; }

  // A mismatch at `index` whose message shows both slots.
  Mismatch SlotMismatch(int64_t index, const ArrayData& left, int64_t left_pos,
                        const ArrayData& right, int64_t right_pos, const char* note = nullptr) const {
    Mismatch m{index, {}, {}};
    if (describe_) {
      m.message = FormatValue(left, left_pos) + " vs " + FormatValue(right, right_pos);
      if (note != nullptr) m.message += note;
    }
    return m;
  }
  // Re-roots a child's mismatch under slot `index` with the given path step.
  Mismatch Nest(int64_t index, const std::string& step, Mismatch child) const {
    if (describe_) child.suffix = step + child.suffix;
    child.index = index;
    return child;
  }
  bool describe() const { return describe_; }

 private:
  EqualOptions options_;
  bool describe_;
};

// Compares one range of one type; built per Compare call.
struct RangeVisitor {
  RangeComparer* cmp;
  const ArrayData& l;
  int64_t ls;
  const ArrayData& r;
  int64_t rs;
  int64_t length;

  // ---- helpers -----------------------------------------------------------

  // Checks that null positions agree, then calls compare_run(start, count)
  // for each run of valid slots until it reports a mismatch.
  template <typename CompareRun>
  MaybeMismatch WithValidity(CompareRun&& compare_run) {
    const uint8_t* lbits = ValidityBits(l);
    const uint8_t* rbits = ValidityBits(r);
    const int64_t diff = FirstBitDifference(lbits, l.offset + ls, rbits, r.offset + rs, length);
    MaybeMismatch found;
    // Values before the first validity difference come first in slot order.
    const int64_t limit = diff < 0 ? length : diff;
    ForEachSetRun(lbits, l.offset + ls, limit, [&](int64_t start, int64_t count) {
      found = compare_run(start, count);
      return found.has_value();
    });
    if (!found && diff >= 0) found = cmp->SlotMismatch(diff, l, ls + diff, r, rs + diff);
    return found;
  }

  // First k in [0, count) where slot k has different lengths, else count.
  template <typename O>
  static int64_t FirstLengthDifference(const O* a, const O* b, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
      if (a[k + 1] - a[k] != b[k + 1] - b[k]) return k;
    }
    return count;
  }

  MaybeMismatch ValueAt(int64_t k) const { return cmp->SlotMismatch(k, l, ls + k, r, rs + k); }

  // A difference found inside what slot k stands for (its union child, its
  // dictionary entry, its run's value), reported at slot k: with the inner
  // path and message when the difference is nested deeper, else the slots.
  Mismatch InsideValue(int64_t k, Mismatch inner) const {
    Mismatch whole = *ValueAt(k);
    if (cmp->describe() && !inner.suffix.empty()) {
      whole.suffix = std::move(inner.suffix);
      whole.message = std::move(inner.message);
    }
    return whole;
  }

  // Binary and list slots, described by offsets (buffer 1): in each run of
  // valid slots, the slots before the first length difference hold
  // contiguous values on both sides, which compare_values(start, a, b, same)
  // compares at once (a and b: the run's offsets); the length difference
  // itself is the mismatch after them (its message noting the lengths for
  // lists, whose printed values may be cut short).
  template <typename O, typename CompareValues>
  MaybeMismatch WithOffsetRuns(bool note_lengths, CompareValues&& compare_values) {
    const O* lo = l.GetValues<O>(1) + ls;
    const O* ro = r.GetValues<O>(1) + rs;
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      const O* a = lo + start;
      const O* b = ro + start;
      const int64_t same = FirstLengthDifference(a, b, count);
      if (MaybeMismatch m = compare_values(start, a, b, same)) return m;
      if (same == count) return std::nullopt;
      if (!note_lengths) return ValueAt(start + same);
      return LengthMismatch(start + same, a[same + 1] - a[same], b[same + 1] - b[same]);
    });
  }

  // What a comparison through VisitIndexType or VisitRunEndType found (they
  // never fail here: types are checked when they are made).
  static MaybeMismatch Found(Result<MaybeMismatch> result) {
    return result.ok() ? std::move(*result) : std::nullopt;
  }

  static std::string ElementStep(int64_t element) { return "[" + std::to_string(element) + "]"; }

  // ---- leaves ------------------------------------------------------------

  MaybeMismatch Visit(const NullType&) { return std::nullopt; }

  MaybeMismatch Visit(const BooleanType&) {
    const uint8_t* lv = l.buffers[1] ? l.buffers[1]->data() : nullptr;
    const uint8_t* rv = r.buffers[1] ? r.buffers[1]->data() : nullptr;
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      const int64_t d = FirstBitDifference(lv, l.offset + ls + start, rv, r.offset + rs + start, count);
      if (d >= 0) return ValueAt(start + d);
      return std::nullopt;
    });
  }

  template <typename T>
    requires is_bytewise_v<T>
  MaybeMismatch Visit(const T& type) {
    const int64_t width = type.byte_width();
    const uint8_t* lv = l.buffers[1] ? l.buffers[1]->data() + (l.offset + ls) * width : nullptr;
    const uint8_t* rv = r.buffers[1] ? r.buffers[1]->data() + (r.offset + rs) * width : nullptr;
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      const uint8_t* a = lv + start * width;
      const uint8_t* b = rv + start * width;
      if (BytesEqual(a, b, count * width)) return std::nullopt;
      for (int64_t k = 0; k < count; ++k) {
        if (!BytesEqual(a + k * width, b + k * width, width)) return ValueAt(start + k);
      }
      return std::nullopt;
    });
  }

  template <typename T>
    requires is_float_v<T>
  MaybeMismatch Visit(const T&) {
    using C = typename T::c_type;
    const C* lv = l.GetValues<C>(1) + ls;
    const C* rv = r.GetValues<C>(1) + rs;
    const EqualOptions& options = cmp->options();
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      for (int64_t k = start; k < start + count; ++k) {
        C a, b;  // memcpy: buffers from IPC need not be aligned for C
        std::memcpy(&a, lv + k, sizeof(C));
        std::memcpy(&b, rv + k, sizeof(C));
        bool equal;
        if constexpr (std::is_same_v<T, HalfFloatType>) {
          equal = FloatsEqual(HalfToFloat(a), HalfToFloat(b), options);
        } else {
          equal = FloatsEqual(a, b, options);
        }
        if (!equal) return ValueAt(k);
      }
      return std::nullopt;
    });
  }

  template <typename T>
    requires is_base_binary_v<T>
  MaybeMismatch Visit(const T&) {
    using O = typename T::offset_type;
    const uint8_t* ld = l.buffers[2] ? l.buffers[2]->data() : nullptr;
    const uint8_t* rd = r.buffers[2] ? r.buffers[2]->data() : nullptr;
    return WithOffsetRuns<O>(false, [&](int64_t start, const O* a, const O* b,
                                        int64_t same) -> MaybeMismatch {
      // Their bytes compare with one memcmp; a difference is then found slot by slot.
      if (BytesEqual(ld + a[0], rd + b[0], static_cast<int64_t>(a[same] - a[0]))) return std::nullopt;
      for (int64_t k = 0; k < same; ++k) {
        if (!BytesEqual(ld + a[k], rd + b[k], static_cast<int64_t>(a[k + 1] - a[k])))
          return ValueAt(start + k);
      }
      return std::nullopt;
    });
  }

  static const uint8_t* ViewBytes(const ArrayData& data, const BinaryViewValue& view,
                                  const uint8_t* raw) {
    if (view.is_inline()) return raw + 4;
    return data.buffers[static_cast<size_t>(2 + view.ref.buffer_index)]->data() + view.ref.offset;
  }

  template <typename T>
    requires is_binary_view_v<T>
  MaybeMismatch Visit(const T&) {
    const uint8_t* lv = l.buffers[1]->data() + (l.offset + ls) * 16;
    const uint8_t* rv = r.buffers[1]->data() + (r.offset + rs) * 16;
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      for (int64_t k = start; k < start + count; ++k) {
        const uint8_t* a_raw = lv + k * 16;
        const uint8_t* b_raw = rv + k * 16;
        BinaryViewValue a, b;
        std::memcpy(&a, a_raw, 16);
        std::memcpy(&b, b_raw, 16);
        if (a.size() != b.size()) return ValueAt(k);
        // The prefix (or first inline bytes) settles most differences cheaply.
        const int64_t head = std::min<int64_t>(a.size(), BinaryViewValue::kPrefixSize);
        if (!BytesEqual(a_raw + 4, b_raw + 4, head)) return ValueAt(k);
        if (!BytesEqual(ViewBytes(l, a, a_raw), ViewBytes(r, b, b_raw), a.size())) return ValueAt(k);
      }
      return std::nullopt;
    });
  }

  // ---- nested ------------------------------------------------------------

  template <typename T>
    requires is_var_list_v<T>
  MaybeMismatch Visit(const T&) {
    using O = typename T::offset_type;
    const ArrayData& lc = *l.child_data[0];
    const ArrayData& rc = *r.child_data[0];
    return WithOffsetRuns<O>(true, [&](int64_t start, const O* a, const O* b,
                                       int64_t same) -> MaybeMismatch {
      // Their elements compare at once; a difference maps back to its list slot.
      MaybeMismatch m = cmp->Compare(lc, a[0], rc, b[0], static_cast<int64_t>(a[same] - a[0]));
      if (!m) return std::nullopt;
      const O target = static_cast<O>(a[0] + m->index);
      const int64_t k = std::upper_bound(a, a + same + 1, target) - a - 1;
      return cmp->Nest(start + k, ElementStep(target - a[k]), std::move(*m));
    });
  }

  MaybeMismatch LengthMismatch(int64_t k, int64_t left_len, int64_t right_len) const {
    if (!cmp->describe()) return Mismatch{k, {}, {}};
    std::string note = " (length " + std::to_string(left_len) + " vs " + std::to_string(right_len) + ")";
    return cmp->SlotMismatch(k, l, ls + k, r, rs + k, note.c_str());
  }

  template <typename T>
    requires is_list_view_v<T>
  MaybeMismatch Visit(const T&) {
    using O = typename T::offset_type;
    const O* lo = l.GetValues<O>(1) + ls;
    const O* ro = r.GetValues<O>(1) + rs;
    const O* lsz = l.GetValues<O>(2) + ls;
    const O* rsz = r.GetValues<O>(2) + rs;
    const ArrayData& lc = *l.child_data[0];
    const ArrayData& rc = *r.child_data[0];
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      for (int64_t k = start; k < start + count; ++k) {
        if (lsz[k] != rsz[k]) return LengthMismatch(k, lsz[k], rsz[k]);
        if (lsz[k] == 0) continue;
        MaybeMismatch m = cmp->Compare(lc, lo[k], rc, ro[k], lsz[k]);
        if (m) {
          const int64_t element = m->index;
          return cmp->Nest(k, ElementStep(element), std::move(*m));
        }
      }
      return std::nullopt;
    });
  }

  MaybeMismatch Visit(const FixedSizeListType& type) {
    const int64_t size = type.list_size();
    const ArrayData& lc = *l.child_data[0];
    const ArrayData& rc = *r.child_data[0];
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      if (size == 0) return std::nullopt;
      MaybeMismatch m = cmp->Compare(lc, (l.offset + ls + start) * size, rc,
                                     (r.offset + rs + start) * size, count * size);
      if (!m) return std::nullopt;
      const int64_t element = m->index % size;
      return cmp->Nest(start + m->index / size, ElementStep(element), std::move(*m));
    });
  }

  MaybeMismatch Visit(const StructType& type) {
    return WithValidity([&](int64_t start, int64_t count) -> MaybeMismatch {
      // Report the lowest slot that differs in any field; a later field only
      // needs checking up to (excluding) the best slot found so far.
      MaybeMismatch best;
      int64_t limit = count;
      for (size_t f = 0; f < l.child_data.size() && limit > 0; ++f) {
        MaybeMismatch m = cmp->Compare(*l.child_data[f], l.offset + ls + start, *r.child_data[f],
                                       r.offset + rs + start, limit);
        if (!m) continue;
        limit = m->index;
        best = cmp->Nest(start + m->index, "." + type.field(static_cast<int>(f))->name(), std::move(*m));
        if (!cmp->describe()) break;
      }
      return best;
    });
  }

  template <typename T>
    requires is_union_v<T>
  MaybeMismatch Visit(const T& type) {
    const bool dense = type.mode() == UnionMode::kDense;
    const int8_t* lcodes = l.GetValues<int8_t>(0) + ls;
    const int8_t* rcodes = r.GetValues<int8_t>(0) + rs;
    const int32_t* loffs = dense ? l.GetValues<int32_t>(1) + ls : nullptr;
    const int32_t* roffs = dense ? r.GetValues<int32_t>(1) + rs : nullptr;
    // Sparse children line up with the union's physical slots.
    auto left_child_pos = [&](int64_t k) -> int64_t { return dense ? loffs[k] : l.offset + ls + k; };
    auto right_child_pos = [&](int64_t k) -> int64_t { return dense ? roffs[k] : r.offset + rs + k; };
    int64_t k = 0;
    while (k < length) {
      if (lcodes[k] != rcodes[k]) return ValueAt(k);
      // Extend a run of one type code whose child slots are consecutive on
      // both sides, so that it is compared with one call.
      int64_t end = k + 1;
      while (end < length && lcodes[end] == lcodes[k] && rcodes[end] == rcodes[k] &&
             (!dense || (loffs[end] == loffs[end - 1] + 1 && roffs[end] == roffs[end - 1] + 1))) {
        ++end;
      }
      const int child = type.child_index(lcodes[k]);
      if (child >= 0) {
        MaybeMismatch m = cmp->Compare(*l.child_data[static_cast<size_t>(child)], left_child_pos(k),
                                       *r.child_data[static_cast<size_t>(child)], right_child_pos(k),
                                       end - k);
        if (m) return InsideValue(k + m->index, std::move(*m));
      }
      k = end;
    }
    return std::nullopt;
  }

  // Decoded comparison: a slot is null when its index is null or the
  // dictionary value it points to is null.
  MaybeMismatch Visit(const DictionaryType& type) {
    return Found(VisitIndexType(*type.index_type(), [&](auto zero) -> Result<MaybeMismatch> {
      return CompareDecoded<decltype(zero)>();
    }));
  }

  template <typename Index>
  MaybeMismatch CompareDecoded() {
    const Index* li = l.GetValues<Index>(1) + ls;
    const Index* ri = r.GetValues<Index>(1) + rs;
    if (l.dictionary == nullptr || r.dictionary == nullptr) {
      Mismatch m{0, {}, {}};
      if (cmp->describe()) m.message = "dictionary array without a dictionary";
      return m;
    }
    const ArrayData& ld = *l.dictionary;
    const ArrayData& rd = *r.dictionary;
    const uint8_t* lbits = ValidityBits(l);
    const uint8_t* rbits = ValidityBits(r);
    const bool same_dictionary = &ld == &rd;
    for (int64_t k = 0; k < length; ++k) {
      const bool l_valid = (lbits == nullptr || bit_util::GetBit(lbits, l.offset + ls + k)) &&
                           ld.IsValid(static_cast<int64_t>(li[k]));
      const bool r_valid = (rbits == nullptr || bit_util::GetBit(rbits, r.offset + rs + k)) &&
                           rd.IsValid(static_cast<int64_t>(ri[k]));
      if (l_valid != r_valid) return ValueAt(k);
      if (!l_valid || (same_dictionary && li[k] == ri[k])) continue;
      MaybeMismatch m = cmp->Compare(ld, static_cast<int64_t>(li[k]), rd, static_cast<int64_t>(ri[k]), 1);
      if (m) return InsideValue(k, std::move(*m));
    }
    return std::nullopt;
  }

  MaybeMismatch Visit(const RunEndEncodedType& type) {
    return Found(VisitRunEndType(*type.run_end_type(), [&](auto zero) -> Result<MaybeMismatch> {
      return CompareRuns<decltype(zero)>();
    }));
  }

  // Walks both run sequences together; each segment where neither side
  // changes run is compared once, through the values of the two runs.
  template <typename RunEnd>
  MaybeMismatch CompareRuns() {
    const ArrayData& l_ends = *l.child_data[0];
    const ArrayData& r_ends = *r.child_data[0];
    const RunEnd* le = l_ends.GetValues<RunEnd>(1);
    const RunEnd* re = r_ends.GetValues<RunEnd>(1);
    const int64_t l_first = l.offset + ls;
    const int64_t r_first = r.offset + rs;
    int64_t lp = std::upper_bound(le, le + l_ends.length, static_cast<RunEnd>(l_first)) - le;
    int64_t rp = std::upper_bound(re, re + r_ends.length, static_cast<RunEnd>(r_first)) - re;
    int64_t k = 0;
    while (k < length) {
      if (lp >= l_ends.length || rp >= r_ends.length) return ValueAt(k);  // malformed: runs end early
      const int64_t l_left = static_cast<int64_t>(le[lp]) - (l_first + k);
      const int64_t r_left = static_cast<int64_t>(re[rp]) - (r_first + k);
      const int64_t segment = std::min({l_left, r_left, length - k});
      MaybeMismatch m = cmp->Compare(*l.child_data[1], lp, *r.child_data[1], rp, 1);
      if (m) return InsideValue(k, std::move(*m));
      k += segment;
      if (segment == l_left) ++lp;
      if (segment == r_left) ++rp;
    }
    return std::nullopt;
  }

  MaybeMismatch Visit(const ExtensionType&) {
    // Unreachable: Compare dispatches on the storage type.
    return std::nullopt;
  }
};

MaybeMismatch RangeComparer::Compare(const ArrayData& left, int64_t left_start,
                                     const ArrayData& right, int64_t right_start, int64_t length) {
  if (length <= 0) return std::nullopt;
  RangeVisitor visitor{this, left, left_start, right, right_start, length};
  return VisitTypeInline(left.storage_type(), &visitor);
}

std::string TopLevelDiff(const ArrayData& left, const ArrayData& right, const EqualOptions& options,
                         bool describe) {
  if (left.type == nullptr || right.type == nullptr) {
    if (left.type == right.type) return {};
    return "type mismatch: " + std::string(left.type ? left.type->ToString() : "<no type>") + " vs " +
           (right.type ? right.type->ToString() : "<no type>");
  }
  if (!left.type->Equals(*right.type, options.check_metadata)) {
    if (!describe) return "x";
    std::string l = left.type->ToString(), r = right.type->ToString();
    if (l == r) return "type mismatch: " + l + " vs " + r + " (field metadata differs)";
    return "type mismatch: " + l + " vs " + r;
  }
  if (left.length != right.length)
    return "length " + std::to_string(left.length) + " vs " + std::to_string(right.length);
  // The comparison follows offsets, indices, views and run ends wherever they
  // point, so it only runs on arrays that full validation accepts (it costs
  // about what the comparison does). An invalid array equals nothing.
  for (const ArrayData* side : {&left, &right}) {
    Status st = ValidateArrayFull(*side);
    if (!st.ok()) {
      if (!describe) return "x";
      return std::string(side == &left ? "left" : "right") + " array is invalid: " + st.message();
    }
  }
  RangeComparer comparer(options, describe);
  MaybeMismatch m = comparer.Compare(left, 0, right, 0, left.length);
  if (!m) return {};
  if (!describe) return "x";
  return "at [" + std::to_string(m->index) + "]" + m->suffix + ": " + m->message;
}

}  // namespace

bool ArrayEquals(const ArrayData& left, const ArrayData& right, const EqualOptions& options) {
  try {
    return TopLevelDiff(left, right, options, /*describe=*/false).empty();
  } catch (const std::bad_alloc&) {
    return false;  // only descriptions allocate, and they are not built here
  }
}

std::string ArrayDiff(const ArrayData& left, const ArrayData& right, const EqualOptions& options) {
  try {
    return TopLevelDiff(left, right, options, /*describe=*/true);
  } catch (const std::bad_alloc&) {
    return "out of memory while describing the difference";
  }
}

}  // namespace alkaid

// Row groups skipped by statistics (see predicate.h).
#include "src/parquet/predicate.h"

#include <cmath>
#include <cstring>

#include "src/parquet/convert.h"
#include "src/parquet/metadata_internal.h"

namespace alkaid::parquet::internal {

namespace {

using Op = ColumnPredicate::Op;

// -1, 0, 1 for a < b, a == b, a > b; nullopt when the two cannot be compared.
using Ordering = std::optional<int>;

template <typename T>
int Compare(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

bool IsDecimal(const ColumnDescriptor& column) {
  return column.logical_type.kind == LogicalType::Kind::kDecimal;
}

// A statistics bound (`bytes`) against the predicate's constant.
Ordering CompareBound(const ColumnDescriptor& column, const std::string& bytes,
                      const ColumnPredicate& p) {
  const bool is_unsigned = SortOrderOf(column) == SortOrder::kUnsigned;
  const auto* as_int = std::get_if<int64_t>(&p.value);
  const auto* as_double = std::get_if<double>(&p.value);
  switch (column.physical_type) {
    case PhysicalType::kBoolean: {
      const auto* b = std::get_if<bool>(&p.value);
      if (b == nullptr) return std::nullopt;
      return Compare<int>(bytes[0] != 0, *b);
    }
    case PhysicalType::kInt32:
    case PhysicalType::kInt64: {
      int64_t v;
      uint64_t u;
      if (column.physical_type == PhysicalType::kInt32) {
        int32_t v32;
        std::memcpy(&v32, bytes.data(), 4);
        v = v32;
        u = static_cast<uint32_t>(v32);
      } else {
        std::memcpy(&v, bytes.data(), 8);
        u = static_cast<uint64_t>(v);
      }
      if (as_double != nullptr) {
        if (std::isnan(*as_double)) return std::nullopt;
        return Compare<double>(is_unsigned ? static_cast<double>(u) : static_cast<double>(v),
                               *as_double);
      }
      if (as_int == nullptr) return std::nullopt;
      if (is_unsigned) {
        if (*as_int < 0) return 1;
        return Compare<uint64_t>(u, static_cast<uint64_t>(*as_int));
      }
      return Compare<int64_t>(v, *as_int);
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: {
      double v;
      if (column.physical_type == PhysicalType::kFloat) {
        float f;
        std::memcpy(&f, bytes.data(), 4);
        v = f;
      } else {
        std::memcpy(&v, bytes.data(), 8);
      }
      double c;
      if (as_double != nullptr) {
        c = *as_double;
      } else if (as_int != nullptr) {
        c = static_cast<double>(*as_int);
      } else {
        return std::nullopt;
      }
      if (std::isnan(v) || std::isnan(c)) return std::nullopt;
      return Compare<double>(v, c);
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      if (IsDecimal(column)) {
        // Unscaled decimals up to 16 bytes against an integer constant.
        if (as_int == nullptr || bytes.size() > 16) return std::nullopt;
        uint8_t le[16];
        if (!BigEndianToDecimal(reinterpret_cast<const uint8_t*>(bytes.data()),
                                static_cast<int64_t>(bytes.size()), le, 16)
                 .ok()) {
          return std::nullopt;
        }
        __int128 v;
        std::memcpy(&v, le, 16);
        return Compare<__int128>(v, *as_int);
      }
      const auto* s = std::get_if<std::string>(&p.value);
      if (s == nullptr || SortOrderOf(column) != SortOrder::kUnsigned) return std::nullopt;
      int c = std::memcmp(bytes.data(), s->data(), std::min(bytes.size(), s->size()));
      if (c != 0) return c < 0 ? -1 : 1;
      return Compare<size_t>(bytes.size(), s->size());
    }
    default:
      return std::nullopt;
  }
}

// Whether the chunk's statistics prove `p` false for every row.
bool ProvesFalse(const ColumnChunkMetaData& chunk, const ColumnPredicate& p) {
  if (!chunk.has_statistics()) return false;
  Statistics stats = chunk.statistics();
  const int64_t values = chunk.num_values();
  const bool all_null = stats.null_count && *stats.null_count == values && values > 0;
  switch (p.op) {
    case Op::kIsNull:
      return stats.null_count && *stats.null_count == 0;
    case Op::kIsNotNull:
      return all_null;
    default:
      break;
  }
  if (all_null) return true;  // a comparison is never true of a null
  if (!stats.has_min_max()) return false;
  Ordering min = CompareBound(chunk.descriptor(), *stats.min, p);
  Ordering max = CompareBound(chunk.descriptor(), *stats.max, p);
  if (!min || !max) return false;
  switch (p.op) {
    case Op::kEqual: return *min > 0 || *max < 0;
    case Op::kNotEqual: return *min == 0 && *max == 0;
    case Op::kLess: return *min >= 0;
    case Op::kLessEqual: return *min > 0;
    case Op::kGreater: return *max <= 0;
    case Op::kGreaterEqual: return *max < 0;
    default: return false;
  }
}

}  // namespace

Result<std::vector<BoundPredicate>> BindPredicates(const std::vector<ColumnPredicate>& filter,
                                                   const SchemaDescriptor& schema) {
  std::vector<BoundPredicate> out;
  for (const auto& p : filter) {
    int column = schema.FindColumn(p.column);
    if (column < 0) {
      return Status::KeyError("filter: no leaf column '", p.column, "' in the Parquet schema");
    }
    const ColumnDescriptor& c = schema.column(column);
    bool needs_value = p.op != Op::kIsNull && p.op != Op::kIsNotNull;
    if (needs_value) {
      bool ok = false;
      switch (c.physical_type) {
        case PhysicalType::kBoolean: ok = std::holds_alternative<bool>(p.value); break;
        case PhysicalType::kInt32:
        case PhysicalType::kInt64:
        case PhysicalType::kFloat:
        case PhysicalType::kDouble:
          ok = std::holds_alternative<int64_t>(p.value) || std::holds_alternative<double>(p.value);
          break;
        case PhysicalType::kByteArray:
        case PhysicalType::kFixedLenByteArray:
          ok = IsDecimal(c) ? std::holds_alternative<int64_t>(p.value)
                            : std::holds_alternative<std::string>(p.value);
          break;
        default: ok = false;
      }
      if (!ok) {
        return Status::TypeError("filter on '", p.column, "': the constant does not suit a ",
                                 PhysicalTypeName(c.physical_type), " ",
                                 c.logical_type.ToString(), " column");
      }
    }
    out.push_back({p, column});
  }
  return out;
}

bool RowGroupMayMatch(const RowGroupMetaData& row_group,
                      const std::vector<BoundPredicate>& predicates) {
  for (const auto& p : predicates) {
    if (ProvesFalse(row_group.column(p.column), p.predicate)) return false;
  }
  return true;
}

}  // namespace alkaid::parquet::internal

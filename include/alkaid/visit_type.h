/// @file
/// The single place where a TypeId is turned into its concrete type class.
/// Everything that behaves differently per type (builders, validation,
/// comparison, printing, IPC, JSON) is a visitor handed to VisitTypeInline:
///
/// @code
///   struct MyVisitor {
///     Status Visit(const Int32Type&);          // exact class
///     template <typename T> Status Visit(const T&);  // or a catch-all
///   };
///   ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, &visitor));
/// @endcode
#pragma once

#include "alkaid/type.h"

namespace alkaid {

/// Every concrete type class with its TypeId enumerator: expands
/// `ACTION(Class, Enumerator)` once per type, in TypeId order except that the
/// signed integers come before the unsigned ones. Add a type here and every
/// visitor must handle it.
#define ALKAID_FOR_EACH_TYPE(ACTION)                   \
  ACTION(NullType, kNull)                              \
  ACTION(BooleanType, kBool)                           \
  ACTION(Int8Type, kInt8)                              \
  ACTION(Int16Type, kInt16)                            \
  ACTION(Int32Type, kInt32)                            \
  ACTION(Int64Type, kInt64)                            \
  ACTION(UInt8Type, kUInt8)                            \
  ACTION(UInt16Type, kUInt16)                          \
  ACTION(UInt32Type, kUInt32)                          \
  ACTION(UInt64Type, kUInt64)                          \
  ACTION(HalfFloatType, kHalfFloat)                    \
  ACTION(FloatType, kFloat)                            \
  ACTION(DoubleType, kDouble)                          \
  ACTION(Decimal32Type, kDecimal32)                    \
  ACTION(Decimal64Type, kDecimal64)                    \
  ACTION(Decimal128Type, kDecimal128)                  \
  ACTION(Decimal256Type, kDecimal256)                  \
  ACTION(Date32Type, kDate32)                          \
  ACTION(Date64Type, kDate64)                          \
  ACTION(Time32Type, kTime32)                          \
  ACTION(Time64Type, kTime64)                          \
  ACTION(TimestampType, kTimestamp)                    \
  ACTION(DurationType, kDuration)                      \
  ACTION(MonthIntervalType, kIntervalMonths)           \
  ACTION(DayTimeIntervalType, kIntervalDayTime)        \
  ACTION(MonthDayNanoIntervalType, kIntervalMonthDayNano) \
  ACTION(FixedSizeBinaryType, kFixedSizeBinary)        \
  ACTION(BinaryType, kBinary)                          \
  ACTION(StringType, kString)                          \
  ACTION(LargeBinaryType, kLargeBinary)                \
  ACTION(LargeStringType, kLargeString)                \
  ACTION(BinaryViewType, kBinaryView)                  \
  ACTION(StringViewType, kStringView)                  \
  ACTION(ListType, kList)                              \
  ACTION(LargeListType, kLargeList)                    \
  ACTION(ListViewType, kListView)                      \
  ACTION(LargeListViewType, kLargeListView)            \
  ACTION(FixedSizeListType, kFixedSizeList)            \
  ACTION(StructType, kStruct)                          \
  ACTION(MapType, kMap)                                \
  ACTION(SparseUnionType, kSparseUnion)                \
  ACTION(DenseUnionType, kDenseUnion)                  \
  ACTION(DictionaryType, kDictionary)                  \
  ACTION(RunEndEncodedType, kRunEndEncoded)            \
  ACTION(ExtensionType, kExtension)

/// Calls `visitor->Visit(const C&)` with `type` cast to its concrete class C
/// (chosen by type.id()) and returns what that call returns. Every Visit
/// overload must return the same type. Dispatch is a switch, with no virtual
/// call; the visitor is called on the calling thread.
/// Extension types are visited as ExtensionType (not their subclass),
/// MapType as MapType (not ListType).
template <typename Visitor>
auto VisitTypeInline(const DataType& type, Visitor* visitor)
    -> decltype(visitor->Visit(static_cast<const NullType&>(type))) {
  switch (type.id()) {
#define ALKAID_VISIT_CASE(Class, Id) \
  case TypeId::Id:                   \
    return visitor->Visit(static_cast<const Class&>(type));
    ALKAID_FOR_EACH_TYPE(ALKAID_VISIT_CASE)
#undef ALKAID_VISIT_CASE
  }
  return visitor->Visit(static_cast<const NullType&>(type));  // unreachable
}

/// @def ALKAID_VISIT_CASE
/// Local to VisitTypeInline (defined inside it and undefined right after
/// use): expands to the `case` that casts `type` to `Class` and returns the
/// visitor's result. Not usable elsewhere.

// Type traits used by templated visitors.

/// Whether the concrete type class T stores each value as one `T::c_type` in
/// a fixed-width buffer: integers, floats (half floats as uint16 bits),
/// dates, times, timestamps, durations and intervals. False for bool (bit
/// packed) and the view types (whose c_type is the 16-byte view), and for
/// decimals, which have no c_type.
template <typename T>
inline constexpr bool is_primitive_ctype_v = requires { typename T::c_type; } &&
                                             !std::is_same_v<T, BooleanType> &&
                                             !std::is_base_of_v<BinaryViewType, T> &&
                                             !std::is_base_of_v<StringViewType, T>;

/// Whether T is one of the offset-based byte string classes: BinaryType,
/// StringType, LargeBinaryType, LargeStringType.
template <typename T>
inline constexpr bool is_base_binary_v =
    std::is_same_v<T, BinaryType> || std::is_same_v<T, StringType> ||
    std::is_same_v<T, LargeBinaryType> || std::is_same_v<T, LargeStringType>;

/// Whether T is BinaryViewType or StringViewType.
template <typename T>
inline constexpr bool is_binary_view_v =
    std::is_same_v<T, BinaryViewType> || std::is_same_v<T, StringViewType>;

/// Whether T has the offsets-only list layout: ListType, LargeListType and
/// MapType (a map is a list of entry structs).
template <typename T>
inline constexpr bool is_var_list_v = std::is_same_v<T, ListType> ||
                                      std::is_same_v<T, LargeListType> ||
                                      std::is_same_v<T, MapType>;

/// Whether T is ListViewType or LargeListViewType (offsets plus sizes).
template <typename T>
inline constexpr bool is_list_view_v =
    std::is_same_v<T, ListViewType> || std::is_same_v<T, LargeListViewType>;

/// Whether T is one of the four decimal classes (Decimal32Type ... Decimal256Type).
template <typename T>
inline constexpr bool is_decimal_v =
    std::is_same_v<T, Decimal32Type> || std::is_same_v<T, Decimal64Type> ||
    std::is_same_v<T, Decimal128Type> || std::is_same_v<T, Decimal256Type>;

/// Whether T is SparseUnionType or DenseUnionType.
template <typename T>
inline constexpr bool is_union_v =
    std::is_same_v<T, SparseUnionType> || std::is_same_v<T, DenseUnionType>;

/// Fixed-width types whose values are a C scalar (ints, floats, dates, times,
/// timestamps, durations, intervals) — everything with a c_type but bool and views.
/// Same as is_primitive_ctype_v.
template <typename T>
inline constexpr bool has_c_type_v = is_primitive_ctype_v<T>;

}  // namespace alkaid

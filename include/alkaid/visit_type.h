// The single place where a TypeId is turned into its concrete type class.
// Everything that behaves differently per type (builders, validation,
// comparison, printing, IPC, JSON) is a visitor handed to VisitTypeInline:
//
//   struct MyVisitor {
//     Status Visit(const Int32Type&);          // exact class
//     template <typename T> Status Visit(const T&);  // or a catch-all
//   };
//   ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, &visitor));
#pragma once

#include "alkaid/type.h"

namespace alkaid {

// Every concrete type class with its TypeId enumerator.
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

// Type traits used by templated visitors.
template <typename T>
inline constexpr bool is_primitive_ctype_v = requires { typename T::c_type; } &&
                                             !std::is_same_v<T, BooleanType> &&
                                             !std::is_base_of_v<BinaryViewType, T> &&
                                             !std::is_base_of_v<StringViewType, T>;

template <typename T>
inline constexpr bool is_base_binary_v =
    std::is_same_v<T, BinaryType> || std::is_same_v<T, StringType> ||
    std::is_same_v<T, LargeBinaryType> || std::is_same_v<T, LargeStringType>;

template <typename T>
inline constexpr bool is_binary_view_v =
    std::is_same_v<T, BinaryViewType> || std::is_same_v<T, StringViewType>;

template <typename T>
inline constexpr bool is_var_list_v = std::is_same_v<T, ListType> ||
                                      std::is_same_v<T, LargeListType> ||
                                      std::is_same_v<T, MapType>;

template <typename T>
inline constexpr bool is_list_view_v =
    std::is_same_v<T, ListViewType> || std::is_same_v<T, LargeListViewType>;

template <typename T>
inline constexpr bool is_decimal_v =
    std::is_same_v<T, Decimal32Type> || std::is_same_v<T, Decimal64Type> ||
    std::is_same_v<T, Decimal128Type> || std::is_same_v<T, Decimal256Type>;

template <typename T>
inline constexpr bool is_union_v =
    std::is_same_v<T, SparseUnionType> || std::is_same_v<T, DenseUnionType>;

// Fixed-width types whose values are a C scalar (ints, floats, dates, times,
// timestamps, durations, intervals) — everything with a c_type but bool and views.
template <typename T>
inline constexpr bool has_c_type_v = is_primitive_ctype_v<T>;

}  // namespace alkaid

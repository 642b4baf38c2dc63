// Test helper: fills every field of a metadata struct (every optional set, lists of several
// elements, unions with all members) with distinct values, walking the field tables.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "src/parquet/thrift/compact.h"
#include "src/parquet/thrift/parquet_types.h"

namespace alkaid::parquet::thrift::testing {

struct Filler {
  int counter = 1;
  bool long_lists = true;  // some lists of 17 elements (the long list header form)
  // libthrift's generated code holds several i32 fields (type, encoding, codec, page type) as
  // C++ enums, where a value outside the enumerators' range is undefined behaviour. Set when
  // the values go through that code: every i32 then lies in 0..3, inside every such range.
  bool i32_in_enum_range = false;

  template <typename T>
  void Fill(T* v) {
    if constexpr (std::is_same_v<T, bool>) {
      *v = (counter++ % 2) == 0;
    } else if constexpr (std::is_enum_v<T>) {
      *v = static_cast<T>(counter++ % 3);
    } else if constexpr (std::is_same_v<T, int32_t>) {
      if (i32_in_enum_range) {
        *v = counter++ % 4;
      } else {
        FillWide(v);
      }
    } else if constexpr (std::is_integral_v<T>) {
      FillWide(v);
    } else if constexpr (std::is_same_v<T, double>) {
      *v = counter++ * 0.25 - 3.0;
    } else if constexpr (std::is_same_v<T, std::string>) {
      *v = "value " + std::to_string(counter++);
    } else if constexpr (IsOptional<T>::value) {
      Fill(&v->emplace());
    } else if constexpr (IsVector<T>::value) {
      // Lists of 2 and of 17 elements cover both list header forms.
      int n = (long_lists && counter++ % 4 == 0) ? 17 : 2;
      for (int i = 0; i < n; ++i) {
        typename T::value_type e{};
        Fill(&e);
        v->push_back(e);
      }
    } else {
      std::apply([&](const auto&... field) { (Fill(&(v->*field.member)), ...); }, T::Fields());
    }
  }

  // Alternate signs and sizes so that zigzag varints of several lengths appear.
  template <typename T>
  void FillWide(T* v) {
    int c = counter++;
    long long value = (c % 2 ? -1 : 1) * (static_cast<long long>(c) * 1000003 % 100000);
    *v = static_cast<T>(value);
  }
};

template <typename T>
T Filled(bool long_lists = true, bool i32_in_enum_range = false) {
  T value;
  Filler filler;
  filler.long_lists = long_lists;
  filler.i32_in_enum_range = i32_in_enum_range;
  filler.Fill(&value);
  return value;
}

}  // namespace alkaid::parquet::thrift::testing

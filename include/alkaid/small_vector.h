// SmallVector: a vector that keeps its first N elements inside the object.
//
// ArrayData holds its buffers in one: almost every array has at most three
// (validity, offsets, data), so building an array — which the IPC reader
// does for every column of every batch — needs no separate allocation for
// the buffer list. The interface is the subset of std::vector that the
// library uses; iterators are plain pointers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace alkaid {

template <typename T, size_t N>
class SmallVector {
  static_assert(N > 0, "use std::vector when nothing is kept inline");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  // User-provided so that value-initialization does not zero the inline storage first.
  SmallVector() noexcept {}
  explicit SmallVector(size_t count) { resize(count); }
  SmallVector(size_t count, const T& value) { assign(count, value); }
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <typename It>
    requires(!std::is_integral_v<It>)
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { TakeFrom(std::move(other)); }
  ~SmallVector() {
    clear();
    ReleaseHeap();
  }

  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      clear();
      ReleaseHeap();
      TakeFrom(std::move(other));
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }

  template <typename It>
    requires(!std::is_integral_v<It>)
  void assign(It first, It last) {
    clear();
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      reserve(static_cast<size_t>(std::distance(first, last)));
    }
    for (; first != last; ++first) emplace_back(*first);
  }
  void assign(size_t count, const T& value) {
    clear();
    reserve(count);
    for (size_t i = 0; i < count; ++i) emplace_back(value);
  }

  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_t capacity() const noexcept { return capacity_; }
  static constexpr size_t inline_capacity() { return N; }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cbegin() const noexcept { return data_; }
  const_iterator cend() const noexcept { return data_ + size_; }

  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  T& front() noexcept { return data_[0]; }
  const T& front() const noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  void reserve(size_t wanted) {
    if (wanted > capacity_) Grow(wanted);
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      // The argument may refer to one of our own elements: build it first.
      T value(std::forward<Args>(args)...);
      Grow(NextCapacity(size_ + 1));
      new (data_ + size_) T(std::move(value));
    } else {
      new (data_ + size_) T(std::forward<Args>(args)...);
    }
    return data_[size_++];
  }
  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  void pop_back() noexcept { data_[--size_].~T(); }

  void resize(size_t count) {
    if (count < size_) {
      ShrinkTo(count);
      return;
    }
    reserve(count);
    for (size_t i = size_; i < count; ++i) new (data_ + i) T();
    size_ = static_cast<uint32_t>(count);
  }
  void resize(size_t count, const T& value) {
    if (count < size_) {
      ShrinkTo(count);
      return;
    }
    T copy(value);
    reserve(count);
    for (size_t i = size_; i < count; ++i) new (data_ + i) T(copy);
    size_ = static_cast<uint32_t>(count);
  }
  void clear() noexcept { ShrinkTo(0); }

  iterator insert(const_iterator pos, T value) {
    const size_t index = static_cast<size_t>(pos - data_);
    emplace_back(std::move(value));
    std::rotate(data_ + index, data_ + size_ - 1, data_ + size_);
    return data_ + index;
  }
  template <typename It>
    requires(!std::is_integral_v<It>)
  iterator insert(const_iterator pos, It first, It last) {
    const size_t index = static_cast<size_t>(pos - data_);
    const size_t old_size = size_;
    for (; first != last; ++first) emplace_back(*first);
    std::rotate(data_ + index, data_ + old_size, data_ + size_);
    return data_ + index;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t index = static_cast<size_t>(first - data_);
    const size_t count = static_cast<size_t>(last - first);
    std::move(data_ + index + count, data_ + size_, data_ + index);
    ShrinkTo(size_ - count);
    return data_ + index;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static size_t NextCapacity(size_t needed) { return std::max(needed, size_t{2} * N); }

  bool is_inline() const noexcept { return data_ == InlineData(); }
  T* InlineData() noexcept { return std::launder(reinterpret_cast<T*>(inline_)); }
  const T* InlineData() const noexcept {
    return std::launder(reinterpret_cast<const T*>(inline_));
  }

  void ShrinkTo(size_t count) noexcept {
    for (size_t i = count; i < size_; ++i) data_[i].~T();
    size_ = static_cast<uint32_t>(count);
  }

  void Grow(size_t wanted) {
    T* fresh = std::allocator<T>().allocate(wanted);
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    ReleaseHeap();
    data_ = fresh;
    capacity_ = static_cast<uint32_t>(wanted);
  }

  void ReleaseHeap() noexcept {
    if (!is_inline()) std::allocator<T>().deallocate(data_, capacity_);
    data_ = InlineData();
    capacity_ = N;
  }

  // Precondition: *this is empty and inline.
  void TakeFrom(SmallVector&& other) noexcept {
    if (other.is_inline()) {
      for (size_t i = 0; i < other.size_; ++i) new (data_ + i) T(std::move(other.data_[i]));
      size_ = other.size_;
      other.clear();
    } else {
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.data_ = other.InlineData();
      other.size_ = 0;
      other.capacity_ = N;
    }
  }

  T* data_ = InlineData();
  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  alignas(T) std::byte inline_[N * sizeof(T)];
};

}  // namespace alkaid

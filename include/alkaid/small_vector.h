/// @file
/// SmallVector: a vector that keeps its first N elements inside the object.
///
/// ArrayData holds its buffers in one: almost every array has at most three
/// (validity, offsets, data), so building an array — which the IPC reader
/// does for every column of every batch — needs no separate allocation for
/// the buffer list. The interface is the subset of std::vector that the
/// library uses; iterators are plain pointers.
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

/// A contiguous, growable sequence like std::vector<T> that stores up to N
/// elements inside the object itself and moves to one heap block beyond that.
///
/// Differences from std::vector worth knowing: size and capacity are 32-bit
/// (at most 2^32 - 1 elements); the heap block is never given back to the
/// inline storage until the vector is destroyed or assigned by move; moving a
/// vector whose elements are inline moves them one by one (so pointers into
/// the source do not survive), while moving a heap-backed vector steals the
/// block. Growth allocates through std::allocator and can throw
/// std::bad_alloc. Not thread-safe for concurrent modification; concurrent
/// const access is fine.
/// @tparam T Element type; must be move-constructible.
/// @tparam N Number of elements kept inline (at least 1).
template <typename T, size_t N>
class SmallVector {
  static_assert(N > 0, "use std::vector when nothing is kept inline");

 public:
  using value_type = T;                    ///< Element type.
  using size_type = size_t;                ///< Type of sizes and indices.
  using difference_type = std::ptrdiff_t;  ///< Type of iterator differences.
  using reference = T&;                    ///< Mutable element reference.
  using const_reference = const T&;        ///< Read-only element reference.
  using pointer = T*;                      ///< Mutable element pointer.
  using const_pointer = const T*;          ///< Read-only element pointer.
  using iterator = T*;                     ///< Mutable iterator: a plain pointer.
  using const_iterator = const T*;         ///< Read-only iterator: a plain pointer.

  /// An empty vector using its inline storage; allocates nothing.
  /// User-provided so that value-initialization does not zero the inline storage first.
  SmallVector() noexcept {}
  /// `count` value-initialized elements.
  explicit SmallVector(size_t count) { resize(count); }
  /// `count` copies of `value`.
  SmallVector(size_t count, const T& value) { assign(count, value); }
  /// Copies of the listed elements, in order.
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  /// Copies of the elements of [first, last); the heap block, if one is
  /// needed, is sized once for forward iterators.
  template <typename It>
    requires(!std::is_integral_v<It>)
  SmallVector(It first, It last) {
    assign(first, last);
  }
  /// Element-wise copy of `other`.
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  /// Takes `other`'s heap block, or moves its inline elements one by one;
  /// `other` is left empty.
  SmallVector(SmallVector&& other) noexcept { TakeFrom(std::move(other)); }
  /// Destroys the elements and frees the heap block, if any.
  ~SmallVector() {
    clear();
    ReleaseHeap();
  }

  /// Replaces the contents with copies of `other`'s elements.
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  /// Releases this vector's elements and storage, then takes `other`'s as the
  /// move constructor does; `other` is left empty.
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      clear();
      ReleaseHeap();
      TakeFrom(std::move(other));
    }
    return *this;
  }
  /// Replaces the contents with copies of the listed elements.
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }

  /// Replaces the contents with copies of [first, last). The range must not
  /// point into this vector.
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
  /// Replaces the contents with `count` copies of `value` (which must not be
  /// an element of this vector).
  void assign(size_t count, const T& value) {
    clear();
    reserve(count);
    for (size_t i = 0; i < count; ++i) emplace_back(value);
  }

  /// Number of elements.
  size_t size() const noexcept { return size_; }
  /// Whether there are no elements.
  bool empty() const noexcept { return size_ == 0; }
  /// Number of elements that fit before the next reallocation (N while inline).
  size_t capacity() const noexcept { return capacity_; }
  /// N: how many elements fit without any heap allocation.
  static constexpr size_t inline_capacity() { return N; }

  /// Pointer to the first element (inline or on the heap); invalidated by any
  /// growth and by moving the vector.
  T* data() noexcept { return data_; }
  /// Read-only pointer to the first element; same lifetime rules as above.
  const T* data() const noexcept { return data_; }
  /// Iterator to the first element.
  iterator begin() noexcept { return data_; }
  /// Iterator one past the last element.
  iterator end() noexcept { return data_ + size_; }
  /// Read-only iterator to the first element.
  const_iterator begin() const noexcept { return data_; }
  /// Read-only iterator one past the last element.
  const_iterator end() const noexcept { return data_ + size_; }
  /// Read-only iterator to the first element.
  const_iterator cbegin() const noexcept { return data_; }
  /// Read-only iterator one past the last element.
  const_iterator cend() const noexcept { return data_ + size_; }

  /// Element `i` (unchecked: i < size()).
  T& operator[](size_t i) noexcept { return data_[i]; }
  /// Element `i`, read-only (unchecked: i < size()).
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  /// The first element (precondition: not empty()).
  T& front() noexcept { return data_[0]; }
  /// The first element, read-only (precondition: not empty()).
  const T& front() const noexcept { return data_[0]; }
  /// The last element (precondition: not empty()).
  T& back() noexcept { return data_[size_ - 1]; }
  /// The last element, read-only (precondition: not empty()).
  const T& back() const noexcept { return data_[size_ - 1]; }

  /// Makes room for at least `wanted` elements with one allocation of exactly
  /// that many; does nothing when they already fit. Never shrinks.
  void reserve(size_t wanted) {
    if (wanted > capacity_) Grow(wanted);
  }

  /// Constructs an element at the end from `args` and returns it. The
  /// arguments may refer to an element of this vector even when it grows.
  /// A full vector doubles its capacity (at least 2 * N), so appending n
  /// elements one by one costs O(n) amortized.
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      // The argument may refer to one of our own elements: build it first.
      T value(std::forward<Args>(args)...);
      Grow(NextCapacity());
      new (data_ + size_) T(std::move(value));
    } else {
      new (data_ + size_) T(std::forward<Args>(args)...);
    }
    return data_[size_++];
  }
  /// Appends a copy of `value`.
  void push_back(const T& value) { emplace_back(value); }
  /// Appends `value` by move.
  void push_back(T&& value) { emplace_back(std::move(value)); }
  /// Destroys the last element (precondition: not empty()).
  void pop_back() noexcept { data_[--size_].~T(); }

  /// Shrinks to `count` elements, or grows with value-initialized ones.
  void resize(size_t count) {
    if (count < size_) {
      ShrinkTo(count);
      return;
    }
    reserve(count);
    for (size_t i = size_; i < count; ++i) new (data_ + i) T();
    size_ = static_cast<uint32_t>(count);
  }
  /// Shrinks to `count` elements, or grows with copies of `value` (which may be
  /// an element of this vector).
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
  /// Destroys every element; keeps the capacity (and any heap block).
  void clear() noexcept { ShrinkTo(0); }

  /// Inserts `value` before `pos` and returns an iterator to it. O(size()):
  /// appends, then rotates into place.
  iterator insert(const_iterator pos, T value) {
    const size_t index = static_cast<size_t>(pos - data_);
    emplace_back(std::move(value));
    std::rotate(data_ + index, data_ + size_ - 1, data_ + size_);
    return data_ + index;
  }
  /// Inserts copies of [first, last) before `pos` (the range must not point into
  /// this vector) and returns an iterator to the first inserted element, or
  /// `pos` when the range is empty.
  template <typename It>
    requires(!std::is_integral_v<It>)
  iterator insert(const_iterator pos, It first, It last) {
    const size_t index = static_cast<size_t>(pos - data_);
    const size_t old_size = size_;
    for (; first != last; ++first) emplace_back(*first);
    std::rotate(data_ + index, data_ + old_size, data_ + size_);
    return data_ + index;
  }
  /// Removes the element at `pos` (which must be dereferenceable) and returns
  /// an iterator to the element that followed it.
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  /// Removes [first, last) and returns an iterator to the element that followed
  /// the range; later elements move down.
  iterator erase(const_iterator first, const_iterator last) {
    const size_t index = static_cast<size_t>(first - data_);
    const size_t count = static_cast<size_t>(last - first);
    std::move(data_ + index + count, data_ + size_, data_ + index);
    ShrinkTo(size_ - count);
    return data_ + index;
  }

  /// Same size and element-wise equal (T's operator==).
  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // Geometric growth keeps appends amortized O(1).
  size_t NextCapacity() const { return std::max(size_t{2} * capacity_, size_t{2} * N); }

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

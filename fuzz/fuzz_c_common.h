// What the C Data Interface fuzz targets share: reading the input, and trees
// of ABI structs whose parent's release frees the children and dictionary
// (as the specification asks) and counts what is still alive.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

// The input, read front to back; zeros once it runs out.
class FuzzBytes {
 public:
  FuzzBytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Next() { return at_ < size_ ? data_[at_++] : 0; }
  // Up to a NUL byte, the end, or 40 bytes.
  std::string Text() {
    std::string s;
    while (at_ < size_ && s.size() < 40) {
      const char c = static_cast<char>(data_[at_++]);
      if (c == '\0') break;
      s.push_back(c);
    }
    return s;
  }
  // Copies up to n bytes into out; what is not copied stays as it was.
  void Fill(uint8_t* out, int64_t n) {
    const auto take = std::min<size_t>(static_cast<size_t>(std::max<int64_t>(n, 0)), size_ - at_);
    std::memcpy(out, data_ + at_, take);
    at_ += take;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// Nodes built and not yet released.
inline int live_c_nodes = 0;

// What a node of Struct (ArrowSchema, ArrowArray) owns besides its own data.
template <typename Struct>
struct OwnedLinks {
  std::vector<Struct*> children;  // may hold NULL
  Struct* dictionary = nullptr;
};

// Releases `node` if the importer left it unreleased, then frees it.
template <typename Struct>
void FreeNode(Struct* node) {
  if (node == nullptr) return;
  if (node->release != nullptr) node->release(node);
  delete node;
}

// The release callback of a node whose private_data is an Owned (derived
// from OwnedLinks<Struct>).
template <typename Owned, typename Struct>
void ReleaseNode(Struct* node) {
  auto* owned = static_cast<Owned*>(node->private_data);
  for (Struct* child : owned->children) FreeNode(child);
  FreeNode(owned->dictionary);
  delete owned;
  node->release = nullptr;
  --live_c_nodes;
}

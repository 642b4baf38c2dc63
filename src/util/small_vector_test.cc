#include "alkaid/small_vector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace alkaid {
namespace {

// Counts live instances so that every test can check nothing leaks or is
// destroyed twice when elements move between inline and heap storage.
struct Tracked {
  static inline int live = 0;
  std::string value;
  Tracked() : value("-") { ++live; }
  explicit Tracked(std::string v) : value(std::move(v)) { ++live; }
  Tracked(const Tracked& other) : value(other.value) { ++live; }
  Tracked(Tracked&& other) noexcept : value(std::move(other.value)) { ++live; }
  Tracked& operator=(const Tracked&) = default;
  Tracked& operator=(Tracked&&) noexcept = default;
  ~Tracked() { --live; }
  bool operator==(const Tracked& other) const { return value == other.value; }
};

using Small = SmallVector<Tracked, 3>;

std::vector<std::string> Values(const Small& v) {
  std::vector<std::string> out;
  for (const auto& t : v) out.push_back(t.value);
  return out;
}

class SmallVectorTest : public ::testing::Test {
 protected:
  void SetUp() override { Tracked::live = 0; }
  void TearDown() override { EXPECT_EQ(Tracked::live, 0) << "leaked or double-destroyed elements"; }
};

TEST_F(SmallVectorTest, StaysInlineUpToItsCapacity) {
  Small v;
  const Tracked* inline_start = v.data();
  for (int i = 0; i < 3; ++i) v.emplace_back(std::to_string(i));
  EXPECT_EQ(v.data(), inline_start);
  EXPECT_EQ(v.capacity(), 3u);
  v.emplace_back("3");
  EXPECT_NE(v.data(), inline_start);
  EXPECT_GE(v.capacity(), 4u);
  EXPECT_EQ(Values(v), (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST_F(SmallVectorTest, PushBackOfOwnElementSurvivesGrowth) {
  Small v{Tracked("a"), Tracked("b"), Tracked("c")};
  v.push_back(v[0]);  // the reference dies when the storage moves to the heap
  EXPECT_EQ(Values(v), (std::vector<std::string>{"a", "b", "c", "a"}));
}

TEST_F(SmallVectorTest, ResizeConstructsAndDestroys) {
  Small v;
  v.resize(2);
  EXPECT_EQ(Tracked::live, 2);
  v.resize(5, Tracked("x"));
  EXPECT_EQ(Values(v), (std::vector<std::string>{"-", "-", "x", "x", "x"}));
  v.resize(1);
  EXPECT_EQ(Tracked::live, 1);
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(Tracked::live, 0);
}

TEST_F(SmallVectorTest, MoveFromInlineAndFromHeap) {
  Small inline_source{Tracked("a"), Tracked("b")};
  Small moved_inline(std::move(inline_source));
  EXPECT_TRUE(inline_source.empty());  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(Values(moved_inline), (std::vector<std::string>{"a", "b"}));

  Small heap_source{Tracked("1"), Tracked("2"), Tracked("3"), Tracked("4")};
  const Tracked* heap = heap_source.data();
  Small moved_heap;
  moved_heap = std::move(heap_source);
  EXPECT_EQ(moved_heap.data(), heap) << "heap storage is handed over, not copied";
  EXPECT_TRUE(heap_source.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(heap_source.capacity(), 3u);
  heap_source.emplace_back("reused");
  EXPECT_EQ(Values(heap_source), (std::vector<std::string>{"reused"}));
}

TEST_F(SmallVectorTest, CopyIsDeepAndEqual) {
  Small a{Tracked("p"), Tracked("q"), Tracked("r"), Tracked("s")};
  Small b(a);
  EXPECT_TRUE(a == b);
  b[0].value = "changed";
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a[0].value, "p");
  b = a;
  EXPECT_TRUE(a == b);
  b = b;  // self-assignment keeps the contents
  EXPECT_EQ(Values(b), (std::vector<std::string>{"p", "q", "r", "s"}));
}

TEST_F(SmallVectorTest, InsertAndErase) {
  Small v{Tracked("b"), Tracked("d")};
  v.insert(v.begin(), Tracked("a"));
  v.insert(v.begin() + 2, Tracked("c"));
  EXPECT_EQ(Values(v), (std::vector<std::string>{"a", "b", "c", "d"}));
  std::vector<Tracked> more{Tracked("x"), Tracked("y")};
  v.insert(v.end(), more.begin(), more.end());
  EXPECT_EQ(Values(v), (std::vector<std::string>{"a", "b", "c", "d", "x", "y"}));
  v.erase(v.begin() + 1, v.begin() + 3);
  EXPECT_EQ(Values(v), (std::vector<std::string>{"a", "d", "x", "y"}));
  v.erase(v.begin());
  v.pop_back();
  EXPECT_EQ(Values(v), (std::vector<std::string>{"d", "x"}));
}

TEST(SmallVectorGrowth, AppendsReallocateGeometrically) {
  // Appending one by one must not reallocate per element (quadratic copying).
  SmallVector<int, 3> v;
  int reallocations = 0;
  size_t capacity = v.capacity();
  for (int i = 0; i < 100000; ++i) {
    v.push_back(i);
    if (v.capacity() != capacity) {
      ++reallocations;
      EXPECT_GE(v.capacity(), 2 * capacity);
      capacity = v.capacity();
    }
  }
  EXPECT_LE(reallocations, 20);
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(v[static_cast<size_t>(i)], i);
}

TEST_F(SmallVectorTest, HoldsSharedPointersWithoutLeaking) {
  auto shared = std::make_shared<int>(7);
  {
    SmallVector<std::shared_ptr<int>, 3> v(5, shared);
    EXPECT_EQ(shared.use_count(), 6);
    SmallVector<std::shared_ptr<int>, 3> copy = v;
    EXPECT_EQ(shared.use_count(), 11);
  }
  EXPECT_EQ(shared.use_count(), 1);
}

}  // namespace
}  // namespace alkaid

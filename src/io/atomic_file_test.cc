#include "alkaid/io/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "test_util/temp_path.h"

namespace alkaid::io {
namespace {

namespace fs = std::filesystem;

// A fresh, empty directory for one test.
fs::path Scratch(const std::string& name) {
  fs::path dir = fs::path(alkaid::testing::ProcessTempPath("atomic_" + name));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spit(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

int FilesIn(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(AtomicFile, CommitReplacesTheTargetAndLeavesNoTemporaryFile) {
  fs::path dir = Scratch("commit");
  fs::path target = dir / "out.bin";
  Spit(target, "old contents");
  ::chmod(target.c_str(), 0640);
  auto file = AtomicFile::Create(target.string());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->stream()->Write("new", 3).ok());
  EXPECT_EQ(Slurp(target), "old contents");  // not yet
  EXPECT_EQ(FilesIn(dir), 2);                 // the target and the temporary file beside it
  EXPECT_EQ(fs::path((*file)->temp_path()).parent_path(), dir);
  ASSERT_TRUE((*file)->Commit().ok());
  EXPECT_EQ(Slurp(target), "new");
  EXPECT_EQ(FilesIn(dir), 1);
  struct stat st;
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u) << "the mode of the file it replaced";
  file->reset();  // destruction after Commit() keeps the file
  EXPECT_EQ(Slurp(target), "new");
}

TEST(AtomicFile, DestructionWithoutCommitKeepsTheOldFile) {
  fs::path dir = Scratch("abandon");
  fs::path target = dir / "out.bin";
  Spit(target, "old contents");
  {
    auto file = AtomicFile::Create(target.string());
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->stream()->Write("partial", 7).ok());
  }
  EXPECT_EQ(Slurp(target), "old contents");
  EXPECT_EQ(FilesIn(dir), 1) << "the temporary file is removed";
}

TEST(AtomicFile, NewTargetAppearsOnlyOnCommit) {
  fs::path dir = Scratch("new");
  fs::path target = dir / "fresh.bin";
  auto file = AtomicFile::Create(target.string(), /*aligned_writes=*/true);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->stream()->Write("abc", 3).ok());
  EXPECT_FALSE(fs::exists(target));
  ASSERT_TRUE((*file)->Commit().ok());
  EXPECT_EQ(Slurp(target), "abc");
}

TEST(AtomicFile, RefusesADirectoryAndAMissingDirectory) {
  fs::path dir = Scratch("refuse");
  auto on_dir = AtomicFile::Create(dir.string());
  ASSERT_FALSE(on_dir.ok());
  EXPECT_NE(on_dir.status().message().find("is a directory"), std::string::npos);
  auto missing = AtomicFile::Create((dir / "no" / "such" / "file").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot create a temporary file"),
            std::string::npos);
  EXPECT_EQ(FilesIn(dir), 0);
}

TEST(AtomicFile, FailedRenameKeepsTheTargetAndRemovesTheTemporaryFile) {
  fs::path dir = Scratch("rename");
  fs::path target = dir / "out.bin";
  auto file = AtomicFile::Create(target.string());
  ASSERT_TRUE(file.ok());
  // A non-empty directory appears at the target before Commit(): rename(2) must fail.
  fs::create_directories(target / "inside");
  Status st = (*file)->Commit();
  EXPECT_FALSE(st.ok());
  file->reset();
  EXPECT_TRUE(fs::is_directory(target));
  EXPECT_EQ(FilesIn(dir), 1);
}

TEST(CheckDistinctFiles, SameFileBySeveralNamesIsRefused) {
  fs::path dir = Scratch("distinct");
  fs::path input = dir / "in.bin";
  Spit(input, "x");
  fs::create_hard_link(input, dir / "hard.bin");
  fs::create_symlink(input, dir / "soft.bin");
  Spit(dir / "other.bin", "y");
  EXPECT_FALSE(CheckDistinctFiles(input.string(), input.string()).ok());
  EXPECT_FALSE(CheckDistinctFiles(input.string(), (dir / "hard.bin").string()).ok());
  EXPECT_FALSE(CheckDistinctFiles(input.string(), (dir / "soft.bin").string()).ok());
  EXPECT_FALSE(CheckDistinctFiles(input.string(), (dir / "." / "in.bin").string()).ok());
  EXPECT_TRUE(CheckDistinctFiles(input.string(), (dir / "other.bin").string()).ok());
  EXPECT_TRUE(CheckDistinctFiles(input.string(), (dir / "absent.bin").string()).ok());
  EXPECT_TRUE(CheckDistinctFiles(input.string(), "-").ok());
}

}  // namespace
}  // namespace alkaid::io

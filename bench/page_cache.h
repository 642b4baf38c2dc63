// Page-cache probes for the cold-cache benchmarks (ipc_bench's projection and whole-file
// cases): what of a file is resident, dropping it, and the storage reads and major faults a
// process caused. Linux only.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace alkaid::bench {

// Bytes of the file now in the page cache (mincore over a mapping); -1 on error.
inline int64_t ResidentBytes(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  ::fstat(fd, &st);
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return -1;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  int64_t resident = 0;
  if (::mincore(map, size, vec.data()) == 0) {
    for (unsigned char v : vec) resident += (v & 1) ? static_cast<int64_t>(page) : 0;
  }
  ::munmap(map, size);
  return resident;
}

// Drops the file's pages from the page cache; returns the bytes still
// resident afterwards (0 unless eviction is refused).
inline int64_t EvictFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  return ResidentBytes(path);
}

// read_bytes of /proc/self/io: bytes this process caused to be read from
// storage (-1 when the kernel does not account them).
inline int64_t IoReadBytes() {
  std::FILE* f = std::fopen("/proc/self/io", "r");
  if (f == nullptr) return -1;
  char line[128];
  int64_t value = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "read_bytes:", 11) == 0) value = std::atoll(line + 11);
  }
  std::fclose(f);
  return value;
}

inline int64_t MajorFaults() {
  struct rusage usage;
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_majflt;
}

}  // namespace alkaid::bench

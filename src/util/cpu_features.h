// Which optional x86-64 instruction sets this CPU has, for the loops that
// keep a second copy compiled for them (bitmap popcounts, UTF-8 checks,
// offset order checks, the CSV tokenizer).
//
// Each answer is a flag computed on first use, not an ifunc or target_clones
// resolver: resolvers run while the dynamic loader relocates the library,
// before a sanitizer runtime (TSan in particular) is initialised, and crash
// there. The compiler's checks for AVX2 and AVX-512 include whether the
// operating system saves those registers.
//
// Thread safety: every function may be called from any thread at any time.
#pragma once

namespace alkaid::internal {

#if defined(__x86_64__)

inline bool CpuHasPopcnt() {
  static const bool has = [] {
    __builtin_cpu_init();  // safe however early the first call comes
    return __builtin_cpu_supports("popcnt") != 0;
  }();
  return has;
}

inline bool CpuHasAvx2() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}

// AVX2 with the BMI1 and BMI2 bit instructions (bit scans, pdep/pext).
inline bool CpuHasAvx2Bmi2() {
  static const bool has = [] {
    __builtin_cpu_init();
    return CpuHasAvx2() && __builtin_cpu_supports("bmi") != 0 &&
           __builtin_cpu_supports("bmi2") != 0;
  }();
  return has;
}

// AVX-512 foundation and byte/word instructions, with AVX2 and BMI2.
inline bool CpuHasAvx512Bw() {
  static const bool has = [] {
    __builtin_cpu_init();
    return CpuHasAvx2Bmi2() && __builtin_cpu_supports("avx512f") != 0 &&
           __builtin_cpu_supports("avx512bw") != 0;
  }();
  return has;
}

#endif  // __x86_64__

}  // namespace alkaid::internal

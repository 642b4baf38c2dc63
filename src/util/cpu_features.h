// Which optional x86-64 instruction sets this CPU has, for the loops that
// keep a second copy compiled for them (bitmap popcounts, UTF-8 checks,
// offset order checks, the CSV tokenizer).
//
// The answers are flags computed on first use, not an ifunc or target_clones
// resolver: resolvers run while the dynamic loader relocates the library,
// before a sanitizer runtime (TSan in particular) is initialised, and crash
// there. The compiler's checks for AVX2 and AVX-512 include whether the
// operating system saves those registers.
//
// Thread safety: every function may be called from any thread at any time.
#pragma once

namespace alkaid::internal {

#if defined(__x86_64__)

// The answers, asked of the CPU once, on first use.
struct CpuFeatureFlags {
  bool popcnt = false;
  bool avx2 = false;
  // AVX2 with the BMI1 and BMI2 bit instructions (bit scans, pdep/pext).
  bool avx2_bmi2 = false;
  // AVX-512 foundation and byte/word instructions, with AVX2 and BMI2.
  bool avx512bw = false;
};

inline const CpuFeatureFlags& CpuFeatures() {
  static const CpuFeatureFlags flags = [] {
    __builtin_cpu_init();  // safe however early the first call comes
    CpuFeatureFlags f;
    f.popcnt = __builtin_cpu_supports("popcnt") != 0;
    f.avx2 = __builtin_cpu_supports("avx2") != 0;
    f.avx2_bmi2 = f.avx2 && __builtin_cpu_supports("bmi") != 0 &&
                  __builtin_cpu_supports("bmi2") != 0;
    f.avx512bw = f.avx2_bmi2 && __builtin_cpu_supports("avx512f") != 0 &&
                 __builtin_cpu_supports("avx512bw") != 0;
    return f;
  }();
  return flags;
}

inline bool CpuHasPopcnt() { return CpuFeatures().popcnt; }
inline bool CpuHasAvx2() { return CpuFeatures().avx2; }
inline bool CpuHasAvx2Bmi2() { return CpuFeatures().avx2_bmi2; }
inline bool CpuHasAvx512Bw() { return CpuFeatures().avx512bw; }

#endif  // __x86_64__

}  // namespace alkaid::internal

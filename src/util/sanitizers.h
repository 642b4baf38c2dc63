// Which sanitizer the code is compiled under, asked the same way with GCC and clang.
// GCC announces ASan and TSan through __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang 14
// defines neither and answers __has_feature(address_sanitizer / thread_sanitizer) instead.
// Test with `#if ALKAID_ADDRESS_SANITIZER` (always defined, 0 or 1).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ALKAID_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALKAID_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef ALKAID_ADDRESS_SANITIZER
#define ALKAID_ADDRESS_SANITIZER 0
#endif

#if defined(__SANITIZE_THREAD__)
#define ALKAID_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ALKAID_THREAD_SANITIZER 1
#endif
#endif
#ifndef ALKAID_THREAD_SANITIZER
#define ALKAID_THREAD_SANITIZER 0
#endif

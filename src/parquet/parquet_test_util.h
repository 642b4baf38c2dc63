// Test-only helpers shared by the parquet module's tests.
#pragma once

#include <gtest/gtest.h>

#include "alkaid/status.h"

// Fails the test (fatally) unless the Status or Result is OK.
#ifndef ASSERT_OK
#define ASSERT_OK(expr)                                                 \
  do {                                                                  \
    ::alkaid::Status _st = ::alkaid::ToStatus((expr)); \
    ASSERT_TRUE(_st.ok()) << _st.ToString();                            \
  } while (false)
#endif

// Declares or assigns `lhs` from an OK Result, or fails the test.
#ifndef ASSERT_OK_AND_ASSIGN
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr)                     \
  auto ALKAID_CONCAT(_res_, __LINE__) = (rexpr);             \
  ASSERT_TRUE(ALKAID_CONCAT(_res_, __LINE__).ok())           \
      << ALKAID_CONCAT(_res_, __LINE__).status().ToString(); \
  lhs = std::move(ALKAID_CONCAT(_res_, __LINE__)).MoveValueUnsafe()
#endif

/// @file
/// The version of alkaid: as macros for the headers a program was compiled
/// against, and as functions for the library it runs with.
#pragma once

#include "alkaid/visibility.h"

/// Major version: incompatible API or ABI changes.
#define ALKAID_VERSION_MAJOR 0
/// Minor version: compatible additions.
#define ALKAID_VERSION_MINOR 1
/// Patch version: fixes only.
#define ALKAID_VERSION_PATCH 0
/// "MAJOR.MINOR.PATCH".
#define ALKAID_VERSION_STRING "0.1.0"
/// MAJOR * 10000 + MINOR * 100 + PATCH, for preprocessor comparisons.
#define ALKAID_VERSION_NUMBER \
  (ALKAID_VERSION_MAJOR * 10000 + ALKAID_VERSION_MINOR * 100 + ALKAID_VERSION_PATCH)

namespace alkaid {

/// The version string of the library linked at run time ("MAJOR.MINOR.PATCH").
ALKAID_EXPORT const char* Version();
/// ALKAID_VERSION_NUMBER of the library linked at run time.
ALKAID_EXPORT int VersionNumber();

}  // namespace alkaid

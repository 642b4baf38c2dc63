/// @file
/// The same as alkaid/extension/api.h (every canonical extension type, their array checks
/// and the registry). Kept so that code written before the module headers had an api.h
/// keeps compiling; new code includes alkaid/extension/api.h.
#pragma once

#include "alkaid/extension/api.h"

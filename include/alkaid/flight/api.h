/// @file
/// Arrow Flight: everything of the alkaid::flight module (link alkaid::flight).
#pragma once

#include "alkaid/flight/client.h"
#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"
#include "alkaid/flight/server.h"
#include "alkaid/flight/types.h"

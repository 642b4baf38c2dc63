// The row printing shared by cat and head.
#pragma once

#include <string>

#include "options.h"

namespace alkaid::cli {

// Prints the first `limit_text` rows ("" : all) of options.input with the
// display options, reading no batch beyond them; `limit_option` names the
// flag in errors.
int PrintFirstRows(const Options& options, const std::string& limit_option,
                   const std::string& limit_text);

}  // namespace alkaid::cli

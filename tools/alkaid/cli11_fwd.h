// The two CLI11 classes the tool's headers name, declared without CLI11 itself.
// CLI/CLI.hpp defines its validators as objects in every file that includes it,
// which costs each such file several seconds of compile time, so only the files
// that build or query a command line (commands/, options.cc, main.cc, ...)
// include it.
#pragma once

namespace CLI {
class App;
class Option;
} // namespace CLI

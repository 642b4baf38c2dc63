// The two CLI11 classes the tool's headers name, declared without CLI11 itself. CLI/CLI.hpp
// defines its validators as objects in every file that includes it, which costs each such file
// seconds of compile time, so only options.cc, text_options.cc and main.cc include it; the
// commands bind their flags through the helpers of options.h.
#pragma once

namespace CLI {
class App;
class Option;
}  // namespace CLI

// The options that say how text (CSV, JSON Lines) is read, declared once
// and attached to every command that reads text.
//
// Adding a text option: one statement in AddTextOptions (text_options.cc)
// that registers the flag and writes what it says into the library's
// csv::ReadOptions and/or jsonl::ReadOptions. Every command that reads that
// format gets it.
#pragma once

#include <map>
#include <string>

#include "cli11_fwd.h"
#include "alkaid/csv/api.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/status.h"

namespace alkaid::cli {

// Which text formats a command reads (and so which options it offers), and
// which formats an option applies to (kParquetInput: --threads).
enum TextFormats : unsigned { kCsvText = 1, kJsonLinesText = 2, kAnyText = 3, kParquetInput = 4 };

// How text input is read, as the command line set it.
struct TextReadOptions {
  csv::ReadOptions csv;
  jsonl::ReadOptions jsonl;
  // The first option whose value was refused (reported when the command
  // runs, with its name, so that a bad --block-size reads like other errors).
  Status error;
  // --delimiter was given (else CSV input uses the one its first lines agree on).
  bool delimiter_given = false;
  // Flag -> the formats it applies to (TextFormats bits); a flag given for
  // input of another format is refused (sources/registry.cc).
  std::map<std::string, unsigned> applies_to;
};

// Registers the text options for `formats` on `cmd`; their values go to
// `*text` as they are parsed.
void AddTextOptions(CLI::App* cmd, TextReadOptions* text, unsigned formats);

}  // namespace alkaid::cli

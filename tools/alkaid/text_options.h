// The options that say how text (CSV, JSON Lines) is read, declared once
// and attached to every command that reads text.
//
// Adding a text option: one statement in AddTextOptions (text_options.cc)
// that registers the flag and writes what it says into the library's
// csv::ReadOptions and/or jsonl::ReadOptions. Every command that reads that
// format gets it.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "alkaid/csv/api.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/status.h"

namespace alkaid::cli {

// What an input is taken to be: kAuto decides by content.
enum class InputFormat { kAuto, kArrow, kCsv, kJsonLines };

// Which text formats a command reads (and so which options it offers).
enum TextFormats : unsigned { kCsvText = 1, kJsonLinesText = 2, kAnyText = 3 };

// How text input is read, as the command line set it.
struct TextReadOptions {
  InputFormat format = InputFormat::kAuto;
  csv::ReadOptions csv;
  jsonl::ReadOptions jsonl;
  // The first option whose value was refused (reported when the command
  // runs, with its name, so that a bad --block-size reads like other errors).
  Status error;
};

// Registers the text options for `formats` on `cmd`; their values go to
// `*text` as they are parsed.
void AddTextOptions(CLI::App* cmd, TextReadOptions* text, unsigned formats);

}  // namespace alkaid::cli

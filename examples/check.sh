#!/usr/bin/env bash
# Runs every example from BINDIR in a scratch directory and compares the transcript with
# expected_output.txt. Usage: examples/check.sh BINDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(cd "$1" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
{
  for run in "write_ipc_file cities.arrow" "read_columns cities.arrow" "stream_pipe" \
             "extension_types" "validate_untrusted" "flight_get"; do
    echo "\$ $run"
    # shellcheck disable=SC2086
    "$bin"/$run 2>&1
  done
} > transcript.txt
if ! diff -u "$here/expected_output.txt" transcript.txt; then
  echo "examples: output differs from examples/expected_output.txt (binaries in $bin)" >&2
  exit 1
fi
echo "examples: all 6 programs ran and printed the expected output ($bin)"

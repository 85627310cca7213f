#!/usr/bin/env bash
# Regenerates Sources/TerminalUI/Text/DisplayWidthTable.swift from this machine's glibc.
# TerminalTests checks the table against wcwidth, so a drift shows up as a failing test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/width-table" "$here/width-table.c"
"$tmp/width-table" > "$here/../Sources/TerminalUI/Text/DisplayWidthTable.swift"

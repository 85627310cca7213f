#!/usr/bin/env bash
# The project's formatting, by the toolchain's swift-format and .swift-format:
#   Scripts/swift-format.sh lint     fails on any difference (CI runs this)
#   Scripts/swift-format.sh format   rewrites the files in place
# The generated API (Sources/EduGoAPI/Generated) is left as the generator writes it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode="${1:-lint}"
files() { { echo Package.swift; find Sources Tests Benchmarks -name '*.swift' -not -path '*/Generated/*'; } | sort; }
case "$mode" in
    lint) files | xargs swift format lint --strict --configuration .swift-format ;;
    format) files | xargs swift format format --in-place --configuration .swift-format ;;
    *) echo "usage: $0 lint|format" >&2; exit 2 ;;
esac

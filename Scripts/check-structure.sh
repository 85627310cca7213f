#!/usr/bin/env bash
# Fails listing what the code's structure rules forbid in Sources (no build needed):
#   - a function, initializer, subscript or closure-bodied property (`var x: T { … }`,
#     `let x = { … }()`) longer than 120 lines, from its declaration to its closing brace;
#   - a force unwrap: a postfix `!` on an expression (`value!`, `call()!`), `try!` or `as!`;
# and in Tests, a wall-clock time limit (`.timeLimit(…)`): in a whole run on 2 cores a suite
# queues behind every other (eight tests of 1.4 s alone took 78-121 s), so a limit fails on
# load, not on a defect. Time limits go in benchmarks; a test holds what it waits on.
# Strings (interpolations aside) and comments are not read, so `!=`, a prefix `!` and any
# `!` in text are not flagged; an implicitly unwrapped type (`var x: T!`) is not an unwrap.
# Generated code is left out: Sources/EduGoAPI/Generated and DisplayWidthTable.swift.
#   Scripts/check-structure.sh                  every module of Sources
#   Scripts/check-structure.sh Sources/Server   only these folders or files
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
python3 - "$@" <<'PYTHON'
import os
import re
import sys

LIMIT = 120
SKIPPED = ("Sources/EduGoAPI/Generated/", "Sources/TerminalUI/Text/DisplayWidthTable.swift")


def mask(source):
    """The source with every comment and string literal blanked (newlines kept), the code of
    string interpolations kept: what is left is code only, at the same lines and columns."""
    out = list(source)
    n = len(source)
    i = 0

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
            continue
        if source.startswith("/*", i):
            level, k = 1, i + 2
            while k < n and level:
                if source.startswith("/*", k):
                    level, k = level + 1, k + 2
                elif source.startswith("*/", k):
                    level, k = level - 1, k + 2
                else:
                    k += 1
            blank(i, k)
            i = k
            continue
        m = re.match(r'(#*)("""|")', source[i:])
        if m and (m.group(1) or c == '"'):
            i = string(source, out, i, m.group(1), m.group(2), blank)
            continue
        i += 1
    return "".join(out)


def string(source, out, start, hashes, quote, blank):
    """Blanks the string literal at `start`, keeping interpolations; returns its end."""
    n = len(source)
    i = start + len(hashes) + len(quote)
    closing = quote + hashes
    interpolation = "\\" + hashes + "("
    text_start = start
    while i < n:
        if source.startswith(interpolation, i):
            blank(text_start, i + len(interpolation))
            i = code_until_close(source, out, i + len(interpolation), blank)
            text_start = i
            continue
        if not hashes and source[i] == "\\":
            i += 2
            continue
        if source.startswith(closing, i):
            blank(text_start, i + len(closing))
            return i + len(closing)
        if quote == '"' and source[i] == "\n":
            break  # an unterminated single-line string: stop at the line's end
        i += 1
    blank(text_start, i)
    return i


def code_until_close(source, out, i, blank):
    """Code of an interpolation from `i` to its closing parenthesis; returns the index after it."""
    n = len(source)
    depth = 1
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            blank(i, end)
            i = end
            continue
        m = re.match(r'(#*)("""|")', source[i:])
        if m and (m.group(1) or source[i] == '"'):
            i = string(source, out, i, m.group(1), m.group(2), blank)
            continue
        if source[i] == "(":
            depth += 1
        elif source[i] == ")":
            depth -= 1
            if depth == 0:
                out[i] = " "
                return i + 1
        i += 1
    return i


DECLARATION = re.compile(
    r"\b(?P<kind>func|init|deinit|subscript|var|let)\b(?P<rest>[^\n]*)"
)

def matching_brace(code, open_index):
    depth = 0
    for k in range(open_index, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


def body_start(code, start, kind):
    """Where the body of the declaration at `start` opens, or None (a requirement, a stored
    property without a closure)."""
    depth = 0
    k = start
    n = len(code)
    seen_equals = False
    while k < n:
        c = code[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            if c == "{":
                if kind in ("var", "let"):
                    # `var x: T {` (computed) or `= {` (a closure called once).
                    between = code[start:k]
                    if seen_equals and not re.search(r"=\s*$", between):
                        return None
                return k
            if c == "}":
                return None
            if c == "=" and kind in ("var", "let"):
                if k + 1 < n and code[k + 1] == "=":
                    return None
                seen_equals = True
            if c == "\n" and kind in ("var", "let"):
                # A computed property's brace is on its declaration's line; a closure's may
                # follow `=` at the line's end.
                line = code[start:k].rstrip()
                if not line.endswith("="):
                    return None
            if c == "\n" and kind not in ("var", "let"):
                # A signature goes on only with its effects, its result or its constraints;
                # any other line means it had no body (a protocol's requirement).
                rest = code[k + 1 :].lstrip(" \n")
                if not re.match(r"(\{|async\b|throws\b|rethrows\b|->|where\b|,|&)", rest):
                    return None
        k += 1
    return None


def long_bodies(path, code):
    found = []
    for m in DECLARATION.finditer(code):
        kind = m.group("kind")
        start = m.start()
        before = code[max(0, start - 1) : start]
        if before and (before.isalnum() or before in "_.$"):
            continue
        if kind in ("var", "let"):
            # `if let x = …`, `case let`, `for var`: not a property.
            line_start = code.rfind("\n", 0, start) + 1
            head = code[line_start:start]
            if re.search(r"\b(if|guard|while|case|for|catch|switch)\b", head) or "(" in head:
                continue
        opening = body_start(code, m.end("kind"), kind)
        if opening is None:
            continue
        closing = matching_brace(code, opening)
        if closing is None:
            continue
        first = code.count("\n", 0, start) + 1
        last = code.count("\n", 0, closing) + 1
        length = last - first + 1
        if length > LIMIT:
            name = re.match(r"\s*([^\s(:<={]+)?", m.group("rest")).group(1) or ""
            label = {"func": "function", "init": "initializer", "deinit": "deinitializer", "subscript": "subscript"}.get(
                kind, "property"
            )
            found.append((first, f"{label} {name}".strip() if kind != "init" else "initializer", length))
    return found


UNWRAP = re.compile(r"(?<=[\w)\]])!(?!=)")
IMPLICIT = re.compile(r"(\b(var|let)\s+\w+\s*:\s*|->\s*|\bas\s+)[\w.<>\[\], ]*$")


def unwraps(code):
    found = []
    for m in UNWRAP.finditer(code):
        line_start = code.rfind("\n", 0, m.start()) + 1
        before = code[line_start : m.start()]
        if before.endswith("try") or before.endswith(" as"):
            pass  # try! and as!
        elif IMPLICIT.search(before) and not re.search(r"\b(try|as)$", before):
            continue  # an implicitly unwrapped type
        line = code.count("\n", 0, m.start()) + 1
        found.append((line, m.start() - line_start + 1))
    return found


def files(arguments):
    roots = arguments or ["Sources"]
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for folder, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


problems = []
for path in sorted(set(files(sys.argv[1:]))):
    if any(skip in path for skip in SKIPPED):
        continue
    source = open(path, encoding="utf-8").read()
    code = mask(source)
    lines = source.split("\n")
    for line, name, length in long_bodies(path, code):
        problems.append(f"{path}:{line}: {name} is {length} lines (at most {LIMIT})")
    for line, column in unwraps(code):
        problems.append(f"{path}:{line}:{column}: force unwrap: {lines[line - 1].strip()}")

if problems:
    print("\n".join(problems))
    print(f"check-structure: {len(problems)} problems")
    sys.exit(1)
print("check-structure: no function over 120 lines, no force unwrap")
PYTHON
if [ $# -eq 0 ] && grep -rn --include='*.swift' -E '\.timeLimit\(' Tests; then
    echo "check-structure: a test with a time limit (above); time limits go in benchmarks"
    exit 1
fi

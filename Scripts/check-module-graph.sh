#!/usr/bin/env bash
# Fails when README.md's module graph and Package.swift disagree: every target of ours (tests
# aside) must stand on the left of one line of the graph, with exactly its dependencies on
# the right (packages' products aside, named in parentheses).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
swift package --package-path "$root" dump-package | python3 -c '
import json, re, sys
package = json.load(sys.stdin)
actual = {}
for target in package["targets"]:
    if target["type"] == "test":
        continue
    deps = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                deps.add(dependency[kind][0])
    actual[target["name"]] = deps
readme = open(sys.argv[1], encoding="utf-8").read()
block = re.search(r"<!-- module-graph -->\s*```\n(.*?)```", readme, re.S)
if not block:
    sys.exit("README.md has no module graph (a ``` block after <!-- module-graph -->)")
drawn = {}
names = []
for line in block.group(1).splitlines():
    line = re.sub(r"\(.*?\)", "", line).strip()
    if "──>" in line:
        left, right = line.split("──>")
        names = [n for n in re.split(r"[|,\s]+", left) if n]
    else:
        right = line  # the dependencies of the line above, continued
    deps = {n for n in re.split(r"[,\s]+", right) if n and n != "nothing"}
    for name in names:
        drawn[name] = drawn.get(name, set()) | deps
problems = []
for name in sorted(set(actual) | set(drawn)):
    if name not in drawn:
        problems.append(f"{name}: in Package.swift, not in the graph")
    elif name not in actual:
        problems.append(f"{name}: in the graph, not a target of Package.swift")
    elif drawn[name] != actual[name]:
        missing = ", ".join(sorted(actual[name] - drawn[name])) or "-"
        extra = ", ".join(sorted(drawn[name] - actual[name])) or "-"
        problems.append(f"{name}: the graph lacks {missing}; it draws {extra} that Package.swift does not have")
if problems:
    sys.exit("README.md module graph differs from Package.swift:\n  " + "\n  ".join(problems))
print(f"module graph: {len(actual)} targets, as README.md draws them")
' "$root/README.md"

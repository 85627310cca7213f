#!/usr/bin/env bash
# Fails when the module graph of docs/architecture.md (a ``` block after <!-- module-graph -->)
# and Package.swift disagree: every target of ours (tests aside) must stand on the left of one
# line of the graph, with exactly its dependencies on the right (packages' products aside,
# named in parentheses).
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
doc = open(sys.argv[1], encoding="utf-8").read()
block = re.search(r"<!-- module-graph -->\s*```\n(.*?)```", doc, re.S)
if not block:
    sys.exit("docs/architecture.md has no module graph (a ``` block after <!-- module-graph -->)")
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
    sys.exit("docs/architecture.md module graph differs from Package.swift:\n  " + "\n  ".join(problems))
print(f"module graph: {len(actual)} targets, as docs/architecture.md draws them")
' "$root/docs/architecture.md"

# State apart from drawing: a view-model sees Presentation, never TerminalUI.
if drawing=$(grep -l '^import TerminalUI' $(find "$root/Sources" -name '*ViewModel.swift')); then
    echo "view-models that import TerminalUI (their state belongs in Presentation):" >&2
    echo "$drawing" >&2
    exit 1
fi
echo "view-models: none imports TerminalUI"

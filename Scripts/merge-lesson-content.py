#!/usr/bin/env python3
"""Merges lesson bodies and questions (one JSON file per course: {"id", "lessons": [...]})
into the built-in catalog, Sources/Platform/Resources/catalog.json. A file whose lessons do
not keep the catalog's titles and minutes, in order, is refused: content never renames a
syllabus by accident."""
import json, pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
catalog_path = root / "Sources/Platform/Resources/catalog.json"
catalog = json.loads(catalog_path.read_text())
by_id = {course["id"]: course for course in catalog}

for path in sys.argv[1:]:
    content = json.loads(pathlib.Path(path).read_text())
    course = by_id.get(content["id"])
    if course is None:
        sys.exit(f"{path}: no course {content['id']!r} in the catalog")
    ours = [(l["title"], l["minutes"]) for l in course["lessons"]]
    theirs = [(l["title"], l["minutes"]) for l in content["lessons"]]
    if ours != theirs:
        sys.exit(f"{path}: lessons differ from the catalog's")
    course["lessons"] = [
        {key: lesson[key] for key in ("title", "minutes", "body", "questions") if key in lesson}
        for lesson in content["lessons"]
    ]
    print(f"{content['id']}: {len(theirs)} lessons, {sum(len(l.get('questions', [])) for l in content['lessons'])} questions")

catalog_path.write_text(json.dumps(catalog, ensure_ascii=False, indent=2) + "\n")

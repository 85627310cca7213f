#!/usr/bin/env python3
"""Writes the distinct catalog requests of the Zipf read mix (zipf.sh), one path a line, most
asked first: zipf.lua asks the one at rank r with a weight of 1 / r^s.

The order is a guess at what a school's learners ask, made from the catalog itself: the first
page; then the first pages of the common words of titles, of the letters typed on the way to
them (the terminal searches as one types), of categories and levels and orders; then deeper
pages, reached by following `next` as a learner paging down does; then pairs of words and
pages deep in the catalog, each asked rarely. Every request depends on no learner: no `is:`
condition but `is:free`.

Usage: zipf-requests.py BASE-URL DATABASE COUNT
  DATABASE: the catalog's SQLite file, to read its words and categories (not written)."""
import json
import re
import sqlite3
import sys
import urllib.parse
import urllib.request
from collections import Counter

base, database, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
words = Counter()
for (title,) in db.execute("SELECT title FROM course WHERE rowid % 50 = 0"):
    for word in re.findall(r"[^\W\d_]+", title):
        if len(word) > 2:
            words[word.lower()] += 1
common = [word for word, _ in words.most_common()]
categories = [row[0] for row in db.execute("SELECT category FROM course GROUP BY category ORDER BY count(*) DESC")]
levels = ["beginner", "intermediate", "advanced"]
sorts = ["price", "-price", "duration", "-newest", "level"]


def page(query=None, sort=None, after=None):
    parts = ["limit=20"]
    if query:
        parts.append("query=" + urllib.parse.quote(query))
    if sort:
        parts.append("sort=" + sort)
    if after:
        parts.append("after=" + after)
    return "/v1/courses?" + "&".join(parts)


def quoted(value):
    return f'"{value}"' if " " in value else value


# (score, path): a higher score is asked more. Scores only order the list; the weights are Zipf's.
scored = {}


def add(score, path):
    if scored.get(path, -1) < score:
        scored[path] = score


add(1000, page())
for rank, word in enumerate(common, 1):
    add(400 / rank, page(word))
    # What is typed on the way to the word: each prefix is a request of its own.
    for length in range(2, len(word)):
        add(40 / rank / length, page(word[:length]))
    for level in levels:
        add(20 / rank, page(f"{word} level:{level}"))
    add(30 / rank, page(f"{word} is:free"))
    for sort in sorts:
        add(15 / rank, page(word, sort))
for rank, category in enumerate(categories, 1):
    add(300 / rank, page(f"cat:{quoted(category)}"))
    for level in levels:
        add(50 / rank, page(f"cat:{quoted(category)} level:{level}"))
    add(40 / rank, page(f"cat:{quoted(category)} is:free"))
    for sort in sorts:
        add(20 / rank, page(f"cat:{quoted(category)}", sort))
for level in levels:
    add(200, page(f"level:{level}"))
    add(100, page(f"level:{level} is:free"))
add(250, page("is:free"))
for sort in sorts:
    add(300, page(sort=sort))
for first in range(len(common)):
    for second in range(first + 1, len(common)):
        add(2 / (first + 1) / (second + 1), page(f"{common[first]} {common[second]}"))
for rank, word in enumerate(common, 1):
    for place, category in enumerate(categories, 1):
        add(3 / rank / place, page(f"{word} cat:{quoted(category)}"))
# Pages deep in the catalog's own order: keys are ranks times 65536.
for depth in range(1, 4001):
    add(100 / depth / depth, page(after=str(depth * 20 * 65536)))


def fetch(path):
    with urllib.request.urlopen(base + path, timeout=60) as answer:
        return json.load(answer)


# Deeper pages of the most asked searches, by their `next` keys, as paging down reaches them.
first_pages = sorted(scored.items(), key=lambda item: -item[1])[:300]
for path, score in first_pages:
    after = None
    for depth in range(2, 6):
        answer = fetch(path + (f"&after={after}" if after else ""))
        after = answer.get("next")
        if not after:
            break
        add(score / depth / depth, path + f"&after={after}")

ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
if len(ranked) < count:
    sys.exit(f"only {len(ranked)} distinct requests, {count} asked")
for path, _ in ranked[:count]:
    print(path)

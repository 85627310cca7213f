#!/usr/bin/env python3
"""A week offline sent at once: COUNT queued operations of one new learner (favourites, lesson
marks, names, answers and reviews, in the order a terminal made them, times spread over 7 days)
posted to POST /v1/me/operations in batches of 200, one request at a time as a terminal sends
its outbox. Prints the time to send them all, operations/s, the slowest batch, and the count of
each result (every one must be applied or superseded).

Usage: operations.py BASE-URL [COUNT]"""
import collections
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

base = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
random.seed(43)


def call(method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, error.read()


tag = f"{os.getpid()}{time.time_ns()}"
status, session = call("POST", "/v1/accounts", body={"name": "Offline Bench", "email": f"ops{tag}@example.com", "password": "bench-password-1"})
if status != 201:
    sys.exit(f"account: {status} {session}")
token = session["access_token"]

# Courses with lessons and questions, open, without a prerequisite: three to study, the rest
# for favourites.
pool, status, page = [], *call("GET", "/v1/courses?limit=100&query=is:open")
while page and len(pool) < 300:
    pool += [c["id"] for c in page["courses"] if not c.get("prerequisite_id")]
    if not page.get("next"):
        break
    status, page = call("GET", f"/v1/courses?limit=100&query=is:open&after={page['next']}")
questions = []
for course in pool:
    if len(questions) >= 30:
        break
    status, _ = call("PUT", f"/v1/me/enrollments/{course}", token)
    if status != 201:
        continue
    status, detail = call("GET", f"/v1/courses/{course}", token)
    for lesson, entry in enumerate(detail.get("lessons", []), start=1):
        for question in range(entry.get("question_count", 0)):
            questions.append((course, lesson, question))
if not questions:
    sys.exit("no course with questions")
enrolled = sorted({q[0] for q in questions})
lessons = sorted({(q[0], q[1]) for q in questions})

start_ms = int((time.time() - 8 * 86_400) * 1000)
step = (7 * 86_400_000) // count
answered, operations = set(), []
for n in range(count):
    when = f"{start_ms + n * step:013d}-00000-bench-node"
    pick = random.random()
    op = {"id": f"bench-{tag}-{n:06d}", "time": when}
    if pick < 0.25:
        op.update(kind="favourite", course_id=random.choice(pool), favourite=random.random() < 0.6)
    elif pick < 0.45:
        course, lesson = random.choice(lessons)
        op.update(kind="lesson", course_id=course, lesson=lesson, done=random.random() < 0.7)
    elif pick < 0.5:
        op.update(kind="name", name=random.choice(["Ana Bench", "Bo Bench", "Cai Bench"]))
    else:
        course, lesson, question = random.choice(questions)
        if (course, lesson, question) not in answered:
            answered.add((course, lesson, question))
            op.update(kind="answer", course_id=course, lesson=lesson, question=question, chosen=[0], utc_offset=3600)
        else:
            op.update(kind="review", course_id=course, lesson=lesson, question=question,
                      grade=random.choice(["again", "hard", "good", "easy"]), utc_offset=3600)
    operations.append(op)

results = collections.Counter()
slowest = 0.0
began = time.perf_counter()
for i in range(0, count, 200):
    sent = time.perf_counter()
    status, answer = call("POST", "/v1/me/operations", token, {"operations": operations[i:i + 200]})
    slowest = max(slowest, time.perf_counter() - sent)
    if status != 200:
        sys.exit(f"batch {i // 200}: {status} {answer}")
    results.update(r["status"] + (":" + r["error"] if r.get("error") else "") for r in answer["results"])
elapsed = time.perf_counter() - began
print(f"{count} operations in {elapsed:.2f} s: {count / elapsed:,.0f} operations/s; slowest batch of 200 {slowest * 1000:.0f} ms")
print(f"courses studied {len(enrolled)}, questions {len(questions)}; results: {dict(results)}")

#!/usr/bin/env python3
"""Makes COUNT learners on an EduGo server for the mixed-workload bench (mixed.sh), each with an
access token and three courses enrolled in, and prints one line per learner:
TOKEN COURSE1 COURSE2 COURSE3. Courses come from the open ones without a prerequisite.

Usage: learners.py BASE-URL COUNT"""
import json
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

base, count = sys.argv[1], int(sys.argv[2])
tag = f"{__import__('os').getpid()}-{__import__('time').time_ns()}"


def call(method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, None


# Open courses without a prerequisite, from a few pages of the catalog.
pool = []
status, page = call("GET", "/v1/courses?limit=100&query=is:open")
while page and len(pool) < 600:
    pool += [c["id"] for c in page["courses"] if not c.get("prerequisite_id")]
    if not page.get("next"):
        break
    status, page = call("GET", f"/v1/courses?limit=100&query=is:open&after={page['next']}")
if len(pool) < 3:
    sys.exit("too few open courses")


def learner(number):
    status, answer = call(
        "POST", "/v1/accounts",
        body={"name": "Bench Learner", "email": f"bench-{tag}-{number}@example.com", "password": "bench-password"})
    if status != 201:
        sys.exit(f"creating a learner: {status}")
    token = answer["access_token"]
    courses = []
    for offset in range(len(pool)):
        course = pool[(number * 3 + offset) % len(pool)]
        if call("PUT", f"/v1/me/enrollments/{course}", token)[0] == 201:
            courses.append(course)
        if len(courses) == 3:
            break
    return " ".join([token] + courses)


with ThreadPoolExecutor(max_workers=8) as workers:
    for line in workers.map(learner, range(count)):
        print(line)

#!/usr/bin/env python3
"""Watches two servers on one PostgreSQL database while stall.sh loads them, and reports each
stall: a probe of the first page that took longer than the threshold, with what every watcher
saw meanwhile (BENCHMARKS.md, "Two servers on one PostgreSQL").

Usage: stall.py SECONDS THRESHOLD_MS DATABASE_URL NAME=URL,PID ...
One thread per watcher:
  - a probe per server: one first page every 10 ms on a kept-alive connection, its latency;
  - per server, every 50 ms: /metrics' database connections in use and waiting, requests in
    flight; the process's CPU time and context switches (/proc);
  - every 50 ms: PostgreSQL's backends by state (pg_stat_activity, one psql kept open).
"""
import http.client
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

seconds = float(sys.argv[1])
threshold = float(sys.argv[2]) / 1000
database = sys.argv[3]
servers = []
for argument in sys.argv[4:]:
    name, rest = argument.split("=", 1)
    url, pid = rest.rsplit(",", 1)
    servers.append((name, urllib.parse.urlsplit(url), int(pid)))

start = time.monotonic()
wall = time.time()
end = start + seconds
probes = {name: [] for name, _, _ in servers}  # (started, took)
samples = {name: [] for name, _, _ in servers}  # (at, in_use, waiting, in_flight, cpu_ms, switches)
backends = []  # (at, active, idle, idle_in_transaction)
states = {name: [] for name, _, _ in servers}  # (at, every thread's name and system call)
TICKS = 100  # clock ticks a second on Linux


def probe(name, url):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    while time.monotonic() < end:
        began = time.monotonic()
        connection.request("GET", "/v1/courses?limit=20")
        response = connection.getresponse()
        response.read()
        probes[name].append((began - start, time.monotonic() - began))
        time.sleep(max(0, 0.01 - (time.monotonic() - began)))


def gauge(text, name, state=None):
    pattern = name + (r'\{state="%s"\}' % state if state else r"(\{[^}]*\})?") + r" ([0-9.e+-]+)"
    found = re.search(r"^" + pattern + r"$", text, re.M)
    return float(found.group(found.lastindex)) if found else float("nan")


def process(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) * 1000 / TICKS
    switches = 0  # every thread's, voluntary and not
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, task)) as status:
                switches += sum(int(line.split()[-1]) for line in status if "ctxt_switches" in line)
        except FileNotFoundError:
            pass  # a thread that ended meanwhile
    return cpu, switches


SYSCALLS = {"0": "read", "1": "write", "7": "poll", "202": "futex", "232": "epoll_wait", "281": "epoll_pwait",
            "441": "epoll_pwait2", "35": "nanosleep", "230": "clock_nanosleep", "20": "writev", "44": "sendto", "45": "recvfrom"}


def threads_now(pid):
    """What each thread is doing: its name and the system call it waits in (or running)."""
    seen = []
    for task in sorted(os.listdir("/proc/%d/task" % pid), key=int):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as comm, open("/proc/%d/task/%s/syscall" % (pid, task)) as call:
                parts = call.read().split()
                name = comm.read().strip()
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        if not parts or parts[0] == "running":
            seen.append("%s:run" % name)
        else:
            seen.append("%s:%s" % (name, SYSCALLS.get(parts[0], parts[0])))
    return " ".join(seen)


def watch_threads(name, pid):
    while time.monotonic() < end:
        began = time.monotonic()
        states[name].append((began - start, threads_now(pid)))
        time.sleep(max(0, 0.02 - (time.monotonic() - began)))


def sample(name, url, pid):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    while time.monotonic() < end:
        began = time.monotonic()
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        cpu, switches = process(pid)
        samples[name].append((
            began - start,
            gauge(text, "edugo_database_connections", "in_use"),
            gauge(text, "edugo_database_connections", "waiting"),
            gauge(text, "edugo_http_requests_in_flight"),
            cpu,
            switches,
        ))
        time.sleep(max(0, 0.05 - (time.monotonic() - began)))


def watch_database():
    query = ("SELECT count(*) FILTER (WHERE state = 'active' AND backend_type = 'client backend'), "
             "count(*) FILTER (WHERE state = 'idle' AND backend_type = 'client backend'), "
             "count(*) FILTER (WHERE state LIKE 'idle in transaction%' AND backend_type = 'client backend'), "
             "coalesce(string_agg(backend_type || ': ' || left(query, 40), '; ') FILTER (WHERE backend_type "
             "NOT IN ('client backend', 'background writer', 'checkpointer', 'walwriter', 'autovacuum launcher', "
             "'logical replication launcher') OR wait_event_type IN ('Lock', 'LWLock', 'IO')), '') "
             "FROM pg_stat_activity WHERE pid <> pg_backend_pid();\n")
    psql = subprocess.Popen(["psql", "-XAtq", database], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    while time.monotonic() < end:
        began = time.monotonic()
        psql.stdin.write(query)
        psql.stdin.flush()
        active, idle, waiting, others = psql.stdout.readline().rstrip("\n").split("|", 3)
        with open("/proc/stat") as stat:
            busy = [int(value) for value in stat.readline().split()[1:]]
        backends.append((began - start, int(active), int(idle), int(waiting), others, sum(busy) - busy[3] - busy[4], sum(busy)))
        time.sleep(max(0, 0.05 - (time.monotonic() - began)))
    psql.stdin.close()
    psql.wait()


threads = [threading.Thread(target=watch_database)]
for name, url, pid in servers:
    threads.append(threading.Thread(target=probe, args=(name, url)))
    threads.append(threading.Thread(target=sample, args=(name, url, pid)))
    threads.append(threading.Thread(target=watch_threads, args=(name, pid)))
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()


def during(rows, began, ended):
    return [row for row in rows if began - 0.05 <= row[0] <= ended + 0.05]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


print("watch started at CLOCK_MONOTONIC %.6f s (perf record -k mono writes the same clock), wall clock %.3f" % (start, wall))
for name, _, _ in servers:
    took = [row[1] for row in probes[name]]
    print("%s probes: %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
        name, len(took), 1000 * percentile(took, 0.5), 1000 * percentile(took, 0.99), 1000 * max(took, default=0)))
for name, _, _ in servers:
    rows = samples[name]
    if len(rows) > 1:
        span = rows[-1][0] - rows[0][0]
        print("%s: %.2f cores, %.0f context switches/s on average" % (
            name, (rows[-1][4] - rows[0][4]) / 1000 / span, (rows[-1][5] - rows[0][5]) / span))

if len(backends) > 1:
    print("machine busy %.0f %% over the run; other postgres work seen: %s" % (
        100 * (backends[-1][5] - backends[0][5]) / max(1, backends[-1][6] - backends[0][6]),
        "; ".join(sorted(set(row[4] for row in backends if row[4]))) or "none"))
stalls = [(name, began, took) for name in probes for began, took in probes[name] if took > threshold]
print("stalls over %.0f ms: %d" % (threshold * 1000, len(stalls)))
for name, began, took in sorted(stalls, key=lambda stall: stall[1]):
    ended = began + took
    print("\n%s probe at %.2f s took %.0f ms" % (name, began, took * 1000))
    for other, _, _ in servers:
        rows = during(samples[other], began, ended)
        if len(rows) > 1:
            span = rows[-1][0] - rows[0][0]
            cores = (rows[-1][4] - rows[0][4]) / 1000 / span if span else float("nan")
            rate = (rows[-1][5] - rows[0][5]) / span if span else float("nan")
        else:
            cores = rate = float("nan")
        print("  %-8s pool in use %s, waiting %s, in flight %s; %.2f cores, %.0f switches/s" % (
            other,
            "/".join("%g" % row[1] for row in rows),
            "/".join("%g" % row[2] for row in rows),
            "/".join("%g" % row[3] for row in rows),
            cores, rate))
        for at, seen in during(states[other], began, ended)[::5]:
            print("    %.2f s %s" % (at, seen))
    rows = during(backends, began, ended)
    print("  postgres active %s, idle %s, idle in transaction %s" % (
        "/".join(str(row[1]) for row in rows), "/".join(str(row[2]) for row in rows), "/".join(str(row[3]) for row in rows)))
    if len(rows) > 1 and rows[-1][6] > rows[0][6]:
        print("  machine busy %.0f %%" % (100 * (rows[-1][5] - rows[0][5]) / (rows[-1][6] - rows[0][6])))
    for others in sorted(set(row[4] for row in rows if row[4])):
        print("  postgres also: %s" % others)

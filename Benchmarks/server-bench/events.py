#!/usr/bin/env python3
"""The event stream's benchmarks (BENCHMARKS.md, "Live changes"), driven by events.sh.

  events.py latency WRITE_BASE STREAM_BASE [changes]
      Signs the demo learner in twice, opens GET /v1/me/events on STREAM_BASE with one sign-in,
      and toggles a favourite through WRITE_BASE with the other (one PUT or DELETE at a time,
      on a kept-alive connection); for each, the time from sending the request to reading its
      event off the stream. Prints p50, p99 and max in ms, and the time of what `r` reads again
      (the catalog's first page, the learner's enrollments and favourites) for comparison.

  events.py streams BASE COUNT FIRST_ADDRESS
      Opens COUNT event streams of one sign-in, 60 per loopback source address from
      FIRST_ADDRESS on (the server takes 64 connections per address), waits for each one's
      `ready`, prints "open", and holds them (reading what comes) until killed.

  events.py idle BASE COUNT FIRST_ADDRESS
      The same with COUNT kept-alive connections that asked GET /health once, for comparison
      (the server closes them after --connection-timeout).
"""
import http.client
import json
import selectors
import socket
import statistics
import sys
import time
from urllib.parse import urlparse


def sign_in(base):
    url = urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    connection.request("POST", "/v1/sessions", json.dumps({"email": "demo@edugo.dev", "password": "edugo-demo"}),
                       {"Content-Type": "application/json"})
    answer = connection.getresponse()
    body = json.loads(answer.read())
    connection.close()
    return body["access_token"]


def open_stream(base, token, source="127.0.0.1"):
    url = urlparse(base)
    sock = socket.create_connection((url.hostname, url.port), source_address=(source, 0))
    sock.sendall((f"GET /v1/me/events HTTP/1.1\r\nHost: {url.hostname}\r\nAccept: text/event-stream\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n").encode())
    return sock


class Events:
    """Server-sent events off a chunked answer, one at a time."""

    def __init__(self, sock):
        self.sock = sock
        self.raw = b""
        self.body = b""
        self.head = False

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("the stream ended")
        self.raw += data
        if not self.head:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.raw.split(b" ", 2)[1]
            if status != b"200":
                raise RuntimeError(f"GET /v1/me/events answered {status.decode()}")
            self.raw = self.raw[end + 4:]
            self.head = True
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.body += self.raw[line_end + 2:line_end + 2 + size]
            self.raw = self.raw[line_end + 2 + size + 2:]

    def next(self):
        """The next event with a name, as a dict of its fields."""
        while True:
            end = self.body.find(b"\n\n")
            if end >= 0:
                block, self.body = self.body[:end], self.body[end + 2:]
                fields = {}
                for line in block.decode().split("\n"):
                    if ":" in line and not line.startswith(":"):
                        name, value = line.split(":", 1)
                        fields[name] = value[1:] if value.startswith(" ") else value
                if "event" in fields:
                    return fields
                continue
            self._fill()


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def latency(write_base, stream_base, changes):
    writer_token = sign_in(write_base)
    reader_token = sign_in(stream_base)
    stream = Events(open_stream(stream_base, reader_token))
    assert stream.next()["event"] == "ready"
    url = urlparse(write_base)
    writer = http.client.HTTPConnection(url.hostname, url.port)
    headers = {"Authorization": f"Bearer {writer_token}"}
    course = "docker-essentials"
    times = []
    for number in range(changes + 10):
        method = "PUT" if number % 2 == 0 else "DELETE"
        started = time.perf_counter()
        writer.request(method, f"/v1/me/favourites/{course}", headers=headers)
        answer = writer.getresponse()
        answer.read()
        assert answer.status == 204, answer.status
        event = stream.next()
        # Other learners' writes (a bench's load beside) may move a course's seats: not ours.
        while event["event"] == "course":
            event = stream.next()
        elapsed = time.perf_counter() - started
        assert event["event"] == "favourite", event
        if number >= 10:  # the first ten warm the connection and the server up
            times.append(elapsed * 1000)
    reload = []
    for _ in range(50):
        started = time.perf_counter()
        for path in ("/v1/courses?limit=20", "/v1/me/enrollments", "/v1/me/favourites"):
            writer.request("GET", path, headers=headers)
            answer = writer.getresponse()
            answer.read()
        reload.append((time.perf_counter() - started) * 1000)
    print(f"write to event: p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
          f"max {max(times):.2f} ms over {len(times)} changes; "
          f"what r reads again (page, enrollments, favourites): p50 {statistics.median(reload):.2f} ms")


def streams(base, count, first_address, idle=False):
    token = sign_in(base)
    octets = [int(part) for part in first_address.split(".")]
    url = urlparse(base)
    held = []
    for number in range(count):
        source = ".".join(str(part) for part in octets[:3] + [octets[3] + number // 60])
        if idle:
            sock = socket.create_connection((url.hostname, url.port), source_address=(source, 0))
            sock.sendall(f"GET /health HTTP/1.1\r\nHost: {url.hostname}\r\n\r\n".encode())
            answer = b""
            while b'"ok"' not in answer:
                answer += sock.recv(65536)
            held.append(sock)
            continue
        stream = Events(open_stream(base, token, source))
        assert stream.next()["event"] == "ready"
        held.append(stream.sock)
    print("open", flush=True)
    selector = selectors.DefaultSelector()
    for sock in held:
        selector.register(sock, selectors.EVENT_READ)
    while True:  # keep-alives every 15 s: read them so nothing stalls
        for key, _ in selector.select():
            if not key.fileobj.recv(65536):
                selector.unregister(key.fileobj)


if __name__ == "__main__":
    if sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 200)
    else:
        streams(sys.argv[2], int(sys.argv[3]), sys.argv[4], idle=sys.argv[1] == "idle")

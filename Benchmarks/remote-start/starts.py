#!/usr/bin/env python3
"""Times starts of `tui` to its first catalog frame, configurations taken in turns.

Each start runs on an 80x24 pseudo-terminal; its time is from the fork to the first byte that
completes MARKER (the catalog's `1/N`), the frame that shows the loaded list. A second passes
between starts (the server idle again), and the configurations alternate, so a slow spell of
the machine falls on all of them alike. Prints each configuration's median and p90.

    starts.py RUNS MARKER NAME=ARGV [NAME=ARGV ...]
    starts.py 12 1/1000000 "local=/path/tui --data-dir D" "remote=/path/tui --data-dir C --server http://127.0.0.1:8080"

BENCHMARKS.md, "Remote start with a warm replica", says how the data directories are made.
"""
import fcntl, os, pty, select, shlex, signal, statistics, struct, sys, termios, time

def start(argv, marker, env):
    began = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen, output = None, b""
    while seen is None and time.monotonic() < began + 10:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            output += os.read(fd, 65536)
        except OSError:
            break
        if marker.encode() in output:
            seen = time.monotonic()
    # The app is left a while after its frame, so its session's renewal, under way at the start,
    # is stored: a tui built before 2026-11-30 ended by SIGTERM mid-renewal left a used token on
    # disk, and the next start was signed out.
    settle = time.monotonic() + 0.3
    while time.monotonic() < settle:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                break
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
    os.close(fd)
    if seen is None:
        raise SystemExit("%s never showed %s; its last output: %r" % (argv[0], marker, output[-300:]))
    return (seen - began) * 1000

def main():
    runs, marker = int(sys.argv[1]), sys.argv[2]
    configurations = [(text.split("=", 1)[0], shlex.split(text.split("=", 1)[1])) for text in sys.argv[3:]]
    env = {"TERM": "xterm-256color", "HOME": os.environ["HOME"], "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    times = {name: [] for name, _ in configurations}
    for _ in range(runs):
        for name, argv in configurations:
            time.sleep(1.0)
            times[name].append(start(argv, marker, env))
    for name, _ in configurations:
        values = sorted(times[name])
        print("%-20s median %6.1f ms  p90 %6.1f ms  [%s]" % (
            name, statistics.median(values), values[max(0, int(len(values) * 0.9) - 1)], " ".join("%.0f" % v for v in times[name])))

if __name__ == "__main__":
    main()

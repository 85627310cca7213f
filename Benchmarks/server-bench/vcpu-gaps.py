#!/usr/bin/env python3
"""Finds the times a CPU of this machine did not run at all (a virtual machine's vCPU held by
its host): one real-time thread per CPU, pinned, wakes every millisecond and notes how late it
woke. Nothing of this machine's own can keep a SCHED_FIFO thread from running for long, so a
wake-up hundreds of milliseconds late is time the CPU itself was gone.

Usage: vcpu-gaps.py SECONDS [MIN_GAP_MS]   (as root, for SCHED_FIFO); prints each gap with its
CLOCK_MONOTONIC time, the clock stall.py and perf record -k mono write.
"""
import os
import sys
import time

seconds = float(sys.argv[1])
minimum = float(sys.argv[2] if len(sys.argv) > 2 else 20) / 1000
children = []
for cpu in sorted(os.sched_getaffinity(0)):
    child = os.fork()
    if child == 0:
        os.sched_setaffinity(0, {cpu})
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        end = time.monotonic() + seconds
        gaps = []
        while True:
            before = time.monotonic()
            if before > end:
                break
            time.sleep(0.001)
            late = time.monotonic() - before - 0.001
            if late > minimum:
                gaps.append((before, late))
        for at, late in gaps:
            print("cpu %d: %.0f ms gone at %.3f s" % (cpu, late * 1000, at), flush=True)
        print("cpu %d: %d gaps over %.0f ms in %.0f s" % (cpu, len(gaps), minimum * 1000, seconds), flush=True)
        os._exit(0)
    children.append(child)
for child in children:
    os.waitpid(child, 0)

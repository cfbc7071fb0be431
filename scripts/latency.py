#!/usr/bin/env python3
"""Measure the protocol's reaction times (by hand, not in CI):

- `uci` → `uciok` and `ucci` → `ucciok`, each from a freshly started engine (start-up included:
  some GUIs probe `uci`, wait one second, then try `ucci`);
- `stop` → `bestmove` during `go infinite`, after a random 5-50 ms of search.

    cargo build --release
    python3 scripts/latency.py [--tries 1000] [--engine target/release/chuhan]

Prints the median, 99th percentile and worst of each, in milliseconds. The goal is a worst
case under 10 ms.
"""

import argparse
import os
import random
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen(path if isinstance(path, list) else [path],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.fd = self.p.stdout.fileno()
        self.buf = b""

    def send(self, line):
        self.p.stdin.write(line.encode() + b"\n")

    def wait_for(self, prefix, timeout=10.0):
        """Read lines until one starts with `prefix`; returns the time it arrived."""
        deadline = time.perf_counter() + timeout
        want = prefix.encode()
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.startswith(want):
                    return time.perf_counter()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no '{prefix}' within {timeout}s")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    raise EOFError("engine exited")
                self.buf += chunk

    def close(self):
        try:
            self.send("quit")
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
            self.p.wait()


def summary(name, samples_ms):
    s = sorted(samples_ms)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    print(f"{name:<28} n={len(s):<5} median {statistics.median(s):7.3f} ms   "
          f"p99 {p99:7.3f} ms   worst {s[-1]:7.3f} ms")
    return s[-1]


def handshake(path, dialect, tries):
    samples = []
    for _ in range(tries):
        e = Engine(path)
        t0 = time.perf_counter()
        e.send(dialect)
        samples.append((e.wait_for(dialect + "ok") - t0) * 1000)
        e.close()
    return samples


def handshake_spawned(path, dialect, tries):
    """The same, but timed from the process start (exec and start-up included)."""
    samples = []
    for _ in range(tries):
        t0 = time.perf_counter()
        e = Engine(path)
        e.send(dialect)
        samples.append((e.wait_for(dialect + "ok") - t0) * 1000)
        e.close()
    return samples


def handshake_in_session(path, dialect, tries):
    """Repeated handshakes in one running engine: the protocol layer alone."""
    e = Engine(path)
    samples = []
    for _ in range(tries):
        t0 = time.perf_counter()
        e.send(dialect)
        samples.append((e.wait_for(dialect + "ok") - t0) * 1000)
    e.close()
    return samples


def process_floor(tries):
    """The same round trip through `cat`: what starting any process costs on this machine."""
    samples = []
    for _ in range(tries):
        t0 = time.perf_counter()
        e = Engine(["cat"])
        e.send("uciok")
        samples.append((e.wait_for("uciok") - t0) * 1000)
        e.p.stdin.close()
        e.p.wait()
    return samples


def stop_latency(path, tries):
    e = Engine(path)
    e.send("uci")
    e.wait_for("uciok")
    e.send("isready")
    e.wait_for("readyok")
    samples = []
    rng = random.Random(1)
    for i in range(tries):
        e.send("position startpos" if i % 2 == 0 else "position startpos moves h2e2 h9g7")
        e.send("go infinite")
        time.sleep(rng.uniform(0.005, 0.050))
        t0 = time.perf_counter()
        e.send("stop")
        samples.append((e.wait_for("bestmove") - t0) * 1000)
    e.close()
    return samples


def main():
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tries", type=int, default=1000)
    ap.add_argument("--engine", default=str(root / "target" / "release" / "chuhan"))
    a = ap.parse_args()
    if not Path(a.engine).is_file():
        sys.exit(f"no engine at {a.engine} (cargo build --release, or --engine PATH)")
    print(f"engine {a.engine}, {a.tries} tries each, {os.cpu_count()} CPUs")
    worst = 0.0
    worst = max(worst, summary("uci -> uciok", handshake(a.engine, "uci", a.tries)))
    worst = max(worst, summary("ucci -> ucciok", handshake(a.engine, "ucci", a.tries)))
    summary("spawn + uci -> uciok", handshake_spawned(a.engine, "uci", a.tries))
    summary("  (floor: spawn cat, echo)", process_floor(a.tries))
    summary("uci -> uciok, one process", handshake_in_session(a.engine, "uci", a.tries))
    summary("ucci -> ucciok, one process", handshake_in_session(a.engine, "ucci", a.tries))
    worst = max(worst, summary("stop -> bestmove", stop_latency(a.engine, a.tries)))
    print(f"worst of uciok/ucciok/bestmove: {worst:.3f} ms (goal < 10 ms)")


if __name__ == "__main__":
    main()

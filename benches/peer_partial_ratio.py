#!/usr/bin/env python3
"""Peer benchmark: findbench's partial_ratio vs rapidfuzz's, on the same pairs.

Needs `pip install rapidfuzz numpy`. Run from anywhere; the findbench command
runs in the repository root (the parent of this script's folder):

    python3 benches/peer_partial_ratio.py [--pairs 100000] [--rounds 5]

It generates (query, name) pairs deterministically, writes them to a temporary
TSV, then in one process alternates A B A B ... after one warm-up of each:

  A  the findbench command (default: the partial_ratio_pairs example), which
     scores every pair once and reports the nanoseconds spent scoring only;
  B  rapidfuzz.process.cpdist(queries, names, scorer=fuzz.partial_ratio),
     one in-process call, timing only that call.

Every run's checksum (sum of scores) must equal rapidfuzz's to 1e-6, or the
script exits with status 1. It prints the machine, both versions, and the
ratio rapidfuzz_time / findbench_time for each round (median, min, max):
above 1 means findbench is faster.
"""

import argparse
import json
import math
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Time the C++ core, never the pure-Python fallback.
os.environ.setdefault("RAPIDFUZZ_IMPLEMENTATION", "cpp")

import numpy as np  # noqa: E402
import rapidfuzz  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CMD = "cargo run --release -q -p findbench-benches --example partial_ratio_pairs --"
CHECKSUM_TOLERANCE = 1e-6

VERBS = [
    "Fix", "Read", "Write", "Review", "Update", "Plan", "Book", "Call", "Clean up", "Refactor",
    "Deploy", "Investigate", "Buy", "Schedule", "Prepare", "Renew", "Migrate", "Document",
    "Test", "Organize", "Email", "Finish", "Draft", "Cancel", "Archive",
]
OBJECTS = [
    "emails", "calendar", "auth middleware timeout", "quarterly report", "pull request",
    "dentist appointment", "passport", "invoice for Acme", "search index", "CI pipeline",
    "database backup", "onboarding docs", "team offsite", "monthly budget", "garage",
    "reading list", "API keys", "release notes", "flaky test", "landing page", "tax return",
    "'Deep Work'", "'Clean Code'", "slides for demo day", "grocery list", "1:1 with Sam",
    "TLS certificates", "roadmap", "support tickets", "photo library", "insurance policy",
]
QUALIFIERS = [
    "", "", "", "today", "before Friday", "for Q3", "with Sam", "#1234", "(urgent)", "v2",
    "follow-up", "chapter 3", "on staging", "for mom", "again",
]
EXTRAS = ["café", "naïve", "Straße", "東京", "🚀", "🙂", "résumé", "Ελλάδα"]


def make_name(rng):
    name = f"{rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(QUALIFIERS)}".strip()
    if rng.random() < 0.03:
        name += " " + rng.choice(EXTRAS)
    return name


def typo(rng, s):
    if len(s) < 2:
        return s + "x"
    i = rng.randrange(len(s) - 1)
    op = rng.randrange(3)
    if op == 0:
        return s[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + s[i + 1 :]
    if op == 1:
        return s[:i] + s[i + 1 :]
    return s[:i] + s[i + 1] + s[i] + s[i + 2 :]


def make_query(rng, name):
    """A short query a person might type, related to `name` or not."""
    kind = rng.randrange(6)
    if kind == 0:
        n = rng.randint(2, min(12, len(name)))
        i = rng.randrange(len(name) - n + 1)
        return name[i : i + n]
    if kind == 1:
        return name[: rng.randint(1, min(10, len(name)))].lower()
    if kind == 2:
        return rng.choice(name.split()).lower()
    if kind == 3:
        return typo(rng, rng.choice(name.split()).lower())
    if kind == 4:
        return make_name(rng).split()[-1].lower()
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 8)))


def make_pairs(n, seed):
    rng = random.Random(seed)
    names = [make_name(rng) for _ in range(n)]
    queries = [make_query(rng, name) for name in names]
    return queries, names


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def findbench_version(explicit):
    if explicit:
        return explicit
    try:
        rev = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        return f"git {rev}{'-dirty' if dirty else ''}"
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no --findbench-version, no git)"


def run_findbench(cmd, tsv):
    proc = subprocess.run(cmd + [tsv], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"findbench command failed ({proc.returncode}): {shlex.join(cmd + [tsv])}\n{proc.stderr}")
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if not lines:
        sys.exit(f"findbench command printed nothing: {shlex.join(cmd + [tsv])}\n{proc.stderr}")
    report = json.loads(lines[-1])
    return int(report["pairs"]), int(report["score_ns"]), float(report["checksum"])


def run_rapidfuzz(queries, names):
    start = time.perf_counter_ns()
    scores = process.cpdist(queries, names, scorer=fuzz.partial_ratio, dtype=np.float64, workers=1)
    elapsed = time.perf_counter_ns() - start
    return elapsed, math.fsum(scores.tolist())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5, help="timed A/B rounds after the warm-up (at least 5)")
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--findbench-cmd", default=DEFAULT_CMD, help=f"command given the TSV path (default: {DEFAULT_CMD})")
    parser.add_argument("--findbench-version", default="", help="version string to report (default: git revision)")
    args = parser.parse_args()
    if args.rounds < 5:
        parser.error("--rounds must be at least 5")

    cmd = shlex.split(args.findbench_cmd)
    queries, names = make_pairs(args.pairs, args.seed)

    with tempfile.TemporaryDirectory(prefix="peer_partial_ratio_") as tmp:
        tsv = os.path.join(tmp, "pairs.tsv")
        with open(tsv, "w", encoding="utf-8", newline="\n") as f:
            for q, name in zip(queries, names):
                f.write(f"{q}\t{name}\n")

        # Warm-up: builds the example, fills caches, loads rapidfuzz's code.
        run_findbench(cmd, tsv)
        run_rapidfuzz(queries, names)

        rounds = []
        for _ in range(args.rounds):
            n, fb_ns, fb_sum = run_findbench(cmd, tsv)
            rf_ns, rf_sum = run_rapidfuzz(queries, names)
            if n != len(queries):
                sys.exit(f"findbench scored {n} pairs, expected {len(queries)}")
            if abs(fb_sum - rf_sum) > CHECKSUM_TOLERANCE:
                sys.exit(f"checksum mismatch: findbench {fb_sum!r} vs rapidfuzz {rf_sum!r}")
            rounds.append((fb_ns, rf_ns))

    ratios = [rf / fb for fb, rf in rounds]
    print(f"machine:    {platform.platform()} ({platform.machine()}), cpu: {cpu_model()}, {os.cpu_count()} cpus")
    print(f"python:     {platform.python_version()}")
    print(f"rapidfuzz:  {rapidfuzz.__version__} (process.cpdist, scorer=fuzz.partial_ratio, workers=1)")
    print(f"findbench:  {findbench_version(args.findbench_version)}; command: {shlex.join(cmd)}")
    print(f"pairs:      {len(queries)} (seed {args.seed}); checksum {rf_sum:.6f} matches in every round")
    for i, (fb, rf) in enumerate(rounds, 1):
        print(
            f"round {i}:    findbench {fb / 1e6:8.2f} ms ({fb / len(queries):6.1f} ns/pair)   "
            f"rapidfuzz {rf / 1e6:8.2f} ms ({rf / len(queries):6.1f} ns/pair)   ratio {rf / fb:5.2f}"
        )
    print(
        f"ratio rapidfuzz_time / findbench_time: median {statistics.median(ratios):.2f}, "
        f"min {min(ratios):.2f}, max {max(ratios):.2f}"
    )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Times findbench against its peers, whole process against whole process, one row per
workload, as an honest peer comparison must be: the same input for both, alternating A B A B
after a warm-up pair, and the median of the per-pair time ratios (findbench / peer; below 1
means findbench is faster) with their min and max. Prints the machine and every version.

Rows:
  path  `findbench find path Q --paths-from -` (the list on stdin) against
        `fzf --filter Q` (the same list on stdin), over `find /usr -type f | head -n 150000`,
        six queries, two of them with typos.
  name  `findbench find name Q --store S` against Python: `json.load` of the same store,
        the same candidates (domain task, not finished), titles casefolded, then
        rapidfuzz `process.extract(Q, titles, scorer=fuzz.partial_ratio, limit=5)`;
        100,000 generated items.
  task  `findbench find task Q --store S` (its store cache warm) against Python
        `json.load` of the same store alone; 100,000 generated tasks.

Needs fzf (`apt-get install fzf`) and, for the name row, rapidfuzz: run this script with a
Python that has it, e.g.
    python3 -m venv /tmp/peers-venv && /tmp/peers-venv/bin/pip install rapidfuzz
    /tmp/peers-venv/bin/python benches/peers.py [--pairs 15] [--rows path,name,task]
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATH_QUERIES = ["usrlibpy", "bin/python", "share/doc/copyright", "lcale",
                "include/linux/sched.h", "pyhton3"]
NAME_QUERIES = ["the email task", "submit the monthly expense report", "xyzzy"]
TASK_QUERIES = ["middleware", "session cache", "registraton", "kubernetes"]

NAME_PEER = r"""
import json, sys
from rapidfuzz import fuzz, process
store, query = sys.argv[1], sys.argv[2]
items = json.load(open(store, encoding="utf-8"))
# find name's candidates: the task domain, neither finished nor archived
titles = [i["title"].casefold() for i in items
          if i.get("domain", "task") == "task" and not i.get("archived")
          and (i.get("status") or "").strip().casefold() != "done"]
tokens = query.casefold().split()
needle = " ".join([t for t in tokens if len(t) >= 3] or tokens)
print(process.extract(needle, titles, scorer=fuzz.partial_ratio, limit=5))
"""

TASK_PEER = r"""
import json, sys
json.load(open(sys.argv[1], encoding="utf-8"))
"""


def run(cmd, stdin_path=None, env=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        t = time.perf_counter()
        done = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, check=False, env=env)
        elapsed = time.perf_counter() - t
        # 100 is findbench's "no match" (and fzf's 1): an answer, not a failure
        if done.returncode not in (0, 1, 100):
            sys.exit(f"{cmd[0]} failed with status {done.returncode}: {cmd}")
        return elapsed
    finally:
        if stdin_path:
            stdin.close()


def compare(label, queries, a_cmd, b_cmd, pairs, stdin_path=None, env=None):
    """Alternates A B per query after a warm-up pair; returns every pair's ratio."""
    all_ratios = []
    print(f"{label}")
    print(f"  {'query':<36} {'findbench ms':>12} {'peer ms':>8} {'ratio':>6} {'min':>6} {'max':>6}")
    for q in queries:
        run(a_cmd(q), stdin_path, env)
        run(b_cmd(q), stdin_path)
        a_t, b_t, ratios = [], [], []
        for _ in range(pairs):
            a = run(a_cmd(q), stdin_path, env)
            b = run(b_cmd(q), stdin_path)
            a_t.append(a)
            b_t.append(b)
            ratios.append(a / b)
        all_ratios += ratios
        print(f"  {q:<36} {statistics.median(a_t) * 1e3:>12.1f} {statistics.median(b_t) * 1e3:>8.1f} "
              f"{statistics.median(ratios):>6.3f} {min(ratios):>6.3f} {max(ratios):>6.3f}")
    print(f"  all pairs: median ratio {statistics.median(all_ratios):.3f} "
          f"(min {min(all_ratios):.3f}, max {max(all_ratios):.3f}, {len(all_ratios)} pairs)\n")
    return all_ratios


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "missing"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--rows", default="path,name,task")
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--work", help="directory for the inputs (default: a temporary one)")
    args = ap.parse_args()
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]

    subprocess.run(["cargo", "build", "--release", "-q", "-p", "findbench"],
                   cwd=ROOT, check=True)
    if "name" in rows or "task" in rows:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "findbench-benches",
                        "--example", "write_store"], cwd=ROOT, check=True)
    fb = str(ROOT / "target/release/findbench")
    writer = str(ROOT / "target/release/examples/write_store")
    work = Path(args.work or tempfile.mkdtemp(prefix="findbench-peers-"))
    work.mkdir(parents=True, exist_ok=True)
    # a cache of our own, so the task row's warm cache is this run's
    env = dict(os.environ, FINDBENCH_CACHE=str(work / "cache"))

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    print(f"machine:   {platform.system()} {platform.release()} {platform.machine()}, "
          f"{os.cpu_count()} cores, {cpu}")
    print(f"findbench: {version([fb, '--version'])}")
    print(f"python:    {platform.python_version()} ({sys.executable})")
    if "path" in rows:
        print(f"fzf:       {version(['fzf', '--version'])}")
    if "name" in rows:
        import rapidfuzz
        print(f"rapidfuzz: {rapidfuzz.__version__}")
    print(f"pairs:     {args.pairs} per query, after one warm-up pair\n")

    summary = []
    if "path" in rows:
        listing = work / "paths.txt"
        if not listing.exists():
            found = subprocess.run("find /usr -type f 2>/dev/null | head -n 150000", shell=True,
                                   capture_output=True, check=False).stdout
            listing.write_bytes(found)
        n = sum(1 for _ in open(listing, "rb"))
        r = compare(f"path: {n} paths on stdin, vs fzf --filter",
                    PATH_QUERIES,
                    lambda q: [fb, "find", "path", q, "--paths-from", "-", "--format", "json"],
                    lambda q: ["fzf", "--filter", q],
                    args.pairs, stdin_path=listing, env=env)
        summary.append(("path", r))
    for row, kind, queries, peer in [("name", "named", NAME_QUERIES, NAME_PEER),
                                     ("task", "tasks", TASK_QUERIES, TASK_PEER)]:
        if row not in rows:
            continue
        store = work / f"{kind}-{args.items}.json"
        if not store.exists():
            subprocess.run([writer, kind, str(args.items), str(store)], check=True)
            # date the store back past the cache's settle window (store/cache.rs): a file
            # written in the last two seconds is not cached yet
            past = time.time() - 60
            os.utime(store, (past, past))
        size = store.stat().st_size / 2**20
        what = "rapidfuzz process.extract" if row == "name" else "json.load"
        r = compare(f"{row}: {args.items} items ({size:.1f} MiB JSON), vs Python {what}",
                    queries,
                    lambda q: [fb, "find", row, q, "--store", str(store), "--format", "json"],
                    lambda q: [sys.executable, "-c", peer, str(store), q],
                    args.pairs, env=env)
        summary.append((row, r))

    print("summary (findbench time / peer time, whole process):")
    for row, r in summary:
        print(f"  {row:<5} median {statistics.median(r):.3f}  min {min(r):.3f}  max {max(r):.3f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Asks each question on ROOT three ways and says whether the answers are the same: cold (a
fresh, empty FINDBENCH_CACHE: the first call on a root never indexed), warm (the index the
cold call left building, once built) and with --no-cache. Timings and the envelope's
`_meta` are left out of the comparison. Prints `same` or `DIFFERENT`, the question and the
three best files; exits 1 when any answer differs.

Usage: python3 benches/cold_equals_warm.py [--findbench BIN] ROOT QUESTION...
       (default BIN: target/release/findbench, built with `cargo build --release -p findbench`)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("duration_ms", "timestamp", "_meta")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def ask(fb, q, root, cache, extra=()):
    out = subprocess.run([fb, "ask", q, "--root", root, "--format", "json", *extra],
                         capture_output=True, check=False,
                         env=dict(os.environ, FINDBENCH_CACHE=cache)).stdout
    return strip(json.loads(out))


def wait_for_background(cache, limit=900):
    # the cold call leaves `findbench index` building; its marker goes when it is done
    trees = os.path.join(cache, "trees")
    end = time.time() + limit
    while time.time() < end:
        if not os.path.isdir(trees) or not any(n.endswith(".building") for n in os.listdir(trees)):
            return
        time.sleep(0.2)


def main():
    args = sys.argv[1:]
    fb = "target/release/findbench"
    if args[:1] == ["--findbench"]:
        fb, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    root, questions = args[0], args[1:]
    differ = False
    for q in questions:
        cache = tempfile.mkdtemp(prefix="findbench-cold.")
        try:
            cold = ask(fb, q, root, cache)
            wait_for_background(cache)
            warm = ask(fb, q, root, cache)
            plain = ask(fb, q, root, cache, ["--no-cache"])
        finally:
            wait_for_background(cache)
            shutil.rmtree(cache, ignore_errors=True)
        same = cold == warm == plain
        differ |= not same
        top = [m["path"] for m in warm.get("matches", [])[:3]]
        print("same" if same else "DIFFERENT", repr(q), top)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

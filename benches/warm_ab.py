#!/usr/bin/env python3
"""Times builds of findbench against each other on a warm `ask` of one root: each build gets
a cache directory of its own (an index is tied to the engine that wrote it, so a shared one
would make one build walk the tree on every call), builds its index there and answers the
question once, then the builds answer it in turn, ROUNDS times, each call a new process as
an agent's shell call is. Prints each build's median and least wall time. With --first-call
no index is built and each call walks and reads the tree afresh (`--no-cache`): the first
`ask` on a never-indexed root. With --code the call is `find code QUESTION` instead.

Usage: python3 benches/warm_ab.py ROOT QUESTION BIN... [--rounds N] [--first-call] [--code]
       (default 25 rounds)
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main(argv):
    rounds = 25
    if "--rounds" in argv:
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        del argv[i : i + 2]
    first_call = "--first-call" in argv
    if first_call:
        argv.remove("--first-call")
    code = "--code" in argv
    if code:
        argv.remove("--code")
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, question, bins = argv[0], argv[1], argv[2:]
    caches = tempfile.mkdtemp(prefix="warm_ab.")
    try:
        envs = []
        for n, b in enumerate(bins):
            env = dict(os.environ, FINDBENCH_CACHE=os.path.join(caches, str(n)))
            if not first_call:
                subprocess.run([b, "index", root, "-q"], env=env, capture_output=True, check=True)
            envs.append(env)
        mode = ["find", "code"] if code else ["ask"]
        call = mode + [question, "--root", root, "-f", "json", "--no-background-index"]
        if first_call:
            call.append("--no-cache")
        # an answer's outcome is its exit code (`insufficient_evidence` is not 0): not checked
        for b, env in zip(bins, envs):
            subprocess.run([b] + call, env=env, capture_output=True)
        times = [[] for _ in bins]
        for r in range(rounds):
            # every other round the other way round: both meet the same load
            order = range(len(bins)) if r % 2 == 0 else reversed(range(len(bins)))
            for i in order:
                start = time.perf_counter()
                subprocess.run([bins[i]] + call, env=envs[i], capture_output=True)
                times[i].append((time.perf_counter() - start) * 1000)
        kind = ("first call" if first_call else "warm") + (", find code" if code else "")
        print(f"root: {root}; question: {question!r}; rounds: {rounds}; {kind}")
        for b, t in zip(bins, times):
            print(f"{b}: median {statistics.median(t):.1f} ms, least {min(t):.1f} ms")
    finally:
        shutil.rmtree(caches, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

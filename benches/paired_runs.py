#!/usr/bin/env python3
"""Two or more `findbench run` outputs of the same corpora compared case by case: hit@1,
hit@5 and MRR of each, and for every run after the first its difference from the first
with a 95 % interval from a paired bootstrap (10,000 resamples of the cases, seed 1).
A case's rank is the `rank` of its first expected file in `cases.jsonl` (none: a miss).

Usage: python3 benches/paired_runs.py BASE_RUN RUN...
"""
import json
import random
import sys


def ranks(run_dir):
    out = {}
    with open(f"{run_dir}/cases.jsonl") as f:
        for line in f:
            case = json.loads(line)
            out[(case["suite"], case["id"])] = case.get("rank")
    return out


def hit(k):
    return lambda r: 1.0 if r and r <= k else 0.0


def reciprocal(r):
    return 1.0 / r if r else 0.0


def mean(run, f):
    return sum(f(r) for r in run.values()) / len(run)


def paired(base, run, f, reps=10_000, seed=1):
    keys = sorted(set(base) & set(run))
    diffs = [f(run[k]) - f(base[k]) for k in keys]
    rnd = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rnd.randrange(n)] for _ in range(n)) / n for _ in range(reps))
    return sum(diffs) / n, means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base = ranks(sys.argv[1])
    metrics = [("hit@1", hit(1), 100), ("hit@5", hit(5), 100), ("MRR", reciprocal, 1)]
    for i, run_dir in enumerate(sys.argv[1:]):
        run = base if i == 0 else ranks(run_dir)
        cells = [f"{name} {mean(run, f) * scale:.3g}" for name, f, scale in metrics]
        line = f"{run_dir}: n={len(run)} " + " ".join(cells)
        if i > 0:
            for name, f, scale in metrics:
                d, lo, hi = (x * scale for x in paired(base, run, f))
                line += f" | d{name} {d:+.3g} [{lo:+.3g}, {hi:+.3g}]"
        print(line)


if __name__ == "__main__":
    main()

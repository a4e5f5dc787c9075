#!/usr/bin/env python3
"""Reference values for harness/eval/src/stats.rs, computed independently of it.

Prints the numbers its `reference_*` tests assert:
- SplitMix64 from seed 1234567 (the published test vector of Vigna's generator) and the
  first draws of `below(10)` (Lemire's multiply-shift);
- exact McNemar p-values as exact fractions (2 * P[X <= min(b, c)], X ~ Binomial(b + c, 1/2));
- the paired percentile bootstrap of a quantile difference on a fixed data set, with the
  generator, resample count and seed the reports use (Hyndman-Fan type 7 quantiles);
- the paired percentile bootstrap of a mean difference (the held-out gain `tune` reports),
  every resample's pairs drawn with the same generator.

    python3 scripts/stats_reference.py
"""
from fractions import Fraction
from math import comb

MASK = (1 << 64) - 1


def splitmix64(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def below(gen, n):
    return (next(gen) * n) >> 64


def mcnemar(b, c):
    n = b + c
    if n == 0:
        return Fraction(1)
    tail = sum(comb(n, i) for i in range(min(b, c) + 1))
    return min(Fraction(1), Fraction(2 * tail, 2**n))


def quantile_sorted(v, q):
    h = (len(v) - 1) * min(max(q, 0.0), 1.0)
    lo, hi = int(h // 1), int(-(-h // 1))
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def bootstrap(pairs, q, resamples, seed):
    gen = splitmix64(seed)
    n = len(pairs)
    diffs = []
    for _ in range(resamples):
        drawn = [pairs[below(gen, n)] for _ in range(n)]
        rb = sorted(p[0] for p in drawn)
        ra = sorted(p[1] for p in drawn)
        diffs.append(quantile_sorted(ra, q) - quantile_sorted(rb, q))
    diffs.sort()
    before = quantile_sorted(sorted(p[0] for p in pairs), q)
    after = quantile_sorted(sorted(p[1] for p in pairs), q)
    return after - before, quantile_sorted(diffs, 0.025), quantile_sorted(diffs, 0.975)


def bootstrap_mean(pairs, resamples, seed):
    gen = splitmix64(seed)
    n = len(pairs)
    diffs = []
    for _ in range(resamples):
        total = 0.0
        for _ in range(n):
            b, a = pairs[below(gen, n)]
            total += a - b
        diffs.append(total / n)
    diffs.sort()
    mean = sum(a - b for b, a in pairs) / n
    return mean, quantile_sorted(diffs, 0.025), quantile_sorted(diffs, 0.975)


if __name__ == "__main__":
    g = splitmix64(1234567)
    print("splitmix64(1234567):", [next(g) for _ in range(5)])
    g = splitmix64(1234567)
    print("below(10) from 1234567:", [below(g, 10) for _ in range(10)])
    for b, c in [(3, 12), (10, 21), (40, 60), (7, 7)]:
        p = mcnemar(b, c)
        print(f"mcnemar({b}, {c}) = {p} = {float(p)!r}")
    # latencies of 12 cases before and after a change: after is slower on most
    pairs = [(10.0 + (i * 7) % 5, 11.0 + (i * 3) % 6) for i in range(12)]
    for q in (0.5, 0.95):
        diff, low, high = bootstrap(pairs, q, 2000, 0x05EEDF1DBE4C)
        print(f"bootstrap q={q}: diff={diff!r} low={low!r} high={high!r}")
    # reciprocal ranks of 10 cases before and after a tuned profile
    rr = [(1.0, 1.0), (0.5, 1.0), (0.0, 0.5), (1.0, 0.5), (0.25, 1.0),
          (0.0, 0.0), (1.0, 1.0), (0.5, 0.5), (0.2, 1.0), (0.0, 1.0)]
    mean, low, high = bootstrap_mean(rr, 2000, 0x05EEDF1DBE4C)
    print(f"bootstrap mean: diff={mean!r} low={low!r} high={high!r}")

#!/usr/bin/env python3
"""Reference values for the rank metrics of harness/eval/src/metrics, computed by trec_eval.

Writes harness/eval/tests/data/metrics_reference.json: a fixed set of judged cases (the keys
a case expects, the keys it returned in order) and, for each case and their mean, the
values trec_eval gives through pytrec_eval (pip install pytrec-eval-terrier):
success_1 (hit@1), success_5 (hit@5), recip_rank (MRR), recall_5 and ndcg_cut_10, binary
relevance. The Rust tests (`metrics/reference_tests.rs`) read the file and compare; they
need no Python.

    python3 scripts/metrics_reference.py

A key counts once, at its first place (trec_eval's runs have no repeats), and a case that
returned nothing scores 0 (trec_eval -c); trec_eval breaks ties in score by document id, so
every returned key gets a score of its own, falling with its place.
"""
import json
import os

import pytrec_eval

MEASURES = {"success.1,5", "recip_rank", "recall.5", "ndcg_cut.10"}
NAMES = {
    "success_1": "hit_at_1",
    "success_5": "hit_at_5",
    "recip_rank": "reciprocal_rank",
    "recall_5": "recall_at_5",
    "ndcg_cut_10": "ndcg_at_10",
}

CASES = [
    # one expected key: recall@5 is hit@5, nDCG is the discount of its place
    ("one-first", ["a"], ["a", "b", "c"]),
    ("one-third", ["c"], ["a", "b", "c"]),
    ("one-sixth", ["f"], ["a", "b", "c", "d", "e", "f"]),
    ("one-eleventh", ["k"], list("abcdefghijk")),
    ("one-absent", ["z"], ["a", "b"]),
    ("one-empty", ["z"], []),
    # several expected keys
    ("two-both-top", ["a", "b"], ["a", "b", "c"]),
    ("two-first-and-fourth", ["x", "y"], ["x", "p", "q", "y", "r"]),
    ("two-second-and-ninth", ["x", "y"], ["p", "x", "q", "r", "s", "t", "u", "v", "y"]),
    ("three-one-found", ["x", "y", "z"], ["p", "q", "z"]),
    ("three-one-past-five", ["x", "y", "z"], ["p", "q", "r", "s", "t", "x", "y"]),
    ("three-none", ["x", "y", "z"], ["p", "q"]),
    ("three-empty", ["x", "y", "z"], []),
    ("four-repeats", ["x", "y", "z", "w"], ["p", "x", "x", "q", "y", "p", "z", "w"]),
    (
        "twelve-expected",
        [f"e{i}" for i in range(12)],
        ["e0", "n0", "e1", "e2", "n1", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10"],
    ),
    ("expected-repeated", ["x", "x", "y"], ["y", "q", "x"]),
]


def distinct(keys):
    out = []
    for k in keys:
        if k not in out:
            out.append(k)
    return out


def main():
    qrels = {cid: {k: 1 for k in expected} for cid, expected, _ in CASES}
    run = {
        cid: {k: float(1000 - i) for i, k in enumerate(distinct(ranked))}
        for cid, _, ranked in CASES
        if ranked
    }
    scores = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
    cases = []
    for cid, expected, ranked in CASES:
        got = scores.get(cid, {})
        values = {NAMES[m]: round(got.get(m, 0.0), 12) for m in sorted(NAMES)}
        cases.append({"id": cid, "expected": expected, "ranked": ranked, "trec_eval": values})
    several = [c for c in cases if len(set(c["expected"])) >= 2]
    mean = lambda cs, name: round(sum(c["trec_eval"][name] for c in cs) / len(cs), 12)
    out = {
        "made_by": "python3 scripts/metrics_reference.py (pytrec_eval "
        + getattr(pytrec_eval, "__version__", "?")
        + ")",
        "cases": cases,
        "mean": {name: mean(cases, name) for name in NAMES.values()},
        "mean_of_several": {
            "cases": len(several),
            "recall_at_5": mean(several, "recall_at_5"),
            "ndcg_at_10": mean(several, "ndcg_at_10"),
        },
    }
    path = os.path.join(os.path.dirname(__file__), "..", "harness", "eval", "tests", "data",
                        "metrics_reference.json")
    # one case a line
    lines = ",\n  ".join(json.dumps(c) for c in out.pop("cases"))
    text = json.dumps(out, indent=1)[:-2] + ',\n "cases": [\n  ' + lines + "\n ]\n}\n"
    json.loads(text)
    with open(path, "w") as f:
        f.write(text)
    print(json.dumps(out["mean"]), json.dumps(out["mean_of_several"]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""findbench's rank metrics recomputed by ir_measures from `findbench export trec`: the
shipped corpora are run, their results.json exported as run.trec and qrels.trec, and for
the whole run and each suite ir_measures' P@1, RR and Success@5 must equal findbench's
hit@1, MRR and hit@5 (rounded as findbench rounds, to 4 places). R@5 (the share of a
query's expected keys in its top 5) must equal hit@5 on every suite whose judged cases
each name one key; elsewhere it is printed.

    python3 -m venv target/venv && target/venv/bin/pip install ir_measures
    cargo build -p findbench
    target/venv/bin/python scripts/trec_check.py --bin target/debug/findbench

A query findbench answered with nothing is absent from run.trec; trec_eval then leaves it
out unless told `-c`, while findbench scores it 0. It is scored 0 here too, as `-c` does.
Exits 1 naming the first figure that differs. .ci/run runs it.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import ir_measures
from ir_measures import RR, P, R, Success

ROOT = Path(__file__).resolve().parent.parent
MEASURES = [P @ 1, RR, Success @ 5, R @ 5]


def findbench(binary, *args):
    done = subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"findbench {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def per_query(trec_dir):
    """{qid: {measure name: value}} for every query of qrels.trec, 0 where run.trec has
    no line for it."""
    qrels = list(ir_measures.read_trec_qrels(str(trec_dir / "qrels.trec")))
    run = list(ir_measures.read_trec_run(str(trec_dir / "run.trec")))
    scores = {q.query_id: {str(m): 0.0 for m in MEASURES} for q in qrels}
    for metric in ir_measures.iter_calc(MEASURES, qrels, run):
        scores[metric.query_id][str(metric.measure)] = metric.value
    relevant = defaultdict(int)
    for q in qrels:
        relevant[q.query_id] += 1
    return scores, relevant


def check(what, got, want):
    if abs(round(got, 4) - want) > 1e-9:
        sys.exit(f"trec_check: {what}: ir_measures {round(got, 4)}, findbench {want}")
    print(f"ok  {what}: {want}")


def check_group(name, qids, scores, relevant, rank):
    if len(qids) != rank["judged"]:
        sys.exit(f"trec_check: {name}: {len(qids)} queries in qrels.trec, "
                 f"findbench judged {rank['judged']}")
    mean = lambda m: sum(scores[q][m] for q in qids) / len(qids)
    check(f"{name}: P@1 = hit@1", mean("P@1"), rank["hit_at_1"])
    check(f"{name}: RR = MRR", mean("RR"), rank["mrr"])
    check(f"{name}: Success@5 = hit@5", mean("Success@5"), rank["hit_at_k"])
    if all(relevant[q] == 1 for q in qids):
        check(f"{name}: R@5 = hit@5 (one expected key a case)", mean("R@5"), rank["hit_at_k"])
    else:
        print(f"    {name}: R@5 {round(mean('R@5'), 4)} (cases name several keys: "
              f"no findbench figure to equal)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the findbench binary")
    parser.add_argument("--corpora", default="corpora/", help="corpora to run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out, trec = Path(tmp) / "run", Path(tmp) / "trec"
        findbench(args.bin, "run", args.corpora, "--out", str(out), "--no-progress",
                  "--exit-zero", "-q")
        findbench(args.bin, "export", "trec", str(out / "results.json"), "--out", str(trec))
        results = json.loads((out / "results.json").read_text())
        scores, relevant = per_query(trec)
        check_group("run", sorted(scores), scores, relevant, results["summary"]["rank"])
        for suite, metrics in sorted(results["suites"].items()):
            qids = sorted(q for q in scores if q.startswith(f"{suite}/"))
            if metrics["rank"]["judged"]:
                check_group(f"suite {suite}", qids, scores, relevant, metrics["rank"])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reads findbench's reports with the tools a reader has, not with findbench: a small
`run` and `replay` (plain and --out-compress), then DuckDB and pandas over their
cases.jsonl, each count checked against results.json's summary.

    python3 -m venv target/venv && target/venv/bin/pip install duckdb pandas
    cargo build -p findbench
    target/venv/bin/python scripts/query_reports.py --bin target/debug/findbench

Exits 1 naming the first count that differs. .ci/run runs it.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pandas

ROOT = Path(__file__).resolve().parent.parent


def findbench(binary, *args):
    done = subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"findbench {' '.join(args)} exited {done.returncode}:\n{done.stderr}")


def check(what, got, want):
    if got != want:
        sys.exit(f"query_reports: {what}: {got} from the cases, {want} in results.json")
    print(f"ok  {what}: {got}")


def counts(sql):
    """A GROUP BY query's rows as {key: count}."""
    return {key: n for key, n in duckdb.sql(sql).fetchall()}


def check_run(out):
    results = json.loads((out / "results.json").read_text())
    summary = results["summary"]
    cases = out / results["cases_file"]
    by_status = counts(f"SELECT status, count(*) FROM read_json_auto('{cases}') GROUP BY 1")
    for status, field in [("pass", "passed"), ("fail", "failed"), ("xfail", "xfail"),
                          ("xpass", "xpass")]:
        check(f"run: duckdb {status} cases", by_status.get(status, 0), summary[field])
    frame = pandas.read_json(cases, lines=True)
    check("run: pandas cases", len(frame), summary["total"])
    judged = frame[frame["expected"].map(len) > 0]
    check("run: pandas judged cases", len(judged), summary["rank"]["judged"])
    for kb in (1, 2, 4, 8):
        within = (judged["first_hit_bytes"].notna()
                  & (judged["first_hit_bytes"] <= kb * 1024)).sum()
        check(f"run: pandas recall within {kb} KB", round(within / len(judged), 4),
              summary["rank"][f"recall_at_{kb}kb"])


def check_replay(out):
    results = json.loads((out / "results.json").read_text())
    summary = results["summary"]
    cases = out / results["cases_file"]
    by_transition = counts(
        f"SELECT transition, count(*) FROM read_json_auto('{cases}') GROUP BY 1")
    for t, n in summary["transitions"].items():
        check(f"replay {results['cases_file']}: duckdb {t}", by_transition.get(t, 0), n)
    frame = pandas.read_json(cases, lines=True)
    check(f"replay {results['cases_file']}: pandas cases", len(frame), summary["total"])
    for outcome, n in summary["recorded_outcomes"].items():
        check(f"replay {results['cases_file']}: pandas recorded {outcome}",
              int((frame["recorded_outcome"] == outcome).sum()), n)
    if "cases" in results:
        check("replay: results.json cases", len(results["cases"]), len(frame))
        if shutil.which("jq"):
            jq = subprocess.run(["jq", "-r", ".cases[].transition", str(out / "results.json")],
                                capture_output=True, text=True, check=True)
            lines = jq.stdout.split()
            for t, n in summary["transitions"].items():
                check(f"replay: jq .cases[].transition {t}", lines.count(t), n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(ROOT / "target/debug/findbench"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        findbench(args.bin, "run", "corpora/", "--no-progress", "-q", "--exit-zero",
                  "--out", str(tmp / "run"))
        check_run(tmp / "run")
        for name, extra in [("replay", []), ("replay-gz", ["--out-compress"])]:
            findbench(args.bin, "replay", "traces/production.jsonl", "-q",
                      "--out", str(tmp / name), *extra)
            check_replay(tmp / name)
    print("query_reports: every count agrees")


if __name__ == "__main__":
    main()

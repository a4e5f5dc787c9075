#!/usr/bin/env python3
"""Writes traces/production.jsonl: one week of production-style agent retrievals over the
corpora/fixtures/agent-cpp tree, deterministically.

The recorded outcomes follow the post-routing baseline of spec/directory-aware-find.md
(217 traces: 199 success, 14 insufficient_evidence, 4 failure) and its failure clusters:
"where is replay implemented" x8, "find cursor binary" x3 + "find cursor bin" x1, and
"where is CommandRouter implemented" x2. The successful questions are asked about the
fixture's real files (one searchable term each, so they need none of the find fixes).

    python3 scripts/gen_traces.py                      # traces/production.jsonl
    python3 scripts/gen_traces.py --lines 1000000 --out /tmp/big.jsonl   # a load file
"""
import argparse
import gzip
import json
import os
import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = "agent-cpp"
WEEK_START = datetime(2026, 6, 19, tzinfo=timezone.utc)
SOURCE_EXT = {".cpp", ".cc", ".c", ".h", ".hpp", ".py", ".md", ".txt", ".json", ".cmake"}

# The stems the spec names, used only when the fixture tree is not there.
FALLBACK_STEMS = [
    "command_router", "diagnostics", "validation_runner", "benchmark_runner",
    "find_service", "execution_engine", "ui_manager", "checkpoint_service",
    "evidence_gate", "session_store", "tool_registry", "provider_config",
]

# Failure clusters (spec section 1): question, count, recorded tools.
IE_CLUSTERS = [
    ("where is replay implemented", 8, "replay", True),
    ("find cursor binary", 3, "cursor[ _-]?binary", False),
    ("find cursor bin", 1, "cursor[ _-]?bin", False),
    ("where is CommandRouter implemented", 2, "CommandRouter", True),
]
# Questions with nothing left to search for: the planner gives up (an error outcome).
FAILURES = [
    "where is it implemented?",
    "how does this work",
    "where is that defined?",
    "can you find it",
]
# Terms the clusters are about: kept out of the successful questions.
CLUSTER_WORDS = ("replay", "cursor", "command_router", "commandrouter")

TEMPLATES = [
    ("where is {t} implemented", True),
    ("find {t}", False),
    ("show me {t}", False),
    ("where is {t} defined", True),
    ("how does {t} work", False),
    ("locate {t}", False),
    ("open {t}", False),
    ("where is the {t} code", False),
    ("search {t}", False),
    ("Where is {t} implemented?", True),
]


def fixture_stems(fixtures_dir):
    """Searchable stems of the fixture's files: file names a one-word question can find."""
    tree = fixtures_dir / FIXTURE
    if not tree.is_dir():
        return list(FALLBACK_STEMS), False
    stems = set()
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            p = Path(name)
            if p.suffix.lower() not in SOURCE_EXT or name.startswith("."):
                continue
            stem = p.stem
            # one term the planner keeps whole: a lower-case identifier of 4+ letters
            if not re.fullmatch(r"[a-z][a-z0-9_]{3,}", stem):
                continue
            if any(w in stem.lower() for w in CLUSTER_WORDS):
                continue
            stems.add(stem)
    return sorted(stems), True


def tool(name, inp, candidates, ms):
    return {"name": name, "input": inp, "candidates": candidates, "duration_ms": ms}


def success_trace(rng, stem):
    template, impl = rng.choice(TEMPLATES)
    query = template.format(t=stem)
    term = stem + (" --impl" if impl else "")
    found = rng.choice([1, 1, 2, 2, 3, 4, 5])
    find_ms = round(rng.uniform(20, 90), 1)
    tools = [tool("find", term, found, find_ms)]
    if rng.random() < 0.12:  # a weak first candidate: the agent reads a second one
        tools.append(tool("read", f"{stem}.h", 1, round(rng.uniform(5, 30), 1)))
    tools.append(tool("read", f"{stem}.cpp", 1, round(rng.uniform(5, 40), 1)))
    return query, tools, "success"


def ie_trace(rng, query, term, impl):
    inp = term + (" --impl" if impl else "")
    ms = lambda: round(rng.uniform(30, 110), 1)  # noqa: E731
    shape = rng.random()
    if shape < 0.6:  # find and grep both come back empty; the budget runs out
        tools = [tool("find", inp, 0, ms()), tool("grep", term, 0, ms()),
                 tool("find", inp, 0, ms()), tool("grep", term, 0, ms())]
    else:  # find returns nothing, grep returns noise the agent cannot use
        tools = [tool("find", inp, 0, ms()), tool("grep", term, 0, ms())]
    return query, tools, "insufficient_evidence"


def base_traces(fixtures_dir):
    rng = random.Random(217)
    stems, real = fixture_stems(fixtures_dir)
    rows = []
    for query, n, term, impl in IE_CLUSTERS:
        for _ in range(n):
            rows.append(ie_trace(rng, query, term, impl))
    for query in FAILURES:
        rows.append((query, [], "failure"))
    # every stem at least once, then a realistic skew towards a few popular files
    popular = rng.sample(stems, min(6, len(stems)))
    while len(rows) < 217:
        i = len(rows) - 18
        stem = stems[i] if i < len(stems) else rng.choice(popular + stems)
        rows.append(success_trace(rng, stem))
    # spread over the week, then number in time order
    times = sorted(WEEK_START + timedelta(seconds=rng.randrange(7 * 24 * 3600)) for _ in rows)
    rng.shuffle(rows)
    traces = []
    for n, ((query, tools, outcome), ts) in enumerate(zip(rows, times), start=1):
        total = sum(t["duration_ms"] for t in tools) + round(rng.uniform(15, 60), 1)
        traces.append({
            "trace_id": f"tr-{ts:%Y%m%d}-{n:04d}",
            "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "query": query,
            "fixture": FIXTURE,
            "tools": tools,
            "outcome": outcome,
            "iterations": len(tools),
            "duration_ms": round(total, 1),
        })
    return traces, real


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fixtures", type=Path, default=ROOT / "corpora" / "fixtures")
    ap.add_argument("--out", type=Path, default=ROOT / "traces" / "production.jsonl")
    ap.add_argument("--lines", type=int, default=0,
                    help="repeat the week's traces (new ids, later times) to this many lines")
    args = ap.parse_args()
    traces, real = base_traces(args.fixtures)
    if not real:
        print(f"note: {args.fixtures / FIXTURE} not found; questions use the spec's file names")
    lines = args.lines or len(traces)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if args.out.name.endswith(".gz") else open
    tmp = args.out.with_name(args.out.name + ".tmp")
    with opener(tmp, "wt", encoding="utf-8") as f:
        for i in range(lines):
            t = traces[i % len(traces)]
            if i >= len(traces):
                week = i // len(traces)
                ts = datetime.strptime(t["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(
                    tzinfo=timezone.utc) + timedelta(weeks=week)
                t = dict(t, trace_id=f"{t['trace_id']}-w{week}",
                         timestamp=ts.strftime("%Y-%m-%dT%H:%M:%SZ"))
            f.write(json.dumps(t, separators=(",", ":")) + "\n")
    tmp.replace(args.out)
    counts = {}
    for t in traces:
        counts[t["outcome"]] = counts.get(t["outcome"], 0) + 1
    print(f"wrote {lines} traces to {args.out} (per week: {counts})")


if __name__ == "__main__":
    main()

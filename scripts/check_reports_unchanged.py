#!/usr/bin/env python3
"""Checks that two findbench binaries write the same reports for the same inputs, timing
aside: `run` (against the committed baseline), `replay` of traces/production.jsonl and
`compare` of the two results.json, every file each writes.

    cargo build -p findbench && cp target/debug/findbench /tmp/findbench-before
    # ... change the code, rebuild ...
    python3 scripts/check_reports_unchanged.py /tmp/findbench-before target/debug/findbench
    # replay other trace files instead of traces/production.jsonl (paths from the repository)
    python3 scripts/check_reports_unchanged.py BEFORE AFTER /tmp/many-repeats.jsonl rec/

What is set aside before comparing:
- timing: JSON keys ending `_ms`, `started_at`, `threads`, `within_budget`, `duration_ms`;
  CSV columns and `metric,value` rows naming `_ms` or `within_budget`; JUnit `time`
  attributes; markdown lines mentioning `ms` (the Latency sections) and the run footer;
- output bytes and what is computed from them (see BYTES_DERIVED);
- JUnit layout: elements are compared, not bytes (zero counters such as `errors="0"` aside);
- table layout: markdown table rows are compared cell by cell (stripped), so the padding a
  table crate adds to align columns is not a difference;
- files that exist on one side only are listed (a new `report.html` is expected);
- `report.html` itself: it is new (nothing to compare against);
- the form of a replay's results.json cases: the compact form (`case_defaults`, `answers`,
  derived fields left out; harness/eval/src/case_codec.rs) is expanded to every field
  written out before comparing, so a verbose and a compact results.json of the same cases
  are equal.
Exit 0 when equal, 1 with a diff otherwise.
"""
import csv
import difflib
import io
import json
import re
import subprocess
import sys
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMING_KEYS = {"started_at", "threads", "within_budget", "duration_ms", "build"}
NEW_FILES = {"report.html"}


# Output bytes include the width of the real `duration_ms` of ask's envelope (see
# docs/arch-harness.md, "Output bytes"), so they and what is computed from them move by a
# byte or two between two runs of one binary.
BYTES_DERIVED = ("output_bytes", "tokens", "reduction", "cost_find", "saved", "over_budget")


def timing_key(k):
    return (k in TIMING_KEYS or k.endswith("_ms") or "latency" in k
            or any(b in k for b in BYTES_DERIVED))


def expand_cases(doc):
    """A compact results.json (it has `case_defaults`) with every case filled back in, as
    findbench's readers do: answer, defaults, derived fields, then type defaults."""
    if not isinstance(doc, dict) or "case_defaults" not in doc:
        return doc
    defaults, answers = doc.pop("case_defaults"), doc.pop("answers", [])
    previous, cases = None, []
    for raw in doc.get("cases", []):
        c = dict(raw)
        answer = c.pop("answer", None)
        for layer in ([answers[answer]] if answer is not None else []) + [defaults]:
            for k, v in layer.items():
                c.setdefault(k, v)
        calls = c.setdefault("calls", [])
        c.setdefault("tools", [k["tool"] for k in calls])
        c.setdefault("iterations", len(c["tools"]))
        c.setdefault("status", "pass" if c["outcome"] == "success" else "fail")
        ro = c.get("recorded_outcome")
        if "transition" not in c and ro is not None and c["outcome"] in ("success", "insufficient_evidence", "failure"):
            ok_r, ok_o = ro == "success", c["outcome"] == "success"
            c["transition"] = "fixed" if ok_o and not ok_r else "regressed" if ok_r and not ok_o else "unchanged"
        if "recorded_iterations" not in c and c.get("recorded_tools") is not None:
            c["recorded_iterations"] = len(c["recorded_tools"])
        if "selected" not in c:
            reads = [k["input"] for k in calls if k["tool"] == "read" and k["candidates"] > 0]
            c["selected"] = reads[-1] if reads else None
        c.setdefault("input_index", (previous or 0) + 1)
        previous = c["input_index"]
        for k, v in {"suite": "", "mode": "", "query": "", "expected_outcome": None, "candidates": 0,
                     "ranked": [], "expected": [], "rank": None, "output_bytes": 0, "dump_bytes": 0,
                     "items": 0, "failed_tools": 0, "reason": None, "known_failure": None,
                     "tags": []}.items():
            c.setdefault(k, v)
        # what the verbose form leaves out when empty
        for k in ("engine", "file", "calls"):
            if not c.get(k):
                c.pop(k, None)
        for k in ("line",):
            if c.get(k) == 0:
                c.pop(k)
        for k in ("evidence_bytes", "recorded_outcome", "transition", "fixture", "timestamp",
                  "recorded_candidates", "recorded_tools", "recorded_iterations",
                  "recorded_duration_ms", "selected", "explain", "input_index"):
            if c.get(k) is None:
                c.pop(k, None)
        cases.append(c)
    doc["cases"] = cases
    return doc


def scrub_json(v):
    if isinstance(v, dict):
        return {k: scrub_json(x) for k, x in v.items() if not timing_key(k)}
    if isinstance(v, list):
        return [scrub_json(x) for x in v]
    return v


def scrub_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ""
    head = rows[0]
    keep = [i for i, h in enumerate(head) if not timing_key(h)]
    out = []
    for r in rows:
        if head[:1] == ["metric"] and r and timing_key(r[0].rsplit(".", 1)[-1]):
            continue
        if head[:1] == ["section"] and len(r) > 1 and (r[0] == "latency" or timing_key(r[1].rsplit(".", 1)[-1])):
            continue
        out.append([r[i] if i < len(r) else "" for i in keep])
    return "\n".join(",".join(r) for r in out)


def scrub_md(text):
    out = []
    skipping = False
    for line in text.splitlines():
        if line.startswith("#"):
            skipping = "latency" in line.lower() or "context saved" in line.lower()
        if skipping or re.search(r"\bms\b|latency|Run on |" + "|".join(BYTES_DERIVED), line, re.I):
            continue
        s = line.strip()
        if s.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", s)[1:-1]]
            if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                cells = ["-" * 3 + (":" if c.endswith(":") else "") for c in cells]
            line = "| " + " | ".join(cells) + " |"
        out.append(line.rstrip())
    return "\n".join(out)


def scrub_xml(text):
    """JUnit compared as elements: tag, attributes by name (`time` and zero counters such as
    `errors="0"` set aside, as writers differ in which they spell out) and trimmed text."""
    import xml.etree.ElementTree as ET
    out = []

    def walk(e, depth):
        attrs = " ".join(f'{k}="{v}"' for k, v in sorted(e.attrib.items()) if k != "time" and v != "0")
        out.append(f"{'  ' * depth}<{e.tag} {attrs}> {(e.text or '').strip()}")
        for c in e:
            walk(c, depth + 1)

    walk(ET.fromstring(text), 0)
    return "\n".join(out)


def scrub_text(text):
    """Console output: timing lines dropped; the per-suite table compared token by token
    without its last column (p95 ms), so column padding and borders are not differences."""
    out, table = [], False
    for line in text.splitlines():
        tokens = [t for t in re.split(r"[\s|\u2502]+", line) if t and not re.fullmatch(r"[-+=:\u2500\u253c]+", t)]
        if tokens[:1] == ["suite"] and "p95" in line:
            table = True
        elif not tokens:
            table = False
        if line.lstrip().startswith("|"):
            out.append(scrub_md(line))
        elif table:
            out.append(" ".join(tokens[:-2] if tokens[:1] == ["suite"] else tokens[:-1]))
        elif not re.search(r"\bms\b|latency|wrote |Reports: |^Context: |duration|" + "|".join(BYTES_DERIVED), line, re.I):
            out.append(line)
    return "\n".join(out)


def scrub(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.dumps(scrub_json(expand_cases(json.loads(text))), indent=1, sort_keys=True)
    if path.suffix == ".csv":
        return scrub_csv(text)
    if path.suffix == ".md":
        return scrub_md(text)
    if path.suffix == ".xml":
        return scrub_xml(text)
    return scrub_text(text)


def produce(binary, out, traces):
    """Runs the commands; returns {relative name: scrubbed text}."""
    run_dir, replay_dir = out / "run", out / "replay"
    cmds = [
        ("run.stdout", [binary, "run", "corpora/", "--no-progress", "--jobs", "2", "--out", str(run_dir),
                        "--baseline", "reports/baseline/results.json"]),
        ("replay.stdout", [binary, "replay", *traces, "--fixtures", "corpora/fixtures",
                           "--out", str(replay_dir), "--format", "text", "--jobs", "2"]),
        ("compare.stdout", [binary, "compare", "reports/baseline/results.json", str(run_dir / "results.json"),
                            "--out", str(out / "compare" / "report.md"), "--format", "text"]),
    ]
    docs = {}
    for name, cmd in cmds:
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        docs[name] = scrub_text(r.stdout) + f"\n[exit {r.returncode}]"
    for f in sorted(out.rglob("*")):
        if f.is_file() and f.name not in NEW_FILES and not f.name.endswith(".spool"):
            docs[str(f.relative_to(out))] = scrub(f)
    return docs


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    traces = sys.argv[3:] or ["traces/production.jsonl"]
    # one output path for both sides: compare's report quotes it
    out = ROOT / "target" / "report-check"
    sides = []
    for binary in sys.argv[1:3]:
        shutil.rmtree(out, ignore_errors=True)
        sides.append(produce(str(Path(binary).resolve()), out, traces))
    before, after = sides
    differ = False
    for name in sorted(set(before) | set(after)):
        if name not in after or name not in before:
            print(f"only {'before' if name in before else 'after'}: {name}")
            differ = True
            continue
        if before[name] != after[name]:
            differ = True
            sys.stdout.writelines(difflib.unified_diff(
                before[name].splitlines(True), after[name].splitlines(True),
                f"before/{name}", f"after/{name}", n=1))
            print()
    print("reports differ" if differ else f"{len(before)} documents equal, timing aside")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

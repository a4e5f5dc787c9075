#!/usr/bin/env python3
"""Records MCP calls on a git checkout of this repository and replays them, through the
official Python MCP SDK (package `mcp`), as an agent's client would:

  1. clones this repository into a temporary directory, detached at its HEAD commit (outside
     `--fixtures`, so the server pins each call to the clone and that commit);
  2. starts `findbench serve --mcp --root CLONE --record REC`, makes a few calls (`ask`,
     `find_code`, `grep`, `find_path`), and checks each recorded line names
     `{git: CLONE, rev: HEAD}`;
  3. edits a file of the clone, calls again and sees the new answer (the server re-reads
     what changed), and checks that call is recorded as `dirty`;
  4. runs `findbench replay REC` from another directory with no other flag: every call
     replays to its recorded outcome (exit 0), the dirty one counted in the summary.

Run from anywhere, after `cargo build -p findbench`:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install mcp
    /tmp/venv/bin/python scripts/mcp_record_replay.py [--bin target/debug/findbench]

Prints one line per check and `N passed, 0 failed`; exits 1 on any failure.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_interop import Checks, document, is_error

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

CALLS = [
    ("ask", {"question": "where is the trace stream reader implemented"}),
    ("find_code", {"term": "TraceStream", "impl": True}),
    ("grep", {"term": "fn replay_stream"}),
    ("find_path", {"query": "replay_call"}),
]

# built here, so that this file (in the clone) does not hold it
MARKER = "zqx" + "freshness" + "marker"


def git(*args, cwd=REPO):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def recorded(rec):
    lines = []
    for name in sorted(os.listdir(rec)):
        with open(os.path.join(rec, name)) as f:
            lines.extend(json.loads(line) for line in f if line.strip())
    return lines


async def record(binary, clone, rec, checks):
    params = StdioServerParameters(
        command=binary,
        args=["serve", "--mcp", "--root", clone, "--record", rec,
              "--fixtures", os.path.join(REPO, "corpora", "fixtures")],
        cwd=clone,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for tool, args in CALLS:
                result = await session.call_tool(tool, args)
                checks.check(not is_error(result), f"{tool} {json.dumps(args)} answers",
                             document(result))

            # freshness: a file the agent edits is read again on the next call
            before = await session.call_tool("grep", {"term": MARKER})
            checks.check(not is_error(before) and not document(before).get("matches"),
                         f"grep {MARKER}: nothing before the edit", document(before))
            with open(os.path.join(clone, "README.md"), "a") as f:
                f.write(f"\n{MARKER}\n")
            after = await session.call_tool("grep", {"term": MARKER})
            files = [r.get("path") for r in document(after).get("matches") or []]
            checks.check(not is_error(after) and files == ["README.md"],
                         f"grep {MARKER}: README.md right after the edit", document(after))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(REPO, "target", "debug", "findbench"))
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="findbench-record-") as tmp:
        head = git("rev-parse", "HEAD")
        clone = os.path.join(tmp, "checkout")
        # the clone's own history: CI runs on a fresh clone of this repository
        git("clone", "--quiet", "--no-checkout", REPO, clone)
        git("checkout", "--quiet", "--detach", head, cwd=clone)
        clone = os.path.realpath(clone)
        rec = os.path.join(tmp, "rec")
        asyncio.run(record(binary, clone, rec, checks))

        lines = recorded(rec)
        checks.check(len(lines) == len(CALLS) + 2, f"{len(CALLS) + 2} lines recorded", len(lines))
        pinned = [line["fixture"] for line in lines[:len(CALLS) + 1]]
        checks.check(all(p == {"git": clone, "rev": head} for p in pinned),
                     f"each call before the edit is pinned to {{git: clone, rev: {head[:10]}}}",
                     pinned)
        checks.check(lines[-1]["fixture"] == {"git": clone, "rev": head, "dirty": True},
                     "the call after the edit is recorded on a dirty work tree",
                     lines[-1]["fixture"])

        elsewhere = os.path.join(tmp, "elsewhere")
        os.makedirs(elsewhere)
        out = subprocess.run([binary, "replay", rec, "-f", "json"], cwd=elsewhere,
                             capture_output=True, text=True, check=False)
        checks.check(out.returncode == 0, "replay from another directory exits 0",
                     out.stdout[-600:] + out.stderr[-600:])
        if out.returncode == 0:
            summary = json.loads(out.stdout)["summary"]
            # the dirty call replays against the commit, which lacks the marker
            checks.check(summary["total"] == len(lines)
                         and summary["transitions"]["unchanged"] == len(lines) - 1
                         and summary["transitions"]["regressed"] == 1,
                         "every clean call replays to its recorded outcome; the dirty one "
                         "replays its commit", summary["transitions"])
            checks.check(summary.get("dirty_traces") == 1, "the summary counts 1 dirty trace",
                         summary.get("dirty_traces"))
    print(f"mcp_record_replay: {checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Warm call latency of `findbench serve --mcp`, as an agent's client sees it: the official
Python MCP SDK over stdio, the whole round trip (request written, tool run, result parsed).

Starts the server on corpora/fixtures (agent-cpp tree, todo/outline/life stores), makes
every tool's call once to warm up (fixtures are loaded at start and kept), then times
--calls calls per tool, alternating tools, and prints the median, p95 and max per tool with
the machine and versions.

    cargo build --release -p findbench
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install mcp
    /tmp/venv/bin/python benches/mcp_latency.py --bin target/release/findbench --calls 200

With --root DIR, times `ask` on that tree instead, against the CLI's warm call on the same
tree: the server starts on DIR with an empty cache of its own (the tree as an agent's first
session on it finds it), its first call per question is timed alone, then after --settle
seconds (for the server's own index build) rounds alternate the server's call and the CLI's
`findbench ask QUESTION --root DIR -f json` (its kept index built first by `findbench index
DIR`, in the cache FINDBENCH_CACHE names). Prints each side's median per question, and
whether the server's answer equals the CLI's (timings and the cache path aside).

    /tmp/venv/bin/python benches/mcp_latency.py --root ~/.cargo/registry/src --calls 11 --settle 120
"""

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from importlib.metadata import version

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CALLS = [
    ("find_task", {"query": "auth midleware"}),
    ("find_name", {"query": "the email task", "store": "corpora/fixtures/life.json"}),
    ("find_outline", {"query": "token", "store": "corpora/fixtures/outline.json"}),
    ("get_item", {"id": "ENG-3", "children": True, "store": "corpora/fixtures/outline.json"}),
    ("find_code", {"term": "CommandRouter", "impl": True}),
    ("find_path", {"query": "authmidlware"}),
    ("grep", {"term": "cursor binary"}),
    ("ask", {"question": "where is replay implemented"}),
]


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


async def main(binary, calls):
    params = StdioServerParameters(
        command=binary,
        args=["serve", "--mcp", "--root", "corpora/fixtures/agent-cpp",
              "--store", "corpora/fixtures/todo.json", "--store", "corpora/fixtures/outline.json",
              "--store", "corpora/fixtures/life.json"],
        cwd=REPO,
    )
    times = {name: [] for name, _ in CALLS}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for name, args in CALLS:  # warm-up
                await session.call_tool(name, args)
            for _ in range(calls):
                for name, args in CALLS:
                    t = time.perf_counter()
                    await session.call_tool(name, args)
                    times[name].append((time.perf_counter() - t) * 1e3)
    found = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{found}, mcp {version('mcp')} (Python {platform.python_version()}), "
          f"{os.cpu_count()} CPUs: {cpu()}")
    print(f"{calls} warm calls per tool, round trip over stdio")
    print(f"{'tool':<14}{'median ms':>10}{'p95 ms':>9}{'max ms':>9}")
    for name, samples in times.items():
        samples.sort()
        p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
        print(f"{name:<14}{statistics.median(samples):>10.2f}{p95:>9.2f}{samples[-1]:>9.2f}")


QUESTIONS = [
    "where is replay implemented",
    "find cursor binary",
    "where is the deserializer for yaml anchors",
    "how is the gzip header parsed",
]
# what differs between two calls with the same answer: the clock, and where the answer came from
VOLATILE = {"_meta", "meta", "duration_ms", "elapsed_ms", "cache_path", "walk"}


def comparable(doc):
    if isinstance(doc, dict):
        return {k: comparable(v) for k, v in doc.items() if k not in VOLATILE}
    if isinstance(doc, list):
        return [comparable(v) for v in doc]
    return doc


def cli_ask(binary, root, question):
    t = time.perf_counter()
    out = subprocess.run([binary, "ask", question, "--root", root, "-f", "json"],
                         capture_output=True, text=True)
    ms = (time.perf_counter() - t) * 1e3
    return ms, json.loads(out.stdout)


async def server_ask(session, root, question):
    t = time.perf_counter()
    result = await session.call_tool("ask", {"question": question, "root": root})
    ms = (time.perf_counter() - t) * 1e3
    # the SDK's name for it moved between releases
    structured = getattr(result, "structured_content", None)
    return ms, structured if structured is not None else getattr(result, "structuredContent")


async def after_edits(session, binary, root, question, edited):
    """Each side's call right after an edit of `edited`, and its next call, three times."""
    times = {"server after edit": [], "CLI after edit": [], "server next": [], "CLI next": []}
    for i in range(3):
        with open(edited, "a") as f:
            f.write(f"\n/* an edit, {i} */\n")
        await asyncio.sleep(3)
        times["server after edit"].append((await server_ask(session, root, question))[0])
        times["CLI after edit"].append(cli_ask(binary, root, question)[0])
        times["server next"].append((await server_ask(session, root, question))[0])
        times["CLI next"].append(cli_ask(binary, root, question)[0])
    return times


async def against_cli(binary, root, questions, rounds, settle, edited=None):
    subprocess.run([binary, "index", root, "-f", "json"], check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as server_cache:
        params = StdioServerParameters(
            command=binary, args=["serve", "--mcp", "--root", root],
            env={**os.environ, "FINDBENCH_CACHE": server_cache})
        first = {}
        server = {q: [] for q in questions}
        cli = {q: [] for q in questions}
        same = {q: True for q in questions}
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for q in questions:
                    first[q], _ = await server_ask(session, root, q)
                await asyncio.sleep(settle)
                for q in questions:  # warm-up of both sides
                    await server_ask(session, root, q)
                    cli_ask(binary, root, q)
                for _ in range(rounds):
                    for q in questions:
                        ms, served = await server_ask(session, root, q)
                        server[q].append(ms)
                        ms, printed = cli_ask(binary, root, q)
                        cli[q].append(ms)
                        same[q] &= comparable(served) == comparable(printed)
                edits = edited and await after_edits(session, binary, root, questions[-1], edited)
    found = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{found}, mcp {version('mcp')} (Python {platform.python_version()}), "
          f"{os.cpu_count()} CPUs: {cpu()}, load {os.getloadavg()[0]:.1f}")
    print(f"ask on {root}: {rounds} rounds after {settle} s, round trip over stdio "
          "against the CLI's whole process")
    print(f"{'question':<44}{'first ms':>9}{'server ms':>10}{'CLI ms':>8}{'same':>6}")
    for q in questions:
        print(f"{q:<44}{first[q]:>9.1f}{statistics.median(server[q]):>10.1f}"
              f"{statistics.median(cli[q]):>8.1f}{'yes' if same[q] else 'NO':>6}")
    every_server = [ms for q in questions for ms in server[q]]
    every_cli = [ms for q in questions for ms in cli[q]]
    print(f"{'all':<44}{'':>9}{statistics.median(every_server):>10.1f}"
          f"{statistics.median(every_cli):>8.1f}")
    if edits:
        print(f"after editing {edited}, asking {questions[-1]!r} (ms, three edits):")
        for side, samples in edits.items():
            print(f"  {side:<20}" + " ".join(f"{ms:8.1f}" for ms in samples))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(REPO, "target", "release", "findbench"))
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--root", help="time `ask` on this tree against the CLI's warm call")
    parser.add_argument("--question", action="append",
                        help="a question to ask (repeatable; default the four of peer_ask.sh)")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds to wait after the server's first calls")
    parser.add_argument("--edit", help="a file under --root to append to (a copy's: it is written)")
    args = parser.parse_args()
    if args.root:
        asyncio.run(against_cli(os.path.abspath(args.bin), os.path.realpath(args.root),
                                args.question or QUESTIONS, args.calls, args.settle,
                                args.edit and os.path.realpath(args.edit)))
    else:
        asyncio.run(main(os.path.abspath(args.bin), args.calls))

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
"""

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(REPO, "target", "release", "findbench"))
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(os.path.abspath(args.bin), args.calls))

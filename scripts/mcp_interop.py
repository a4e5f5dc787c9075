#!/usr/bin/env python3
"""Drives `findbench serve --mcp` with the official Python MCP SDK (package `mcp`) over
stdio, as an agent's client would:

  1. lists the tools: exactly the eight find tools, each with an object input schema;
  2. calls each tool and checks that its result is the JSON document the CLI prints for the
     same input (`findbench ... -f json`), timestamps and durations aside;
  3. sends a malformed call (an argument of the wrong type), checks it is a tool error
     carrying error.code / message / hint, and that the next call still works;
  4. declares a client root (MCP roots) outside the start roots and checks a call may read
     it, while a path outside every root is refused.

Run from anywhere, after `cargo build -p findbench`:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install mcp
    /tmp/venv/bin/python scripts/mcp_interop.py [--bin target/debug/findbench]

Prints one line per check and `N passed, 0 failed`; exits 1 on any failure.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
AGENT_CPP = "corpora/fixtures/agent-cpp"
TODO = "corpora/fixtures/todo.json"
OUTLINE = "corpora/fixtures/outline.json"
LIFE = "corpora/fixtures/life.json"

# each tool, its arguments, and the command line that asks the same
SAME_QUESTIONS = [
    ("find_task", {"query": "registration", "verbose": True, "store": TODO},
     ["find", "task", "registration", "-v", "--store", TODO]),
    ("find_name", {"query": "the email task", "store": LIFE},
     ["find", "name", "the email task", "--store", LIFE]),
    ("find_outline", {"query": "token", "limit": 3, "store": OUTLINE},
     ["find", "outline", "token", "-n", "3", "--store", OUTLINE]),
    ("get_item", {"id": "ENG-3", "children": True, "depth": 1, "store": OUTLINE},
     ["get", "ENG-3", "--children", "--depth", "1", "--store", OUTLINE]),
    ("find_code", {"term": "CommandRouter", "impl": True},
     ["find", "code", "CommandRouter", "--impl", "--root", AGENT_CPP]),
    ("find_path", {"query": "authmidlware"},
     ["find", "path", "authmidlware", "--root", AGENT_CPP]),
    ("grep", {"term": "cursor binary", "limit": 5},
     ["grep", "cursor binary", "-n", "5", "--root", AGENT_CPP]),
    ("ask", {"question": "where is replay implemented"},
     ["ask", "where is replay implemented", "--root", AGENT_CPP]),
]


def untimed(value):
    """The document without what differs from run to run."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in ("timestamp", "duration_ms")}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def field(obj, *names):
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def document(result):
    """The tool result's document: structured content, else the JSON text content."""
    structured = field(result, "structured_content", "structuredContent")
    if structured is not None:
        return structured
    for block in field(result, "content") or []:
        text = field(block, "text")
        if text:
            return json.loads(text)
    raise AssertionError(f"no document in {result!r}")


def is_error(result):
    return bool(field(result, "is_error", "isError"))


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {what}")
        else:
            self.failed += 1
            print(f"FAIL  {what}\n      {detail}")


async def run(binary, checks):
    extra_root = tempfile.mkdtemp(prefix="findbench-client-root-")
    os.makedirs(os.path.join(extra_root, "src"))
    with open(os.path.join(extra_root, "src", "client_only.py"), "w") as f:
        f.write("def client_only_marker():\n    return 1\n")
    outside = tempfile.mkdtemp(prefix="findbench-outside-")

    async def list_roots(_context):
        return types.ListRootsResult(roots=[types.Root(uri="file://" + extra_root, name="client")])

    params = StdioServerParameters(
        command=binary,
        args=["serve", "--mcp", "--root", AGENT_CPP, "--store", TODO, "--store", OUTLINE,
              "--store", LIFE],
        cwd=REPO,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as session:
            await session.initialize()
            listed = await session.list_tools()
            tools = field(listed, "tools")
            names = sorted(t.name for t in tools)
            checks.check(names == sorted(q[0] for q in SAME_QUESTIONS),
                         f"lists the 8 tools: {', '.join(names)}", names)
            for tool in tools:
                schema = field(tool, "input_schema", "inputSchema")
                checks.check(schema.get("type") == "object", f"{tool.name}: input schema is an object", schema)

            for name, args, argv in SAME_QUESTIONS:
                result = await session.call_tool(name, args)
                cli = subprocess.run([binary, *argv, "-f", "json"], cwd=REPO, capture_output=True,
                                     text=True, check=False)
                expected = json.loads(cli.stdout)
                got = document(result)
                checks.check(not is_error(result) and untimed(got) == untimed(expected),
                             f"{name}: same document as `findbench {' '.join(argv)}`",
                             f"server: {json.dumps(untimed(got))[:400]}\n      cli:    {json.dumps(untimed(expected))[:400]}")

            bad = await session.call_tool("find_code", {"term": ["not", "a", "string"]})
            doc = document(bad)
            err = doc.get("error") or {}
            checks.check(is_error(bad) and doc.get("success") is False
                         and err.get("code") == "E_INVALID_INPUT" and err.get("message")
                         and err.get("hint"),
                         "a malformed call is a tool error with code, message and hint", doc)
            after = await session.call_tool("ask", {"question": "find cursor binary"})
            checks.check(not is_error(after) and document(after).get("outcome") == "success",
                         "the next call still works", document(after))

            declared = await session.call_tool("find_code", {"term": "client_only", "root": extra_root})
            checks.check(not is_error(declared)
                         and document(declared).get("summary", {}).get("total_matches", 0) >= 1,
                         "a root the client declared may be read", document(declared))
            refused = await session.call_tool("grep", {"term": "x", "root": outside})
            checks.check(is_error(refused) and "outside" in document(refused)["error"]["message"],
                         "a root nobody declared is refused", document(refused))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(REPO, "target", "debug", "findbench"))
    args = parser.parse_args()
    checks = Checks()
    asyncio.run(run(os.path.abspath(args.bin), checks))
    print(f"mcp_interop: {checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()

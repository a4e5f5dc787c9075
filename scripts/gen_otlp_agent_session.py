#!/usr/bin/env python3
"""Writes corpora/fixtures/agent-logs/otel-sdk/agent-session.jsonl: a coding agent's session
over corpora/fixtures/agent-cpp as the official OpenTelemetry Python SDK records it (GenAI
semantic conventions), encoded by the SDK's OTLP encoder and written the way the
OpenTelemetry Collector's file exporter writes OTLP/JSON (one ExportTraceServiceRequest a
line, hex ids). `findbench import otel` turns each search into a trace line whose
`expected` files are those the later tool spans of the invocation read or edited.

Three invocations, each an `invoke_agent` span with the person's question in
`gen_ai.input.messages` and `execute_tool` children:

  1. Grep (pattern, path), Read and Edit of relative paths: the search expects the file
     read and edited after it; the first invocation's spans are split over two lines.
  2. `mcp__findbench__ask` (findbench itself through MCP, an absolute `root`), then a
     shell `rg` and a `sed -n` read in a `workdir`, then a Read that failed (status ERROR:
     not expected): two searches, both expecting the file the shell printed.
  3. A Glob that found nothing, then a span whose arguments are not JSON (reported as a
     bad span, never dropped).

Deterministic: fixed ids and times, no SDK version in the resource.

    python3 -m venv target/venv && target/venv/bin/pip install opentelemetry-sdk \\
        opentelemetry-exporter-otlp-proto-common
    target/venv/bin/python scripts/gen_otlp_agent_session.py            # rewrite the file
    target/venv/bin/python scripts/gen_otlp_agent_session.py --check \\
        --bin target/debug/findbench                                     # what CI runs

`--check` writes the session to a temporary file instead and asserts that `findbench import
otel` reads it as it reads the committed file, and what each search expects.
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "corpora", "fixtures", "agent-logs", "otel-sdk", "agent-session.jsonl")
START_NS = 1_782_000_000_000_000_000
CWD = "/home/dev/agent-cpp"

# what `findbench import otel --root corpora/fixtures/agent-cpp` must make of it:
# (tool, input, expected files)
EXPECTED = [
    ("Grep", "replay", ["src/services/replay_service.cpp"]),
    ("mcp__findbench__ask", "where are trace lines written", ["src/telemetry/trace_writer.cpp"]),
    ("Bash", "rg -n trace_writer src", ["src/telemetry/trace_writer.cpp"]),
    ("Glob", "**/kubernetes*", []),
]


class CountingIds(IdGenerator):
    def __init__(self):
        self.n = 0

    def generate_span_id(self):
        self.n += 1
        return 0xA6E0000000000000 + self.n

    def generate_trace_id(self):
        self.n += 1
        return 0x5E55_1000_0000_0000_0000_0000_0000_0000 + self.n


class CollectorFileExporter(SpanExporter):
    """Writes each `flush()` batch as one ExportTraceServiceRequest line, as the
    collector's file exporter does."""

    def __init__(self, path):
        self.out = open(path, "w", encoding="utf-8")
        self.pending = []

    def export(self, spans):
        self.pending.extend(spans)
        return SpanExportResult.SUCCESS

    def flush(self):
        if not self.pending:
            return
        request = MessageToDict(encode_spans(self.pending), use_integers_for_enums=True)
        for rs in request.get("resourceSpans", []):
            for ss in rs.get("scopeSpans", []):
                for span in ss.get("spans", []):
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span:
                            span[key] = base64.b64decode(span[key]).hex()
        self.out.write(json.dumps(request, separators=(",", ":")) + "\n")
        self.pending = []

    def shutdown(self):
        self.flush()
        self.out.close()


def agent_span(tracer, t, question):
    messages = [{"role": "user", "parts": [{"type": "text", "content": question}]}]
    return tracer.start_span(
        "invoke_agent coding-agent", kind=SpanKind.CLIENT, start_time=t,
        attributes={"gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": "coding-agent",
                    "gen_ai.provider.name": "example",
                    "gen_ai.input.messages": json.dumps(messages)})


def tool(tracer, agent, t, name, arguments, result, error=None, raw_arguments=None):
    attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                  "gen_ai.tool.type": "function",
                  "gen_ai.tool.call.arguments": raw_arguments or json.dumps(arguments)}
    if result is not None:
        attributes["gen_ai.tool.call.result"] = result
    span = tracer.start_span(f"execute_tool {name}", context=set_span_in_context(agent),
                             kind=SpanKind.INTERNAL, attributes=attributes, start_time=t)
    if error:
        span.set_status(Status(StatusCode.ERROR, error))
    span.end(end_time=t + 20_000_000)
    return t + 25_000_000


def write(path):
    exporter = CollectorFileExporter(path)
    provider = TracerProvider(resource=Resource({"service.name": "agent-cpp"}),
                              id_generator=CountingIds())
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("coding-agent", "1.0.0")

    t = START_NS
    agent = agent_span(tracer, t, "where is the replay service implemented?")
    t = tool(tracer, agent, t + 1_000_000, "Grep", {"pattern": "replay", "path": "src"},
             "Found 2 files\nsrc/services/replay_service.cpp\nsrc/services/replay_service.h")
    exporter.flush()  # an invocation split over two export batches
    t = tool(tracer, agent, t, "Read", {"file_path": "src/services/replay_service.cpp"},
             "#include \"replay_service.h\"\n")
    t = tool(tracer, agent, t, "Edit", {"file_path": "src/services/replay_service.cpp",
                                        "old_string": "a", "new_string": "b"}, "ok")
    agent.end(end_time=t)
    exporter.flush()

    t += 60_000_000_000
    agent = agent_span(tracer, t, "where are trace lines written?")
    t = tool(tracer, agent, t + 1_000_000, "mcp__findbench__ask",
             {"question": "where are trace lines written", "root": CWD},
             json.dumps({"outcome": "insufficient_evidence", "candidates": 0}))
    t = tool(tracer, agent, t, "Bash", {"command": "rg -n trace_writer src", "workdir": CWD},
             "src/telemetry/trace_writer.cpp:3:class trace_writer\n")
    t = tool(tracer, agent, t, "Bash",
             {"command": "sed -n 1,40p src/telemetry/trace_writer.cpp", "workdir": CWD},
             "class trace_writer {};\n")
    t = tool(tracer, agent, t, "Read", {"file_path": f"{CWD}/src/telemetry/missing.cpp"},
             "File does not exist.", error="file not found")
    agent.end(end_time=t)
    exporter.flush()

    t += 60_000_000_000
    agent = agent_span(tracer, t, "is there a kubernetes autoscaler?")
    t = tool(tracer, agent, t + 1_000_000, "Glob", {"pattern": "**/kubernetes*"},
             "No files found")
    t = tool(tracer, agent, t, "Read", None, "", raw_arguments="{file_path: src/main.cpp")
    agent.end(end_time=t)
    provider.shutdown()


def import_lines(binary, path):
    done = subprocess.run(
        [binary, "import", "otel", path, "--root", "corpora/fixtures/agent-cpp"],
        cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"findbench import otel {path} exited {done.returncode}:\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def check(binary):
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, "agent-session.jsonl")
        write(fresh)
        got, stderr = import_lines(binary, fresh)
    committed, _ = import_lines(binary, OUT)
    for line in got + committed:
        line.pop("fixture", None)  # --root, the same for both
    if got != committed:
        sys.exit("gen_otlp_agent_session: the SDK's spans import otherwise than the committed "
                 f"file:\n{json.dumps(got, indent=1)}\n---\n{json.dumps(committed, indent=1)}")
    seen = [(t["tools"][0]["name"], t["tools"][0]["input"], t["expected"]) for t in got]
    if seen != [(n, i, e) for n, i, e in EXPECTED]:
        sys.exit(f"gen_otlp_agent_session: searches and expected files {seen}, want {EXPECTED}")
    if "bad_span" not in stderr:
        sys.exit(f"gen_otlp_agent_session: the span with bad arguments was not reported:\n{stderr}")
    print(f"ok  {len(got)} searches from the OpenTelemetry SDK's spans, each with its expected "
          "files; the bad span reported")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write to a temporary file and check findbench's import of it")
    parser.add_argument("--bin", help="the findbench binary (with --check)")
    args = parser.parse_args()
    if args.check:
        if not args.bin:
            parser.error("--check needs --bin")
        check(args.bin)
    else:
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        write(OUT)
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

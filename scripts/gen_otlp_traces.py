#!/usr/bin/env python3
"""Writes traces/otel/agent-invocations.jsonl: 200 agent invocations over
corpora/fixtures/agent-cpp as OpenTelemetry spans, made by the real OpenTelemetry Python SDK
and written the way the OpenTelemetry Collector's file exporter writes them (one OTLP/JSON
ExportTraceServiceRequest per line, hex trace and span ids, enums as integers, 64-bit
integers as strings).

Spans follow the GenAI semantic conventions: an `invoke_agent` span per invocation (most of
them; the rest are grouped by trace id) and `execute_tool` children with gen_ai.tool.name,
gen_ai.tool.call.arguments and, for most, gen_ai.tool.call.result. Some spans are malformed
on purpose, in the ways agent telemetry goes wrong, and `findbench replay` must count and
report every one of them:

  - no gen_ai.tool.name                      (MALFORMED["no_tool_name"])
  - arguments that are not JSON              (MALFORMED["arguments_not_json"])
  - an end time before the start time        (MALFORMED["ends_before_start"])
  - an invocation whose tools hold no query  (MALFORMED["no_query"])

The script prints these counts; tests/otlp_replay.rs asserts the same numbers.

Deterministic (seeded ids and times): running it again gives the same file.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install opentelemetry-sdk \
        opentelemetry-exporter-otlp-proto-common protobuf
    /tmp/venv/bin/python scripts/gen_otlp_traces.py
"""

import base64
import json
import os
import random
import sys
from collections import Counter

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context

INVOCATIONS = 200
SPANS_PER_LINE = 25  # an export batch: invocations straddle lines, as in real files
OUT = os.path.join(os.path.dirname(__file__), "..", "traces", "otel", "agent-invocations.jsonl")
START_NS = 1_782_000_000_000_000_000  # 2026-06-21T...Z

QUESTIONS = [
    ("where is replay implemented", "replay", True),
    ("find cursor binary", "cursor[ _-]?binary", False),
    ("where is trace_stats implemented", "trace_stats", True),
    ("open find_service", "find_service", False),
    ("locate terminal_probe", "terminal_probe", False),
    ("how does failure_topology work", "failure_topology", False),
    ("where is the execution_engine code", "execution_engine", False),
    ("where is validation_runner defined", "validation_runner", True),
    ("find benchmark_runner", "benchmark_runner", False),
    ("where is kubernetes autoscaler implemented", "kubernetes[ _-]?autoscaler", True),
]

MALFORMED = Counter()


class SeededIds(IdGenerator):
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def generate_span_id(self):
        return self.rng.getrandbits(64) or 1

    def generate_trace_id(self):
        return self.rng.getrandbits(128) or 1


class CollectorFileExporter(SpanExporter):
    """Buffers spans and writes them SPANS_PER_LINE at a time, each batch one
    ExportTraceServiceRequest on one line, shaped as the collector's file exporter writes
    OTLP/JSON (the protobuf JSON mapping, with trace and span ids in hex)."""

    def __init__(self, path):
        self.out = open(path, "w", encoding="utf-8")
        self.pending = []

    def export(self, spans):
        self.pending.extend(spans)
        while len(self.pending) >= SPANS_PER_LINE:
            self._write(self.pending[:SPANS_PER_LINE])
            self.pending = self.pending[SPANS_PER_LINE:]
        return SpanExportResult.SUCCESS

    def _write(self, spans):
        request = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
        for rs in request.get("resourceSpans", []):
            for ss in rs.get("scopeSpans", []):
                for span in ss.get("spans", []):
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span:
                            span[key] = base64.b64decode(span[key]).hex()
        self.out.write(json.dumps(request, separators=(",", ":"), sort_keys=False) + "\n")

    def shutdown(self):
        if self.pending:
            self._write(self.pending)
            self.pending = []
        self.out.close()


def tool_span(tracer, parent_ctx, t, name, arguments, result, duration_ns, error=None,
              malformed=None):
    attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.type": "function"}
    if malformed != "no_tool_name":
        attributes["gen_ai.tool.name"] = name
    if malformed == "arguments_not_json":
        attributes["gen_ai.tool.call.arguments"] = "{term: " + arguments.get("term", "?")
    else:
        attributes["gen_ai.tool.call.arguments"] = json.dumps(arguments)
    if result is not None:
        attributes["gen_ai.tool.call.result"] = json.dumps(result)
    span = tracer.start_span(f"execute_tool {name}", context=parent_ctx, kind=SpanKind.INTERNAL,
                             attributes=attributes, start_time=t)
    if error:
        span.set_status(Status(StatusCode.ERROR, error))
    end = t - 1_000_000 if malformed == "ends_before_start" else t + duration_ns
    span.end(end_time=end)
    if malformed:
        MALFORMED[malformed] += 1
    return t + duration_ns + 200_000


def invocation(tracer, rng, i, t):
    question, term, impl = QUESTIONS[rng.randrange(len(QUESTIONS))]
    with_agent = i % 5 != 0  # every fifth invocation has no invoke_agent span
    malformed = None
    if i % 23 == 7:
        malformed = "no_tool_name"
    elif i % 29 == 11:
        malformed = "arguments_not_json"
    elif i % 31 == 13:
        malformed = "ends_before_start"
    ctx = None
    agent = None
    if with_agent:
        agent = tracer.start_span("invoke_agent code-helper", kind=SpanKind.CLIENT, start_time=t,
                                  attributes={"gen_ai.operation.name": "invoke_agent",
                                              "gen_ai.agent.name": "code-helper",
                                              "gen_ai.provider.name": "example"})
        ctx = set_span_in_context(agent)
    start = t
    t += 1_000_000
    if i % 37 == 17:
        # the agent only read a file: no tool call holds a query
        t = tool_span(tracer, ctx, t, "read_file", {"path": "src/main.cpp"}, "int main() {}",
                      3_000_000)
        MALFORMED["no_query"] += 1
    elif i % 4 == 0:
        # the whole cascade through findbench's ask
        found = "kubernetes" not in term and "cursor" not in term
        result = {"success": True, "outcome": "success" if found else "insufficient_evidence",
                  "candidates": 2 if found else 0, "tools": ["find", "read"] if found else ["find", "grep"]}
        t = tool_span(tracer, ctx, t, "ask", {"question": question, "root": "agent-cpp"},
                      result if i % 3 else None, rng.randrange(2, 40) * 1_000_000,
                      malformed=malformed)
    else:
        # an agent's own cascade: find, then grep when find found nothing
        args = {"term": term, "impl": impl, "root": "agent-cpp"}
        found = "kubernetes" not in term and "cursor" not in term and "replay" not in term
        matches = [{"path": f"src/{term.split('[')[0]}.cpp", "score": 0.9}] if found else []
        error = "timeout after 30s" if i % 41 == 19 else None
        t = tool_span(tracer, ctx, t, "find_code", args,
                      {"success": True, "summary": {"total_matches": len(matches)}, "matches": matches},
                      rng.randrange(1, 20) * 1_000_000, error=None, malformed=malformed)
        if not found:
            t = tool_span(tracer, ctx, t, "grep", {"term": term, "root": "agent-cpp"},
                          {"success": True, "summary": {"total_matches": 0}, "matches": []},
                          rng.randrange(5, 60) * 1_000_000, error=error)
    if agent is not None:
        agent.end(end_time=t + 500_000)
    return start + 3_600_000_000_000 // 10  # six minutes apart


def main():
    rng = random.Random(20260621)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    exporter = CollectorFileExporter(OUT)
    provider = TracerProvider(
        # pinned so that the file does not change with the SDK's version or the run
        resource=Resource.create({"service.name": "code-helper-agent",
                                  "service.instance.id": "gen-otlp-traces",
                                  "telemetry.sdk.version": "pinned"}),
        id_generator=SeededIds(7),
    )
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("gen_otlp_traces", "1.0")
    t = START_NS
    for i in range(INVOCATIONS):
        t = invocation(tracer, rng, i, t)
    provider.shutdown()
    total = sum(MALFORMED.values())
    print(f"wrote {os.path.normpath(OUT)}: {INVOCATIONS} invocations, malformed: "
          + ", ".join(f"{k} {v}" for k, v in sorted(MALFORMED.items())) + f" (total {total})",
          file=sys.stderr)


if __name__ == "__main__":
    main()

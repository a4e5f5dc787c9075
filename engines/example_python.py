#!/usr/bin/env python3
"""An example engine in another language, to show the protocol (engines/example_python.yaml).

The harness runs `example_python.py MODE QUERY FIXTURE LIMIT` for each case and reads one
JSON document from standard output: {"outcome": ..., "results": [{"path": ...}, ...]},
best first. Exit status 0; anything else (a traceback, a timeout) is a failed case.

path: the files of the list whose path holds every letter of the query in order (a
subsequence), the shortest span first, then the shorter path.
grep: the files under the root whose text holds the query (case-insensitive), the most
occurrences first, then the shorter path.
"""
import json
import os
import sys


def subsequence_span(needle, haystack):
    """Length of the shortest window of haystack holding needle in order, or None."""
    best = None
    for start, ch in enumerate(haystack):
        if ch != needle[0]:
            continue
        i, j = 0, start
        while j < len(haystack) and i < len(needle):
            if haystack[j] == needle[i]:
                i += 1
            j += 1
        if i == len(needle):
            span = j - start
            best = span if best is None else min(best, span)
    return best


def find_path(query, listing, limit):
    needle = query.lower().replace(" ", "")
    scored = []
    with open(listing, encoding="utf-8") as f:
        for line in f:
            path = line.strip()
            span = subsequence_span(needle, path.lower()) if needle else None
            if span is not None:
                scored.append((span, len(path), path))
    return [p for _, _, p in sorted(scored)[:limit]]


def grep(query, root, limit):
    needle = query.lower()
    scored = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "target"]
        for name in files:
            full = os.path.join(folder, name)
            try:
                with open(full, encoding="utf-8") as f:
                    count = f.read().lower().count(needle)
            except (OSError, UnicodeDecodeError):
                continue
            if count:
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                scored.append((-count, len(rel), rel))
    return [p for _, _, p in sorted(scored)[:limit]]


def main():
    mode, query, fixture, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    paths = find_path(query, fixture, limit) if mode == "path" else grep(query, fixture, limit)
    outcome = "success" if paths else "no_match"
    json.dump({"outcome": outcome, "results": [{"path": p} for p in paths]}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

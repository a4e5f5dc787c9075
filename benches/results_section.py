#!/usr/bin/env python3
"""Checks a bench script's tables against benches/RESULTS.md, or writes them there.

Reads the Markdown tables a bench script printed (stdin; other lines are passed over) and,
for each, finds in the named section of RESULTS.md (its heading's text, up to the next
heading of the same or a higher level) the table whose columns are all among the printed
table's and whose first `--key` columns are the printed table's: the one whose rows share
the most keys with it. Columns are matched by name (backticks, `*` and case aside; a name
that repeats, such as `rg` after each engine's column, by its count so far); cells by their
text without spaces, `*` and backticks. A row is matched by its first `--key` cells.

  check   prints every cell of RESULTS.md that differs from the measured one
          (`row | column: RESULTS.md -> measured`), and the measured rows RESULTS.md lacks;
          exits 1 when any does, 0 when every measured figure stands in RESULTS.md.
  write   puts the measured cells in place of RESULTS.md's and adds the measured rows it
          lacks (blank in the columns the script does not print), written atomically (a
          temporary file beside it, then a rename); the section's date and command line are
          left for the person to update.

Rows RESULTS.md holds that were not measured (other builds, other trees) are listed, never
counted as differences. Exit 2: a section or a matching table is missing (named in the
message), or the arguments are wrong.

usage: benches/some_bench.sh ... | benches/results_section.py check|write SECTION
           [--key N] [--results FILE]
The bench scripts call it themselves when RESULTS=check or RESULTS=write is set.
"""

import argparse
import os
import re
import sys
import tempfile

DEFAULT_RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")


def cells(line):
    """The cells of a Markdown table row, stripped."""
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return [c.strip() for c in inner.split("|")]


def is_rule(line):
    return re.fullmatch(r"\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*", line.strip()) is not None


def tables(lines, first=0):
    """Each table of `lines` as (start, end, header, rows): its header line's index, the index
    past its last row, its column names and its rows' cells."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and is_rule(lines[i + 1]):
            start, j = i, i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            rows = [cells(line) for line in lines[i + 2:j]]
            out.append((first + start, first + j, cells(lines[i]), rows))
            i = j
        else:
            i += 1
    return out


def column_names(header):
    """Column names, normalised, a repeated one numbered by its count so far (`rg`, `rg#2`)."""
    seen, names = {}, []
    for name in header:
        key = re.sub(r"[`*]", "", name).strip().lower()
        seen[key] = seen.get(key, 0) + 1
        names.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return names


def value(cell):
    return re.sub(r"[\s`*]", "", cell)


def section(lines, title):
    """The lines of the section whose heading's text is `title`: (first, end)."""
    for i, line in enumerate(lines):
        m = re.match(r"(#+)\s+(.*?)\s*$", line)
        if m and m.group(2).strip() == title.strip():
            level = len(m.group(1))
            end = len(lines)
            for j in range(i + 1, len(lines)):
                n = re.match(r"(#+)\s", lines[j])
                if n and len(n.group(1)) <= level:
                    end = j
                    break
            return i + 1, end
    return None


def key_of(row, key):
    return tuple(value(c) for c in row[:key])


def best_table(candidates, measured_names, measured_rows, key):
    """The section's table to compare a measured one with, or None."""
    best, best_shared = None, -1
    for table in candidates:
        names = column_names(table[2])
        if names[:key] != measured_names[:key] or not set(names) <= set(measured_names):
            continue
        keys = {key_of(r, key) for r in table[3]}
        shared = sum(key_of(r, key) in keys for r in measured_rows)
        if shared > best_shared:
            best, best_shared = table, shared
    return best


def render(row):
    return "| " + " | ".join(row) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=["check", "write"])
    parser.add_argument("section", help="the heading's text in RESULTS.md")
    parser.add_argument("--key", type=int, default=1, help="leading columns naming a row")
    parser.add_argument("--results", default=DEFAULT_RESULTS)
    args = parser.parse_args()
    if args.key < 1:
        parser.error("--key is at least 1")

    measured = tables(sys.stdin.read().splitlines())
    if not measured:
        print("results_section: no Markdown table on stdin", file=sys.stderr)
        return 2
    with open(args.results, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    bounds = section(lines, args.section)
    if bounds is None:
        print(f"results_section: {args.results}: no section headed {args.section!r}",
              file=sys.stderr)
        return 2
    candidates = tables(lines[bounds[0]:bounds[1]], bounds[0])

    differ, edits = 0, []
    for _, _, header, rows in measured:
        names = column_names(header)
        table = best_table(candidates, names, rows, args.key)
        if table is None:
            print(f"results_section: {args.results}, section {args.section!r}: no table "
                  f"whose columns are among {header}", file=sys.stderr)
            return 2
        start, end, their_header, their_rows = table
        their_names = column_names(their_header)
        at = {name: measured_col for measured_col, name in enumerate(names)}
        by_key = {key_of(r, args.key): r for r in rows}
        new_rows, seen = [], set()
        print(f"table at line {start + 1} of {args.results} ({' | '.join(their_header)}):")
        for row in their_rows:
            k = key_of(row, args.key)
            mine = by_key.get(k)
            if mine is None:
                print(f"  not measured: {render(row)}")
                new_rows.append(row)
                continue
            seen.add(k)
            updated = list(row) + [""] * (len(their_names) - len(row))
            for col, name in enumerate(their_names):
                cell = mine[at[name]] if at[name] < len(mine) else ""
                if value(cell) != value(updated[col]):
                    differ += 1
                    print(f"  {' | '.join(row[:args.key])} | {their_header[col]}: "
                          f"{updated[col]} -> {cell}")
                    updated[col] = cell
            new_rows.append(updated)
        for row in rows:
            k = key_of(row, args.key)
            if k not in seen:
                differ += 1
                added = [row[at[name]] if at[name] < len(row) else "" for name in their_names]
                print(f"  not in {os.path.basename(args.results)}: {render(added)}")
                new_rows.append(added)
        edits.append((start, end, [lines[start], lines[start + 1]]
                      + [render(r) for r in new_rows]))

    if args.action == "check":
        print(f"{differ} measured figure(s) differ from {args.results}")
        return 1 if differ else 0
    for start, end, replacement in sorted(edits, reverse=True):
        lines[start:end] = replacement
    folder = os.path.dirname(os.path.abspath(args.results))
    fd, tmp = tempfile.mkstemp(prefix=".RESULTS.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        os.replace(tmp, args.results)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"{differ} figure(s) written to {args.results}; update the section's date and "
          "command line")
    return 0


if __name__ == "__main__":
    sys.exit(main())

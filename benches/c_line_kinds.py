#!/usr/bin/env python3
"""How the non-empty lines of a tree's C and C++ files end: the share of preprocessor lines,
comment lines, lines that end with `;` or `}` and open no brace (what a C scan for a key
passes over without its recogniser when no key is on them, `Scanner::passes_over_c_line`),
and the rest. A line is read as written (a `//` comment cut off, trailing space dropped),
without the scanner's state: a rough census, not the scan's own count.

Usage: benches/c_line_kinds.py ROOT   (e.g. /usr/include)
"""
import collections
import os
import sys

SOURCE = (".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".tcc")


def kind(line: str) -> str:
    code = line.split("//")[0].rstrip()
    stripped = code.lstrip()
    if not stripped:
        return "comment" if line.strip() else ""
    if stripped.startswith("#"):
        return "preprocessor"
    if stripped.startswith(("/*", "*")):
        return "comment"
    if code[-1] in ";}" and "{" not in code:
        return "ends with ; or }, no {"
    return "other"


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    counts: collections.Counter = collections.Counter()
    for directory, _, names in os.walk(sys.argv[1]):
        for name in names:
            if not name.endswith(SOURCE):
                continue
            try:
                with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            for line in text.split("\n"):
                k = kind(line)
                if k:
                    counts[k] += 1
    total = sum(counts.values())
    print(f"{total} non-empty lines")
    for k, n in counts.most_common():
        print(f"{k:26} {n:9} {100 * n / max(total, 1):5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

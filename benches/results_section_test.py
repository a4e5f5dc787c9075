#!/usr/bin/env python3
"""Tests benches/results_section.py on a copy of benches/RESULTS.md (run by .ci/run).

A bench script's table is made from a table RESULTS.md holds, with a column RESULTS.md
leaves out, a cell changed, a row added, a row left out, and its columns shuffled; check
must name the changed cell and the added row, and nothing else, write must change those
alone (the rest of the file byte for byte), and a missing section or table is exit 2.
"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HELPER = os.path.join(HERE, "results_section.py")
SECTION = "Commit-history task localisation"
# the table of whole commit messages in that section
HEADER = ("| repository | cases | ask hit@1 | ask hit@5 | ask not success | ask bytes "
          "| rg hit@1 | rg hit@5 | rg bytes |")


def run(action, section, stdin, results, *extra):
    return subprocess.run([sys.executable, HELPER, action, section, "--results", results,
                           *extra], input=stdin, capture_output=True, text=True)


def main():
    original = open(os.path.join(HERE, "RESULTS.md"), encoding="utf-8").read()
    lines = original.split("\n")
    start = lines.index(HEADER)
    end = start + 2
    while lines[end].startswith("|"):
        end += 1
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[start + 2:end]]
    assert len(rows) >= 3, rows
    header = [c.strip() for c in HEADER.strip("|").split("|")]

    # what a script prints: an extra column, rg bytes before rg hit@1, one cell changed,
    # the first row left out, a row added, and lines that are no table around it
    order = [0, 1, 2, 3, 4, 5, 8, 6, 7]
    printed = [[header[i] for i in order] + ["rg nothing found"]]
    for row in rows[1:]:
        printed.append([row[i] for i in order] + ["0 %"])
    changed = printed[1][2]
    printed[1][2] = "99 %"
    printed.append(["new/repo", "20", "1 %", "2 %", "3 %", "4.0 KB", "5.0 KB", "6 %",
                    "7 %", "8 %"])
    table = "\n".join(["Per repository:", ""]
                      + ["| " + " | ".join(printed[0]) + " |",
                         "|" + "---|" * len(printed[0])]
                      + ["| " + " | ".join(r) + " |" for r in printed[1:]]
                      + ["", "work directory: /tmp/x"]) + "\n"

    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "RESULTS.md")
        shutil.copy(os.path.join(HERE, "RESULTS.md"), results)

        same = run("check", SECTION, "\n".join([HEADER, "|---|"] + lines[start + 2:end]),
                   results)
        assert same.returncode == 0, same.stdout + same.stderr
        assert "0 measured figure(s) differ" in same.stdout, same.stdout

        check = run("check", SECTION, table, results)
        assert check.returncode == 1, check.stdout + check.stderr
        out = check.stdout
        assert f"{rows[1][0]} | ask hit@1: {changed} -> 99 %" in out, out
        assert "not in RESULTS.md: | new/repo | 20 | 1 % | 2 % | 3 % | 4.0 KB | 6 % | 7 % | 5.0 KB |" in out, out
        assert f"not measured: | {rows[0][0]} |" in out, out
        assert "2 measured figure(s) differ" in out, out

        write = run("write", SECTION, table, results)
        assert write.returncode == 0, write.stdout + write.stderr
        written = open(results, encoding="utf-8").read().split("\n")
        want = list(lines)
        want[start + 3] = want[start + 3].replace(f"| {changed} |", "| 99 % |", 1)
        want.insert(end, "| new/repo | 20 | 1 % | 2 % | 3 % | 4.0 KB | 6 % | 7 % | 5.0 KB |")
        assert written == want, [(i, a, b) for i, (a, b) in enumerate(zip(written, want)) if a != b]
        assert not [f for f in os.listdir(tmp) if f != "RESULTS.md"], os.listdir(tmp)
        again = run("check", SECTION, table, results)
        assert again.returncode == 0, again.stdout + again.stderr

        missing = run("check", "No such section", table, results)
        assert missing.returncode == 2 and "no section headed 'No such section'" in missing.stderr
        other = run("check", SECTION, "| a | b |\n|---|---|\n| x | 1 |\n", results)
        assert other.returncode == 2 and "no table whose columns" in other.stderr, other.stderr
    print("results_section: ok")


if __name__ == "__main__":
    main()

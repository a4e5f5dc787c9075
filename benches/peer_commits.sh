#!/usr/bin/env bash
# Localization on real history: findbench `ask` against the rg strategy, on the same
# questions and trees. For every git directory given (any clone or mirror with history;
# nothing is fetched), `findbench corpus commits` samples COUNT commits that changed 1-2
# source files; each commit's subject is asked against the tree before it (its parent).
#
#   findbench: `ask` (through `findbench run`, fixtures `{git, rev}`), its ranked matches;
#   rg:        the subject's words without function words, `rg -c -i -F -e W1 -e W2 ...`
#              over the same tree, files ranked by matching lines (ties: path order).
#
# Prints, per repository and pooled: hit@1, hit@5 (a changed file at rank 1 / within 5),
# not-success (ask: outcome other than success; rg: no file matched) and the mean bytes an
# agent reads (ask: its JSON answer, evidence lines included; rg: the `rg -c` listing plus
# `rg -n` of the top file, the lines it would read to confirm).
#
# Usage: benches/peer_commits.sh [--count N] [--seed S] GIT_DIR...
# Environment: WORK=dir to keep corpora, trees and reports (default: a temporary dir);
# PROFILE=name or JSON file, the profile `ask` ranks with (default: the built-in default),
# to measure a signal with its weight set apart (docs/tuning.md); TEXT=message to ask each
# commit's whole message instead of its subject (`corpus commits --text`); FINDBENCH=binary
# to run instead of building this worktree's release binary.
# RESULTS=check compares the printed tables with benches/RESULTS.md's section "Commit-history task localisation"
# (the rows that differ; exit 1 when any does), RESULTS=write puts them there
# (benches/results_section.py).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=40
SEED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --count) COUNT="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --) shift; break ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--count N] [--seed S] GIT_DIR..." >&2; exit 2; }
if ! command -v rg >/dev/null; then
  apt-get install -y ripgrep >/dev/null || { apt-get update >/dev/null && apt-get install -y ripgrep >/dev/null; }
fi
if [ -n "${FINDBENCH:-}" ]; then
  FB="$(realpath "$FINDBENCH")"
else
  cargo build --release -q -p findbench
  FB="$PWD/target/release/findbench"
fi
WORK="${WORK:-$(mktemp -d -t findbench-commits.XXXXXX)}"
mkdir -p "$WORK/corpora" "$WORK/trees"
export FINDBENCH_CACHE="${FINDBENCH_CACHE:-$WORK/cache}"

for dir in "$@"; do
  name="$(basename "$(cd "$dir" && pwd)")"
  [ "$name" = repo ] || [ "$name" = .git ] && name="$(basename "$(cd "$dir/.." && pwd)")"
  "$FB" corpus commits --git-dir "$dir" --out "$WORK/corpora/$name.yaml" --count "$COUNT" --seed "$SEED" \
    --text "${TEXT:-subject}"
done
"$FB" run "$WORK/corpora" --out "$WORK/run" --profile "${PROFILE:-default}" -q >/dev/null || true

python3 - "$WORK" <<'PY' | tee "$WORK/table.md"
import json, os, re, subprocess, sys
from collections import defaultdict

work = sys.argv[1]
# the function words of the default profile's `task_ranking.stop_words`
STOP = set("""a an the this that these those some any each every all both no not is are was were
be been being am do does did has have had having will would shall should can could may might
must of in on at to from by with without for into onto over under about as than then and or
but nor if so it its they them their we our us you your he she his her me my which what who
whom whose where when why how there here also just only very too""".split())

# case id -> (git dir, parent) from the corpora
fixtures = {}
for f in sorted(os.listdir(os.path.join(work, "corpora"))):
    suite, case = None, None
    for line in open(os.path.join(work, "corpora", f)):
        m = re.match(r'suite: "(.*)"', line)
        if m:
            suite = m.group(1)
        m = re.match(r"  - id: (\S+)", line)
        if m:
            case = m.group(1)
        m = re.match(r'    fixture: \{git: "(.*)", rev: (\w+)\}', line)
        if m and case:
            fixtures[(suite, case)] = (m.group(1), m.group(2))

def tree(git_dir, rev):
    out = os.path.join(work, "trees", rev)
    if not os.path.isdir(out):
        tmp = out + ".partial"
        os.makedirs(tmp, exist_ok=True)
        # every file of the commit (`git archive` would leave out `export-ignore` ones)
        out, tmp = os.path.abspath(out), os.path.abspath(tmp)
        index = dict(os.environ, GIT_INDEX_FILE=out + ".index")
        subprocess.run(["git", "--git-dir", git_dir, "read-tree", rev], env=index, check=True)
        subprocess.run(["git", "--git-dir", git_dir, "--work-tree", tmp, "checkout-index",
                        "--all", "--force"], env=index, check=True)
        os.remove(out + ".index")
        os.rename(tmp, out)
    return out

def rg_strategy(root, query):
    words = []
    for w in re.split(r"[^\w-]+", query.lower()):
        w = w.strip("-_")
        if w and w not in STOP and w not in words:
            words.append(w)
    if not words:
        return [], 0
    args = ["rg", "-c", "-i", "-F"] + [x for w in words for x in ("-e", w)]
    p = subprocess.run(args + ["."], cwd=root, capture_output=True, text=True)
    counts = []
    for line in p.stdout.splitlines():
        path, _, n = line.rpartition(":")
        counts.append((-int(n), path[2:] if path.startswith("./") else path))
    counts.sort()
    ranked = [p for _, p in counts]
    read = len(p.stdout.encode())
    if ranked:
        top = subprocess.run(args[:1] + ["-n"] + args[2:] + ["--", ranked[0]], cwd=root,
                             capture_output=True)
        read += len(top.stdout)
    return ranked, read

results = json.load(open(os.path.join(work, "run", "results.json")))
rows = defaultdict(lambda: defaultdict(list))
for c in results["cases"]:
    suite = c["suite"]
    expected = set(c["expected"])
    git_dir, rev = fixtures[(suite, c["id"])]
    ranked = c["ranked"]
    rows[suite]["ask1"].append(bool(ranked) and ranked[0] in expected)
    rows[suite]["ask5"].append(any(r in expected for r in ranked[:5]))
    rows[suite]["askns"].append(c["outcome"] != "success")
    rows[suite]["askb"].append(c["output_bytes"])
    rg, read = rg_strategy(tree(git_dir, rev), c["query"])
    rows[suite]["rg1"].append(bool(rg) and rg[0] in expected)
    rows[suite]["rg5"].append(any(r in expected for r in rg[:5]))
    rows[suite]["rgns"].append(not rg)
    rows[suite]["rgb"].append(read)

pct = lambda xs: f"{100 * sum(xs) / len(xs):.0f} %"
mean = lambda xs: f"{sum(xs) / len(xs) / 1024:.1f} KB"
print("| repository | cases | ask hit@1 | ask hit@5 | ask not success | ask bytes | rg hit@1 | rg hit@5 | rg nothing found | rg bytes |")
print("|---|---|---|---|---|---|---|---|---|---|")
pooled = defaultdict(list)
for suite in sorted(rows):
    r = rows[suite]
    for k, v in r.items():
        pooled[k] += v
    print(f"| {suite} | {len(r['ask1'])} | {pct(r['ask1'])} | {pct(r['ask5'])} | {pct(r['askns'])} | {mean(r['askb'])} "
          f"| {pct(r['rg1'])} | {pct(r['rg5'])} | {pct(r['rgns'])} | {mean(r['rgb'])} |")
r = pooled
print(f"| **pooled** | {len(r['ask1'])} | {pct(r['ask1'])} | {pct(r['ask5'])} | {pct(r['askns'])} | {mean(r['askb'])} "
      f"| {pct(r['rg1'])} | {pct(r['rg5'])} | {pct(r['rgns'])} | {mean(r['rgb'])} |")
print(f"\nwork directory: {work}")
PY
if [ -n "${RESULTS:-}" ]; then
  python3 "$(dirname "$0")/results_section.py" "$RESULTS" "Commit-history task localisation" <"$WORK/table.md"
fi

#!/usr/bin/env bash
# findbench against the rg strategy on real source trees nobody here wrote.
#
# For each tree: `findbench corpus symbols` picks definitions with Universal Ctags and asks
# for each one by `find code NAME` and by `ask` with the exact name, with its words split
# and lower-cased, and as the bare words, and a member of a type qualified by its owner
# (`WalkBuilder::hidden`, by `find code` and `ask`); `findbench run` answers them. The rg strategy is
# what an agent does without findbench: `rg -c -i` over the question's significant words
# joined with `[ _-]?`, files ranked by match count (ties: shorter path, then bytes). The
# table gives, per tree and phrasing, hit@1 and hit@5 (a defining file at rank 1 / within
# 5), IE (no answer: findbench's insufficient_evidence or no_match, rg's no file) and the
# mean bytes an agent reads (findbench's JSON answer; rg's `path:count` lines).
#
# Trees (those present are used): crates of ~/.cargo/registry/src/*/ (clap_builder, rayon,
# serde_json, regex-syntax, memchr, ignore, or the first few), /usr/include, the Python
# standard library, and the whole cargo registry as one root. `--trees-from FILE` names the
# trees instead, a line `lang<TAB>dir` each, and adds a table per language.
#
# usage: benches/peer_real_code.sh [--per-tree N] [--seed N] [--out DIR] [--no-registry]
#            [--trees-from FILE] [--findbench BIN] [--corpora DIR] [--ctags PROG]
#   --findbench BIN  run this build instead of building the worktree's release binary
#   --corpora DIR    ask the corpora a previous run wrote to DIR (the same questions for two
#                    builds) instead of generating them
#   --ctags PROG     the ctags given to `findbench corpus symbols` (default
#                    benches/ctags-ground-truth.sh: Universal Ctags without Kotlin lambda parameters,
#                    with regex definitions for Swift and Scala, which 5.9 has no parser for)
# needs: cargo, python3, Universal Ctags (`ctags`), ripgrep (`rg`).
# RESULTS=check compares the printed per-language table with benches/RESULTS.md's section "Real-code quality by language"
# (the rows that differ; exit 1 when any does), RESULTS=write puts them there
# (benches/results_section.py).
set -euo pipefail

PER_TREE=60
SEED=1
OUT=${TMPDIR:-/tmp}/findbench-peer-real-code
REGISTRY=1
TREES_FROM=
FINDBENCH=
CORPORA=
CTAGS=
while [ $# -gt 0 ]; do
    case "$1" in
        --per-tree) PER_TREE=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --no-registry) REGISTRY=0; shift ;;
        --trees-from) TREES_FROM=$(realpath "$2"); shift 2 ;;
        --findbench) FINDBENCH=$(realpath "$2"); shift 2 ;;
        --corpora) CORPORA=$(realpath "$2"); shift 2 ;;
        --ctags) CTAGS=$(realpath "$(command -v "$2" || echo "$2")"); shift 2 ;;
        -h|--help) sed -n 2,29p "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

for tool in ctags rg python3 cargo; do
    if ! command -v "$tool" >/dev/null; then
        echo "error: $tool is not installed (ctags: apt-get install universal-ctags; rg: apt-get install ripgrep)" >&2
        exit 3
    fi
done

cd "$(dirname "$0")/.."
[ -n "$CTAGS" ] || CTAGS=$PWD/benches/ctags-ground-truth.sh
if [ -z "$FINDBENCH" ]; then
    cargo build --release -q -p findbench
    FINDBENCH=$PWD/target/release/findbench
fi
mkdir -p "$OUT"
: >"$OUT/trees.tsv"
# the trees' indexes are kept with the run, not in the user's cache
export FINDBENCH_CACHE=$OUT/cache

trees=()
langs=()
registry_src=$(ls -d "$HOME"/.cargo/registry/src/*/ 2>/dev/null | head -1 || true)
if [ -n "$TREES_FROM" ]; then
    while IFS=$'\t' read -r lang dir; do
        case "$lang" in ''|'#'*) continue ;; esac
        [ -d "$dir" ] || { echo "warning: $dir is not a directory, skipped" >&2; continue; }
        trees+=("$(realpath "$dir")"); langs+=("$lang")
    done <"$TREES_FROM"
    registry_src=
elif [ -n "$registry_src" ]; then
    picked=0
    for name in clap_builder rayon serde_json regex-syntax memchr ignore; do
        dir=$(ls -d "$registry_src$name"-[0-9]* 2>/dev/null | sort -V | tail -1 || true)
        if [ -n "$dir" ]; then trees+=("$dir"); picked=$((picked + 1)); fi
    done
    if [ "$picked" -lt 3 ]; then
        for dir in $(ls -d "$registry_src"*/ | head -$((3 - picked))); do trees+=("${dir%/}"); done
    fi
fi
stdlib=
if [ -z "$TREES_FROM" ]; then
    [ -d /usr/include ] && trees+=(/usr/include)
    stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
    [ -d "$stdlib" ] && trees+=("$stdlib")
    if [ "$REGISTRY" = 1 ] && [ -n "$registry_src" ]; then trees+=("${registry_src%/}"); fi
fi

echo "machine: $(uname -srm), $(nproc) cores; $("$FINDBENCH" --version); $(rg --version | head -1); $("$CTAGS" --version | head -1)"
echo "seed $SEED, $PER_TREE definitions per tree"
echo
for i in "${!trees[@]}"; do
    tree=${trees[$i]}
    lang=${langs[$i]:-}
    label=$(basename "$tree")
    [ -n "$lang" ] && label="$lang-$label"
    [ -n "$registry_src" ] && [ "$tree" = "${registry_src%/}" ] && label="cargo-registry"
    [ -n "$stdlib" ] && [ "$tree" = "$stdlib" ] && label="python-stdlib"
    [ "$tree" = /usr/include ] && label="usr-include"
    corpus=$OUT/$label.yaml
    printf '%s\t%s\t%s\n' "$label" "$tree" "$lang" >>"$OUT/trees.tsv"
    if [ -n "$CORPORA" ]; then
        if [ ! -f "$CORPORA/$label.yaml" ]; then
            echo "$label: no corpus in $CORPORA" >>"$OUT/log.txt"
            continue
        fi
        [ "$CORPORA/$label.yaml" -ef "$corpus" ] || cp "$CORPORA/$label.yaml" "$corpus"
    elif ! "$FINDBENCH" corpus symbols --root "$tree" --out "$corpus" --seed "$SEED" \
        --per-tree "$PER_TREE" --suite "$label" --ctags "$CTAGS" 2>>"$OUT/log.txt"; then
        continue
    fi
    rm -rf "$OUT/$label"
    "$FINDBENCH" run "$corpus" --out "$OUT/$label" --no-progress -q \
        >/dev/null 2>>"$OUT/log.txt" || true
done

python3 - "$OUT" <<'PY' | tee "$OUT/table.md"
import json, os, re, subprocess, sys

out = sys.argv[1]
with open(os.path.join(out, "trees.tsv")) as fh:
    trees = [(line.rstrip("\n").split("\t") + [""])[:3] for line in fh if line.strip()]
# the words an agent would not search for: question, intent and function words
STOP = set("""a an the is are was were be of for in on at to from by with and or it its this
that me my i you we can could would should please how what which who why when where find show
locate open search look get see read defined define defines definition implemented implement
implementation implements file files code does do work works""".split())

def rg_rank(query, root):
    words = [w for w in re.findall(r"[A-Za-z0-9_]+", query) if w.lower() not in STOP]
    if not words:
        return [], 0
    pattern = "[ _-]?".join(re.escape(w) for w in words)
    p = subprocess.run(["rg", "-c", "-i", "--no-messages", pattern, "."], cwd=root,
                       capture_output=True, text=True)
    counts = []
    for line in p.stdout.splitlines():
        path, _, n = line.rpartition(":")
        counts.append((-int(n), len(path), path.removeprefix("./")))
    counts.sort()
    return [c[2] for c in counts], len(p.stdout.encode())

rows = []
by_lang = {}
for label, root, lang in trees:
    corpus = os.path.join(out, label + ".yaml")
    results = os.path.join(out, label, "results.json")
    if not os.path.exists(results):
        print(f"{label}: no results (see {out}/log.txt)")
        continue
    cases = {}
    with open(corpus) as fh:
        for line in fh:
            if line.startswith("  - {"):
                c = json.loads(line[4:])
                cases[c["id"]] = c
    with open(results) as fh:
        doc = json.load(fh)
    stats = {}
    for r in doc["cases"]:
        c = cases.get(r["id"])
        if not c:
            continue
        phrasing = ("code " if c["mode"] == "code" else "ask ") + c["tags"][1]
        expected = set(c["expect"]["contains"])
        s = stats.setdefault(phrasing, {"n": 0, "f1": 0, "f5": 0, "fie": 0, "fb": 0,
                                        "r1": 0, "r5": 0, "rie": 0, "rb": 0})
        s["n"] += 1
        ranked = r.get("ranked", [])
        s["f1"] += bool(ranked[:1] and ranked[0] in expected)
        s["f5"] += bool(expected & set(ranked[:5]))
        s["fie"] += r["outcome"] in ("insufficient_evidence", "no_match")
        s["fb"] += r.get("output_bytes", 0)
        rg, nbytes = rg_rank(c["query"], os.path.realpath(root))
        s["r1"] += bool(rg[:1] and rg[0] in expected)
        s["r5"] += bool(expected & set(rg[:5]))
        s["rie"] += not rg
        s["rb"] += nbytes
    for phrasing in ["code exact", "ask exact", "ask split", "ask bare", "code qualified",
                     "ask qualified"]:
        if phrasing in stats:
            rows.append((label, phrasing, stats[phrasing]))
            if lang:
                total = by_lang.setdefault(lang, {}).setdefault(phrasing, {})
                for k, v in stats[phrasing].items():
                    total[k] = total.get(k, 0) + v

pct = lambda k, n: f"{100.0 * k / n:5.1f}%"
print("| tree | phrasing | n | findbench hit@1 | rg hit@1 | findbench hit@5 | rg hit@5 | findbench IE | rg IE | findbench bytes | rg bytes |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for label, phrasing, s in rows:
    n = s["n"]
    print(f"| {label} | {phrasing} | {n} | {pct(s['f1'], n)} | {pct(s['r1'], n)} | "
          f"{pct(s['f5'], n)} | {pct(s['r5'], n)} | {pct(s['fie'], n)} | {pct(s['rie'], n)} | "
          f"{s['fb'] // n} | {s['rb'] // n} |")

if by_lang:
    # hit@1 per language: findbench / rg for each phrasing, then every language together
    phrasings = [("code exact", "find code"), ("ask exact", "ask exact"),
                 ("ask split", "ask split"), ("ask bare", "ask bare")]
    print()
    print("| language | symbols | " + " | ".join(f"{t} | rg" for _, t in phrasings)
          + " | ask IE |")
    print("|---|---:|" + "---:|---:|" * len(phrasings) + "---:|")
    all_langs = {}
    for lang in list(by_lang) + ["all"]:
        st = by_lang.get(lang) or all_langs
        if lang != "all":
            for ph, s in st.items():
                total = all_langs.setdefault(ph, {})
                for k, v in s.items():
                    total[k] = total.get(k, 0) + v
        cells = []
        for ph, _ in phrasings:
            s = st.get(ph)
            cells += [pct(s["f1"], s["n"]), pct(s["r1"], s["n"])] if s else ["-", "-"]
        ie = sum(st[ph]["fie"] for ph in st if ph in ("ask exact", "ask split", "ask bare"))
        n = st.get("code exact", {"n": 0})["n"]
        print(f"| {lang} | {n} | " + " | ".join(cells) + f" | {ie} |")
    # members asked qualified by their owner (`WalkBuilder::hidden`): hit@1 and hit@5
    print()
    print("| language | members | find code qualified @1 | rg | @5 | rg | ask qualified @1 | rg "
          "| @5 | rg | ask IE |")
    print("|---|---:|" + "---:|" * 9)
    for lang in list(by_lang) + ["all"]:
        st = by_lang.get(lang) or all_langs
        code, ask = st.get("code qualified"), st.get("ask qualified")
        if not code or not ask:
            continue
        cells = [pct(s[k], s["n"]) for s in (code, ask) for k in ("f1", "r1", "f5", "r5")]
        print(f"| {lang} | {code['n']} | " + " | ".join(cells) + f" | {ask['fie']} |")
PY
if [ -n "${RESULTS:-}" ]; then
  # the per-language table (printed with --trees-from)
  python3 "$(dirname "$0")/results_section.py" "$RESULTS" "Real-code quality by language" \
    <<<"$(sed -n '/^| language |/,/^$/p' "$OUT/table.md")"
fi

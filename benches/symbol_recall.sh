#!/usr/bin/env bash
# Definition recall of findbench's scanners (engine/src/tree/symbols.rs) and of tree-sitter's
# tags queries (benches/tree_sitter_probe) against a reference, per language, over every
# project under PROJECTS/<lang>/<name>. docs/symbol-reader.md reads its table.
#
# Tools: findbench (target/release/examples/dump_symbols), tree-sitter with the tags queries as
# shipped and with the probe's extra patterns (benches/tree_sitter_probe/queries/extra).
# Reference: Universal Ctags (`ctags --output-format=json --fields=+nKlEs`) over the files the
# walkers see (`rg --files`: .gitignore honoured, hidden skipped, at most 1 MiB); for Swift
# and Scala, which this ctags (5.9) cannot parse, the declaration regexes in REGEX_REFERENCE
# below (weaker: one line per declaration, like a line scanner).
# Not definitions an agent looks up, so left out of the reference: ctags' anonymous functions
# (`extras: anonymous`, JavaScript callbacks), Kotlin's `<lambda>` tags and the lambda
# parameters and loop variables its parser tags as methods (a Kotlin method must have `fun` on
# its line), and C/C++ "functions" named in capitals (`TEST(suite, name) {`: a test macro
# invoked, not a function defined).
# Both readers pick a file's language by its extension; definitions in files they cannot
# map (extensionless scripts ctags recognises by their `#!` line, `.bats`) are counted apart.
# Minified files (`.min.` in the name) are left out: one line holds hundreds of definitions.
# A reference definition is found when a tool names the same file, the same name (the last
# segment of a qualified name) and a line within ±1.
#
# Usage: benches/symbol_recall.sh [PROJECTS] [OUT]
#   PROJECTS defaults to /work/projects, OUT to target/symbol-recall.
#   Writes OUT/recall.md (the table), OUT/misses-<tool>.tsv (every reference definition a
#   tool misses, with its source line) and the raw JSON lines of each tool per project.
#   SKIP_TOOLS=1 reuses the readers' JSON lines of the last run and only re-reads ctags.
#   ctags 5.9's Kotlin parser is not deterministic: Kotlin's reference moves by a few dozen
#   definitions from run to run.
# Needs: cargo, ctags (Universal Ctags), rg, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECTS=${1:-/work/projects}
OUT=${2:-target/symbol-recall}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
mkdir -p "$OUT/raw"

cargo build -q --release -p findbench-benches --example dump_symbols
cargo build -q --release --manifest-path benches/tree_sitter_probe/Cargo.toml
DUMP=$PWD/target/release/examples/dump_symbols
PROBE=$PWD/benches/tree_sitter_probe/target/release/tree-sitter-probe
OUT=$(cd "$OUT" && pwd)

for dir in "$PROJECTS"/*/*/; do
  dir=${dir%/}
  key=$(basename "$(dirname "$dir")")__$(basename "$dir")
  (cd "$dir" && rg --files --no-require-git --max-filesize 1M | LC_ALL=C sort) > "$OUT/raw/$key.files"
  (cd "$dir" && ctags --output-format=json --fields=+nKlEs --extras=-F \
      --map-TypeScript=+.tsx --map-TypeScript=+.mts --map-TypeScript=+.cts \
      --map-JavaScript=+.cjs -L "$OUT/raw/$key.files" -f - 2>/dev/null) > "$OUT/raw/$key.ctags.jsonl" || true
  [ -n "${SKIP_TOOLS:-}" ] || "$PROBE" "$dir" --dump --mode defs > "$OUT/raw/$key.treesitter.jsonl" 2>/dev/null
  [ -n "${SKIP_TOOLS:-}" ] || "$PROBE" "$dir" --dump --mode defs --queries extended > "$OUT/raw/$key.treesitter-extended.jsonl" 2>/dev/null
  [ -n "${SKIP_TOOLS:-}" ] || "$DUMP" "$dir" > "$OUT/raw/$key.findbench.jsonl"
  echo "$key $dir" >> "$OUT/raw/projects.new"
done
mv "$OUT/raw/projects.new" "$OUT/raw/projects"

python3 - "$OUT" <<'PY'
import json, os, re, sys
from collections import defaultdict

out = sys.argv[1]
raw = os.path.join(out, "raw")

# ctags language -> (row name, the kinds that answer "where is X defined").
KINDS = {
    "Rust": ("rust", {"function", "method", "struct", "enum", "interface", "typedef", "macro"}),
    "Python": ("python", {"class", "function", "member"}),
    "Go": ("go", {"func", "struct", "interface", "type", "talias"}),
    "Java": ("java", {"class", "enum", "interface", "method", "annotation"}),
    "Kotlin": ("kotlin", {"class", "interface", "object", "method", "typealias"}),
    "C": ("c", {"function", "struct", "enum", "union", "typedef", "macro"}),
    "C++": ("cpp", {"function", "class", "struct", "enum", "union", "typedef", "macro"}),
    "C#": ("csharp", {"class", "struct", "enum", "interface", "method"}),
    "JavaScript": ("javascript", {"function", "class", "method", "generator", "getter", "setter"}),
    "TypeScript": ("typescript", {"function", "class", "method", "interface", "enum", "alias", "generator"}),
    "Ruby": ("ruby", {"class", "module", "method", "singletonMethod"}),
    "PHP": ("php", {"class", "interface", "trait", "function"}),
    "Sh": ("shell", {"function"}),
}

# Swift and Scala: this ctags has no parser for them; these regexes stand in.
MODS_SWIFT = r"(?:(?:public|private|internal|fileprivate|open|final|static|class|override|mutating|nonmutating|convenience|required|dynamic|optional|nonisolated|indirect|prefix|postfix|infix|lazy|weak|unowned)(?:\([a-z]+\))?\s+)*"
ATTRS = r"(?:@[\w.]+(?:\([^)]*\))?\s+)*"
REGEX_REFERENCE = {
    "swift": [
        ("type", re.compile(r"^\s*" + ATTRS + MODS_SWIFT + r"(?:class|struct|enum|protocol|actor)\s+([A-Za-z_]\w*)")),
        ("func", re.compile(r"^\s*" + ATTRS + MODS_SWIFT + r"func\s+([A-Za-z_]\w*|`[^`]+`|[^\s(<]+)")),
        ("typealias", re.compile(r"^\s*" + ATTRS + MODS_SWIFT + r"typealias\s+([A-Za-z_]\w*)")),
    ],
    "scala": [
        ("type", re.compile(r"^\s*" + ATTRS + r"(?:(?:private|protected|final|sealed|abstract|implicit|lazy|override|case|inline|open|transparent|opaque)(?:\[\w+\])?\s+)*(?:class|object|trait|enum)\s+([A-Za-z_]\w*|`[^`]+`)")),
        ("def", re.compile(r"^\s*" + ATTRS + r"(?:(?:private|protected|final|implicit|override|inline|transparent)(?:\[\w+\])?\s+)*def\s+([A-Za-z_]\w*|`[^`]+`|[^\s(\[:=]+)")),
        ("type", re.compile(r"^\s*" + ATTRS + r"(?:(?:private|protected|final|override|opaque)(?:\[\w+\])?\s+)*type\s+([A-Za-z_]\w*)")),
    ],
}
REGEX_EXT = {".swift": "swift", ".scala": "scala", ".sc": "scala"}
NOT_NAMES = {"func", "var", "let", "subscript", "init", "deinit", "typealias"}

def regex_reference(root, rel):
    lang = REGEX_EXT.get(os.path.splitext(rel)[1])
    if not lang:
        return []
    try:
        text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    found, in_comment = [], False
    for i, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        if s.startswith("//") or s.startswith("*"):
            continue
        for kind, rx in REGEX_REFERENCE[lang]:
            m = rx.match(line)
            if m and m.group(1) not in NOT_NAMES:
                found.append((lang, kind, m.group(1).strip("`"), rel, i))
                break
    return found

# The extensions benches/tree_sitter_probe/src/languages.rs maps (a superset of findbench's).
MAPPED = {"rs", "py", "pyi", "go", "java", "kt", "kts", "c", "h", "hh", "hpp", "hxx", "cc", "cpp",
          "cxx", "c++", "ipp", "inl", "cs", "js", "jsx", "mjs", "cjs", "ts", "mts", "cts", "tsx",
          "rb", "php", "swift", "scala", "sc", "sh", "bash"}
unmapped = defaultdict(int)

def mapped(path):
    return os.path.splitext(path)[1][1:].lower() in MAPPED

def minified(path):
    return ".min." in os.path.basename(path)

def last_segment(name):
    return re.split(r"::|\.|#|\\", name)[-1].strip("`")

def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]

refs = []             # (lang, kind, name, path, line, key, root)
found = {"treesitter": set(), "treesitter-extended": set(), "findbench": set()}   # (key, path, name, line)
files_per_lang = defaultdict(set)
for entry in open(os.path.join(raw, "projects")):
    key, root = entry.rstrip("\n").split(" ", 1)
    for t in load(os.path.join(raw, key + ".ctags.jsonl")):
        if t.get("_type") != "tag" or t.get("language") not in KINDS:
            continue
        lang, kinds = KINDS[t["language"]]
        files_per_lang[lang].add((key, t["path"]))
        if "anonymous" in t.get("extras", "") or t["name"] == "<lambda>":
            continue
        if t["language"] == "Kotlin" and t.get("kind") == "method" and not re.search(r"\bfun\b", t.get("pattern", "")):
            continue
        if t["language"] in ("C", "C++") and t.get("kind") == "function" and re.fullmatch(r"[A-Z][A-Z0-9_]*", t["name"]):
            continue
        if minified(t["path"]):
            continue
        if t.get("kind") in kinds and not mapped(t["path"]):
            unmapped[lang] += 1
        elif t.get("kind") in kinds:
            refs.append((lang, t["kind"], t["name"], t["path"], t["line"], key, root))
    for rel in open(os.path.join(raw, key + ".files")).read().split("\n"):
        for lang, kind, name, path, line in regex_reference(root, rel):
            files_per_lang[lang].add((key, path))
            refs.append((lang, kind, name, path, line, key, root))
    for tool in found:
        for s in load(os.path.join(raw, f"{key}.{tool}.jsonl")):
            found[tool].add((key, s["path"], last_segment(s["name"]), s["line"]))

def hit(tool, r):
    lang, kind, name, path, line, key, root = r
    name = last_segment(name)
    return any((key, path, name, line + d) in found[tool] for d in (-1, 0, 1))

ORDER = ["rust", "python", "go", "java", "kotlin", "c", "cpp", "csharp", "javascript",
         "typescript", "ruby", "php", "swift", "scala", "shell"]
by_lang = defaultdict(list)
for r in refs:
    by_lang[r[0]].append(r)

rows = ["| language | files | reference definitions | tree-sitter recall (shipped queries) | tree-sitter recall (extended queries) | findbench recall | in files mapped by no extension |",
        "|---|---:|---:|---:|---:|---:|---:|"]
source_cache = {}
def source_line(root, path, line):
    k = (root, path)
    if k not in source_cache:
        try:
            source_cache[k] = open(os.path.join(root, path), encoding="utf-8", errors="replace").read().split("\n")
        except OSError:
            source_cache[k] = []
    lines = source_cache[k]
    return lines[line - 1].strip()[:160] if 0 < line <= len(lines) else ""

misses = {tool: open(os.path.join(out, f"misses-{tool}.tsv"), "w") for tool in found}
for f in misses.values():
    f.write("lang\tkind\tname\tproject\tpath\tline\tsource\n")
total = {"n": 0, **{tool: 0 for tool in found}}
for lang in ORDER:
    rs = by_lang.get(lang, [])
    if not rs:
        rows.append(f"| {lang} | 0 | 0 | – | – | – | {unmapped[lang]} |")
        continue
    counts = {}
    for tool in found:
        n = 0
        for r in rs:
            if hit(tool, r):
                n += 1
            else:
                misses[tool].write("\t".join(re.sub(r"\s", " ", str(v)) for v in [r[0], r[1], r[2], r[5], r[3], r[4], source_line(r[6], r[3], r[4])]) + "\n")
        counts[tool] = n
        total[tool] += n
    total["n"] += len(rs)
    ref = " (regex)" if lang in REGEX_REFERENCE else ""
    rows.append(f"| {lang} | {len(files_per_lang[lang])} | {len(rs)}{ref} | "
                + "".join(f"{counts[t] / len(rs):.1%} ({counts[t]}) | " for t in found)
                + f"{unmapped[lang]} |")
rows.append(f"| **all** | | {total['n']} | " + "".join(f"{total[t] / total['n']:.1%} | " for t in found) + f"{sum(unmapped.values())} |")
for f in misses.values():
    f.close()
table = "\n".join(rows) + "\n"
open(os.path.join(out, "recall.md"), "w").write(table)
print(table)
PY

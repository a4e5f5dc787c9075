#!/usr/bin/env python3
"""Lists import cycles between the files of each crate given (default: the harness crates).

    python3 scripts/check_import_cycles.py [CRATE_SRC_DIR...]

A file imports another when its code (before the first `#[cfg(test)]`, comments and
strings aside) names an item of it: in a `use` line or inline, through `crate::`,
`super::`, `self::` or a child module's name; the path is followed down to the deepest
module file it names. A `mod` declaration alone is not an import. Each strongly connected
component of more than one file is printed with its edges.
Exit 0 when there is no cycle, 1 otherwise.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["harness/eval/src", "harness/traces/src", "harness/mcp/src", "harness/cli/src"]


def code_of(path):
    text = path.read_text(encoding="utf-8")
    cut = text.find("#[cfg(test)]")
    if cut >= 0:
        text = text[:cut]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def expand(tree):
    """A use tree (`a::{b, c::d as e}`) as a list of paths (lists of segments)."""
    out = []

    def walk(prefix, text):
        parts, depth, cur = [], 0, ""
        for ch in text:
            depth += (ch == "{") - (ch == "}")
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        for part in filter(None, (p.strip() for p in parts)):
            if "{" in part:
                head, rest = part.split("{", 1)
                walk(prefix + [s for s in head.split("::") if s], rest[: rest.rfind("}")])
            else:
                part = re.sub(r"\s+as\s+\w+$", "", part)
                out.append(prefix + [s for s in part.split("::") if s])

    walk([], re.sub(r"\s+", " ", tree))
    return out


def graph(src):
    root = src / "lib.rs" if (src / "lib.rs").exists() else src / "main.rs"

    def module_file(module):
        if not module:
            return root
        base = src.joinpath(*module)
        for candidate in (base.with_suffix(".rs"), base / "mod.rs"):
            if candidate.exists():
                return candidate
        return None

    modules = {}
    for path in src.rglob("*.rs"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "mod":
            parts = parts[:-1]
        modules[path] = [] if path == root else parts
    edges = {p: set() for p in modules}
    for path, module in modules.items():
        code = code_of(path)
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", code):
            paths += expand(m.group(1))
        inline = re.sub(r"\buse\s+[^;]+;", "", code)
        paths += [m.group(1).split("::") for m in re.finditer(
            r"\b((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", inline)]
        for segs in paths:
            cur, i = list(module), 0
            if segs[0] == "crate":
                cur, i = [], 1
            elif segs[0] in ("super", "self"):
                while i < len(segs) and segs[i] in ("super", "self"):
                    cur = cur[:-1] if segs[i] == "super" else cur
                    i += 1
            elif module_file(tuple(cur + [segs[0]])) is None:
                continue  # another crate, or an item of this file
            while i < len(segs) and module_file(tuple(cur + [segs[i]])) is not None:
                cur.append(segs[i])
                i += 1
            target = module_file(tuple(cur))
            if target and target != path:
                edges[path].add(target)
    return edges


def cycles(edges):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    for v in edges:
        if v not in index:
            visit(v)
    return found


def main():
    bad = 0
    for name in sys.argv[1:] or DEFAULT:
        src = (ROOT / name).resolve()
        edges = graph(src)
        found = cycles(edges)
        bad += len(found)
        print(f"{name}: {len(edges)} files, {len(found)} cycle(s)")
        for comp in found:
            members = set(comp)
            print("  cycle: " + " ".join(sorted(str(p.relative_to(src)) for p in comp)))
            for v in sorted(comp):
                for w in sorted(edges[v] & members):
                    print(f"    {v.relative_to(src)} -> {w.relative_to(src)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

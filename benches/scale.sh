#!/usr/bin/env bash
# How findbench's costs grow with the tree: builds trees of 1, 4 and 16 copies of one source
# tree (hard links: no disk beyond the directories), and on each measures, with rg beside:
#
#   first ask   `ask` on the never-indexed tree (fresh FINDBENCH_CACHE, no background build)
#   index       `findbench index`: wall time, peak RSS, the cache's size on disk
#   warm ask    median of 5 `ask` calls on the kept index
#   after edit  the first `ask` after one file is rewritten (a new inode: the source tree's
#               own file is never touched), after one is added, and after one is removed
#               (its link in the copy: the source keeps it); then `findbench index` after
#               another edit
#   server      `ask` through `findbench serve --mcp` with the official Python SDK (when
#               PYTHON names a Python with the `mcp` package), empty cache: the first call,
#               then the median of 5 once the server's own index build had time to end
#   rg          `rg -c -i` of the question's words over the same tree (median of 3)
#
# Usage: benches/scale.sh [FACTOR...]   (default 1 4 16)
# Environment: SRC=tree to copy (default ~/.cargo/registry/src); WORK=dir for the trees
# and caches (default a temporary dir, removed at the end); FINDBENCH=binary (default
# target/release/findbench, built); PYTHON=python with `mcp` for the server column;
# RESULTS=check|write compares the table with benches/RESULTS.md's section "How cost
# grows with the tree", or writes it there (benches/results_section.py).
# Peak RSS comes from /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
FACTORS=("$@")
[ ${#FACTORS[@]} -eq 0 ] && FACTORS=(1 4 16)
SRC="${SRC:-$HOME/.cargo/registry/src}"
command -v rg >/dev/null || { echo "rg not found (apt-get install ripgrep)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (apt-get install time)" >&2; exit 2; }
if [ -z "${FINDBENCH:-}" ]; then
  cargo build --release -q -p findbench
  FINDBENCH="$PWD/target/release/findbench"
fi
KEEP=1
if [ -z "${WORK:-}" ]; then
  WORK="$(mktemp -d -t findbench-scale.XXXXXX)"
  KEEP=0
fi
mkdir -p "$WORK"
python3 - "$FINDBENCH" "$SRC" "$WORK" "${PYTHON:-}" "${FACTORS[@]}" <<'PY' | tee "$WORK/table.md"
import json, os, shutil, statistics, subprocess, sys, tempfile, time

fb, src, work, python, factors = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
question = "where is replay implemented"
words = ["replay", "implemented"]
median = statistics.median


def timed(args, cache, env_extra=None):
    """Wall seconds and peak RSS (MiB) of one process."""
    env = dict(os.environ, FINDBENCH_CACHE=cache, FINDBENCH_NO_BACKGROUND_INDEX="1", **(env_extra or {}))
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({p.returncode}): {p.stderr[-400:]}")
    return wall, int(p.stderr.strip().splitlines()[-1]) / 1024


def ask(tree, cache):
    return timed([fb, "ask", question, "--root", tree, "--format", "json"], cache)


def nth_rs(tree, n):
    """The n-th .rs file of the tree, in walk order."""
    found = 0
    for d, dirs, files in os.walk(tree):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".rs"):
                found += 1
                if found == n:
                    return os.path.join(d, f)
    sys.exit("too few .rs files")


def rewrite(tree, n):
    """Rewrites the n-th .rs file of the tree under a new inode (its hard-linked source
    stays as it was), with one line more."""
    path = nth_rs(tree, n)
    with open(path, "rb") as h:
        text = h.read()
    tmp = path + ".scale-tmp"
    with open(tmp, "wb") as h:
        h.write(text + b"\n// replay edited by benches/scale.sh\n")
    os.replace(tmp, path)


def server_calls(tree, settle):
    """The first `ask` call through the MCP SDK on a server started with an empty cache,
    and the median of five more once `settle` seconds have passed (the server builds the
    tree's index on a thread of its own meanwhile: docs/mcp.md), in seconds."""
    if not python:
        return None
    code = r'''
import asyncio, os, sys, time, json
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
async def main(fb, tree, q, settle):
    # the SDK passes the server only a few variables unless told: FINDBENCH_CACHE too
    params = StdioServerParameters(command=fb, args=["serve", "--mcp", "--root", tree],
                                   env=dict(os.environ))
    out = []
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            for k in range(6):
                t = time.perf_counter()
                await s.call_tool("ask", {"question": q})
                out.append(time.perf_counter() - t)
                if k == 0:
                    await asyncio.sleep(float(settle))
    print(json.dumps(out))
asyncio.run(main(*sys.argv[1:5]))
'''
    cache = tempfile.mkdtemp(dir=work, prefix="server-cache.")
    p = subprocess.run([python, "-c", code, fb, tree, question, str(settle)], capture_output=True,
                       text=True, env=dict(os.environ, FINDBENCH_CACHE=cache))
    shutil.rmtree(cache)
    if p.returncode != 0:
        sys.exit(f"server timing failed: {p.stderr[-600:]}")
    calls = json.loads(p.stdout)
    return calls[0], median(calls[1:])


def rg_time(tree):
    args = ["rg", "-c", "-i"] + sum([["-e", w] for w in words], []) + [tree]
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL)
        runs.append(time.perf_counter() - t)
    return median(runs)


rows = []
for k in factors:
    tree = os.path.join(work, f"x{k}")
    if not os.path.isdir(tree):
        os.makedirs(tree)
        for i in range(int(k)):
            subprocess.run(["cp", "-al", src, os.path.join(tree, f"copy{i}")], check=True)
    files = sum(len(fs) for _, _, fs in os.walk(tree))
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tree) for f in fs
               if not os.path.islink(os.path.join(d, f)))
    rg = rg_time(tree)
    cache = tempfile.mkdtemp(dir=work, prefix="cache.")
    first, first_rss = ask(tree, cache)
    shutil.rmtree(cache)
    cache = tempfile.mkdtemp(dir=work, prefix="cache.")
    build, build_rss = timed([fb, "index", tree, "-q"], cache)
    on_disk = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(cache) for f in fs)
    warm = median([ask(tree, cache)[0] for _ in range(5)])
    rewrite(tree, 1)
    after, after_rss = ask(tree, cache)
    added = nth_rs(tree, 3) + ".added.rs"
    with open(added, "w") as h:
        h.write("/// replay added by benches/scale.sh\npub fn replay_added() {}\n")
    after_add = ask(tree, cache)[0]
    os.remove(added)
    os.remove(nth_rs(tree, 4))
    after_delete = ask(tree, cache)[0]
    rewrite(tree, 2)
    refresh, refresh_rss = timed([fb, "index", tree, "-q"], cache)
    server = server_calls(tree, settle=2 + 1.5 * build)
    shutil.rmtree(cache)
    rows.append((k, files, size, first, first_rss, build, build_rss, on_disk, warm, after,
                 after_rss, after_add, after_delete, refresh, refresh_rss, server, rg))

ms = lambda s: f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"
mib = lambda b: f"{b / 2**20:.0f} MiB"
print("| tree | files | text | first ask | index build | index cache | warm ask | ask after an edit | after an add; a delete | index after an edit | server ask (first; next) | rg |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (k, files, size, first, first_rss, build, build_rss, on_disk, warm, after, after_rss,
     after_add, after_delete, refresh, refresh_rss, server, rg) in rows:
    srv = f"{ms(server[0])}; {ms(server[1])}" if server else "–"
    print(f"| {k}x | {files:,} | {mib(size)} | {ms(first)}, {first_rss:.0f} MiB | {ms(build)}, "
          f"{build_rss:.0f} MiB | {mib(on_disk)} | {ms(warm)} | {ms(after)}, {after_rss:.0f} MiB | "
          f"{ms(after_add)}; {ms(after_delete)} | "
          f"{ms(refresh)}, {refresh_rss:.0f} MiB | {srv} | {ms(rg)} |")
PY
if [ -n "${RESULTS:-}" ]; then
  python3 benches/results_section.py "$RESULTS" "How cost grows with the tree" <"$WORK/table.md"
fi
[ "$KEEP" = 1 ] || rm -rf "$WORK"

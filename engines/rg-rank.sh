#!/bin/sh
# rg-rank.sh QUERY ROOT LIMIT: the search an agent runs without findbench, for engines/rg.yaml.
# The query's significant words (lower-cased; question and intent words and words under three
# characters dropped, as an agent would type them) are joined with `[ _-]?`, so `cursor
# binary` also finds cursor_binary and cursor-binary; `rg -c -i` counts matching lines per
# file; files are ranked by that count, ties by the shorter path, then by path. Prints at
# most LIMIT paths relative to ROOT, best first; exits 2 when rg fails.
query=$1
root=$2
limit=$3
words=$(printf '%s\n' "$query" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9_\n' ' ' | awk '
  BEGIN {
    n = split("where what which when how why who is are was were the and for with from into " \
              "does did find show get list implemented implementation defined definition " \
              "located handled", w, " ")
    for (i = 1; i <= n; i++) stop[w[i]] = 1
  }
  {
    for (i = 1; i <= NF; i++) if (length($i) >= 3 && !($i in stop)) out = out (out ? " " : "") $i
  }
  END { print out }')
if [ -z "$words" ]; then
  # nothing significant left: search every word of the query
  words=$(printf '%s\n' "$query" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9_\n' ' ')
fi
pattern=$(printf '%s\n' $words | awk 'NF { p = p (p ? "[ _-]?" : "") $0 } END { print p }')
[ -n "$pattern" ] || exit 0
cd "$root" || exit 2
counts=$(rg -c -i --no-messages -e "$pattern" .)
status=$?
[ "$status" -le 1 ] || exit "$status"
[ -n "$counts" ] || exit 0
tab=$(printf '\t')
printf '%s\n' "$counts" | awk '{
    i = match($0, /:[0-9]+$/)
    path = substr($0, 1, i - 1)
    sub(/^\.\//, "", path)
    printf "%d\t%d\t%s\n", substr($0, i + 1), length(path), path
  }' | sort -t "$tab" -k1,1nr -k2,2n -k3,3 | head -n "$limit" | cut -f3-

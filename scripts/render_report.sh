#!/bin/sh
# Renders report.html pages to PNG with headless Chromium, to look at them as a person
# would (not run by CI). Needs `chromium` (Debian: apt-get install chromium).
#
#   scripts/render_report.sh reports/latest/report.html [/tmp/report.png] [WIDTHxHEIGHT]
#
# Chromium runs with no network (--host-resolver-rules), so a page that tried to fetch a
# script, font or image would show it missing: report.html is self-contained.
set -eu
page=${1:?usage: scripts/render_report.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]}
out=${2:-${page%.html}.png}
size=${3:-1200x2400}
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --host-resolver-rules="MAP * ~NOTFOUND" \
  --window-size="$(echo "$size" | tr x ,)" \
  --screenshot="$out" "file://$abs" 2>/dev/null
echo "$out"

#!/usr/bin/env bash
# Universal Ctags as the ground truth of `findbench corpus symbols` (give it as `--ctags`;
# benches/peer_real_code.sh does), with two corrections, each for tags that name nothing
# an agent asks for as a definition (anonymous tags, `AnonymousFunction3d47cc...`, are left
# out by `corpus symbols` itself):
# - no Kotlin `method` on a line without `fun`: Universal Ctags 5.9's Kotlin parser tags the
#   parameters of lambdas (`{ algorithm -> ...}`) as methods;
# - regex definitions (benches/ctags/langdefs.ctags) for languages 5.9 has no parser for
#   (Swift, Scala).
here=$(dirname "$(realpath "$0")")
args=(--options="$here/ctags/langdefs.ctags" "$@")
case " $* " in
*" --version "* | *" --help "*) exec ctags "${args[@]}" ;;
esac
set -o pipefail
ctags "${args[@]}" | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        tag = json.loads(line)
    except ValueError:
        sys.stdout.write(line)
        continue
    if (tag.get("language") == "Kotlin" and tag.get("kind") == "method"
            and "fun " not in tag.get("pattern", "")):
        continue
    sys.stdout.write(line)
'

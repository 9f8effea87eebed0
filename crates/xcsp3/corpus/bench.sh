#!/usr/bin/env bash
# One run of csp-xcsp and of ACE (the solver that pycsp3 bundles, Java 17)
# on each instance of the corpus, one after the other in the same session,
# printed as a Markdown table (BENCHMARKS.md, "XCSP3 corpus"). Run from the
# workspace root after `cargo build --release -p csp-cli --bin csp-xcsp`:
#
#   crates/xcsp3/corpus/bench.sh [CSP_XCSP_OPTIONS...]
#
# Times are wall-clock milliseconds of the whole process (reading the file
# included; for ACE the JVM's start too), and for ACE also its own
# wall-clock of the search ("wck" of its global summary, after loading).
# csp-xcsp runs with its default configuration unless options are given.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
solver="$root/target/release/csp-xcsp"
jar="${ACE_JAR:-$(python3 -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("pycsp3").origin))')/solvers/ace/ACE-2.6.jar}"
[ -x "$solver" ] || { echo "build csp-xcsp first: cargo build --release -p csp-cli --bin csp-xcsp" >&2; exit 2; }
[ -f "$jar" ] || { echo "ACE's jar not found (pip install pycsp3==2.6.1, or set ACE_JAR)" >&2; exit 2; }
now() { date +%s%N; }
answer() { # the s line's status, and the last o value if any
  local out=$1 status objective
  status=$(printf '%s\n' "$out" | sed -n 's/^s \([A-Z ]*[A-Z]\).*$/\1/p' | sed -n 1p)
  objective=$(printf '%s\n' "$out" | sed -n 's/^o \(-\{0,1\}[0-9]*\).*$/\1/p' | sed -n '$p')
  printf '%s%s' "${status:-?}" "${objective:+ $objective}"
}
echo '| instance | csp-xcsp | ms | ACE | ms | ACE search ms |'
echo '| --- | --- | ---: | --- | ---: | ---: |'
for xml in "$root"/crates/xcsp3/corpus/*.xml; do
  start=$(now)
  ours=$("$solver" "$@" "$xml" 2>/dev/null || true)
  ours_ms=$(( ($(now) - start) / 1000000 ))
  start=$(now)
  theirs=$(java -jar "$jar" "$xml" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true)
  theirs_ms=$(( ($(now) - start) / 1000000 ))
  # The global summary's wall-clock, in seconds: the wck after "global".
  search=$(printf '%s\n' "$theirs" | sed -n '/^ *global/,$p' | sed -n 's/.*wck:\([0-9.]*\).*/\1/p' | sed -n 1p)
  search_ms=$(awk -v s="${search:-}" 'BEGIN { if (s == "") print "?"; else printf "%d", s * 1000 }')
  printf '| %s | %s | %d | %s | %d | %s |\n' "$(basename "$xml" .xml)" "$(answer "$ours")" "$ours_ms" \
    "$(answer "$theirs")" "$theirs_ms" "$search_ms"
done

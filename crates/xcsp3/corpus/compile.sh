#!/usr/bin/env bash
# Compiles the corpus's models (models/*.py) to XCSP3 with pycsp3 2.6.1
# (`pip install pycsp3==2.6.1`, no Java needed), then records ACE's answers
# (ace.tsv) with the solver that pycsp3 bundles (Java 17). Run from this
# folder; the .xml files and ace.tsv are committed, so nothing here is
# needed to use the corpus.
set -euo pipefail
cd "$(dirname "$0")"
compile() { # NAME MODEL [PYCSP3 OPTIONS...]
  local name=$1 model=$2
  shift 2
  (cd models && python3 "$model.py" "$@" -output="../$name.xml" >/dev/null)
}
compile queens-8 queens -data=8
compile queens-8-mini queens -data=8 -mini
compile magic-sequence-10 magic_sequence -data=10
compile golomb-6 golomb -data=6
compile golomb-6-mini golomb -data=6 -mini
compile traffic-lights traffic_lights
compile knapsack knapsack
compile pigeons-6 pigeons -data=6
compile send-more send_more
compile all-interval-8 all_interval -data=8
compile nonogram nonogram
compile tsp-6 tsp
compile rcpsp rcpsp
compile jobshop-3x3 jobshop
compile assignment assignment
compile logic logic
compile mdd mdd
compile matrix matrix
compile mixed mixed
compile lists-except lists_except
compile minimum-arg minimum_arg
compile group-args group_args
compile symbolic symbolic
if [ "${1:-}" = "--ace" ]; then
  jar="${ACE_JAR:-$(python3 -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("pycsp3").origin))')/solvers/ace/ACE-2.6.jar}"
  printf 'instance\tstatus\tobjective\tace_ms\n' > ace.tsv
  for xml in *.xml; do
    start=$(date +%s%N)
    out=$(java -jar "$jar" "$xml" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true)
    end=$(date +%s%N)
    status=$(printf '%s\n' "$out" | sed -n 's/^s \([A-Z ]*[A-Z]\).*$/\1/p' | sed -n 1p)
    objective=$(printf '%s\n' "$out" | sed -n 's/^o \(-\{0,1\}[0-9]*\).*$/\1/p' | sed -n '$p')
    printf '%s\t%s\t%s\t%s\n' "${xml%.xml}" "$status" "${objective:--}" "$(( (end - start) / 1000000 ))" >> ace.tsv
  done
fi

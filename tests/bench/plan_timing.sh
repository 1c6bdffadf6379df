#!/bin/sh
# The plan executor's timing sheet (docs/timing.md): instructions per call
# of axl_plan_load, axl_plan_submit and axl_plan_wait, and per node of a
# replay, counted by callgrind (exact, the same on every machine) on a
# host build of the executor and the mmio port's unit code, driving the
# register-level simulator stepped (no threads): axl-bench-mmio's plan
# chains of 1, 4 and 16 vadd nodes on one unit, each submitted and waited
# for 1,250 times (1,000 and a warm-up of 250).
#
# callgrind collects inside one function at a time (--toggle-collect: its
# inclusive cost), so each figure is that call alone. The simulator's
# register file answers every register access (on a board a volatile
# load or store): the wait's figures include it. The load's figure leaves
# out what only a model build does (its design read by the xclbin reader
# and the model powered up, callgrind's inclusive counts of
# axl__mmio_model_attach and axl_xclbin_open).
#
# Usage: tests/bench/plan_timing.sh build/default/tests/bench/axl-bench-mmio
# Prints plan_<call>_<chain> <n> instructions lines, then the per-node
# and fixed parts of submit + wait: (T16 - T4) / 12 and T1 - per node.
set -eu
bench=${1:?usage: $0 path/to/axl-bench-mmio}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
calls=1250 # per path: 1,000 replays and the warm-up's 250
ir() { # path function -> inclusive instructions of function in that path
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$2" \
    --callgrind-out-file="$out/cg" "$bench" --callgrind "$1" \
    >"$out/log" 2>&1 || { cat "$out/log" >&2; exit 1; }
  callgrind_annotate "$out/cg" 2>/dev/null |
    awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
incl() { # function -> its inclusive instructions in the last run
  callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" 2>/dev/null |
    awk -v f=":$1 " 'index($0, f) { gsub(",", "", $1); print $1; exit }
                     END { print 0 }' | head -1
}
for n in 1 4 16; do
  load=$(ir "plan$n" axl_plan_load)
  # What a board does not do: the model build's first load opens the
  # design's bytes with the reader (a board's executor reads only a
  # pre-digested design's bank table) and powers the model up.
  load=$((load - $(incl axl__mmio_model_attach) - $(incl axl_xclbin_open)))
  submit=$(ir "plan$n" axl_plan_submit)
  wait=$(ir "plan$n" axl_plan_wait)
  # One load per path run (the bench loads the chain once).
  echo "plan_load_$n $load instructions"
  echo "plan_submit_$n $((submit / calls)) instructions"
  echo "plan_wait_$n $((wait / calls)) instructions"
  eval "t$n=$(( (submit + wait) / calls ))"
done
per_node=$(( (t16 - t4) / 12 ))
echo "plan_per_node $per_node instructions"
echo "plan_fixed $(( t1 - per_node )) instructions"

#!/bin/sh
# Graph replay per kernel on the emulated device, counted by callgrind
# (exact, and the same on every machine), at 1, 4 and 16 nodes, with the
# target beside each figure (issue 37: 400 instructions per kernel). The
# same figures as instructions.sh's graph_replay_* lines, without the rest
# of that script's runs. The device runs in its deterministic mode (the
# model inside run_start), as instructions.sh measures it.
#
# Usage: tests/bench/callgrind_emu.sh build/default/tests/bench/axl-bench
# Prints: emu_graph<K>_per_kernel <n> instructions (target <= 400), then
# the replay's fixed and per-node parts.
# AXL_CALLGRIND_KEEP=DIR keeps the callgrind files there (cg.graph<K>),
# for callgrind_annotate.
set -eu
bench=${1:?usage: $0 path/to/axl-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AXL_EMU_DETERMINISTIC=1
target=400
replays=1000
ir() { # scenario n: the program's total
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2" \
    "$bench" "$1" "$2" >/dev/null 2>&1 ||
    { echo "$bench $1 $2 failed" >&2; return 1; }
  callgrind_annotate "$out/cg.$1.$2" 2>/dev/null |
    awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
for g in 1 4 16; do
  base=$(ir "graph$g" 0)
  total=$(ir "graph$g" "$replays")
  eval "t$g=\$(( (total - base) / replays ))"
  per=$(( (total - base) / (replays * g) ))
  ok="met"; [ "$per" -le "$target" ] || ok="not met"
  echo "emu_graph${g}_per_kernel $per instructions (target <= $target: $ok)"
  if [ -n "${AXL_CALLGRIND_KEEP:-}" ]; then
    mkdir -p "$AXL_CALLGRIND_KEEP"
    cp "$out/cg.graph$g.$replays" "$AXL_CALLGRIND_KEEP/cg.graph$g"
  fi
done
# A replay's parts, from the totals per submission T1, T4, T16.
per_node=$(( (t16 - t4) / 12 ))
echo "emu_graph_per_node $per_node instructions"
echo "emu_graph_fixed $(( t1 - per_node )) instructions"

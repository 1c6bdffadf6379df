#!/bin/sh
# Graph replay per kernel on the emulated device, counted by callgrind
# (exact, and the same on every machine), at 1, 4 and 16 nodes, with the
# target beside each figure (issue 37: 400 instructions per kernel). The
# same figures as instructions.sh's graph_replay_* lines, without the rest
# of that script's runs. The device runs in its deterministic mode (the
# model inside run_start), as instructions.sh measures it.
#
# Usage: tests/bench/callgrind_emu.sh build/default/tests/bench/axl-bench
# Prints: emu_plain (a single_task of the nop kernel + wait + release:
# the launch the replays are measured against), the floors under both
# (emu_floor_submission: a command group with no action + wait + release;
# emu_floor_replay: a replay of one such node), emu_graph<K>_per_kernel
# <n> instructions (target <= 400), the replay's fixed and per-node
# parts, and the emulated device's own share of a node (its port and
# the nop model, exclusive: what the device itself costs; the rest of a
# node is the core's).
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
plain0=$(ir launch 0)
plain=$(ir launch "$replays")
echo "emu_plain $(( (plain - plain0) / replays )) instructions"
# The floors, with no device work at all: a command group with no action
# + wait + release, and a replay of a graph of one such node. What a
# submission's event, ordering, wait and release cost alone, whatever the
# port: the share of a target that is left for the nodes is the target
# less these.
for f in empty emptygraph; do
  f0=$(ir "$f" 0)
  f1=$(ir "$f" "$replays")
  case $f in
    empty) name=emu_floor_submission ;;
    *) name=emu_floor_replay ;;
  esac
  echo "$name $(( (f1 - f0) / replays )) instructions"
done
# The exclusive instructions of the emulated device's files (its port and
# models, xrt/emu/) in a callgrind file.
device_ir() {
  callgrind_annotate "$1" 2>/dev/null |
    awk '$2 ~ /^\(/ && $3 ~ /^xrt\/emu\// { gsub(",", "", $1); s += $1 }
         END { print s + 0 }'
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
dev=$(( ($(device_ir "$out/cg.graph16.$replays") -
         $(device_ir "$out/cg.graph16.0")) / (replays * 16) ))
echo "emu_graph_device_share_per_node $dev instructions (the core's: $(( per_node - dev )))"

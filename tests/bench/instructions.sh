#!/bin/sh
# Instructions per command, from callgrind, which counts instructions
# exactly whatever else the machine does. For each N, (Ir(N) - Ir(0)) / N:
# start-up and shut-down cancel out, and a flat cost shows as equal figures.
# Usage: tests/bench/instructions.sh build/default/tests/bench/axl-bench [RECORD_BENCH]
# The recording figures need graphs of up to 10,000 nodes, more than a
# board gives (host-emu: AXL_MAX_GRAPH_NODES 128), and a pool holds 4,095
# at most (12-bit slots, core/pool.h): they run RECORD_BENCH, an axl-bench
# built with AXL_MAX_GRAPH_NODES=4095; without one the script configures
# and builds it in build/bench-record (once; about a minute).
set -eu
bench=$1
record_bench=${2:-}
ir() { # scenario n
  out=$(mktemp)
  # A run that fails gives no figure (the arithmetic below stops the script).
  valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$bench" "$1" "$2" >/dev/null 2>&1 || { echo "$bench $1 $2 failed" >&2; return 1; }
  callgrind_annotate "$out" 2>/dev/null |
    awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}'
  rm -f "$out"
}
for s in chain independent; do
  base=$(ir "$s" 0)
  for n in 10 100 1000; do
    total=$(ir "$s" "$n")
    echo "host_task_${s}_${n} $(( (total - base) / n )) instructions/command"
  done
done
# The launch path as it was measured before asynchronous dispatch: the
# emulated device's deterministic mode runs the model inside run_start.
export AXL_EMU_DETERMINISTIC=1
base=$(ir launch 0)
total=$(ir launch 1000)
echo "empty_kernel_launch $(( (total - base) / 1000 )) instructions/launch"
# Graph replay per kernel (axl/graph.h): a recorded graph of one nop
# launch, and a chain of four, each submitted, waited for and its event
# released N times; divided by the kernels run.
# Then the fixed and per-node parts of a replay, from the totals per
# submission T1, T4, T16: per_node = (T16 - T4) / 12, fixed = T1 - per_node.
for g in 1 4 16; do
  base=$(ir "graph$g" 0)
  total=$(ir "graph$g" 1000)
  eval "t$g=\$(( (total - base) / 1000 ))"
  echo "graph_replay_${g}_per_kernel $(( (total - base) / (1000 * g) )) instructions/kernel"
done
per_node=$(( (t16 - t4) / 12 ))
echo "graph_replay_fixed $(( t1 - per_node )) instructions/submission"
echo "graph_replay_per_node $per_node instructions/node"
# Recording (axl/graph.h): N nop launches recorded from an in-order queue
# into a graph, begin_recording to end_recording and the graph's release;
# (Ir(N) - Ir(0)) / N per node, at 10, 1,000 and the most a pool holds
# (4,095: 10,000 cannot be configured). Flat when the figures are equal.
# Note: callgrind counts each byte of glibc's `rep stosb` memset as an
# instruction; the node's zeroing at allocation (2.4 KB) is most of it.
if [ -z "$record_bench" ]; then
  src=$(cd "$(dirname "$0")/../.." && pwd)
  record_dir=$src/build/bench-record
  if [ ! -x "$record_dir/tests/bench/axl-bench" ]; then
    CFLAGS=-DAXL_MAX_GRAPH_NODES=4095 cmake -S "$src" -B "$record_dir" \
      -DAXL_BOARD=host-emu -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DAXL_BUILD_EXAMPLES=OFF -DAXL_BUILD_TOOLS=OFF >/dev/null
  fi
  cmake --build "$record_dir" -j2 --target axl-bench >/dev/null
  record_bench=$record_dir/tests/bench/axl-bench
fi
bench_main=$bench
bench=$record_bench
base=$(ir record 0)
for n in 10 1000 4095; do
  total=$(ir record "$n")
  echo "graph_record_$n $(( (total - base) / n )) instructions/node"
done
bench=$bench_main
# The default, asynchronous mode: the same launch plus the hand-off to the
# unit's worker thread and back (callgrind counts every thread).
export AXL_EMU_DETERMINISTIC=0
base=$(ir launch 0)
total=$(ir launch 1000)
echo "empty_kernel_launch_async $(( (total - base) / 1000 )) instructions/launch"
# The emulated device's read-only check (on in host-emu, axl/emu.h
# axl_emu_check_read_only): a vadd with two read-only inputs of B bytes
# each, deterministic, the check on and off; the difference per launch,
# and per byte checked (2 B per launch). At 16 bytes the model costs
# little: the figure is mostly the launch of a kernel with arguments.
export AXL_EMU_DETERMINISTIC=1
for b in 16 4096 1048576; do
  for on in 0 1; do
    base=$(AXL_EMU_CHECK_READ_ONLY=$on ir "vadd$b" 0)
    total=$(AXL_EMU_CHECK_READ_ONLY=$on ir "vadd$b" 20)
    eval "per_$on=\$(( (total - base) / 20 ))"
  done
  echo "vadd_${b}_launch $per_0 instructions/launch, $per_1 with the read-only check ($(( per_1 - per_0 )) more: $(( (per_1 - per_0) * 100 / (2 * b) ))/100 per byte checked)"
done
# On-demand reprogramming (issue 40, docs/designs-design.md 8's figures;
# tests/bench/bench_swap.c): 2N rounds of K commands on the emulated device,
# fir's design and the stock one's in turn (2N swaps, each releasing K
# commands), less the same rounds grouped (2 swaps), per swap beyond the
# two: S(K). S(1) and S(8) give the cost per swap beyond its commands and
# per command a swap released. Deterministic, as the launch rows. Skipped
# by an axl-bench built without the second design.
export AXL_EMU_DETERMINISTIC=1
if "$bench_main" swap1 0 >/dev/null 2>&1; then
  for k in 1 8; do
    alt=$(ir "swap$k" 50)
    grouped=$(ir "grouped$k" 50)
    eval "s$k=\$(( (alt - grouped) / 98 ))"
  done
  per_released=$(( (s8 - s1) / 7 ))
  echo "swap_per_load $(( s1 - per_released )) instructions/swap"
  echo "swap_per_released_command $per_released instructions/command"
  echo "swap_releasing_1 $s1 instructions/swap, releasing_8 $s8"
fi
# The same for a DFX slot (issue 40 stage 5, 3.3): vadd and fir as
# partials taking turns in slot RP_0 of the emulated k26_2rp device, its
# static part and the other slot untouched. Skipped by an axl-bench built
# without them (AXL_BENCH_SLOTS).
if "$bench_main" slotswap1 0 >/dev/null 2>&1; then
  for k in 1 8; do
    alt=$(ir "slotswap$k" 50)
    grouped=$(ir "slotgrouped$k" 50)
    eval "s$k=\$(( (alt - grouped) / 98 ))"
  done
  per_released=$(( (s8 - s1) / 7 ))
  echo "slot_swap_per_load $(( s1 - per_released )) instructions/swap"
  echo "slot_swap_per_released_command $per_released instructions/command"
fi
# Starting and stopping a streaming pipeline (tests/bench/bench_pipeline.c):
# test_pipelines' sadd pipeline (mm2s_1 -> sadd_1 on auto-restart ->
# s2mm_1), N times created, its addend set, started and released (a stop:
# auto-restart cleared, sadd_1 reset), less N times the same unstarted;
# on the emulated device, then on the mmio port over the C-model
# simulator. Both run the units' models on threads, which callgrind
# counts too (the figure moves by a few hundred from run to run).
dir=$(dirname "$bench_main")
for b in axl-bench-pipeline axl-bench-pipeline-mmio; do
  [ -x "$dir/$b" ] || continue
  bench=$dir/$b
  open=$(ir open 100)
  cycle=$(ir cycle 100)
  name=pipeline_start_stop
  [ "$b" = axl-bench-pipeline-mmio ] && name=mmio_pipeline_start_stop
  echo "$name $(( (cycle - open) / 100 )) instructions/cycle"
done

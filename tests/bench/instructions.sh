#!/bin/sh
# Instructions per command, from callgrind, which counts instructions
# exactly whatever else the machine does. For each N, (Ir(N) - Ir(0)) / N:
# start-up and shut-down cancel out, and a flat cost shows as equal figures.
# Usage: tests/bench/instructions.sh build/default/tests/bench/axl-bench
set -eu
bench=$1
ir() { # scenario n
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" "$1" "$2" \
    >/dev/null 2>&1
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
for g in 1 4; do
  base=$(ir "graph$g" 0)
  total=$(ir "graph$g" 1000)
  echo "graph_replay_${g}_per_kernel $(( (total - base) / (1000 * g) )) instructions/kernel"
done
# The default, asynchronous mode: the same launch plus the hand-off to the
# unit's worker thread and back (callgrind counts every thread).
export AXL_EMU_DETERMINISTIC=0
base=$(ir launch 0)
total=$(ir launch 1000)
echo "empty_kernel_launch_async $(( (total - base) / 1000 )) instructions/launch"
# The emulated device's read-only check (on in host-emu, axl/emu.h
# axl_emu_check_read_only): a vadd with two read-only inputs of B bytes
# each, deterministic, the check on and off; the difference per launch,
# and per byte checked (2 B per launch).
export AXL_EMU_DETERMINISTIC=1
for b in 4096 1048576; do
  for on in 0 1; do
    base=$(AXL_EMU_CHECK_READ_ONLY=$on ir "vadd$b" 0)
    total=$(AXL_EMU_CHECK_READ_ONLY=$on ir "vadd$b" 20)
    eval "per_$on=\$(( (total - base) / 20 ))"
  done
  echo "vadd_${b}_launch $per_0 instructions/launch, $per_1 with the read-only check ($(( per_1 - per_0 )) more: $(( (per_1 - per_0) * 100 / (2 * b) ))/100 per byte checked)"
done

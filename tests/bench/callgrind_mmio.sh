#!/bin/sh
# Instructions per launch through the mmio port, counted by callgrind
# (exact, and the same on every machine), next to a hand-written register
# driver on the same simulator seam (issue 28 item 6). Runs
# axl-bench-mmio --callgrind PATH once per path, collecting only inside
# that path's loop function (bench_PATH_loop: 1000 launches after a
# warm-up), and divides by the launches; a replay of k nodes counts k.
#
#   driver     write 7 argument words, ap_start, read 0x00 until ap_done
#   plain      axl_queue_single_task + wait + release
#   replay1/4/16  axl_queue_submit_graph of 1, 4, 16 chained launches
#   plan1/4/16 the same chains as plans, through the plan executor
#   poll, irq, sleep   plain, on a timed model with the unit in that
#              completion mode (polling, interrupt, poll then sleep)
#
# The simulator's register file is included in every path (the driver's
# too); the kernel's model does nothing.
#
# Usage: tests/bench/callgrind_mmio.sh build/default/tests/bench/axl-bench-mmio
# Prints: mmio_<path>_callgrind_instructions <n> instructions, then
# mmio_<path>_over_driver <r> ratio and the replay's fixed and per-node
# parts.
set -eu
bench=${1:?usage: $0 path/to/axl-bench-mmio}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
launches=1000
for path in driver plain replay1 replay4 replay16 plan1 plan4 plan16 poll irq sleep; do
  valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect="bench_${path}_loop" \
    --callgrind-out-file="$out/cg.$path" "$bench" --callgrind "$path" \
    >"$out/log.$path" 2>&1 || { cat "$out/log.$path" >&2; exit 1; }
  total=$(callgrind_annotate "$out/cg.$path" 2>/dev/null |
          awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
  per=$launches
  case $path in
    replay4|plan4) per=$((launches * 4)) ;;
    replay16|plan16) per=$((launches * 16)) ;;
  esac
  # The warm-up (a quarter of the launches) runs in the same function,
  # so callgrind counts it too.
  per=$((per + per / 4))
  n=$((total / per))
  echo "mmio_${path}_callgrind_instructions $n instructions"
  eval "i_$path=$n"
done
awk -v d="$i_driver" -v p="$i_plain" -v r1="$i_replay1" -v r4="$i_replay4" \
    -v r16="$i_replay16" -v p1="$i_plan1" -v p4="$i_plan4" \
    -v p16="$i_plan16" 'BEGIN {
  printf "mmio_plain_over_driver %.2f ratio\n", p / d
  printf "mmio_replay1_over_driver %.2f ratio\n", r1 / d
  printf "mmio_replay4_over_driver %.2f ratio (target <= 1.25: %s)\n", r4 / d,
         r4 <= 1.25 * d ? "met" : "not met"
  printf "mmio_replay16_over_driver %.2f ratio\n", r16 / d
  pn = (r16 * 16 - r4 * 4) / 12
  printf "mmio_replay_per_node %.0f instructions\n", pn
  printf "mmio_replay_fixed %.0f instructions\n", r1 - pn
  printf "mmio_plan1_over_driver %.2f ratio\n", p1 / d
  printf "mmio_plan4_over_driver %.2f ratio (target <= 1.25: %s)\n", p4 / d,
         p4 <= 1.25 * d ? "met" : "not met"
  printf "mmio_plan16_over_driver %.2f ratio (target <= 1.25: %s)\n", p16 / d,
         p16 <= 1.25 * d ? "met" : "not met"
  qn = (p16 * 16 - p4 * 4) / 12
  printf "mmio_plan_per_node %.0f instructions\n", qn
  printf "mmio_plan_fixed %.0f instructions\n", p1 - qn }'

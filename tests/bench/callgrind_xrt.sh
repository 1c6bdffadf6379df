#!/bin/sh
# Instructions per launch of each path of bench_xrt, counted by callgrind
# (exact, and the same on every machine): runs bench_xrt --callgrind (1000
# launches per path, no timing calls) once per path, collecting only inside
# that path's loop function, and divides the total by the launches.
#
# Usage: tests/bench/callgrind_xrt.sh BUILD/tests/xrt/bench_xrt
# Prints: xrt_raw_callgrind_instructions <n> instructions (and the others;
# the graph paths per kernel: a replay of the 4-chain counts 4, of the
# 16-chain 16), the ratios (axl and the port to raw XRT, each replay to
# XRT's floor), and a replay's per-node and fixed parts, as bench_xrt.c's
# header says.
# AXL_CALLGRIND_KEEP=DIR keeps the callgrind files there (cg.<path>), for
# callgrind_annotate.
set -eu
bench=${1:?usage: $0 path/to/bench_xrt}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
launches=1000
for path in raw bare port axl graph1 graph4 graph16; do
  valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect="bench_${path}_loop" \
    --callgrind-out-file="$out/cg.$path" "$bench" --callgrind \
    >"$out/log.$path" 2>&1 || true
  total=$(callgrind_annotate "$out/cg.$path" 2>/dev/null |
          awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
  name=$path
  per=$launches
  case $path in
    graph*) nodes=${path#graph}
            name=axl_graph${nodes}_per_kernel
            per=$((launches * nodes)) ;;
    raw|bare|port) name=xrt_$path ;;
  esac
  if [ -n "${total:-}" ] && [ "$total" -gt 0 ]; then
    echo "${name}_callgrind_instructions $((total / per)) instructions"
    eval "per_$path=$((total / per))"
  else
    echo "${name}_callgrind_instructions n/a -"
  fi
  if [ -n "${AXL_CALLGRIND_KEEP:-}" ]; then
    mkdir -p "$AXL_CALLGRIND_KEEP"
    cp "$out/cg.$path" "$AXL_CALLGRIND_KEEP/"
  fi
done
if [ -n "${per_raw:-}" ] && [ -n "${per_axl:-}" ]; then
  awk -v a="$per_axl" -v r="$per_raw" -v p="${per_port:-0}" 'BEGIN {
    printf "xrt_port_over_raw_callgrind %.3f ratio\n", p / r
    printf "axl_over_raw_callgrind %.3f ratio (target <= 1.000: %s)\n", a / r,
           a <= r ? "met" : "not met" }'
fi
# Graph replay against XRT's floor (issues 28 and 37: 1.25x); a plain
# launch against raw XRT (issue 37: no more than it).
if [ -n "${per_bare:-}" ]; then
  for g in graph1 graph4 graph16; do
    eval "v=\${per_$g:-}"
    [ -n "$v" ] && awk -v v="$v" -v b="$per_bare" -v g="$g" \
      'BEGIN { printf "axl_%s_over_bare_callgrind %.3f ratio (target <= 1.250: %s)\n",
               g, v / b, v <= 1.25 * b ? "met" : "not met" }'
  done
fi
# A replay's parts: per node (16 x t16 - 4 x t4) / 12, fixed t1 - that.
if [ -n "${per_graph1:-}" ] && [ -n "${per_graph4:-}" ] &&
   [ -n "${per_graph16:-}" ]; then
  awk -v t1="$per_graph1" -v t4="$per_graph4" -v t16="$per_graph16" 'BEGIN {
    n = (16 * t16 - 4 * t4) / 12
    printf "axl_replay_per_node_callgrind_instructions %.0f instructions\n", n
    printf "axl_replay_fixed_callgrind_instructions %.0f instructions\n", t1 - n }'
fi

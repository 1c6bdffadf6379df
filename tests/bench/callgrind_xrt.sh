#!/bin/sh
# Instructions per launch of each path of bench_xrt, counted by callgrind
# (exact, and the same on every machine): runs bench_xrt --callgrind (1000
# launches per path, no timing calls) once per path, collecting only inside
# that path's loop function, and divides the total by the launches.
#
# Usage: tests/bench/callgrind_xrt.sh BUILD/tests/xrt/bench_xrt
# Prints: xrt_raw_callgrind_instructions <n> instructions (and the others;
# the graph paths per kernel: a replay of the 4-chain counts 4)
set -eu
bench=${1:?usage: $0 path/to/bench_xrt}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
launches=1000
for path in raw bare port axl graph1 graph4; do
  valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect="bench_${path}_loop" \
    --callgrind-out-file="$out/cg.$path" "$bench" --callgrind \
    >"$out/log.$path" 2>&1 || true
  total=$(callgrind_annotate "$out/cg.$path" 2>/dev/null |
          awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
  name=$path
  per=$launches
  [ "$path" = graph1 ] && name=axl_graph1_per_kernel
  [ "$path" = graph4 ] && name=axl_graph4_per_kernel && per=$((launches * 4))
  [ "$path" = raw ] && name=xrt_raw
  [ "$path" = bare ] && name=xrt_bare
  [ "$path" = port ] && name=xrt_port
  if [ -n "${total:-}" ] && [ "$total" -gt 0 ]; then
    echo "${name}_callgrind_instructions $((total / per)) instructions"
    eval "per_$path=$((total / per))"
  else
    echo "${name}_callgrind_instructions n/a -"
  fi
done
if [ -n "${per_raw:-}" ] && [ -n "${per_axl:-}" ]; then
  awk -v a="$per_axl" -v r="$per_raw" -v p="${per_port:-0}" 'BEGIN {
    printf "xrt_port_over_raw_callgrind %.3f ratio\n", p / r
    printf "axl_over_raw_callgrind %.3f ratio\n", a / r }'
fi
# Graph replay against XRT's floor (issue 13's target: 1.25x).
if [ -n "${per_bare:-}" ]; then
  for g in graph1 graph4; do
    eval "v=\${per_$g:-}"
    [ -n "$v" ] && awk -v v="$v" -v b="$per_bare" -v g="$g" \
      'BEGIN { printf "axl_%s_over_bare_callgrind %.3f ratio\n", g, v / b }'
  done
fi

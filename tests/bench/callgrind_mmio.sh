#!/bin/sh
# Instructions per launch through the mmio port against the stepped
# register-level simulator: single_task of the stock vadd (4 arguments),
# wait, release; (Ir(N) - Ir(0)) / N from callgrind, so start-up and
# shut-down cancel out.
# Usage: tests/bench/callgrind_mmio.sh build/default/tests/bench/axl-bench-mmio
set -eu
bench=$1
ir() {
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" vadd "$1" \
    >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null |
    awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}'
  rm -f "$out"
}
base=$(ir 0)
for n in 100 1000; do
  total=$(ir "$n")
  echo "mmio_vadd_launch_${n} $(( (total - base) / n )) instructions/launch"
done

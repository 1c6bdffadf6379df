#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [BUILD_DIR] [TARGET...]
# Runs each libFuzzer target (the `fuzz` preset builds them) for SECONDS,
# starting from its seed corpus in the repository. New inputs go to
# BUILD_DIR/fuzz-out/<target>/corpus, crashes to .../crash-*; the repo's
# corpus is only read. Prints each target's executions and rate; fails when
# a target finds something.
#   cmake --preset fuzz && cmake --build --preset fuzz -j2
#   tests/fuzz/run.sh 25                    (what scripts/dev test runs)
#   tests/fuzz/run.sh 3600 build/fuzz api   (a longer run of one target)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:?usage: run.sh SECONDS [BUILD_DIR] [TARGET...]}
build=${2:-$here/../../build/fuzz}
shift $(( $# >= 2 ? 2 : $# ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(xclbin xclbin_xml pack kernel_xml api)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  exe=$build/tests/fuzz/fuzz_$t
  [ -x "$exe" ] || { echo "run.sh: no $exe (build the fuzz preset)" >&2; exit 1; }
  out=$build/fuzz-out/$t
  mkdir -p "$out/corpus"
  dict=()
  case $t in xclbin*) dict=(-dict="$here/xclbin.dict");; esac
  log=$out/log.txt
  rc=0
  "$exe" -max_total_time="$secs" -print_final_stats=1 -timeout=20 \
    -rss_limit_mb=2048 -artifact_prefix="$out/" "${dict[@]}" \
    "$out/corpus" "$here/corpus_$t" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  printf '%-11s %10s execs %7s/s  %s  %s\n' "$t" "${execs:-?}" "${rate:-?}" \
    "${cov:-}" "$([ $rc -eq 0 ] && echo ok || echo "FOUND SOMETHING (rc $rc): $log")"
  if [ $rc -ne 0 ]; then
    grep -E "ERROR|SUMMARY|broken|runtime error" "$log" | head -5 || true
    status=1
  fi
done
exit $status

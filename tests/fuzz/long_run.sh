#!/usr/bin/env bash
# tests/fuzz/long_run.sh DIR [WORKERS]     start a long fuzz_api run
# tests/fuzz/long_run.sh DIR --count       programs run so far, and finds
# tests/fuzz/long_run.sh DIR --stop        stop it (counts stay in DIR)
#
# The run issue 18 asks for (10^7 programs): WORKERS (default 3)
# independent fuzz_api processes sharing DIR/corpus, each restarted every
# 30 minutes to pick up what the others found, at nice 10, until --stop.
# A process keeps a core about 90% busy (the rest is waiting for models
# and timeouts), so 3 fill 2 cores. Programs are at most 512 bytes (about
# 150 calls): longer ones grew the corpus until a restart spent minutes
# re-running it. It builds the binary
# first (the fuzz-api preset: the fuzz preset with the xclbin reader left
# out of coverage tracing, twice the programs a second) and stops if that
# fails; the binary is copied to DIR, so rebuilding does not change a
# running run. DIR/commit.txt says which commit it is of and which code:
# a hash of the trees of core/, xrt/, port/, include/ and tests/fuzz/, so
# runs of the same code on different commits can be added up. Each
# process writes DIR/logs/w<worker>-<n>.log and crash inputs to DIR/art/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: long_run.sh DIR [WORKERS|--count|--stop]}
arg=${2:-3}
mkdir -p "$dir/logs" "$dir/art" "$dir/corpus"
dir=$(cd "$dir" && pwd)
case $arg in
--count)
  total=0
  for f in "$dir"/logs/*.log; do
    [ -e "$f" ] || continue
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$f" | tail -1)
    [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$f" | tail -1 | tr -d '#' || true)
    total=$((total + ${n:-0}))
  done
  echo "programs: $total in $(ls "$dir/logs" | wc -l) process runs"
  [ -f "$dir/commit.txt" ] && sed 's/^/of: /' "$dir/commit.txt"
  grep -l "ERROR\|deadly signal\|runtime error\|broken:" "$dir"/logs/*.log \
    2>/dev/null | sed 's/^/found: /' || true
  ls "$dir/art" | sed 's/^/crash input: /'
  exit 0 ;;
--stop)
  touch "$dir/STOP"
  pkill -f "$dir/fuzz_api" || true
  exit 0 ;;
esac
# The binary of the sources as they are: built here, so a build that
# fails stops the run instead of leaving an older binary to be copied.
root=$(cd "$here/../.." && pwd)
exe=$root/build/fuzz-api/tests/fuzz/fuzz_api
[ -d "$root/build/fuzz-api" ] || cmake --preset fuzz-api -S "$root" >/dev/null
cmake --build "$root/build/fuzz-api" -j2 --target fuzz_api >/dev/null ||
  { echo "long_run.sh: the fuzz-api build failed" >&2; exit 1; }
cp "$exe" "$dir/fuzz_api"
# Which code the counts are of (runs are counted per commit).
{ git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown
  git -C "$root" ls-tree HEAD core xrt port include tests/fuzz 2>/dev/null |
    git hash-object --stdin | sed 's/^/code: /' || true
  git -C "$root" status --porcelain -- core xrt port include tests/fuzz \
    2>/dev/null | grep -q . && echo "(with uncommitted changes)"
  date -u +"started %Y-%m-%d %H:%M:%S UTC"
} >"$dir/commit.txt"
rm -f "$dir/STOP"
for w in $(seq 1 "$arg"); do
  (
    i=0
    while [ ! -e "$dir/STOP" ]; do
      i=$((i + 1))
      ASAN_OPTIONS=detect_leaks=0 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        nice -n 10 "$dir/fuzz_api" -max_total_time=1800 \
        -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 -max_len=512 \
        -artifact_prefix="$dir/art/" "$dir/corpus" "$here/corpus_api" \
        >"$dir/logs/w$w-$i.log" 2>&1 || true
    done
  ) &
done
echo "long_run.sh: $arg processes in $dir (stop: long_run.sh $dir --stop)"

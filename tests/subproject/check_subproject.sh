#!/bin/sh
# Builds tests/subproject (axl as another project's subproject, its CMake
# functions called from that project's folder) and runs what it built.
set -eu
src=$1; here=$2; scratch=$3; cflags=${4:-}; predigested=${5:-OFF}
rm -rf "$scratch"
cmake -S "$here" -B "$scratch" -DAXL_SOURCE="$src" -DAXL_BUILD_TESTS=OFF \
  -DAXL_BUILD_EXAMPLES=OFF -DAXL_BUILD_TOOLS=OFF -DAXL_RTL=OFF \
  -DAXL_EMU_PREDIGESTED="$predigested" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$cflags" >"$scratch.log" 2>&1 ||
  { cat "$scratch.log"; exit 1; }
cmake --build "$scratch" --target parent_vadd parent_firmware -j2 \
  >>"$scratch.log" 2>&1 || { tail -40 "$scratch.log"; exit 1; }
"$scratch/parent_vadd"
"$scratch/parent_firmware"

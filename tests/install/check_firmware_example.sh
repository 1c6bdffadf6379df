#!/bin/sh
# The firmware example (examples/firmware) as a user builds it: installs a
# host build and a board build (zcu102-r5) into scratch prefixes, copies
# the example out of the source tree, configures it with the board
# package's toolchain file and the host package's prefix, builds it (its
# host half writes the design and the plan with the host package) and runs
# its tests (the firmware under QEMU, and its code on the C-model
# simulator on the host). Nothing of the source tree is used but the
# example's own files.
#   check_firmware_example.sh <host build> <board build> <example> <scratch>
set -eu
host=$1; board=$2; example=$3; scratch=$4
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd) # CMake reads the toolchain path from the build
cmake --install "$host" --prefix "$scratch/host" >/dev/null
cmake --install "$board" --prefix "$scratch/board" >/dev/null
cp -r "$example" "$scratch/src"
cmake -S "$scratch/src" -B "$scratch/build" \
  -DCMAKE_TOOLCHAIN_FILE="$scratch/board/share/axl/kit/toolchain.cmake" \
  -DAXL_HOST_PREFIX="$scratch/host" >"$scratch/configure.log" 2>&1 ||
  { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/build" -j2 >"$scratch/build.log" 2>&1 ||
  { tail -40 "$scratch/build.log"; exit 1; }
(cd "$scratch/build" && ctest --output-on-failure)

#!/bin/sh
# Settings from outside the checkout: a board folder elsewhere
# (-DAXL_BOARD_DIR), a setting on the CMake command line
# (-DAXL_EMU_MAX_BANK_BYTES=1048576, which the board header also sets) and a user config header
# (-DAXL_USER_CONFIG); builds the library with them and runs a program that
# checks each took effect.
set -eu
src=$1; here=$2; scratch=$3; cflags=${4:-}
rm -rf "$scratch"
mkdir -p "$scratch/myboard"
# The application's own board: host-emu's capacities, in its own folder.
cp "$src/boards/host-emu/axl_board.h" "$scratch/myboard/axl_board.h"
cat >"$scratch/myboard/board.cmake" <<EOC
set(AXL_OS_PORT posix)
set(AXL_DEVICE_PORTS emu)
set(AXL_EMU_BUILTIN_XCLBIN $src/bitstreams/stock.xclbin)
EOC
cmake -S "$src" -B "$scratch/build" -DAXL_BOARD_DIR="$scratch/myboard" \
  -DAXL_EMU_MAX_BANK_BYTES=1048576 -DAXL_USER_CONFIG="$here/user_config.h" \
  -DAXL_BUILD_TESTS=OFF -DAXL_BUILD_EXAMPLES=OFF -DAXL_BUILD_TOOLS=OFF \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$cflags" >/dev/null
cmake --build "$scratch/build" --target axl -j2 >/dev/null
cc -std=c11 $cflags -I"$src/include" -o "$scratch/probe" "$here/probe.c" \
  "$scratch/build/libaxl.a" -pthread
"$scratch/probe"

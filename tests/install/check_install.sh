#!/bin/sh
# Installs the build tree into a scratch prefix, then builds a consumer with
# find_package(axl) and another with pkg-config, and runs both; with a
# fifth argument "rtl", also the RTL consumer (rtl/: a kernel's Verilog,
# from an .xo, as compute units, and a firmware's host build on it; needs
# verilator and a C++ compiler).
set -eu
build=$1; src=$2; scratch=$3; cflags=${4:-}; rtl=${5:-}
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$src" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_C_FLAGS="$cflags" >"$scratch/configure.log"
package=$(grep "axl package:" "$scratch/configure.log")
cmake --build "$scratch/cmake" >/dev/null
"$scratch/cmake/consumer"
if [ -x "$scratch/cmake/model_consumer" ]; then
  "$scratch/cmake/model_consumer"
fi
# The installed tools and images, from outside the source tree (a build
# with AXL_BUILD_TOOLS=OFF installs none).
if [ -x "$scratch/prefix/bin/axl-xclbin" ]; then
  "$scratch/prefix/bin/axl-xclbin" info "$scratch/prefix/share/axl/xclbin/stock.xclbin" >/dev/null
  "$scratch/prefix/bin/axl-ls" >/dev/null
  # The installed package and its axl-ls --build say the same (item 7).
  facts=$("$scratch/prefix/bin/axl-ls" --build)
  board=$(echo "$facts" | sed -n 's/.*built for board //p')
  events=$(echo "$facts" | awk '$1 == "AXL_MAX_EVENTS" {print $2}')
  case "$package" in
  *"board $board,"*"AXL_MAX_EVENTS $events"*) ;;
  *) echo "the package says \"$package\"; axl-ls --build says board $board, AXL_MAX_EVENTS $events"; exit 1 ;;
  esac
  "$scratch/prefix/bin/axl-xclbin" info "$scratch/cmake/vadd4_u250.xclbin" |
    grep -q "DDR\[1\] .* used"
fi
PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig" pkg-config --exists axl
cc -std=c11 $cflags -o "$scratch/pc-consumer" "$src/consumer.c" \
  $(PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig" pkg-config --cflags --libs --static axl)
"$scratch/pc-consumer"
if [ "$rtl" = rtl ]; then
  cmake -S "$src/rtl" -B "$scratch/rtl" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
    -DCMAKE_C_FLAGS="$cflags" >/dev/null
  cmake --build "$scratch/rtl" >/dev/null
  "$scratch/rtl/rtl_consumer"
  "$scratch/rtl/rtl_firmware"
fi

#!/bin/sh
# The sources a terse build compiles (AXL_MESSAGES=0: a message is its
# status name, and a helper that only builds messages is named only inside
# a sizeof) pass clang's -Wall -Wextra -Werror, which reports such a
# helper as not needed (-Wunneeded-internal-declaration) where gcc does
# not: a user building the terse library with clang would stop there.
# Syntax only (the warnings come from clang's front end); skipped (77)
# without clang.
# Usage: tests/static/clang_terse.sh SOURCE_DIR
set -u
src=$1
command -v clang >/dev/null 2>&1 || { echo "skipped: no clang"; exit 77; }
xrt=
[ -d /usr/include/xrt ] && xrt="-I/usr/include/xrt"
failed=0
for f in "$src"/core/*.c "$src"/xrt/mmio/*.c "$src"/xrt/emu/*.c \
         "$src"/port/posix/*.c; do
  clang -std=c11 -fsyntax-only -Wall -Wextra -Werror -DAXL_MESSAGES=0 \
    -D_GNU_SOURCE -I"$src/include" -I"$src/core" -I"$src/xrt/mmio" \
    -I"$src/xrt/emu" -I"$src/xrt/native" -I"$src/boards/host-emu" \
    -I"$src/port/posix" $xrt "$f" || failed=1
done
if [ -n "$xrt" ]; then
  for f in "$src"/xrt/native/*.c; do
    clang -std=c11 -fsyntax-only -Wall -Wextra -Werror -DAXL_MESSAGES=0 \
      -D_GNU_SOURCE -I"$src/include" -I"$src/core" -I"$src/xrt/native" \
      -I"$src/boards/host-emu" -I"$src/port/posix" $xrt "$f" || failed=1
  done
fi
[ $failed = 0 ] && echo "ok: every terse source compiles clean under clang"
exit $failed

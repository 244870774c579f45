#!/usr/bin/env bash
# docs/labs/make_pictures.sh -- writes the pictures of the labs (docs/labs/img/)
# by running the labs' own gpusim-viz --snapshot commands, and checks the labs
# on the way (tests/labs.py --pictures).
# usage: docs/labs/make_pictures.sh [BUILD_DIR]   (default: build), from anywhere
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$SRC/build}" && pwd)
if [ ! -x "$BUILD/viz/gpusim-viz" ]; then
    echo "make_pictures.sh: $BUILD/viz/gpusim-viz is not built (it needs SDL2: README.md)" >&2
    exit 2
fi
exec python3 "$SRC/tests/labs.py" --gpusim "$BUILD/gpusim" --viz "$BUILD/viz/gpusim-viz" --source "$SRC" --pictures

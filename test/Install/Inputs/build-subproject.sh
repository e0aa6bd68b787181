#!/bin/sh
# Configures and builds test/Install/subproject, a host tree that adds
# flyhoist with add_subdirectory, against Debian's static MLIR libraries.
# Uses ccache where it is installed; prints the seconds the build took.
#   build-subproject.sh FLYHOIST_SRC MLIR_CMAKE_DIR OUT CC CXX
set -eu
src=$1 mlir_dir=$2 out=$3 cc=$4 cxx=$5
launcher=
if command -v ccache >/dev/null 2>&1; then
  launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
start=$(date +%s)
# shellcheck disable=SC2086 # $launcher is zero or two arguments
cmake -S "$src/test/Install/subproject" -B "$out" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" -DMLIR_DIR="$mlir_dir" \
  -DFLYHOIST_SOURCE_DIR="$src" $launcher > "$out.cmake.log"
cmake --build "$out" --target subproject-host > "$out.build.log"
echo "subproject build: $(($(date +%s) - start)) s"

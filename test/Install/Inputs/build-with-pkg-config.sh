#!/bin/sh
# Builds the C and C++ hosts against an installed flyhoist through
# pkg-config alone, with the compile lines docs/INTEGRATION.md gives.
#   build-with-pkg-config.sh PREFIX SOURCES OUT CC CXX
set -eu
prefix=$1 sources=$2 out=$3 cc=$4 cxx=$5
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
mkdir -p "$out"
"$cc" -std=c11 $(pkg-config --cflags flyhoist) \
  "$sources/flyhoist-capi-minimal.c" -o "$out/c-host" \
  $(pkg-config --libs flyhoist) \
  -Wl,-rpath,"$(pkg-config --variable=libdir flyhoist)"
"$cxx" $(pkg-config --cflags flyhoist-cxx) \
  "$sources/cxx-host.cpp" -o "$out/cxx-host" \
  $(pkg-config --libs flyhoist-cxx)

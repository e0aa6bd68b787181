// spec.param of type i0 (a valid signless integer type): the verifier
// computes -(int64_t(1) << (width - 1)) with width 0, a shift by 4294967295
// (UBSan: shift exponent too large, SpecDialect.cpp fitsType()). The release
// build happens to accept it; the sanitized build aborts.
// Found next to param-i63-verifier-overflow.mlir, by reading fitsType().
// RUN: fly-opt %s | FileCheck %s

// CHECK: spec.param "w" = 0 : i0
func.func @k() -> i0 {
  %w = spec.param "w" = 0 : i0
  return %w : i0
}

// spec.param's verifier computes the largest value of an iN as
// (int64_t(1) << N) - 1, which overflows for i63 (UBSan: signed integer
// overflow: -9223372036854775808 - 1, SpecDialect.cpp fitsType()). The
// sanitized build aborts; the g++ -O3 build rejects the valid input ("value
// 34 of parameter 'w' does not fit 'i63'").
// Found by fuzz/hoist-fuzzer.cpp (a generated kernel mutated to i63).
// RUN: fly-opt %s | FileCheck %s

// CHECK: spec.param "w" = 34 : i63
// CHECK: spec.param "v" = -5 : i63
func.func @k() -> (i63, i63) {
  %w = spec.param "w" = 34 : i63
  %v = spec.param "v" = -5 : i63
  return %w, %v : i63, i63
}

// RUN: fly-opt %s -split-input-file -verify-diagnostics
// A value that does not fit the parameter's type, and an `equals` operand of
// the wrong type (only the generic form can express it: the custom form
// resolves the operand with the result type).

func.func @too_big_for_i8() {
  // expected-error @+1 {{value 256 of parameter 'w' does not fit 'i8'}}
  %w = spec.param "w" = 256 : i8
  return
}

// -----

func.func @too_small_for_i8() {
  // expected-error @+1 {{value -129 of parameter 'w' does not fit 'i8'}}
  %w = spec.param "w" = -129 : i8
  return
}

// -----

func.func @too_big_for_i1() {
  // expected-error @+1 {{value 2 of parameter 'flag' does not fit 'i1'}}
  %w = spec.param "flag" = 2 : i1
  return
}

// -----

func.func @too_big_for_i32() {
  // expected-error @+1 {{value 4294967296 of parameter 'w' does not fit 'i32'}}
  %w = spec.param "w" = 4294967296 : i32
  return
}

// -----

func.func @generic_too_big(%x: i16) {
  // expected-error @+1 {{value 70000 of parameter 'w' does not fit 'i16'}}
  %w = "spec.param"() <{name = "w", value = 70000 : i64}> : () -> i16
  return
}

// -----

func.func @equals_wrong_type(%stride: i32) {
  // expected-error @+1 {{'equals' operand has type 'i32' but the parameter has type 'index'}}
  %w = "spec.param"(%stride) <{name = "w", value = 4 : i64}> : (i32) -> index
  return
}

// -----

func.func @equals_wrong_width(%stride: i64) {
  // expected-error @+1 {{'equals' operand has type 'i64' but the parameter has type 'i32'}}
  %w = "spec.param"(%stride) <{name = "w", value = 4 : i64}> : (i64) -> i32
  return
}

// -----

func.func @equals_not_an_integer(%stride: f32) {
  // expected-error @+1 {{operand #0 must be signless integer or index, but got 'f32'}}
  %w = "spec.param"(%stride) <{name = "w", value = 4 : i64}> : (f32) -> i32
  return
}

// -----

func.func @equals_custom_form_mismatch(%stride: i32) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%stride' expects different type than prior uses: 'index' vs 'i32'}}
  %w = spec.param "w" = 4 equals %stride : index
  return
}

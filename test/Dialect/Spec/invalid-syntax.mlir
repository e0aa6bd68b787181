// RUN: fly-opt %s -split-input-file -verify-diagnostics
// Malformed `spec.param`: each case is a located parse or verifier error.

func.func @missing_equal_sign() {
  // expected-error @+1 {{expected '='}}
  %w = spec.param "w" 128 : i32
  return
}

// -----

func.func @missing_value() {
  // expected-error @+1 {{expected integer value}}
  %w = spec.param "w" = : i32
  return
}

// -----

func.func @float_value() {
  // expected-error @+1 {{expected integer value}}
  %w = spec.param "w" = 1.5 : i32
  return
}

// -----

func.func @missing_name() {
  // expected-error @+1 {{expected attribute value}}
  %w = spec.param = 128 : i32
  return
}

// -----

func.func @name_not_a_string() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %w = spec.param 7 = 128 : i32
  return
}

// -----

func.func @missing_type() {
  // expected-error @+1 {{expected ':'}}
  %w = spec.param "w" = 128
  return
}

// -----

func.func @float_type() {
  // expected-error @+1 {{result #0 must be signless integer or index, but got 'f32'}}
  %w = spec.param "w" = 128 : f32
  return
}

// -----

func.func @signed_type() {
  // expected-error @+1 {{result #0 must be signless integer or index, but got 'si32'}}
  %w = spec.param "w" = 128 : si32
  return
}

// -----

func.func @empty_name() {
  // expected-error @+1 {{needs a non-empty parameter name}}
  %w = spec.param "" = 128 : i32
  return
}

// -----

func.func @equals_without_operand() {
  // expected-error @+1 {{expected SSA operand}}
  %w = spec.param "w" = 128 equals : i32
  return
}

// -----

func.func @equals_undefined_value() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %w = spec.param "w" = 128 equals %nowhere : i32
  return
}

// -----

func.func @value_too_wide_for_attribute() {
  // expected-error @+1 {{integer value too large}}
  %w = spec.param "w" = 99999999999999999999999 : i64
  return
}

// -----

func.func @generic_missing_value() {
  // expected-error @+1 {{requires attribute 'value'}}
  %w = "spec.param"() <{name = "w"}> : () -> i32
  return
}

// -----

func.func @generic_missing_name() {
  // expected-error @+1 {{requires attribute 'name'}}
  %w = "spec.param"() <{value = 4 : i64}> : () -> i32
  return
}

// -----

func.func @generic_value_not_i64() {
  // expected-error @+1 {{attribute 'value' failed to satisfy constraint: 64-bit signless integer attribute}}
  %w = "spec.param"() <{name = "w", value = 4 : i32}> : () -> i32
  return
}

// -----

func.func @generic_two_results() {
  // expected-error @+1 {{requires one result}}
  %w:2 = "spec.param"() <{name = "w", value = 4 : i64}> : () -> (i32, i32)
  return
}

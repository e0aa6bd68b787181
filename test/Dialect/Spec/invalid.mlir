// RUN: fly-opt %s -split-input-file -verify-diagnostics

func.func @empty_name() -> i32 {
  // expected-error @+1 {{'spec.param' op needs a non-empty parameter name}}
  %w = spec.param "" = 1 : i32
  return %w : i32
}

// -----

func.func @does_not_fit() -> i8 {
  // expected-error @+1 {{'spec.param' op value 300 of parameter 'w' does not fit 'i8'}}
  %w = spec.param "w" = 300 : i8
  return %w : i8
}

// -----

func.func @negative_does_not_fit() -> i8 {
  // expected-error @+1 {{'spec.param' op value -129 of parameter 'w' does not fit 'i8'}}
  %w = spec.param "w" = -129 : i8
  return %w : i8
}

// -----

func.func @equals_wrong_type(%v: i64) -> i32 {
  // expected-error @+1 {{'spec.param' op 'equals' operand has type 'i64' but the parameter has type 'i32'}}
  %w = "spec.param"(%v) <{name = "w", value = 1 : i64}> : (i64) -> i32
  return %w : i32
}

// -----

func.func @equals_wrong_type_pretty(%v: i64) -> i32 {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'i32' vs 'i64'}}
  %w = spec.param "w" = 1 equals %v : i32
  return %w : i32
}

// -----

func.func @float_type() -> f32 {
  // expected-error @+1 {{'spec.param' op result #0 must be signless integer or index}}
  %w = "spec.param"() <{name = "w", value = 1 : i64}> : () -> f32
  return %w : f32
}

// -----

// expected-error @+1 {{'spec.launch_sites' must be a non-negative integer}}
func.func @bad_record() attributes {spec.launch_sites = "x"} {
  return
}

// -----

// expected-error @+1 {{each 'spec.hoisted' entry needs 'name', 'type' and 'argument' or 'equals'}}
func.func @bad_hoisted() attributes {spec.hoisted = [{name = "w"}]} {
  return
}

// -----

// expected-error @+1 {{unknown spec dialect attribute 'spec.whatever'}}
func.func @unknown_attr() attributes {spec.whatever} {
  return
}

// RUN: fly-opt %s -split-input-file -verify-diagnostics
// The record (#spec.record), the spec.* attributes and the edges of the
// value check (i0, i1, i63); more of the op's checks are in
// invalid-values.mlir (values and types) and invalid-syntax.mlir (parsing).

func.func @does_not_fit() -> i8 {
  // expected-error @+1 {{'spec.param' op value 300 of parameter 'w' does not fit 'i8'}}
  %w = spec.param "w" = 300 : i8
  return %w : i8
}

// -----

func.func @equals_wrong_type_pretty(%v: i64) -> i32 {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'i32' vs 'i64'}}
  %w = spec.param "w" = 1 equals %v : i32
  return %w : i32
}

// -----

// expected-error @+1 {{'spec.record' must be a #spec.record}}
func.func @record_not_a_record() attributes {spec.record = "x"} {
  return
}

// -----

// expected-error @+1 {{'spec.record' belongs on a function}}
module attributes {spec.record = #spec.record<hoisted = [], kept = [], kept_locations = [], launch_sites = []>} {
}

// -----

// expected-error @+1 {{'spec.record' puts 'w' at argument 1 of a function with 1 arguments}}
func.func @record_argument_out_of_range(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+3 {{divisor 3 is not a power of two above 1}}
// expected-error @+2 {{failed to parse Spec_HoistedParamAttr parameter 'preconditions'}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_divisor_not_power_of_two(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 0, preconditions = [#spec.divisible_by<3>]>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+2 {{argument numbers of 'w' must be non-negative}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_negative_argument(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = -1>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// A count of no accesses is no offset tail: the field is absent then.
// expected-error @+2 {{immediate_offsets of 'tail' must be at least 1}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_no_immediate_offsets(%a: i32) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "tail", type = i32, argument = 0, immediate_offsets = 0>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+2 {{a hoisted parameter needs a name}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_unnamed(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "", type = index, argument = 0>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+2 {{preconditions of 'w' must be #spec.divisible_by, #spec.range, #spec.equals, #spec.equals_parameter, #spec.equals_constant or #spec.equals_unverifiable}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_precondition_not_text(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 0, preconditions = [1]>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'hoisted' must list #spec.hoisted entries}}
func.func @record_hoisted_not_entries() attributes {spec.record = #spec.record<hoisted = [{name = "w"}], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'kept' must list #spec.kept entries}}
func.func @record_kept_not_entries() attributes {spec.record = #spec.record<hoisted = [], kept = ["w"], kept_locations = [loc(unknown)], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'kept_locations' must list locations}}
func.func @record_kept_locations_not_locations() attributes {spec.record = #spec.record<hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "loop-bound">], kept_locations = ["here"], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'kept_locations' has 0 entries for 1 kept parameters}}
func.func @record_kept_without_location() attributes {spec.record = #spec.record<hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "loop-bound">], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'kept_locations' has 2 entries for 1 kept parameters}}
func.func @record_location_without_kept() attributes {spec.record = #spec.record<hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "loop-bound">], kept_locations = [loc(unknown), loc(unknown)], launch_sites = []>} {
  return
}

// -----

// expected-error @+1 {{'launch_sites' must list locations}}
func.func @record_launch_sites_not_locations() attributes {spec.record = #spec.record<hoisted = [], kept = [], kept_locations = [], launch_sites = [1]>} {
  return
}

// -----

// expected-error @+1 {{unknown spec dialect attribute 'spec.whatever'}}
func.func @unknown_attr() attributes {spec.whatever} {
  return
}

// -----

// i0 holds only 0: -1 (and 1) do not fit, whichever way they are read.
func.func @i0_minus_one() -> i0 {
  // expected-error @+1 {{'spec.param' op value -1 of parameter 'w' does not fit 'i0'}}
  %w = spec.param "w" = -1 : i0
  return %w : i0
}

// -----

func.func @i0_one() -> i0 {
  // expected-error @+1 {{'spec.param' op value 1 of parameter 'w' does not fit 'i0'}}
  %w = spec.param "w" = 1 : i0
  return %w : i0
}

// -----

func.func @i1_minus_two() -> i1 {
  // expected-error @+1 {{'spec.param' op value -2 of parameter 'w' does not fit 'i1'}}
  %w = spec.param "w" = -2 : i1
  return %w : i1
}

// -----

func.func @i63_past_unsigned_max() -> i63 {
  // expected-error @+1 {{'spec.param' op value -4611686018427387905 of parameter 'w' does not fit 'i63'}}
  %w = spec.param "w" = -4611686018427387905 : i63
  return %w : i63
}

// -----

// expected-error @+2 {{'w' has more than one #spec.divisible_by precondition}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_two_divisors(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 0, preconditions = [#spec.divisible_by<4>, #spec.divisible_by<8>]>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+3 {{empty range: min 5 > max 4}}
// expected-error @+2 {{failed to parse Spec_HoistedParamAttr parameter 'preconditions'}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_empty_range(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 0, preconditions = [#spec.range<min = 5, max = 4>]>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+3 {{'stride' needs index}}
// expected-error @+2 {{failed to parse Spec_HoistedParamAttr parameter 'preconditions'}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'hoisted'}}
func.func @record_stride_without_index(%a: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, preconditions = [#spec.equals<argument = 0, part = stride>]>], kept = [], kept_locations = [], launch_sites = []>} {
  return
}

// -----

// expected-error @+3 {{unknown why a parameter is kept as a constant 'loop bound or step'}}
// expected-error @+2 {{failed to parse Spec_KeptParamAttr parameter 'reason'}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'kept'}}
func.func @record_reason_as_text() attributes {spec.record = #spec.record<hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "loop bound or step">], kept_locations = [loc(unknown)], launch_sites = []>} {
  return
}

// -----

// expected-error @+2 {{reason 'unknown-operand' needs 'operand'}}
// expected-error @+1 {{failed to parse Spec_HoistRecordAttr parameter 'kept'}}
func.func @record_reason_without_detail() attributes {spec.record = #spec.record<hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "unknown-operand", op = "x.y">], kept_locations = [loc(unknown)], launch_sites = []>} {
  return
}

//===- TestStrideOps.td - A DSL-like dialect for the tests -*- tablegen -*-===//
//
// Stands in for a DSL's dialect (FlyDSL's buffer and layout ops, say): ops
// that implement StrideUseOpInterface in ODS, one that gets it as an external
// model the way a plugin attaches it to ops it does not own, and ops with no
// model at all, which tools describe through the pass options.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TEST_TESTSTRIDEOPS_TD
#define FLYHOIST_TEST_TESTSTRIDEOPS_TD

include "flyhoist/Analysis/StrideUseOpInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TestStride_Dialect : Dialect {
  let name = "test_stride";
  let cppNamespace = "::mlir::flyhoist::test";
  let summary = "Ops that stand in for a DSL's buffer and layout ops in tests";
}

class TestStride_Op<string mnemonic, list<Trait> traits = []>
    : Op<TestStride_Dialect, mnemonic, traits>;

def TestStride_BufferLoadOp : TestStride_Op<"buffer_load",
    [DeclareOpInterfaceMethods<StrideUseOpInterface>]> {
  let summary = "loads from a buffer at an offset; the mask is not an address";
  let arguments = (ins AnyMemRef:$buffer, Index:$offset, Optional<I1>:$mask);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buffer `[` $offset `]` (`mask` $mask^)? attr-dict `:` type($buffer) `->` type($result)
  }];
}

def TestStride_AdvanceOp : TestStride_Op<"advance",
    [Pure, DeclareOpInterfaceMethods<StrideUseOpInterface>]> {
  let summary = "offset + step * count, where count is a trip count (layout algebra)";
  let arguments = (ins Index:$offset, Index:$step, Index:$count);
  let results = (outs Index:$result);
  let assemblyFormat = "$offset `by` $step `x` $count attr-dict";
}

def TestStride_UnownedOp : TestStride_Op<"unowned", [Pure]> {
  let summary = "address arithmetic whose model a plugin attaches";
  let arguments = (ins Index:$lhs, Index:$rhs);
  let results = (outs Index:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def TestStride_OpaqueOp : TestStride_Op<"opaque", [Pure]> {
  let summary = "an op no model describes (the pass options may)";
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $results)";
}

def TestStride_OpaqueLoadOp : TestStride_Op<"opaque_load"> {
  let summary = "an access no model describes (the pass options may)";
  let arguments = (ins AnyMemRef:$buffer, Index:$offset);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buffer `[` $offset `]` attr-dict `:` type($buffer) `->` type($result)
  }];
}

#endif // FLYHOIST_TEST_TESTSTRIDEOPS_TD

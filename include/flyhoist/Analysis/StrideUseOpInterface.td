//===- StrideUseOpInterface.td - How ops use parameters ----*- tablegen -*-===//
//
// The extension point of the stride-use analysis: an operation says how it
// uses a value that carries a specialization parameter.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_TD
#define FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def StrideUseOpInterface : OpInterface<"StrideUseOpInterface"> {
  let cppNamespace = "::mlir::flyhoist";
  let description = [{
    Implemented by operations that take part in address computations, so
    that `hoist-stride-specialization` can prove a specialization parameter
    is used only to compute addresses. For one use of an operand whose
    *facet* carries a parameter (a scalar's value, a memref's address part
    or sizes, a struct's leaf field; see StrideUseOpInterface.h), the
    operation answers one of:

    - `UseVerdict::passThrough(...)`: address arithmetic; the parameter
      reaches these values (results, region arguments) in these facets;
    - `UseVerdict::sink()`: an address operand of a memory access;
    - `UseVerdict::notRead()`: the operation does not read that facet;
    - `UseVerdict::blocking(reason)`: the kernel needs the parameter as a
      constant here.

    A DSL dialect implements it on its buffer and layout ops in ODS
    (`DeclareOpInterfaceMethods<StrideUseOpInterface>`); a plugin attaches
    it to ops it does not own as an external model. Operations that do not
    implement it keep the parameter, unless they are control flow the
    analysis follows through its interfaces (region branches, branches) or
    the `address-operands`/`pass-through-operands` pass options name them.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Classifies `use` (an operand of this operation) of a value whose
        `facet` carries a specialization parameter.
      }],
      /*retTy=*/"::mlir::flyhoist::UseVerdict",
      /*methodName=*/"classifyStrideUse",
      /*args=*/(ins "::mlir::OpOperand &":$use, "unsigned":$facet)>,
  ];
}

#endif // FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_TD

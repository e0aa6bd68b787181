/*===- flyhoist-c/Dialect/Spec.h - The spec dialect in the C API --*- C -*-===*\
|*                                                                            *|
|* The dialect handle of `spec` (`spec.param`), for a host that registers     *|
|* dialects through MLIR's C API:                                             *|
|*                                                                            *|
|*   mlirDialectHandleInsertDialect(mlirGetDialectHandle__spec__(),           *|
|*                                  registry);                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLYHOIST_C_DIALECT_SPEC_H
#define FLYHOIST_C_DIALECT_SPEC_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Spec, spec);

#ifdef __cplusplus
}
#endif

#endif /* FLYHOIST_C_DIALECT_SPEC_H */

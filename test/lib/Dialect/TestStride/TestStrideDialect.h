//===- TestStrideDialect.h - A DSL-like dialect for the tests ---*- C++ -*-===//
#ifndef FLYHOIST_TEST_TESTSTRIDEDIALECT_H
#define FLYHOIST_TEST_TESTSTRIDEDIALECT_H

#include "flyhoist/Analysis/StrideUseOpInterface.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TestStrideOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "TestStrideOps.h.inc"

namespace mlir::flyhoist::test {
/// Registers the test_stride dialect and, as a plugin would for ops it does
/// not own, a StrideUseOpInterface model for test_stride.unowned.
void registerTestStrideDialect(DialectRegistry &registry);
} // namespace mlir::flyhoist::test

#endif // FLYHOIST_TEST_TESTSTRIDEDIALECT_H

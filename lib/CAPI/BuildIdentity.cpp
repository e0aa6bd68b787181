//===- BuildIdentity.cpp - Which flyhoist built this library --------------===//
//
// flyhoistGetBuildIdentity, the one file that includes the generated
// FlyHoistBuildIdentity.h: a new source revision recompiles this file and
// relinks the library, nothing else.
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "FlyHoistBuildIdentity.h"

#include "llvm/Config/llvm-config.h"

const char *flyhoistGetBuildIdentity(void) {
  return "flyhoist " FLYHOIST_BUILD_VERSION " (" FLYHOIST_BUILD_REVISION
         "), MLIR " LLVM_VERSION_STRING;
}

/*===- flyhoist-capi-minimal.c - A C host that registers little ----------===*\
|*                                                                            *|
|* A frontend that registers only the dialects its IR uses (spec, func, gpu,  *|
|* arith, memref, scf) and only the flyhoist passes and pipelines: no         *|
|* mlirRegisterAllDialects, no mlirRegisterAllPasses, no LLVM IR              *|
|* translations. It hoists a small kernel, prints the manifest, and lowers    *|
|* it with `flyhoist-amdgpu-pipeline` (an HSA code object) or                 *|
|* `flyhoist-nvvm-pipeline` (PTX): the pipelines add what they need. Built in *|
|* the tree (test/CAPI/capi-minimal.test) and out of tree against an         *|
|* installed prefix (test/Install/install.test).                              *|
|*                                                                            *|
|*   flyhoist-capi-minimal amdgpu|nvvm                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "flyhoist-c/FlyHoist.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static const char *kernel =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
    "                     %seq: index) kernel {\n"
    "      %w = spec.param \"max_blocks_per_seq\" = 128 : i32\n"
    "      %n = spec.param \"pages\" = 4 : index\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %c1 = arith.constant 1 : index\n"
    "      %wi = arith.index_cast %w : i32 to index\n"
    "      %row = arith.muli %seq, %wi : index\n"
    "      scf.for %blk = %c0 to %n step %c1 {\n"
    "        %i = arith.addi %row, %blk : index\n"
    "        %v = memref.load %bt[%i] : memref<?xi32>\n"
    "        memref.store %v, %out[%blk] : memref<?xi32>\n"
    "      }\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

static void printPiece(MlirStringRef piece, void *userData) {
  fwrite(piece.data, 1, piece.length, (FILE *)userData);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fputs("diagnostic: ", stdout);
  mlirDiagnosticPrint(diagnostic, printPiece, stdout);
  fputc('\n', stdout);
  return mlirLogicalResultSuccess();
}

/* The first op named `name` under `op` (pre-order), or a null op. */
static MlirOperation findOp(MlirOperation op, const char *name) {
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString(name)))
    return op;
  for (intptr_t r = 0, re = mlirOperationGetNumRegions(op); r < re; ++r)
    for (MlirBlock block =
             mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (MlirOperation child = mlirBlockGetFirstOperation(block);
           !mlirOperationIsNull(child);
           child = mlirOperationGetNextInBlock(child)) {
        MlirOperation found = findOp(child, name);
        if (!mlirOperationIsNull(found))
          return found;
      }
  MlirOperation none = {NULL};
  return none;
}

int main(int argc, char **argv) {
  int amdgpu = argc > 1 && strcmp(argv[1], "amdgpu") == 0;
  int nvvm = argc > 1 && strcmp(argv[1], "nvvm") == 0;
  if (!amdgpu && !nvvm) {
    fprintf(stderr, "usage: %s amdgpu|nvvm\n", argv[0]);
    return 2;
  }
  printf("flyhoist C API %u.%u\n", flyhoistGetAPIVersion() >> 16,
         flyhoistGetAPIVersion() & 0xffff);

  /* Only the dialects the kernel is written in. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  MlirDialectHandle handles[] = {
      mlirGetDialectHandle__spec__(),   mlirGetDialectHandle__func__(),
      mlirGetDialectHandle__gpu__(),    mlirGetDialectHandle__arith__(),
      mlirGetDialectHandle__memref__(), mlirGetDialectHandle__scf__(),
  };
  for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); ++i)
    mlirDialectHandleInsertDialect(handles[i], registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  mlirRegisterFlyHoistPasses();
  mlirRegisterFlyHoistPipelines();

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kernel));
  if (mlirModuleIsNull(module)) {
    printf("the kernel does not parse\n");
    return 1;
  }
  MlirOperation op = mlirModuleGetOperation(module);
  MlirLogicalResult hoisted = flyhoistHoistStrideSpecialization(
      op, mlirStringRefCreateFromCString("remarks=false"));
  printf("hoisted: %s\n", mlirLogicalResultIsSuccess(hoisted) ? "yes" : "no");
  printf("manifest:\n");
  fflush(stdout);
  flyhoistPrintManifest(op, printPiece, stdout);

  const char *pipeline =
      amdgpu ? "builtin.module(flyhoist-amdgpu-pipeline{chip=gfx942})"
             : "builtin.module(flyhoist-nvvm-pipeline{chip=sm_90})";
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printPiece, stdout);
  MlirLogicalResult lowered = mlirLogicalResultFailure();
  if (mlirLogicalResultIsSuccess(parsed))
    lowered = mlirPassManagerRunOnOp(pm, op);
  mlirPassManagerDestroy(pm);
  printf("lowered: %s\n", mlirLogicalResultIsSuccess(lowered) ? "yes" : "no");

  int status = 1;
  MlirOperation binary = findOp(op, "gpu.binary");
  MlirAttribute objects =
      mlirOperationIsNull(binary)
          ? mlirAttributeGetNull()
          : mlirOperationGetAttributeByName(
                binary, mlirStringRefCreateFromCString("objects"));
  if (!mlirAttributeIsNull(objects) && mlirAttributeIsAArray(objects) &&
      mlirArrayAttrGetNumElements(objects) > 0 &&
      mlirAttributeIsAGPUObjectAttr(mlirArrayAttrGetElement(objects, 0))) {
    MlirStringRef object =
        mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
    if (amdgpu) {
      int elf = object.length > 4 && memcmp(object.data, "\177ELF", 4) == 0;
      printf("code object: %s, %zu bytes\n", elf ? "ELF" : "not ELF",
             object.length);
      status = elf ? 0 : 1;
    } else {
      /* The PTX entry's parameters, one per line. */
      const char *params = strstr(object.data, ".entry");
      const char *end = params ? strchr(params, ')') : NULL;
      for (const char *line = params; line && line < end;) {
        const char *next = strchr(line, '\n');
        if (!next || next > end)
          break;
        line = next + 1;
        const char *param = strstr(line, ".param");
        if (param && param < end && param < strchr(line, '\n'))
          printf("ptx %.*s\n", (int)(strchr(line, '\n') - param), param);
      }
      status = params ? 0 : 1;
    }
  }
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return status;
}

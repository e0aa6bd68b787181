/*===- flyhoist-capi-test.c - A C host of libFlyHoistMLIRCAPI.so ----------===*\
|*                                                                            *|
|* Does what a frontend does: its own MlirContext with upstream dialects and  *|
|* ours (through the dialect handle), its own module (parsed, with one        *|
|* spec.param built through MLIR's C API), the pass run through               *|
|* mlirParsePassPipeline + mlirPassManagerRunOnOp and through                 *|
|* flyhoistHoistStrideSpecialization, then the manifest, the fingerprints and *|
|* a code object. The `errors` mode checks that bad options and bad IR fail   *|
|* with located diagnostics and leave the module unchanged. One line per      *|
|* check for FileCheck; the exit status counts unexpected results.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "flyhoist-c/FlyHoist.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    printf("UNEXPECTED: %s\n", what);
    ++failures;
  }
}

/*===----------------------------------------------------------------------===*
 * Growing strings, filled by MlirStringCallback
 *===----------------------------------------------------------------------===*/

typedef struct {
  char *data;
  size_t size;
} Text;

static void appendToText(MlirStringRef piece, void *userData) {
  Text *text = (Text *)userData;
  char *grown = (char *)realloc(text->data, text->size + piece.length + 1);
  if (!grown)
    abort();
  memcpy(grown + text->size, piece.data, piece.length);
  text->size += piece.length;
  grown[text->size] = '\0';
  text->data = grown;
}

static void appendCString(Text *text, const char *s) {
  appendToText(mlirStringRefCreateFromCString(s), text);
}

static const char *textOf(const Text *text) {
  return text->data ? text->data : "";
}

static void clearText(Text *text) {
  free(text->data);
  text->data = NULL;
  text->size = 0;
}

static Text printOperation(MlirOperation op) {
  Text text = {NULL, 0};
  mlirOperationPrint(op, appendToText, &text);
  return text;
}

/*===----------------------------------------------------------------------===*
 * Diagnostics, as a frontend renders them: "file:line:col: severity: text"
 *===----------------------------------------------------------------------===*/

/* Everything the context reported since the last clearText(&diagnostics). */
static Text diagnostics = {NULL, 0};

/* Where a diagnostic points, as the manifest words locations. */
static void appendLocation(Text *text, MlirLocation location) {
  flyhoistPrintLocation(location, appendToText, text);
}

static void appendDiagnostic(Text *text, MlirDiagnostic diagnostic) {
  static const char *severities[] = {"error", "warning", "note", "remark"};
  Text message = {NULL, 0};
  mlirDiagnosticPrint(diagnostic, appendToText, &message);
  /* MLIR attaches the whole op to a diagnostic emitted on it (the context's
     printOpOnDiagnostic, which the C API cannot turn off); a frontend shows
     the location instead. */
  if (strncmp(textOf(&message), "see current operation:", 22) != 0) {
    appendLocation(text, mlirDiagnosticGetLocation(diagnostic));
    appendCString(text, ": ");
    appendCString(text, severities[mlirDiagnosticGetSeverity(diagnostic)]);
    appendCString(text, ": ");
    appendCString(text, textOf(&message));
    appendCString(text, "\n");
  }
  clearText(&message);
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diagnostic); i < e; ++i)
    appendDiagnostic(text, mlirDiagnosticGetNote(diagnostic, i));
}

static MlirLogicalResult collectDiagnostic(MlirDiagnostic diagnostic,
                                           void *userData) {
  appendDiagnostic((Text *)userData, diagnostic);
  return mlirLogicalResultSuccess();
}

/* Prints what was collected, indented, under `title`, and clears it. */
static void dumpDiagnostics(const char *title) {
  printf("%s:\n", title);
  const char *line = textOf(&diagnostics);
  while (*line) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    printf("  | %.*s\n", (int)length, line);
    line += length + (end ? 1 : 0);
  }
  clearText(&diagnostics);
}

/*===----------------------------------------------------------------------===*
 * The frontend's context and modules
 *===----------------------------------------------------------------------===*/

static MlirContext createFrontendContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__spec__(), registry);
  MlirContext context =
      mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
  mlirDialectRegistryDestroy(registry);
  /* gpu-module-to-binary translates each gpu.module to LLVM IR. */
  mlirRegisterAllLLVMTranslations(context);
  mlirContextAttachDiagnosticHandler(context, collectDiagnostic, &diagnostics,
                                     NULL);
  return context;
}

/* A kernel whose block-table row stride is a parameter and whose loop bound
   is another, launched by a host function. The row stride is traced as an
   `arith.constant` marked `frontend.width`, which buildWidthParam replaces
   by a spec.param built through the C API. */
static const char *kernelTemplate =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
    "                     %seq: index) kernel {\n"
    "      %w = arith.constant {frontend.width} @WIDTH@ : index\n"
    "      %n = spec.param \"pages\" = 4 : index\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %c1 = arith.constant 1 : index\n"
    "      %row = arith.muli %seq, %w : index\n"
    "      scf.for %blk = %c0 to %n step %c1 {\n"
    "        %i = arith.addi %row, %blk : index\n"
    "        %v = memref.load %bt[%i] : memref<?xi32>\n"
    "        memref.store %v, %out[%blk] : memref<?xi32>\n"
    "      }\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
    "                  %seq: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    gpu.launch_func @kernels::@gather blocks in (%c1, %c1, %c1)\n"
    "        threads in (%c1, %c1, %c1)\n"
    "        args(%bt : memref<?xi32>, %out : memref<?xi32>, %seq : index)\n"
    "    return\n"
    "  }\n"
    "}\n";

/* Finds the first op named `name` under `op` (pre-order), or a null op. */
static MlirOperation findOp(MlirOperation op, const char *name) {
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString(name)))
    return op;
  for (intptr_t r = 0, re = mlirOperationGetNumRegions(op); r < re; ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock block = mlirRegionGetFirstBlock(region);
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (MlirOperation child = mlirBlockGetFirstOperation(block);
           !mlirOperationIsNull(child);
           child = mlirOperationGetNextInBlock(child)) {
        MlirOperation found = findOp(child, name);
        if (!mlirOperationIsNull(found))
          return found;
      }
  }
  MlirOperation none = {NULL};
  return none;
}

/* Replaces the marked constant by `spec.param "max_blocks_per_seq" = V`,
   built through the C API, with a location of the frontend's own. */
static void buildWidthParam(MlirOperation module, int64_t width) {
  MlirContext context = mlirOperationGetContext(module);
  MlirOperation marked = findOp(module, "arith.constant");
  while (!mlirOperationIsNull(marked) &&
         mlirAttributeIsNull(mlirOperationGetAttributeByName(
             marked, mlirStringRefCreateFromCString("frontend.width"))))
    marked = mlirOperationGetNextInBlock(marked);
  check(!mlirOperationIsNull(marked), "the traced width constant is there");
  if (mlirOperationIsNull(marked))
    return;

  MlirLocation location = mlirLocationFileLineColGet(
      context, mlirStringRefCreateFromCString("frontend.py"), 42, 7);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("spec.param"), location);
  MlirNamedAttribute attributes[] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(context, mlirStringRefCreateFromCString("name")),
          mlirStringAttrGet(
              context, mlirStringRefCreateFromCString("max_blocks_per_seq"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(context, mlirStringRefCreateFromCString("value")),
          mlirIntegerAttrGet(mlirIntegerTypeGet(context, 64), width)),
  };
  mlirOperationStateAddAttributes(&state, 2, attributes);
  MlirType index = mlirIndexTypeGet(context);
  mlirOperationStateAddResults(&state, 1, &index);
  MlirOperation param = mlirOperationCreate(&state);
  check(!mlirOperationIsNull(param), "spec.param built");
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(marked), marked,
                                      param);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(marked, 0),
                                mlirOperationGetResult(param, 0));
  mlirOperationDestroy(marked);
}

/* The frontend's module for `width`: parsed, then the width built in. */
static MlirOperation traceKernel(MlirContext context, int64_t width,
                                 const char *sourceName) {
  char text[4096];
  const char *hole = strstr(kernelTemplate, "@WIDTH@");
  snprintf(text, sizeof(text), "%.*s%lld%s", (int)(hole - kernelTemplate),
           kernelTemplate, (long long)width, hole + strlen("@WIDTH@"));
  MlirOperation module =
      mlirOperationCreateParse(context, mlirStringRefCreateFromCString(text),
                               mlirStringRefCreateFromCString(sourceName));
  check(!mlirOperationIsNull(module), "kernel parses");
  if (!mlirOperationIsNull(module))
    buildWidthParam(module, width);
  return module;
}

/* Runs `pipeline` over `module` as a frontend does; 1 on success. Parse
   errors of the pipeline text are collected with the diagnostics. */
static int runPipeline(MlirOperation module, const char *pipeline) {
  MlirContext context = mlirOperationGetContext(module);
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), appendToText, &diagnostics);
  int ok = mlirLogicalResultIsSuccess(parsed) &&
           mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  return ok;
}

static Text manifestOf(MlirOperation module) {
  Text json = {NULL, 0};
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintManifest(module, appendToText, &json)),
        "manifest");
  return json;
}

static Text fingerprintOf(MlirOperation module) {
  Text hex = {NULL, 0};
  MlirOperation gpuModule = findOp(module, "gpu.module");
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintFingerprint(gpuModule, appendToText, &hex)),
        "fingerprint");
  return hex;
}

/* The fingerprint of `width`'s gpu.module after `pipeline`. */
static Text fingerprintAfter(MlirContext context, int64_t width,
                             const char *pipeline) {
  MlirOperation module = traceKernel(context, width, "width.mlir");
  check(runPipeline(module, pipeline), pipeline);
  Text hex = fingerprintOf(module);
  mlirOperationDestroy(module);
  return hex;
}

/* The object bytes of the first gpu.binary in `module`. */
static MlirStringRef binaryObject(MlirOperation module) {
  MlirStringRef none = {NULL, 0};
  MlirOperation binary = findOp(module, "gpu.binary");
  if (mlirOperationIsNull(binary))
    return none;
  MlirAttribute objects = mlirOperationGetAttributeByName(
      binary, mlirStringRefCreateFromCString("objects"));
  if (mlirAttributeIsNull(objects) || !mlirAttributeIsAArray(objects) ||
      mlirArrayAttrGetNumElements(objects) < 1)
    return none;
  MlirAttribute object = mlirArrayAttrGetElement(objects, 0);
  if (!mlirAttributeIsAGPUObjectAttr(object))
    return none;
  return mlirGPUObjectAttrGetObject(object);
}

/*===----------------------------------------------------------------------===*
 * Success paths
 *===----------------------------------------------------------------------===*/

/* Prints `location` as flyhoistPrintLocation words it, after `what`. */
static void printLocation(const char *what, MlirLocation location) {
  Text text = {NULL, 0};
  flyhoistPrintLocation(location, appendToText, &text);
  printf("location %s: %s\n", what, textOf(&text));
  clearText(&text);
}

/* Every kind of location a frontend builds. */
static void testLocations(MlirContext context) {
  MlirLocation file = mlirLocationFileLineColGet(
      context, mlirStringRefCreateFromCString("k.py"), 9, 4);
  MlirLocation caller = mlirLocationFileLineColGet(
      context, mlirStringRefCreateFromCString("host.py"), 3, 1);
  MlirLocation unknown = mlirLocationUnknownGet(context);
  printLocation("file", file);
  printLocation(
      "name", mlirLocationNameGet(context,
                                  mlirStringRefCreateFromCString("row"), file));
  printLocation("call site", mlirLocationCallSiteGet(file, caller));
  MlirLocation parts[] = {unknown, caller, file};
  printLocation(
      "fused", mlirLocationFusedGet(context, 3, parts, mlirAttributeGetNull()));
  printLocation("unknown", unknown);
  printLocation("call site of unknown", mlirLocationCallSiteGet(unknown, file));
}

static void testSuccess(void) {
  printf("api version %u.%u\n", flyhoistGetAPIVersion() >> 16,
         flyhoistGetAPIVersion() & 0xffff);
  printf("build identity: %s\n", flyhoistGetBuildIdentity());
  MlirContext context = createFrontendContext();
  testLocations(context);

  /* The pipeline route: the frontend's own pass manager, MLIR's parser. */
  MlirOperation module = traceKernel(context, 128, "kernel-128.mlir");
  check(runPipeline(module, "builtin.module(hoist-stride-specialization)"),
        "pipeline route");
  dumpDiagnostics("remarks");
  Text text = printOperation(module);
  printf("module:\n%s", textOf(&text));
  Text manifest = manifestOf(module);
  printf("manifest:\n%s", textOf(&manifest));
  Text hex = fingerprintOf(module);
  printf("fingerprint: %s\n", textOf(&hex));
  check(strstr(textOf(&manifest), textOf(&hex)) != NULL,
        "the manifest carries the fingerprint");
  Text compile = {NULL, 0};
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintCompileFingerprint(module, appendToText, &compile)),
        "compile fingerprint");
  printf("compile fingerprint: %s\n", textOf(&compile));

  /* The function route, same input and options: the same module. */
  MlirOperation again = traceKernel(context, 128, "kernel-128.mlir");
  check(mlirLogicalResultIsSuccess(flyhoistHoistStrideSpecialization(
            again, mlirStringRefCreateFromCString(""))),
        "function route");
  clearText(&diagnostics);
  Text againText = printOperation(again);
  Text againManifest = manifestOf(again);
  printf("function and pipeline routes: module %s, manifest %s\n",
         strcmp(textOf(&text), textOf(&againText)) ? "DIFFERS" : "same",
         strcmp(textOf(&manifest), textOf(&againManifest)) ? "DIFFERS"
                                                           : "same");
  failures += strcmp(textOf(&text), textOf(&againText)) != 0;
  failures += strcmp(textOf(&manifest), textOf(&againManifest)) != 0;
  clearText(&againText);
  clearText(&againManifest);
  mlirOperationDestroy(again);

  /* The generated creator, added to the frontend's own pass manager. */
  MlirOperation created = traceKernel(context, 128, "kernel-128.mlir");
  MlirPassManager pm = mlirPassManagerCreate(context);
  mlirPassManagerAddOwnedPass(pm,
                              mlirCreateFlyHoistHoistStrideSpecialization());
  check(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, created)),
        "created pass");
  mlirPassManagerDestroy(pm);
  clearText(&diagnostics);
  Text createdText = printOperation(created);
  printf("created pass and pipeline routes: module %s\n",
         strcmp(textOf(&text), textOf(&createdText)) ? "DIFFERS" : "same");
  failures += strcmp(textOf(&text), textOf(&createdText)) != 0;
  clearText(&createdText);
  mlirOperationDestroy(created);

  /* Options, as the pass takes them. */
  MlirOperation withFacts = traceKernel(context, 128, "facts.mlir");
  check(mlirLogicalResultIsSuccess(flyhoistHoistStrideSpecialization(
            withFacts,
            mlirStringRefCreateFromCString("remarks=false hoist-into-host=true "
                                           "divisibility=16"))),
        "hoist with options");
  dumpDiagnostics("remarks with remarks=false");
  Text factsText = printOperation(withFacts);
  Text factsManifest = manifestOf(withFacts);
  printf("with options:\n%s%s", textOf(&factsText), textOf(&factsManifest));
  clearText(&factsText);
  clearText(&factsManifest);
  mlirOperationDestroy(withFacts);

  /* Identity: hoisted widths share a fingerprint, specialized ones do not. */
  Text h64 = fingerprintAfter(context, 64,
                              "builtin.module("
                              "hoist-stride-specialization{"
                              "remarks=false})");
  Text h200 = fingerprintAfter(context, 200,
                               "builtin.module("
                               "hoist-stride-specialization{"
                               "remarks=false})");
  Text s64 = fingerprintAfter(context, 64,
                              "builtin.module(materialize-specialization)");
  Text s200 = fingerprintAfter(context, 200,
                               "builtin.module(materialize-specialization)");
  int hoistedEqual = strcmp(textOf(&h64), textOf(&h200)) == 0;
  int specializedEqual = strcmp(textOf(&s64), textOf(&s200)) == 0;
  printf("hoisted widths 64/200: %s\n", hoistedEqual ? "equal" : "DIFFER");
  printf("specialized widths 64/200: %s\n",
         specializedEqual ? "EQUAL" : "differ");
  printf("hoisted 128 and 64: %s\n",
         strcmp(textOf(&hex), textOf(&h64)) ? "DIFFER" : "equal");
  failures += !hoistedEqual + specializedEqual +
              (strcmp(textOf(&hex), textOf(&h64)) != 0);
  clearText(&h64);
  clearText(&h200);
  clearText(&s64);
  clearText(&s200);

  /* The pipeline slot after the pass: lowering to code objects, read back
     through upstream's GPU attribute API. The module is compiled as a copy,
     as a frontend keeps its hoisted module. */
  const char *targets[][2] = {
      {"gfx942", "builtin.module(materialize-specialization,"
                 "flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})"},
      {"sm_90", "builtin.module(materialize-specialization,"
                "flyhoist-nvvm-pipeline{chip=sm_90 format=isa})"},
  };
  for (int i = 0; i < 2; ++i) {
    MlirOperation copy = mlirOperationClone(module);
    int compiled = runPipeline(copy, targets[i][1]);
    MlirStringRef object = binaryObject(copy);
    int isElf = object.length > 4 && memcmp(object.data,
                                            "\x7f"
                                            "ELF",
                                            4) == 0;
    int isPTX =
        object.length > 0 && strstr(object.data, ".entry gather") != NULL;
    printf("code object %s: %s\n", targets[i][0],
           !compiled ? "FAILED"
           : isElf   ? "ELF"
           : isPTX   ? "PTX"
                     : "UNKNOWN");
    failures += !compiled || !(isElf || isPTX);
    mlirOperationDestroy(copy);
  }
  dumpDiagnostics("compile diagnostics");

  clearText(&text);
  clearText(&manifest);
  clearText(&hex);
  clearText(&compile);
  mlirOperationDestroy(module);
  mlirContextDestroy(context);

  /* A registry that already holds the analysis' models (a frontend that
     runs the analysis from its own C++): the pass still runs. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__spec__(), registry);
  flyhoistRegisterStrideUseExternalModels(registry);
  MlirContext withModels = mlirContextCreateWithRegistry(registry, true);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(withModels, collectDiagnostic,
                                     &diagnostics, NULL);
  MlirOperation threaded = traceKernel(withModels, 7, "threaded.mlir");
  check(runPipeline(threaded, "builtin.module(hoist-stride-specialization{"
                              "remarks=false})"),
        "pipeline with the models registered and threading on");
  Text threadedText = printOperation(threaded);
  printf("models registered, threading on: %s\n",
         strstr(textOf(&threadedText), "name = \"max_blocks_per_seq\"")
             ? "hoisted"
             : "NOT HOISTED");
  failures += !strstr(textOf(&threadedText), "name = \"max_blocks_per_seq\"");
  clearText(&threadedText);
  dumpDiagnostics("threaded diagnostics");
  mlirOperationDestroy(threaded);
  mlirContextDestroy(withModels);
}

/*===----------------------------------------------------------------------===*
 * Error paths
 *===----------------------------------------------------------------------===*/

/* Runs flyhoistHoistStrideSpecialization with `options` on `module`, expects
   failure and an unchanged module, and prints the diagnostics. */
static void expectHoistFailure(const char *what, MlirOperation module,
                               const char *options) {
  Text before = printOperation(module);
  MlirLogicalResult result = flyhoistHoistStrideSpecialization(
      module, mlirStringRefCreateFromCString(options));
  Text after = printOperation(module);
  int unchanged = strcmp(textOf(&before), textOf(&after)) == 0;
  printf("%s: %s, module %s\n", what,
         mlirLogicalResultIsFailure(result) ? "failed" : "SUCCEEDED",
         unchanged ? "unchanged" : "CHANGED");
  failures += !mlirLogicalResultIsFailure(result) + !unchanged;
  dumpDiagnostics("  diagnostics");
  clearText(&before);
  clearText(&after);
}

/* Same through the frontend's own pass manager and MLIR's parser. */
static void expectPipelineFailure(const char *what, MlirOperation module,
                                  const char *pipeline) {
  Text before = printOperation(module);
  int ok = runPipeline(module, pipeline);
  Text after = printOperation(module);
  int unchanged = strcmp(textOf(&before), textOf(&after)) == 0;
  printf("%s: %s, module %s\n", what, ok ? "SUCCEEDED" : "failed",
         unchanged ? "unchanged" : "CHANGED");
  failures += ok + !unchanged;
  dumpDiagnostics("  diagnostics");
  clearText(&before);
  clearText(&after);
}

static void testErrors(void) {
  MlirContext context = createFrontendContext();
  MlirOperation module = traceKernel(context, 128, "kernel.mlir");

  expectHoistFailure("unknown option", module, "no-such-option=1");
  expectPipelineFailure(
      "unknown option (pipeline)", module,
      "builtin.module(hoist-stride-specialization{no-such-option=1})");
  expectHoistFailure("not a power of two", module, "divisibility=12");
  expectPipelineFailure(
      "not a power of two (pipeline)", module,
      "builtin.module(hoist-stride-specialization{divisibility=12})");
  expectHoistFailure("options that close the brace", module,
                     "remarks=false},canonicalize{");
  expectHoistFailure("unbalanced braces", module, "remarks=false}");
  expectHoistFailure("malformed rule", module, "address-operands=fly.load[x]");
  expectPipelineFailure("unknown pass (pipeline)", module,
                        "builtin.module(no-such-pass)");

  /* One parameter name with two values, parsed from the frontend's text. */
  static const char *conflict =
      "module {\n"
      "  func.func @k(%m: memref<?xi32>) attributes {spec.kernel} {\n"
      "    %a = spec.param \"w\" = 1 : index\n"
      "    %b = spec.param \"w\" = 2 : index\n"
      "    %x = memref.load %m[%a] : memref<?xi32>\n"
      "    %y = memref.load %m[%b] : memref<?xi32>\n"
      "    return\n"
      "  }\n"
      "}\n";
  MlirOperation conflicting = mlirOperationCreateParse(
      context, mlirStringRefCreateFromCString(conflict),
      mlirStringRefCreateFromCString("conflict.mlir"));
  check(!mlirOperationIsNull(conflicting), "conflict parses");
  expectHoistFailure("conflicting values", conflicting, "");
  expectPipelineFailure("conflicting values (pipeline)", conflicting,
                        "builtin.module(hoist-stride-specialization)");

  /* Ops of the wrong kind and null ops. */
  MlirOperation function = findOp(module, "func.func");
  expectHoistFailure("not a module", function, "");
  Text ignored = {NULL, 0};
  printf("manifest of a function: %s\n",
         mlirLogicalResultIsFailure(
             flyhoistPrintManifest(function, appendToText, &ignored))
             ? "failed"
             : "SUCCEEDED");
  printf("fingerprint of a module: %s\n",
         mlirLogicalResultIsFailure(
             flyhoistPrintFingerprint(module, appendToText, &ignored))
             ? "failed"
             : "SUCCEEDED");
  printf("compile fingerprint of a function: %s\n",
         mlirLogicalResultIsFailure(
             flyhoistPrintCompileFingerprint(function, appendToText, &ignored))
             ? "failed"
             : "SUCCEEDED");
  failures += ignored.size != 0;
  dumpDiagnostics("  diagnostics");
  MlirOperation null = {NULL};
  printf("null operation: hoist %s, manifest %s, fingerprint %s\n",
         mlirLogicalResultIsFailure(flyhoistHoistStrideSpecialization(
             null, mlirStringRefCreateFromCString("")))
             ? "failed"
             : "SUCCEEDED",
         mlirLogicalResultIsFailure(
             flyhoistPrintManifest(null, appendToText, &ignored))
             ? "failed"
             : "SUCCEEDED",
         mlirLogicalResultIsFailure(
             flyhoistPrintFingerprint(null, appendToText, &ignored))
             ? "failed"
             : "SUCCEEDED");
  failures += ignored.size != 0;

  /* After all of it, the module still hoists. */
  check(mlirLogicalResultIsSuccess(flyhoistHoistStrideSpecialization(
            module, mlirStringRefCreateFromCString("remarks=false"))),
        "hoisting after the failures");
  dumpDiagnostics("after the failures");

  mlirOperationDestroy(conflicting);
  mlirOperationDestroy(module);
  mlirContextDestroy(context);
}

/*===----------------------------------------------------------------------===*
 * Manifests by route
 *===----------------------------------------------------------------------===*/

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  Text text = {NULL, 0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    MlirStringRef piece = {chunk, n};
    appendToText(piece, &text);
  }
  fclose(file);
  return text.data;
}

static int writeFile(const char *path, const Text *text) {
  FILE *file = fopen(path, "wb");
  if (!file)
    return 0;
  int ok = fwrite(textOf(text), 1, text->size, file) == text->size;
  return fclose(file) == 0 && ok;
}

/* Hoists `input` (named by its path, as fly-opt names it) with `options`
   through flyhoistHoistStrideSpecialization and through the frontend's own
   pass manager, and writes each route's manifest. */
static void testManifestRoutes(const char *input, const char *options,
                               const char *functionOut,
                               const char *pipelineOut) {
  char *source = readFile(input);
  check(source != NULL, "input readable");
  if (!source)
    return;
  MlirContext context = createFrontendContext();
  const char *outs[] = {functionOut, pipelineOut};
  for (int route = 0; route < 2; ++route) {
    MlirOperation module = mlirOperationCreateParse(
        context, mlirStringRefCreateFromCString(source),
        mlirStringRefCreateFromCString(input));
    check(!mlirOperationIsNull(module), "input parses");
    if (mlirOperationIsNull(module))
      break;
    int ok;
    if (route == 0) {
      ok = mlirLogicalResultIsSuccess(flyhoistHoistStrideSpecialization(
          module, mlirStringRefCreateFromCString(options)));
    } else {
      char pipeline[1024];
      snprintf(pipeline, sizeof(pipeline),
               "builtin.module(hoist-stride-specialization{%s})", options);
      ok = runPipeline(module, pipeline);
    }
    check(ok, route == 0 ? "function route" : "pipeline route");
    Text manifest = manifestOf(module);
    check(writeFile(outs[route], &manifest), "manifest written");
    clearText(&manifest);
    mlirOperationDestroy(module);
  }
  dumpDiagnostics("diagnostics");
  mlirContextDestroy(context);
  free(source);
}

/*===----------------------------------------------------------------------===*
 * Inference from plain traces (flyhoistInferSpecParams,
 * flyhoistMatchSpecParams)
 *===----------------------------------------------------------------------===*/

static MlirOperation parsePlainTrace(MlirContext context, int64_t width,
                                     const char *sourceName) {
  char text[4096];
  const char *hole = strstr(kernelTemplate, "@WIDTH@");
  snprintf(text, sizeof(text), "%.*s%lld%s", (int)(hole - kernelTemplate),
           kernelTemplate, (long long)width, hole + strlen("@WIDTH@"));
  MlirOperation module =
      mlirOperationCreateParse(context, mlirStringRefCreateFromCString(text),
                               mlirStringRefCreateFromCString(sourceName));
  check(!mlirOperationIsNull(module), "trace parses");
  return module;
}

/* Passes `op`'s trace signature (flyhoistPrintTraceSignature) to `out`. */
static void signatureOf(MlirOperation op, Text *out) {
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintTraceSignature(op, appendToText, out)),
        "a signature is printed");
}

/* The spec.params of a module and the structure of traces, as data (1.6):
 * what a frontend reads instead of the printed IR. */
static void testTraceData(MlirContext context, MlirOperation templateOp,
                          MlirOperation trace, MlirOperation other) {
  Text json = {NULL, 0};
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintSpecParams(templateOp, appendToText, &json)),
        "the template's spec.params are printed");
  printf("template spec.params: %s\n", textOf(&json));
  clearText(&json);
  /* `equals`, a negative value of a narrow type, a name JSON escapes. */
  MlirOperation marked = mlirOperationCreateParse(
      context,
      mlirStringRefCreateFromCString(
          "module {\n  func.func @f(%x: index) -> i32 {\n"
          "    %a = spec.param \"a\" = 8 equals %x : index\n"
          "    %b = spec.param \"b \\22q\\22\" = -3 : i32\n"
          "    return %b : i32\n  }\n}\n"),
      mlirStringRefCreateFromCString("marked.mlir"));
  check(!mlirOperationIsNull(marked), "the marked module parses");
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintSpecParams(marked, appendToText, &json)),
        "the marked module's spec.params are printed");
  printf("marked spec.params: %s\n", textOf(&json));
  clearText(&json);

  /* The same kernel with its constants placed and merged otherwise (as
   * canonicalize leaves them at another value) has the template's
   * structure; another kernel has another. */
  MlirOperation moved = mlirOperationCreateParse(
      context,
      mlirStringRefCreateFromCString(
          "module attributes {gpu.container_module} {\n"
          "  gpu.module @kernels {\n"
          "    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
          "                     %seq: index) kernel {\n"
          "      %c0 = arith.constant 0 : index\n"
          "      %c1 = arith.constant 1 : index\n"
          "      %row = arith.muli %seq, %c1 : index\n"
          "      scf.for %blk = %c0 to %c1 step %c1 {\n"
          "        %i = arith.addi %row, %blk : index\n"
          "        %v = memref.load %bt[%i] : memref<?xi32>\n"
          "        memref.store %v, %out[%blk] : memref<?xi32>\n"
          "      }\n"
          "      gpu.return\n"
          "    }\n"
          "  }\n"
          "  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
          "                  %seq: index) {\n"
          "    %c1 = arith.constant 1 : index\n"
          "    gpu.launch_func @kernels::@gather blocks in (%c1, %c1, %c1)\n"
          "        threads in (%c1, %c1, %c1)\n"
          "        args(%bt : memref<?xi32>, %out : memref<?xi32>, "
          "%seq : index)\n"
          "    return\n"
          "  }\n"
          "}\n"),
      mlirStringRefCreateFromCString("moved.mlir"));
  check(!mlirOperationIsNull(moved), "the moved trace parses");
  Text a = {NULL, 0}, b = {NULL, 0}, c = {NULL, 0}, d = {NULL, 0};
  signatureOf(templateOp, &a);
  signatureOf(trace, &b);
  signatureOf(moved, &c);
  signatureOf(other, &d);
  printf("signature: %s\n", textOf(&a));
  printf("template and trace: %s\n",
         strcmp(textOf(&a), textOf(&b)) ? "differ" : "same");
  printf("template and moved constants: %s\n",
         strcmp(textOf(&a), textOf(&c)) ? "differ" : "same");
  printf("template and another kernel: %s\n",
         strcmp(textOf(&a), textOf(&d)) ? "differ" : "same");
  clearText(&a);
  clearText(&b);
  clearText(&c);
  clearText(&d);
  MlirOperation null = {NULL};
  check(mlirLogicalResultIsFailure(
            flyhoistPrintSpecParams(null, appendToText, &json)) &&
            mlirLogicalResultIsFailure(
                flyhoistPrintTraceSignature(null, appendToText, &json)) &&
            json.size == 0,
        "a null operation fails, printing nothing");
  mlirOperationDestroy(moved);
  mlirOperationDestroy(marked);
}

static void testInference(void) {
  MlirContext context = createFrontendContext();
  MlirOperation t128 = parsePlainTrace(context, 128, "kernel-128.mlir");
  MlirOperation t64 = parsePlainTrace(context, 64, "kernel-64.mlir");
  MlirOperation t32 = parsePlainTrace(context, 32, "kernel-32.mlir");
  MlirStringRef names[] = {
      mlirStringRefCreateFromCString("max_blocks_per_seq")};
  int64_t values[] = {128, 64};
  Text json = {NULL, 0};
  check(mlirLogicalResultIsSuccess(flyhoistInferSpecParams(
            t128, 1, &t64, 1, names, values, appendToText, &json)),
        "inference succeeds");
  printf("inferred: %s\n", textOf(&json));
  clearText(&json);
  check(mlirLogicalResultIsSuccess(
            flyhoistMatchSpecParams(t128, t32, appendToText, &json)),
        "a new trace matches");
  printf("matched: %s\n", textOf(&json));
  clearText(&json);

  /* Another kernel: a located mismatch, and nothing passed to the callback. */
  MlirOperation other = mlirOperationCreateParse(
      context,
      mlirStringRefCreateFromCString(
          "module attributes {gpu.container_module} {\n"
          "  func.func @other() {\n    return\n  }\n}\n"),
      mlirStringRefCreateFromCString("other.mlir"));
  check(mlirLogicalResultIsFailure(
            flyhoistMatchSpecParams(t128, other, appendToText, &json)),
        "another kernel does not match");
  check(json.size == 0, "nothing printed on a mismatch");
  testTraceData(context, t128, t32, other);
  /* One trace: nothing to infer from. */
  check(mlirLogicalResultIsFailure(flyhoistInferSpecParams(
            t64, 0, NULL, 0, NULL, NULL, appendToText, &json)),
        "one trace fails");
  dumpDiagnostics("inference errors");
  mlirOperationDestroy(other);
  mlirOperationDestroy(t32);
  mlirOperationDestroy(t64);
  mlirOperationDestroy(t128);
  mlirContextDestroy(context);
}

/* A module's gpu.module targets as data (1.7): the chip each target
 * compiles for, read from the attributes, so that a host checks it without
 * reading the printed attribute. */
static void testGPUTargets(void) {
  MlirContext context = createFrontendContext();
  MlirOperation module = mlirOperationCreateParse(
      context,
      mlirStringRefCreateFromCString(
          "module attributes {gpu.container_module} {\n"
          "  gpu.module @amd [#rocdl.target<chip = \"gfx90a\">, "
          "#rocdl.target] {\n  }\n"
          "  gpu.module @nv [#nvvm.target<chip = \"sm_90\", O = 3>] {\n"
          "  }\n"
          "  gpu.module @spirv [#spirv.target_env<#spirv.vce<v1.0, [Shader],"
          " []>, #spirv.resource_limits<>>] {\n  }\n"
          "  gpu.module @plain {\n  }\n"
          "  func.func @host() {\n    return\n  }\n"
          "}\n"),
      mlirStringRefCreateFromCString("targets.mlir"));
  check(!mlirOperationIsNull(module), "the targeted module parses");
  Text json = {NULL, 0};
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintGPUTargets(module, appendToText, &json)),
        "the targets are printed");
  printf("targets: %s\n", textOf(&json));
  clearText(&json);
  /* A module without gpu.modules: an empty list. */
  MlirOperation host = mlirOperationCreateParse(
      context, mlirStringRefCreateFromCString("module {\n}\n"),
      mlirStringRefCreateFromCString("host.mlir"));
  check(mlirLogicalResultIsSuccess(
            flyhoistPrintGPUTargets(host, appendToText, &json)),
        "a module without gpu.modules succeeds");
  printf("no gpu.module: %s\n", textOf(&json));
  clearText(&json);
  MlirOperation null = {NULL};
  check(mlirLogicalResultIsFailure(
            flyhoistPrintGPUTargets(null, appendToText, &json)) &&
            json.size == 0,
        "a null operation fails, printing nothing");
  dumpDiagnostics("target errors");
  mlirOperationDestroy(host);
  mlirOperationDestroy(module);
  mlirContextDestroy(context);
}

/* Prints `name`: the JSON of one option string, or "failed". */
static void printParsedOptions(const char *name, MlirLogicalResult result,
                               Text *json) {
  if (mlirLogicalResultIsSuccess(result))
    printf("%s: %s\n", name, textOf(json));
  else
    printf("%s: failed%s\n", name, json->size ? " (printed)" : "");
  clearText(json);
}

/* Option strings parsed by the pass and the pipelines themselves, as data
 * (1.8): values typed, defaults filled in, the names a string sets. */
static void testOptions(void) {
  MlirContext context = createFrontendContext();
  Text json = {NULL, 0};
#define HOIST(name, text)                                                      \
  printParsedOptions(                                                          \
      name,                                                                    \
      flyhoistPrintHoistOptions(context, mlirStringRefCreateFromCString(text), \
                                appendToText, &json),                          \
      &json)
#define PIPELINE(name, pipeline, text)                                         \
  printParsedOptions(name,                                                     \
                     flyhoistPrintPipelineOptions(                             \
                         context, mlirStringRefCreateFromCString(pipeline),    \
                         mlirStringRefCreateFromCString(text), appendToText,   \
                         &json),                                               \
                     &json)
  HOIST("hoist defaults", "");
  /* Set to its default value, it is still explicit; a bare flag is true. */
  HOIST("hoist set", "  hoist-immediate-offsets=false narrow-range "
                     "divisibility=0x10 address-operands=my.op[0] "
                     "manifest='a b.json'");
  HOIST("hoist bad bool", "remarks=maybe");
  HOIST("hoist bad number", "hoist-immediate-offsets divisibility=banana");
  HOIST("hoist unknown", "hoist-immediate-offset=true");
  HOIST("hoist bad rule", "address-operands=my.op[x]");
  PIPELINE("amdgpu defaults", "flyhoist-amdgpu-pipeline", "");
  PIPELINE("amdgpu bare", "flyhoist-amdgpu-pipeline",
           "chip=gfx950 format=isa use-bare-ptr-memref-call-conv");
  PIPELINE("nvvm set", "flyhoist-nvvm-pipeline",
           "O=1 use-bare-ptr-memref-call-conv=0 features=+ptx80");
  PIPELINE("nvvm bad O", "flyhoist-nvvm-pipeline", "O=fast");
  PIPELINE("amdgpu bad bool", "flyhoist-amdgpu-pipeline",
           "use-bare-ptr-memref-call-conv=yes");
  PIPELINE("amdgpu bad chip", "flyhoist-amdgpu-pipeline", "chip=gfx9999");
  PIPELINE("another pipeline", "convert-gpu-to-rocdl", "chip=gfx942");
#undef HOIST
#undef PIPELINE
  MlirContext null = {NULL};
  check(
      mlirLogicalResultIsFailure(flyhoistPrintHoistOptions(
          null, mlirStringRefCreateFromCString(""), appendToText, &json)) &&
          mlirLogicalResultIsFailure(flyhoistPrintPipelineOptions(
              null, mlirStringRefCreateFromCString("flyhoist-amdgpu-pipeline"),
              mlirStringRefCreateFromCString(""), appendToText, &json)) &&
          json.size == 0,
      "a null context fails, printing nothing");
  dumpDiagnostics("option errors");
  mlirContextDestroy(context);
}

int main(int argc, char **argv) {
  int manifestMode = argc == 6 && !strcmp(argv[1], "manifest");
  if (!manifestMode &&
      (argc != 2 || (strcmp(argv[1], "ok") && strcmp(argv[1], "errors") &&
                     strcmp(argv[1], "infer") && strcmp(argv[1], "targets") &&
                     strcmp(argv[1], "options")))) {
    fprintf(stderr,
            "usage: %s ok|errors|infer|targets|options\n"
            "       %s manifest INPUT OPTIONS FUNCTION.json PIPELINE.json\n",
            argv[0], argv[0]);
    return 2;
  }
  /* Process-wide, once, before any pipeline names a pass. */
  mlirRegisterAllPasses();
  mlirRegisterFlyHoistPasses();
  mlirRegisterFlyHoistPipelines();
  if (manifestMode)
    testManifestRoutes(argv[2], argv[3], argv[4], argv[5]);
  else if (!strcmp(argv[1], "ok"))
    testSuccess();
  else if (!strcmp(argv[1], "infer"))
    testInference();
  else if (!strcmp(argv[1], "targets"))
    testGPUTargets();
  else if (!strcmp(argv[1], "options"))
    testOptions();
  else
    testErrors();
  clearText(&diagnostics);
  printf("failures: %d\n", failures);
  return failures != 0;
}

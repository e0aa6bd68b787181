/*===- flyhoist-capi-test.c - Tests of the flyhoist C API ------------------===*\
|*                                                                            *|
|* Exercises include/flyhoist-c/FlyHoist.h from C: success paths (hoisting,   *|
|* manifest, fingerprints, bytecode, code objects) and error paths (bad IR,   *|
|* bad pipeline, conflicting parameter values, bad arguments). Prints one     *|
|* line per check for FileCheck; exits non-zero on an unexpected result.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "flyhoist-c/FlyHoist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

/* Reports an unexpected failure and counts it. */
static void fail(const char *what, flyhoist_status_t *status) {
  printf("UNEXPECTED %s: %s\n", what, flyhoistStatusGetMessage(status));
  ++failures;
}

/* Prints the code and the first line of the message of an expected error. */
static void expectError(const char *what, flyhoist_status_t *status,
                        flyhoist_status_code_t code) {
  if (!status) {
    printf("UNEXPECTED %s: succeeded\n", what);
    ++failures;
    return;
  }
  const char *message = flyhoistStatusGetMessage(status);
  printf("%s: code %d%s\n", what, (int)flyhoistStatusGetCode(status),
         flyhoistStatusGetCode(status) == code ? "" : " (WRONG CODE)");
  if (flyhoistStatusGetCode(status) != code)
    ++failures;
  /* The whole message, indented, so FileCheck can look at diagnostics. */
  printf("  | ");
  for (const char *c = message; *c; ++c) {
    putchar(*c);
    if (*c == '\n' && c[1])
      printf("  | ");
  }
  if (message[0] && message[strlen(message) - 1] != '\n')
    putchar('\n');
  flyhoistStatusDestroy(status);
}

/* A kernel whose block-table row stride is a specialization parameter, and
   whose loop bound is another. `%WIDTH%` is replaced by the width. */
static const char *kernelTemplate =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>,\n"
    "                     %seq: index) kernel {\n"
    "      %w = spec.param \"max_blocks_per_seq\" = %WIDTH% : index\n"
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

/* Returns the kernel text for `width` (caller frees). */
static char *kernelFor(int width) {
  const char *hole = strstr(kernelTemplate, "%WIDTH%");
  size_t size = strlen(kernelTemplate) + 32;
  char *text = (char *)malloc(size);
  snprintf(text, size, "%.*s%d%s", (int)(hole - kernelTemplate),
           kernelTemplate, width, hole + strlen("%WIDTH%"));
  return text;
}

/* Parses `text` into a module, or returns NULL after reporting. */
static flyhoist_module_t *parse(flyhoist_session_t *session, const char *text,
                                const char *name) {
  flyhoist_module_t *module = NULL;
  flyhoist_status_t *status =
      flyhoistModuleParse(session, text, strlen(text), name, &module);
  if (status) {
    fail("parse", status);
    flyhoistStatusDestroy(status);
    return NULL;
  }
  return module;
}

/* Returns the fingerprint of `width`'s kernel after `pipeline` (caller
   destroys), or NULL. */
static flyhoist_buffer_t *fingerprintAfter(flyhoist_session_t *session,
                                           int width, const char *pipeline) {
  char *text = kernelFor(width);
  flyhoist_module_t *module = parse(session, text, "width");
  free(text);
  if (!module)
    return NULL;
  flyhoist_buffer_t *hex = NULL;
  flyhoist_status_t *status = flyhoistModuleRunPipeline(module, pipeline);
  if (!status)
    status = flyhoistModuleGetFingerprint(module, "kernels", &hex);
  if (status) {
    fail("fingerprint", status);
    flyhoistStatusDestroy(status);
  }
  flyhoistModuleDestroy(module);
  return hex;
}

static void testSuccess(flyhoist_session_t *session) {
  char *text = kernelFor(128);
  flyhoist_module_t *module = parse(session, text, "kernel-128.mlir");
  free(text);
  if (!module)
    return;

  /* Hoisting through the frontend API, then the outputs. */
  flyhoist_status_t *status = flyhoistModuleHoist(module, 0);
  if (status) {
    fail("hoist", status);
    flyhoistStatusDestroy(status);
    flyhoistModuleDestroy(module);
    return;
  }
  flyhoist_buffer_t *buffer = NULL;
  if (!(status = flyhoistModuleGetDiagnostics(module, &buffer))) {
    printf("remarks:\n%s", (const char *)flyhoistBufferGetData(buffer));
    flyhoistBufferDestroy(buffer);
  }
  if (!(status = flyhoistModulePrint(module, /*generic=*/0, &buffer))) {
    printf("module:\n%s", (const char *)flyhoistBufferGetData(buffer));
    flyhoistBufferDestroy(buffer);
  }
  if (!status && !(status = flyhoistModuleGetManifest(module, &buffer))) {
    printf("manifest:\n%s\n", (const char *)flyhoistBufferGetData(buffer));
    flyhoistBufferDestroy(buffer);
  }

  /* Bytecode round trip: parse the bytecode back and print it. */
  flyhoist_buffer_t *bytecode = NULL;
  if (!status && !(status = flyhoistModuleWriteBytecode(module, &bytecode))) {
    flyhoist_module_t *again = NULL;
    status = flyhoistModuleParse(session, flyhoistBufferGetData(bytecode),
                                 flyhoistBufferGetSize(bytecode), "bytecode",
                                 &again);
    if (!status)
      status = flyhoistModulePrint(again, 0, &buffer);
    if (!status) {
      printf("bytecode: %zu bytes, round trip %s\n",
             flyhoistBufferGetSize(bytecode),
             strstr((const char *)flyhoistBufferGetData(buffer),
                    "spec.hoisted")
                 ? "ok"
                 : "LOST spec.hoisted");
      flyhoistBufferDestroy(buffer);
    }
    flyhoistModuleDestroy(again);
    flyhoistBufferDestroy(bytecode);
  }

  /* Code objects for both chips, without changing the module. */
  const char *chips[] = {"gfx942", "gfx950"};
  for (int i = 0; !status && i < 2; ++i) {
    if (!(status = flyhoistModuleCompile(module, chips[i], "bin", NULL, NULL,
                                         &buffer))) {
      const unsigned char *bytes =
          (const unsigned char *)flyhoistBufferGetData(buffer);
      int isElf = flyhoistBufferGetSize(buffer) > 4 && bytes[0] == 0x7f &&
                  bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F';
      printf("code object %s: %s\n", chips[i], isElf ? "ELF" : "NOT ELF");
      failures += !isElf;
      flyhoistBufferDestroy(buffer);
    }
  }
  if (!status &&
      !(status = flyhoistModuleCompile(module, "gfx942", "isa", NULL,
                                       "kernels", &buffer))) {
    printf("isa gfx942: %s\n",
           strstr((const char *)flyhoistBufferGetData(buffer), "gather")
               ? "names the kernel"
               : "MISSING KERNEL");
    flyhoistBufferDestroy(buffer);
  }
  if (status) {
    fail("outputs", status);
    flyhoistStatusDestroy(status);
  }
  flyhoistModuleDestroy(module);

  /* Identity: equal fingerprints across widths once hoisted, different when
     everything is baked in. */
  const char *hoist = "builtin.module(hoist-stride-specialization{remarks=0})";
  const char *bake = "materialize-specialization";
  flyhoist_buffer_t *h64 = fingerprintAfter(session, 64, hoist);
  flyhoist_buffer_t *h200 = fingerprintAfter(session, 200, hoist);
  flyhoist_buffer_t *b64 = fingerprintAfter(session, 64, bake);
  flyhoist_buffer_t *b200 = fingerprintAfter(session, 200, bake);
  if (h64 && h200 && b64 && b200) {
    printf("fingerprint: %s\n", (const char *)flyhoistBufferGetData(h64));
    printf("hoisted widths 64/200: %s\n",
           strcmp(flyhoistBufferGetData(h64), flyhoistBufferGetData(h200))
               ? "differ"
               : "equal");
    printf("specialized widths 64/200: %s\n",
           strcmp(flyhoistBufferGetData(b64), flyhoistBufferGetData(b200))
               ? "differ"
               : "equal");
  }
  flyhoistBufferDestroy(h64);
  flyhoistBufferDestroy(h200);
  flyhoistBufferDestroy(b64);
  flyhoistBufferDestroy(b200);
}

static void testErrors(flyhoist_session_t *session) {
  flyhoist_module_t *module = NULL;
  flyhoist_buffer_t *buffer = NULL;

  /* Bad IR: a located parse error. */
  const char *badIR = "func.func @f() {\n  %x = arith.addi %y, %y : i32\n}\n";
  expectError("bad IR",
              flyhoistModuleParse(session, badIR, strlen(badIR), "bad.mlir",
                                  &module),
              FLYHOIST_STATUS_PARSE_ERROR);

  /* Bytecode magic followed by garbage. */
  const char badBytecode[] = "ML\xefR\x01garbage";
  expectError("bad bytecode",
              flyhoistModuleParse(session, badBytecode,
                                  sizeof(badBytecode) - 1, "bad.mlirbc",
                                  &module),
              FLYHOIST_STATUS_PARSE_ERROR);

  /* A spec.param of a non-integer type fails the verifier. */
  const char *badParam =
      "func.func @f() {\n  %a = spec.param \"w\" = 1 : f32\n  return\n}\n";
  expectError("bad spec.param",
              flyhoistModuleParse(session, badParam, strlen(badParam),
                                  "param.mlir", &module),
              FLYHOIST_STATUS_PARSE_ERROR);

  /* One name, two values: the pass fails and leaves the module unchanged. */
  const char *conflict =
      "func.func @f(%m: memref<?xi32>, %i: index) {\n"
      "  %a = spec.param \"w\" = 1 : index\n"
      "  %b = spec.param \"w\" = 2 : index\n"
      "  %j = arith.muli %i, %a : index\n"
      "  %k = arith.muli %j, %b : index\n"
      "  %v = memref.load %m[%k] : memref<?xi32>\n"
      "  return\n"
      "}\n";
  module = parse(session, conflict, "conflict.mlir");
  if (module) {
    expectError("conflicting values (pipeline)",
                flyhoistModuleRunPipeline(module,
                                          "hoist-stride-specialization"),
                FLYHOIST_STATUS_PASS_FAILURE);
    expectError("conflicting values (hoist)", flyhoistModuleHoist(module, 0),
                FLYHOIST_STATUS_PASS_FAILURE);
    expectError("conflicting values (compile)",
                flyhoistModuleCompile(module, "gfx942", "isa", NULL, NULL,
                                      &buffer),
                FLYHOIST_STATUS_NOT_FOUND);
    flyhoist_status_t *status = flyhoistModulePrint(module, 0, &buffer);
    if (!status) {
      printf("after failure the module still has %s\n",
             strstr(flyhoistBufferGetData(buffer), "= 2 : index")
                 ? "both values"
                 : "LOST VALUES");
      flyhoistBufferDestroy(buffer);
    } else {
      fail("print", status);
      flyhoistStatusDestroy(status);
    }

    /* Bad pipelines. */
    expectError("unknown pass",
                flyhoistModuleRunPipeline(module, "no-such-pass"),
                FLYHOIST_STATUS_PIPELINE_ERROR);
    expectError("bad syntax",
                flyhoistModuleRunPipeline(module, "builtin.module(cse"),
                FLYHOIST_STATUS_PIPELINE_ERROR);
    expectError("bad option",
                flyhoistModuleRunPipeline(
                    module, "hoist-stride-specialization{no-such-option=1}"),
                FLYHOIST_STATUS_PIPELINE_ERROR);

    /* Bad arguments. */
    expectError("bad chip",
                flyhoistModuleCompile(module, "sm_90", NULL, NULL, NULL,
                                      &buffer),
                FLYHOIST_STATUS_INVALID_ARGUMENT);
    expectError("bad format",
                flyhoistModuleCompile(module, "gfx942", "fatbin", NULL, NULL,
                                      &buffer),
                FLYHOIST_STATUS_INVALID_ARGUMENT);
    expectError("bad flags", flyhoistModuleHoist(module, 0x80u),
                FLYHOIST_STATUS_INVALID_ARGUMENT);
    expectError("no gpu.module",
                flyhoistModuleGetFingerprint(module, "nope", &buffer),
                FLYHOIST_STATUS_NOT_FOUND);
    flyhoistModuleDestroy(module);
  }
  expectError("null module", flyhoistModuleRunPipeline(NULL, "cse"),
              FLYHOIST_STATUS_INVALID_ARGUMENT);
  expectError("null session",
              flyhoistModuleParse(NULL, "", 0, NULL, &module),
              FLYHOIST_STATUS_INVALID_ARGUMENT);
  /* NULL handles are accepted by every destroy function. */
  flyhoistStatusDestroy(NULL);
  flyhoistBufferDestroy(NULL);
  flyhoistModuleDestroy(NULL);
  flyhoistSessionDestroy(NULL);
}

int main(int argc, char **argv) {
  uint32_t version = flyhoistGetAPIVersion();
  printf("api version %u.%u\n", version >> 16, version & 0xffffu);
  if (version >> 16 != FLYHOIST_API_VERSION_MAJOR)
    return 1;

  flyhoist_session_t *session = NULL;
  flyhoist_status_t *status = flyhoistSessionCreate(&session);
  if (status) {
    fail("session", status);
    flyhoistStatusDestroy(status);
    return 1;
  }
  int which = argc > 1 ? atoi(argv[1]) : 0;
  if (which == 0 || which == 1)
    testSuccess(session);
  if (which == 0 || which == 2)
    testErrors(session);
  flyhoistSessionDestroy(session);
  printf("failures: %d\n", failures);
  return failures != 0;
}

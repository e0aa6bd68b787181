/*===- flyhoist-c/FlyHoist.h - flyhoist in MLIR's C API -----------*- C -*-===*\
|*                                                                            *|
|* flyhoist for a frontend that owns its MLIR context and module and reaches  *|
|* MLIR through its C API (Python bindings, ctypes/cffi, a C or C++ JIT).     *|
|* It follows upstream's conventions: the spec dialect has a dialect handle   *|
|* (flyhoist-c/Dialect/Spec.h), the passes are registered and created by      *|
|* generated functions (flyhoist-c/Passes.h), and the functions below take    *|
|* the caller's MlirOperation and report errors as MLIR diagnostics, through  *|
|* whatever handlers the caller attached to its context.                      *|
|*                                                                            *|
|* A host links one library, libFlyHoistMLIRCAPI.so, which carries MLIR's C   *|
|* API as well (over the shared libMLIR.so), and does what a frontend does:   *|
|*                                                                            *|
|*   MlirDialectRegistry registry = mlirDialectRegistryCreate();              *|
|*   mlirRegisterAllDialects(registry);                                       *|
|*   mlirDialectHandleInsertDialect(mlirGetDialectHandle__spec__(),           *|
|*                                  registry);                                *|
|*   MlirContext ctx = mlirContextCreateWithRegistry(registry, false);        *|
|*   mlirRegisterAllPasses(); mlirRegisterFlyHoistPasses();   (once)          *|
|*   MlirModule module = mlirModuleCreateParse(ctx, text);                    *|
|*   MlirPassManager pm = mlirPassManagerCreate(ctx);                         *|
|*   mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),             *|
|*       "builtin.module(hoist-stride-specialization)", onError, NULL);       *|
|*   mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));              *|
|*   flyhoistPrintManifest(mlirModuleGetOperation(module), onText, &json);    *|
|*                                                                            *|
|* mlirRegisterAllDialects may be replaced by the handles of the dialects the *|
|* host's IR uses: flyhoist's lowering pipelines add what they need.          *|
|* docs/INTEGRATION.md says how to build against an installed flyhoist and    *|
|* how to carry these functions in a frontend's own C API library instead.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLYHOIST_C_FLYHOIST_H
#define FLYHOIST_C_FLYHOIST_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include "flyhoist-c/Dialect/Spec.h"
#include "flyhoist-c/Passes.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Major version of this API. A library with another major version is not
/// compatible; a newer minor version only adds functions.
#define FLYHOIST_CAPI_VERSION_MAJOR 1
/// Minor version of this API.
#define FLYHOIST_CAPI_VERSION_MINOR 8

/// Returns the API version of the loaded library as (major << 16) | minor,
/// for hosts that load it dynamically (ctypes) and check the major version.
MLIR_CAPI_EXPORTED uint32_t flyhoistGetAPIVersion(void);

/// Returns what built the library, e.g. "flyhoist C API 1.0, MLIR 22.1.8"
/// (never NULL): part of an on-disk cache key, since code objects depend on
/// the LLVM that made them.
MLIR_CAPI_EXPORTED const char *flyhoistGetRevision(void);

/// Returns which flyhoist built the library (never NULL): the project
/// version, the source revision and the MLIR version, e.g.
/// "flyhoist 0.1.0 (git:<commit>), MLIR 22.1.8". The revision is the git
/// commit at build time, "git:<commit>-dirty.<digest>" when the library's
/// sources differ from that commit (the digest names the difference),
/// "src-sha256:<digest>" (a hash of the sources) outside git, or the
/// FLYHOIST_SOURCE_REVISION CMake cache variable when set. Two libraries
/// that may lower a module differently report different identities: a code
/// object cache shared between builds keys every object by it. (1.4)
MLIR_CAPI_EXPORTED const char *flyhoistGetBuildIdentity(void);

/// Since 1.5: whether diagnostics emitted on an operation in `context` get
/// the operation itself attached as a note ("see current operation: ..."),
/// MLIR's default, which upstream's C API cannot turn off. A host that
/// reads diagnostics as data (severity, location, message, notes) turns it
/// off so that every note is one the emitter wrote.
MLIR_CAPI_EXPORTED void
flyhoistContextSetPrintOpOnDiagnostic(MlirContext context, bool enable);

/// Adds to `registry` the StrideUseOpInterface models of the upstream
/// operations the analysis knows (arith, index, affine, memref, vector, gpu,
/// llvm, amdgpu, rocdl, ...). The hoisting pass adds them to the context it
/// runs in by itself (as a dependent-dialect extension), so a host only needs
/// this to run the analysis from its own C++ code without the pass.
MLIR_CAPI_EXPORTED void
flyhoistRegisterStrideUseExternalModels(MlirDialectRegistry registry);

/// Runs `builtin.module(hoist-stride-specialization{<options>})` over
/// `module`, a `builtin.module` of the caller's context: the registered pass,
/// whose options are parsed by the pass itself (its registry entry), so that it
/// accepts and rejects exactly what the pass, `fly-opt` and
/// `mlirParsePassPipeline` do. `options` is the pass's option string, e.g.
/// "hoist-into-host=true divisibility=16" ("" for the defaults).
///
/// On failure returns mlirLogicalResultFailure() and leaves `module` as it
/// was. Every error is emitted as a diagnostic through the context's
/// handlers: an options string that does not parse as this pass's options
/// as one error at the module's location with one note per reason (an
/// unknown option, a value of the wrong type, a malformed operand rule),
/// nothing of it on stderr; the pass's own errors (one parameter name with two
/// values, a launch that does not match its kernel) at the offending ops,
/// with notes. On success the pass's remarks went the same way. The
/// function registers the flyhoist passes if nobody has.
MLIR_CAPI_EXPORTED MlirLogicalResult
flyhoistHoistStrideSpecialization(MlirOperation module, MlirStringRef options);

/// Renders the hoisting manifest of `module` (docs/MANIFEST.md: per kernel
/// the hoisted parameters with their launch preconditions, the kept ones and
/// why, the launch sites; per gpu.module its fingerprint) as JSON and passes
/// it to `callback` in one or more pieces. The manifest is read from what
/// the kernels record, so it is the same whichever way the pass ran (this
/// API, a pipeline, fly-opt's `manifest=`). Fails, emitting an error at
/// `module`, when `module` is not a `builtin.module`.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintManifest(
    MlirOperation module, MlirStringCallback callback, void *userData);

/// Passes the fingerprint of `gpuModule` ("sha256:" and 64 hex digits, a
/// hash of its generic form without locations) to `callback`. Two modules
/// that differ only in hoisted values have the same fingerprint: a frontend
/// keys its compiled objects on it. Fails, emitting an error at the op, when
/// `gpuModule` is not a `gpu.module`.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintFingerprint(
    MlirOperation gpuModule, MlirStringCallback callback, void *userData);

/// Since 1.4: passes the compile fingerprint of `module` ("sha256:" and 64
/// hex digits) to `callback`: a hash of everything in it that a lowering
/// pipeline turns into code objects, in generic form without locations:
/// every `gpu.module` (its targets and the hoist records included) and
/// `gpu.binary`, and the attributes of the ops around them (the root
/// module's data layout, say); host functions and globals are left out, so
/// that a launcher passing a hoisted value as a constant keeps one key for
/// every value. Key code objects by it, with the pipeline and
/// flyhoistGetBuildIdentity(). Fails, emitting an error at the op, when
/// `module` is not a `builtin.module`.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintCompileFingerprint(
    MlirOperation module, MlirStringCallback callback, void *userData);

/// Since 1.2: passes to `callback`, as one JSON object, every value the
/// manifest's closed vocabularies can take, generated from the spec
/// dialect's enums: `reasons` (a kept parameter's `reason` mnemonics),
/// `preconditions` (the `kind`s of precondition objects), `argument_parts`
/// (the `part`s of an `equals` precondition), and `version` (the manifest
/// schema version). A reader checks that it knows each of them.
MLIR_CAPI_EXPORTED void flyhoistPrintContractKinds(MlirStringCallback callback,
                                                   void *userData);

/// Since 1.3: passes where `location` points to `callback`: "file:line:col"
/// of its first file location (looking through names, the callee of a call
/// site and each part of a fused location), or "unknown". The manifest and
/// the inference results word locations the same way.
MLIR_CAPI_EXPORTED void flyhoistPrintLocation(MlirLocation location,
                                              MlirStringCallback callback,
                                              void *userData);

/// Since 1.1: passes the chips the lowering pipelines accept for `kind`
/// ("amdgpu" for flyhoist-amdgpu-pipeline, "nvvm" for flyhoist-nvvm-pipeline)
/// to `callback`, one name per line, in the order gfx90a, gfx942, gfx1030;
/// they are the processors LLVM's backend knows. Fails for another `kind`.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintKnownChips(
    MlirStringRef kind, MlirStringCallback callback, void *userData);

/// Since 1.1: mlirParsePassPipeline, with the parser's errors passed to
/// `callback` when the parse fails. Nothing is read back from stderr: the
/// flyhoist passes and pipelines check their typed option values themselves
/// (a bool, an unsigned of its width, the operand rules of
/// `address-operands`) and report a bad one through the parser, so its
/// reason ("divisibility: 'banana' is not an unsigned 64-bit integer")
/// reaches `callback`. An upstream pass's bad option value is reported by
/// LLVM's option parser on stderr, as mlirParsePassPipeline has it, with
/// only "failed to add ..." here.
MLIR_CAPI_EXPORTED MlirLogicalResult
flyhoistParsePassPipeline(MlirOpPassManager passManager, MlirStringRef pipeline,
                          MlirStringCallback callback, void *userData);

/// Inference of spec.params from traces
/// (flyhoist/Transforms/InferSpecParams.h), for a frontend that marks nothing:
/// `base` and the `numOthers` operations in `others` are traces of one kernel
/// for different values (operations of one context, usually `builtin.module`s;
/// their own attributes are not compared). When they align, each use in `base`
/// of an integer constant whose value differs between them takes a
/// `spec.param`, and a JSON array describing them (`[{"name": "p0", "type":
/// "index", "values": [512, 256], "location": "k.py:12:5", "uses": 1,
/// "derived": null}]`, values base first; with three or more traces, a
/// parameter the kernel computes from another has `"derived": {"root":
/// "width", "scale": 4, "offset": 0}` and no `spec.param`) is passed to
/// `callback`. A parameter whose values equal those of
/// one of the frontend's `numNames` values is named after it: `names[i]` with
/// `values[i * (1 + numOthers) + t]` its value in trace t (base first);
/// others are named "p0", "p1", ... When the traces do not align (another
/// op, attribute, type or region structure), `base` is left unchanged, an
/// error is emitted at the first differing op of `base` with a note at the
/// other trace's op, and the function fails.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistInferSpecParams(
    MlirOperation base, intptr_t numOthers, MlirOperation const *others,
    intptr_t numNames, MlirStringRef const *names, int64_t const *values,
    MlirStringCallback callback, void *userData);

/// Matches `trace`, a new trace of a kernel, against `templateOp`, the result
/// of flyhoistInferSpecParams (before hoisting), and passes the value of each
/// of the template's parameters in it to `callback` as a JSON object
/// (`{"p0": 128, "width": 32}`, in order of first use). When the trace
/// differs anywhere else (a constant the template holds, an op, a type),
/// emits an error at the template's op with a note at the trace's and fails.
MLIR_CAPI_EXPORTED MlirLogicalResult
flyhoistMatchSpecParams(MlirOperation templateOp, MlirOperation trace,
                        MlirStringCallback callback, void *userData);

/// Since 1.6: passes every `spec.param` under `op` (a template, a trace, a
/// module) to `callback` as one JSON array, in walk order (the order of the
/// printed IR): `[{"name": "width", "value": 128, "type": "index", "equals":
/// false, "location": "k.py:12:5"}]`, `equals` whether the op has an
/// `equals` operand. A frontend reads a template's parameters from it
/// instead of the printed IR. Fails, printing nothing, when `op` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintSpecParams(
    MlirOperation op, MlirStringCallback callback, void *userData);

/// Since 1.6: passes the structure of the trace `op` to `callback`:
/// "xxh3:" and 16 hex digits, a hash of the names of the ops under `op` in
/// walk order, the ops traces may disagree on (integer constants and
/// `spec.param`s without `equals`, what inference and matching align around)
/// left out. Traces that align op by op have the same signature; a trace
/// with another op almost surely has another, so a frontend tries first the
/// templates of traces with its own. Fails, printing nothing, when `op` is
/// null.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintTraceSignature(
    MlirOperation op, MlirStringCallback callback, void *userData);

/// Since 1.7: passes the targets of every `gpu.module` under `op` (a
/// `builtin.module`, usually) to `callback` as one JSON array, in walk
/// order, read from the target attributes themselves: `[{"symbol":
/// "kernels", "targets": [{"kind": "rocdl", "chip": "gfx942", "dialect":
/// "rocdl", "attribute": "#rocdl.target<chip = \"gfx942\">"}]}]`. `kind` is
/// "rocdl" (`#rocdl.target`), "nvvm" (`#nvvm.target`) or "unknown" (any
/// other target, e.g. SPIR-V's; its `chip` is null); `chip` is the one the
/// attribute compiles for (MLIR's default where it names none); `dialect`
/// is the attribute's dialect; `attribute` is the attribute as MLIR prints
/// it, for messages. A gpu.module without targets has an empty list. A
/// frontend checks that no gpu.module targets another chip than the one it
/// compiles for. Fails, printing nothing, when `op` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintGPUTargets(
    MlirOperation op, MlirStringCallback callback, void *userData);

/// Since 1.8: parses `options` as hoist-stride-specialization does (every
/// check of the pass) and passes them to `callback` as one JSON object:
/// `{"values": {"materialize-kept": true, "divisibility": 0,
/// "address-operands": [], "manifest": "", ...}, "explicit":
/// ["hoist-immediate-offsets"]}`. `values` has every option of the pass
/// with its typed value (a bool, an integer, a string or a list of
/// strings), its default where `options` does not set it; `explicit` the
/// names `options` sets, whatever their value, in the pass's order. A host
/// asks what a string sets instead of matching its text. On invalid options
/// it fails, printing nothing, with the error flyhoistHoistStrideSpecialization
/// would emit ("invalid options for hoist-stride-specialization: '...'", one
/// note per reason), here at an unknown location in `context`. Fails,
/// emitting nothing, when `context` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult
flyhoistPrintHoistOptions(MlirContext context, MlirStringRef options,
                          MlirStringCallback callback, void *userData);

/// Since 1.8: the same for the options of `pipeline`,
/// "flyhoist-amdgpu-pipeline" or "flyhoist-nvvm-pipeline" (chip, format, O,
/// use-bare-ptr-memref-call-conv, ...), with every check the pipeline makes
/// before it is built, the chip's included: `{"values": {"chip": "gfx942",
/// "O": 3, "use-bare-ptr-memref-call-conv": false, ...}, "explicit":
/// ["chip"]}`. Invalid options, or another pipeline name, fail with one
/// error "invalid options for <pipeline>: '...'" in `context`, one note per
/// reason.
MLIR_CAPI_EXPORTED MlirLogicalResult flyhoistPrintPipelineOptions(
    MlirContext context, MlirStringRef pipeline, MlirStringRef options,
    MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* FLYHOIST_C_FLYHOIST_H */

/*===- flyhoist-c/FlyHoist.h - Embedding C API for flyhoist --------*- C -*-===*\
|*                                                                            *|
|* A small, stable C ABI for DSL frontends (ctypes, cffi, C/C++ JITs) that    *|
|* want to run the flyhoist passes over kernels they build as MLIR text or    *|
|* bytecode, read back the hoisting manifest and fingerprints, and get an     *|
|* AMDGPU code object, without linking MLIR's C++ API themselves.             *|
|*                                                                            *|
|* Conventions:                                                               *|
|*  - Every handle is opaque and owned by the caller, who destroys it with    *|
|*    the matching *Destroy function. Destroy functions accept NULL.          *|
|*  - Functions that can fail return a flyhoist_status_t*: NULL on success,   *|
|*    otherwise a status carrying an error code and the full diagnostic text  *|
|*    (located errors, notes), which the caller must destroy. No function     *|
|*    aborts on bad input, and diagnostics are never printed. (One upstream   *|
|*    exception: LLVM's option parser also writes a malformed pass option     *|
|*    value, e.g. `canonicalize{max-iterations=abc}`, to stderr.)             *|
|*  - Out-parameters are written only on success.                             *|
|*  - A session is not thread-safe; use one session per thread. Modules      *|
|*    belong to the session that parsed them and must be destroyed first.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLYHOIST_C_FLYHOIST_H
#define FLYHOIST_C_FLYHOIST_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define FLYHOIST_CAPI_EXPORT __declspec(dllexport)
#else
#define FLYHOIST_CAPI_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Versioning
 *===----------------------------------------------------------------------===*/

/// Major version of this header. A library with a different major version
/// is not ABI-compatible; a newer minor version only adds functions.
#define FLYHOIST_API_VERSION_MAJOR 0
/// Minor version of this header.
#define FLYHOIST_API_VERSION_MINOR 1

/// Returns the API version of the loaded library as (major << 16) | minor.
/// Frontends loading the library dynamically check the major version.
FLYHOIST_CAPI_EXPORT uint32_t flyhoistGetAPIVersion(void);

/// Returns a human-readable revision string of the library (never NULL).
FLYHOIST_CAPI_EXPORT const char *flyhoistGetRevision(void);

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/// What went wrong.
typedef enum flyhoist_status_code_t {
  /// Never carried by a status object (success is a NULL status).
  FLYHOIST_STATUS_OK = 0,
  /// A NULL handle or argument, an unknown option value.
  FLYHOIST_STATUS_INVALID_ARGUMENT = 1,
  /// The module text or bytecode did not parse or verify.
  FLYHOIST_STATUS_PARSE_ERROR = 2,
  /// The pass pipeline string did not parse.
  FLYHOIST_STATUS_PIPELINE_ERROR = 3,
  /// A pass failed (e.g. one parameter name with two values).
  FLYHOIST_STATUS_PASS_FAILURE = 4,
  /// Lowering or serializing to a code object failed.
  FLYHOIST_STATUS_COMPILE_ERROR = 5,
  /// The requested item does not exist (e.g. no gpu.module of that name).
  FLYHOIST_STATUS_NOT_FOUND = 6,
} flyhoist_status_code_t;

/// An error: a code and a message. NULL means success.
typedef struct flyhoist_status_t flyhoist_status_t;

/// Returns the code of `status` (FLYHOIST_STATUS_OK for NULL).
FLYHOIST_CAPI_EXPORT flyhoist_status_code_t
flyhoistStatusGetCode(const flyhoist_status_t *status);

/// Returns the NUL-terminated error text of `status`, including every
/// diagnostic emitted while the failing call ran ("" for NULL). Valid until
/// the status is destroyed.
FLYHOIST_CAPI_EXPORT const char *
flyhoistStatusGetMessage(const flyhoist_status_t *status);

/// Destroys `status`.
FLYHOIST_CAPI_EXPORT void flyhoistStatusDestroy(flyhoist_status_t *status);

/*===----------------------------------------------------------------------===*
 * Buffers
 *===----------------------------------------------------------------------===*/

/// An owned byte buffer returned by the library (module text, bytecode,
/// manifest JSON, code objects). The bytes are followed by a NUL that is not
/// counted in the size, so text can be used as a C string.
typedef struct flyhoist_buffer_t flyhoist_buffer_t;

/// Returns a pointer to the bytes of `buffer`.
FLYHOIST_CAPI_EXPORT const void *
flyhoistBufferGetData(const flyhoist_buffer_t *buffer);

/// Returns the number of bytes in `buffer` (without the trailing NUL).
FLYHOIST_CAPI_EXPORT size_t
flyhoistBufferGetSize(const flyhoist_buffer_t *buffer);

/// Destroys `buffer`.
FLYHOIST_CAPI_EXPORT void flyhoistBufferDestroy(flyhoist_buffer_t *buffer);

/*===----------------------------------------------------------------------===*
 * Sessions
 *===----------------------------------------------------------------------===*/

/// A compiler session: an MLIR context with the spec dialect, the flyhoist
/// passes, every upstream dialect, pass and LLVM IR translation, and the
/// AMDGPU pipeline registered.
typedef struct flyhoist_session_t flyhoist_session_t;

/// Creates a session in `*outSession`.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistSessionCreate(flyhoist_session_t **outSession);

/// Destroys `session`. Every module of the session must be destroyed first;
/// a session that still has modules is left alive (leaked) rather than freed.
FLYHOIST_CAPI_EXPORT void flyhoistSessionDestroy(flyhoist_session_t *session);

/*===----------------------------------------------------------------------===*
 * Modules
 *===----------------------------------------------------------------------===*/

/// A `builtin.module` owned by a session.
typedef struct flyhoist_module_t flyhoist_module_t;

/// Parses MLIR text or bytecode (recognized by its magic number) of `size`
/// bytes into a verified module in `*outModule`. `bufferName` names the
/// source in diagnostics (may be NULL).
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleParse(flyhoist_session_t *session, const void *data, size_t size,
                    const char *bufferName, flyhoist_module_t **outModule);

/// Destroys `module`.
FLYHOIST_CAPI_EXPORT void flyhoistModuleDestroy(flyhoist_module_t *module);

/// Runs a textual pass pipeline over `module`, in place. `pipeline` is either
/// anchored (`builtin.module(canonicalize,hoist-stride-specialization)`) or
/// a bare list of module passes (`canonicalize,hoist-stride-specialization`).
/// On failure the module may be partly transformed, as with `mlir-opt`,
/// except that `hoist-stride-specialization` itself leaves it unchanged.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleRunPipeline(flyhoist_module_t *module, const char *pipeline);

/// Flags for flyhoistModuleHoist.
enum {
  /// Keep kept parameters as `spec.param` instead of materializing them.
  FLYHOIST_HOIST_KEEP_PARAMS = 1u << 0,
  /// Do not emit remarks (they are not collected either).
  FLYHOIST_HOIST_NO_REMARKS = 1u << 1,
};

/// Runs hoist-stride-specialization over `module` through the frontend API
/// and remembers its report for flyhoistModuleGetManifest. `flags` is a
/// combination of FLYHOIST_HOIST_* values. On failure `module` is unchanged.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleHoist(flyhoist_module_t *module, uint32_t flags);

/// Returns the remarks and warnings collected by the last successful
/// flyhoistModuleRunPipeline or flyhoistModuleHoist on `module` (one
/// located diagnostic per line, "" if none).
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleGetDiagnostics(flyhoist_module_t *module,
                             flyhoist_buffer_t **outText);

/// Prints `module` as MLIR text (generic form if `generic` is non-zero).
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModulePrint(flyhoist_module_t *module, int generic,
                    flyhoist_buffer_t **outText);

/// Writes `module` as MLIR bytecode.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleWriteBytecode(flyhoist_module_t *module,
                            flyhoist_buffer_t **outBytes);

/// Renders the hoisting manifest of `module` as JSON: per kernel, the hoisted
/// parameters (name, argument index, type, facts), the kept ones (and why),
/// and the fingerprint of each GPU module. Uses the report of the last
/// flyhoistModuleHoist, or one rebuilt from the `spec.hoisted` attributes
/// when the pass ran inside a pipeline.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleGetManifest(flyhoist_module_t *module,
                          flyhoist_buffer_t **outJSON);

/// Returns the fingerprint (64 hex digits, SHA-256 of a canonical form) of
/// the `gpu.module` named `gpuModuleName` in `module`, or of the only one if
/// `gpuModuleName` is NULL. Two modules that differ only in hoisted values
/// have the same fingerprint: a frontend keys its compile cache on it.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleGetFingerprint(flyhoist_module_t *module,
                             const char *gpuModuleName,
                             flyhoist_buffer_t **outHex);

/// Compiles a copy of `module` (left unchanged) for the AMDGPU `chip`
/// ("gfx942", "gfx950") and returns the code object of the `gpu.module`
/// named `gpuModuleName` (or the only one if NULL). `format` is "bin" (an
/// HSA code object, ELF; links with ld.lld) or "isa" (assembly text); NULL
/// means "bin". `toolkitPath` is a folder holding `llvm/bin/ld.lld`, or NULL
/// for the library's default (FLYHOIST_TOOLKIT_PATH or ROCM_PATH from the
/// environment, else the one configured at build time). Every `spec.param`
/// left in the module is materialized first.
FLYHOIST_CAPI_EXPORT flyhoist_status_t *
flyhoistModuleCompile(flyhoist_module_t *module, const char *chip,
                      const char *format, const char *toolkitPath,
                      const char *gpuModuleName,
                      flyhoist_buffer_t **outObject);

#ifdef __cplusplus
}
#endif

#endif /* FLYHOIST_C_FLYHOIST_H */

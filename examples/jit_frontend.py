#!/usr/bin/env python3
"""A tiny JIT kernel frontend over the flyhoist C API (ctypes, stdlib only).

It shows what a FlyDSL-style frontend does to compile once for every
page-table width instead of once per width:

  1. Trace: the kernel is a Python closure. Closure-captured ints and
     keyword arguments annotated `Constexpr` are the values a DSL would bake
     into the kernel; the tracer emits each as a `spec.param` named after the
     Python variable, instead of an `arith.constant`.
  2. Hoist: `hoist-stride-specialization` (flyhoistModuleHoist) turns the
     parameters used only in address arithmetic into kernel arguments and
     bakes in the rest. The manifest says which went where.
  3. Cache: the key is the fingerprint of each GPU module (plus chip and
     format). A hoisted width leaves no trace in the GPU module, so every
     width maps to one key.
  4. Compile on a miss only (flyhoistModuleCompile -> HSA code object).
  5. Launch: the hoisted values are appended to the launch arguments at the
     indices the manifest gives, after checking its recorded preconditions;
     a value that breaks one is compiled specialized instead.

The kernel body is the reference kernel, kernels/paged_fp4_mqa_logits.mlir:
the op-by-op IR a DSL's tracer would emit for it. What this example traces
are the parts that matter here: the baked values and the launch.

Demo (the 125 widths of the chunked-prefill incident):

  examples/jit_frontend.py [--widths 125] [--chip gfx942] [--lib PATH]
"""

import argparse
import ctypes
import glob
import inspect
import json
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE_KERNEL = os.path.join(ROOT, 'kernels', 'paged_fp4_mqa_logits.mlir')

# ----------------------------------------------------------------------------
# ctypes bindings of include/flyhoist-c/FlyHoist.h
# ----------------------------------------------------------------------------

API_MAJOR = 0
HOIST_NO_REMARKS = 1 << 1


class FlyHoistError(RuntimeError):
    """A failed C API call: the status code and its diagnostic text."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def find_library(explicit=None):
    """The C API library: --lib, $FLYHOIST_CAPI_LIB, else a build tree."""
    candidates = [explicit, os.environ.get('FLYHOIST_CAPI_LIB')]
    candidates += sorted(glob.glob(os.path.join(ROOT, 'build*', 'lib',
                                                'libFlyHoistCAPI.so')))
    for path in candidates:
        if path and os.path.exists(path):
            return path
    sys.exit('error: libFlyHoistCAPI.so not found; build it or pass --lib')


class CAPI:
    """The loaded library, with argument and result types declared."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        P = ctypes.c_void_p
        PP = ctypes.POINTER(ctypes.c_void_p)
        S = ctypes.c_char_p
        signatures = {
            'flyhoistGetAPIVersion': (ctypes.c_uint32, []),
            'flyhoistStatusGetCode': (ctypes.c_int, [P]),
            'flyhoistStatusGetMessage': (S, [P]),
            'flyhoistStatusDestroy': (None, [P]),
            'flyhoistBufferGetData': (P, [P]),
            'flyhoistBufferGetSize': (ctypes.c_size_t, [P]),
            'flyhoistBufferDestroy': (None, [P]),
            'flyhoistSessionCreate': (P, [PP]),
            'flyhoistSessionDestroy': (None, [P]),
            'flyhoistModuleParse': (P, [P, ctypes.c_char_p, ctypes.c_size_t,
                                        S, PP]),
            'flyhoistModuleDestroy': (None, [P]),
            'flyhoistModuleRunPipeline': (P, [P, S]),
            'flyhoistModuleHoist': (P, [P, ctypes.c_uint32]),
            'flyhoistModulePrint': (P, [P, ctypes.c_int, PP]),
            'flyhoistModuleGetManifest': (P, [P, PP]),
            'flyhoistModuleGetFingerprint': (P, [P, S, PP]),
            'flyhoistModuleCompile': (P, [P, S, S, S, S, PP]),
        }
        for name, (restype, argtypes) in signatures.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        self.lib = lib
        version = lib.flyhoistGetAPIVersion()
        if version >> 16 != API_MAJOR:
            sys.exit(f'error: {path} has C API {version >> 16}.'
                     f'{version & 0xffff}, this frontend speaks {API_MAJOR}.x')

    def check(self, status):
        """Raises FlyHoistError for a non-null status (destroying it)."""
        if status:
            code = self.lib.flyhoistStatusGetCode(status)
            message = self.lib.flyhoistStatusGetMessage(status).decode()
            self.lib.flyhoistStatusDestroy(status)
            raise FlyHoistError(code, message)

    def take_buffer(self, buffer):
        """Copies a flyhoist_buffer_t into bytes and destroys it."""
        data = self.lib.flyhoistBufferGetData(buffer)
        size = self.lib.flyhoistBufferGetSize(buffer)
        out = ctypes.string_at(data, size)
        self.lib.flyhoistBufferDestroy(buffer)
        return out


class Session:
    """A compiler session (one MLIR context)."""

    def __init__(self, capi):
        self.capi = capi
        handle = ctypes.c_void_p()
        capi.check(capi.lib.flyhoistSessionCreate(ctypes.byref(handle)))
        self.handle = handle

    def parse(self, text, name='<traced>'):
        data = text.encode() if isinstance(text, str) else text
        handle = ctypes.c_void_p()
        self.capi.check(self.capi.lib.flyhoistModuleParse(
            self.handle, data, len(data), name.encode(), ctypes.byref(handle)))
        return Module(self.capi, handle)

    def close(self):
        self.capi.lib.flyhoistSessionDestroy(self.handle)


class Module:
    """A module of a session; every method raises FlyHoistError on failure."""

    def __init__(self, capi, handle):
        self.capi, self.handle = capi, handle

    def _buffer(self, fn, *args):
        out = ctypes.c_void_p()
        self.capi.check(fn(self.handle, *args, ctypes.byref(out)))
        return self.capi.take_buffer(out)

    def run_pipeline(self, pipeline):
        self.capi.check(self.capi.lib.flyhoistModuleRunPipeline(
            self.handle, pipeline.encode()))

    def hoist(self, flags=HOIST_NO_REMARKS):
        self.capi.check(self.capi.lib.flyhoistModuleHoist(self.handle, flags))

    def text(self):
        return self._buffer(self.capi.lib.flyhoistModulePrint, 0).decode()

    def manifest(self):
        return json.loads(self._buffer(self.capi.lib.flyhoistModuleGetManifest))

    def fingerprint(self, gpu_module):
        return self._buffer(self.capi.lib.flyhoistModuleGetFingerprint,
                            gpu_module.encode()).decode()

    def compile(self, chip, fmt, gpu_module):
        return self._buffer(self.capi.lib.flyhoistModuleCompile, chip.encode(),
                            fmt.encode(), None, gpu_module.encode())

    def close(self):
        self.capi.lib.flyhoistModuleDestroy(self.handle)


# ----------------------------------------------------------------------------
# The tracing frontend
# ----------------------------------------------------------------------------


class Constexpr:
    """Annotation of a kernel parameter the DSL bakes into the kernel."""


PARAM_LINE = re.compile(
    r'^(?P<indent>\s*)%(?P<ssa>\w+) = spec\.param "(?P<name>\w+)" = '
    r'(?P<value>-?\d+)(?P<rest>.*)$')


def captured_values(kernel, constexprs):
    """What a DSL would bake in: closure-captured ints and Constexpr args."""
    values = {}
    for name, cell in zip(kernel.__code__.co_freevars,
                          kernel.__closure__ or ()):
        if isinstance(cell.cell_contents, int):
            values[name] = cell.cell_contents
    for name, param in inspect.signature(kernel).parameters.items():
        if param.annotation is Constexpr:
            values[name] = constexprs.get(name, param.default)
    return values


def trace(kernel, **constexprs):
    """Traces `kernel` into MLIR text: every baked value is a spec.param."""
    values = captured_values(kernel, constexprs)
    with open(REFERENCE_KERNEL) as f:
        body = f.read()
    used = set()

    def emit_param(match):
        name = match['name']
        if name not in values:
            raise ValueError(f'kernel needs a value for {name!r}')
        used.add(name)
        return (f'{match["indent"]}%{match["ssa"]} = spec.param "{name}" = '
                f'{int(values[name])}{match["rest"]}')

    text = '\n'.join(PARAM_LINE.sub(emit_param, line)
                     for line in body.split('\n'))
    unused = set(values) - used
    if unused:
        raise ValueError(f'captured values the kernel never reads: {unused}')
    kernel_args = [name for name, p in inspect.signature(kernel).parameters
                   .items() if p.annotation is not Constexpr]
    return text, kernel_args, values


def make_paged_mqa_kernel(max_blocks_per_seq):
    """The DSL-level kernel: the block-table width is captured from the
    enclosing scope, as a frontend closure over the serving config would."""

    def paged_fp4_mqa_logits(q, q_scale, kv, kv_scale, block_table, weights,
                             tok_seq, kv_len, logits, num_tokens,
                             logits_stride, heads: Constexpr = 64,
                             head_dim: Constexpr = 128,
                             block_k: Constexpr = 256,
                             page_size: Constexpr = 64):
        # bt[seq * max_blocks_per_seq + blk]: the width is a row stride.
        return max_blocks_per_seq

    return paged_fp4_mqa_logits


# ----------------------------------------------------------------------------
# Launch-time checks of what the compiled kernel assumes
# ----------------------------------------------------------------------------

PRECONDITION = re.compile(
    r'^\s*value\s*(?:%\s*(?P<mod>\d+)\s*==\s*0|(?P<op><=|>=|==|!=|<|>)\s*'
    r'(?P<bound>-?\d+))\s*$')


def precondition_holds(text, value):
    """Evaluates a recorded precondition ("value % 16 == 0", "value >= 0").
    An unknown form does not hold: the launcher then specializes."""
    match = PRECONDITION.match(text)
    if not match:
        return False
    if match['mod']:
        return value % int(match['mod']) == 0
    bound = int(match['bound'])
    return {'<=': value <= bound, '>=': value >= bound, '==': value == bound,
            '!=': value != bound, '<': value < bound,
            '>': value > bound}[match['op']]


# ----------------------------------------------------------------------------
# The JIT with its compile cache
# ----------------------------------------------------------------------------


class JIT:
    """Traces, hoists (or not), keys the cache on fingerprints, compiles on
    a miss, and returns the code object with the launch arguments."""

    def __init__(self, session, chip='gfx942', fmt='bin', hoist=True):
        self.session, self.chip, self.fmt, self.hoist = session, chip, fmt, hoist
        self.cache = {}
        self.traced = self.compiled = 0

    def __call__(self, kernel, **constexprs):
        text, kernel_args, values = trace(kernel, **constexprs)
        self.traced += 1
        module = self.session.parse(text, 'paged_fp4_mqa_logits.mlir')
        try:
            hoisted = []
            if self.hoist:
                module.hoist()
                manifest = module.manifest()
                hoisted = [h for k in manifest['kernels'] for h in k['hoisted']]
                if not all(precondition_holds(p, values[h['name']])
                           for h in hoisted for p in h['preconditions']):
                    # The hoisted kernel would be wrong for this value: bake
                    # it in, under its own fingerprint.
                    module.close()
                    module = self.session.parse(text, 'specialized.mlir')
                    hoisted = []
            if not hoisted:
                module.run_pipeline('materialize-specialization')
                manifest = module.manifest()
            gpu_modules = [g['symbol'].lstrip('@')
                           for g in manifest['gpu_modules']]
            key = (self.chip, self.fmt,
                   tuple(module.fingerprint(g) for g in gpu_modules))
            if key not in self.cache:
                self.cache[key] = module.compile(self.chip, self.fmt,
                                                 gpu_modules[0])
                self.compiled += 1
        finally:
            module.close()
        # Runtime arguments: the kernel's own, then each hoisted value at the
        # index the manifest recorded ("source": "equals" adds none).
        launch_args = list(kernel_args)
        for h in sorted(hoisted, key=lambda h: h['argument'] or 0):
            if h.get('argument') is not None and h.get('source') != 'equals':
                launch_args.insert(h['argument'], values[h['name']])
        return self.cache[key], launch_args


def spread_widths(count, low=1, high=512):
    """`count` distinct page-table widths spread over [low, high]."""
    if count == 1:
        return [high]
    return sorted({round(low + i * (high - low) / (count - 1))
                   for i in range(count)})


def run_policy(capi, widths, chip, fmt, hoist):
    session = Session(capi)
    jit = JIT(session, chip, fmt, hoist)
    start = time.perf_counter()
    results = {}
    for width in widths:
        results[width] = jit(make_paged_mqa_kernel(width))
    elapsed = time.perf_counter() - start
    session.close()
    return jit, results, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--widths', type=int, default=125,
                        help='how many page-table widths to ask for')
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--format', default='bin', choices=['bin', 'isa'])
    parser.add_argument('--lib', help='path of libFlyHoistCAPI.so')
    parser.add_argument('--no-baseline', action='store_true',
                        help='skip the specialize-everything policy')
    args = parser.parse_args()

    capi = CAPI(find_library(args.lib))
    widths = spread_widths(args.widths)
    print(f'widths: {len(widths)} over {widths[0]}..{widths[-1]}; '
          f'chip {args.chip}, format {args.format}')

    jit, results, elapsed = run_policy(capi, widths, args.chip, args.format,
                                       hoist=True)
    objects = {obj for obj, _ in results.values()}
    print(f'hoist policy:      traced {jit.traced}, compiled {jit.compiled}, '
          f'cache entries {len(jit.cache)}, total {elapsed:.2f} s')
    sample = widths[len(widths) // 2]
    obj, launch_args = results[sample]
    kind = 'ELF' if obj[:4] == b'\x7fELF' else 'text'
    print(f'  width {sample}: code object {len(obj)} bytes ({kind}), '
          f'{len(objects)} distinct; launch args {launch_args}')
    ok = all(la[-1] == w for w, (_, la) in results.items())
    print(f'  every launch passes its own width as the last argument: '
          f'{"yes" if ok else "NO"}')

    if not args.no_baseline:
        base, base_results, base_elapsed = run_policy(
            capi, widths, args.chip, args.format, hoist=False)
        print(f'specialize policy: traced {base.traced}, compiled '
              f'{base.compiled}, cache entries {len(base.cache)}, '
              f'total {base_elapsed:.2f} s')
        print(f'  {base_elapsed / elapsed:.1f}x the time of the hoist policy, '
              f'{len({o for o, _ in base_results.values()})} distinct code '
              f'objects')
    return 0 if ok and jit.compiled == 1 else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""A tiny JIT kernel frontend over the flyhoist Python package.

What a FlyDSL-style frontend does to compile once for every page-table width
instead of once per width (python/flyhoist, docs/INTEGRATION.md):

  1. Trace: the kernel is a Python closure. Closure-captured ints and keyword
     arguments annotated `Constexpr` are the values a DSL would bake in; the
     tracer emits each as a `spec.param` (flyhoist.spec_param) instead of an
     `arith.constant`.
  2. KernelCache.get: level 1 is keyed on the kernel and the values of the
     parameters not known to be hoisted, so after the first compile a new
     width is a dictionary lookup (no trace, no pass, no compile). On a miss
     it traces, hoists in-process in the frontend's own MLIR context, and
     looks the code object up by fingerprint, in memory and on disk
     (--cache-dir), compiling only when neither has it.
  3. Launch: Launch.arguments checks the recorded preconditions and inserts
     each hoisted value where the manifest says.

The kernel body is the reference kernel, kernels/paged_fp4_mqa_logits.mlir:
the op-by-op IR a DSL's tracer would emit for it. What this example traces
are the parts that matter here: the baked values and the launch.

  examples/jit_frontend.py [--widths 125] [--cache-dir DIR] [--chip gfx942]

With FLYHOIST_REMOTE_CACHE=redis://host:port set, the code objects are
shared through Redis too: a second machine (or a second --cache-dir)
compiles nothing.
"""

import argparse
import inspect
import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:  # installed (pip install .), or on PYTHONPATH
    import flyhoist
except ImportError:  # run from the checkout as it is
    sys.path.insert(0, os.path.join(ROOT, 'python'))
    import flyhoist

REFERENCE_KERNEL = os.path.join(ROOT, 'kernels', 'paged_fp4_mqa_logits.mlir')

# ----------------------------------------------------------------------------
# The tracing frontend
# ----------------------------------------------------------------------------


class Constexpr:
    """Annotation of a kernel parameter the DSL bakes into the kernel."""


PARAM_LINE = re.compile(
    r'^(?P<indent>\s*)%(?P<ssa>\w+) = spec\.param "(?P<name>\w+)" = '
    r'-?\d+ : (?P<type>\w+)$')


def baked_values(kernel, constexprs):
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


def runtime_arguments(kernel):
    return [name for name, p in inspect.signature(kernel).parameters.items()
            if p.annotation is not Constexpr]


def trace(values):
    """The kernel's MLIR with every baked value as a spec.param."""
    with open(REFERENCE_KERNEL) as f:
        lines = f.read().split('\n')
    used = set()
    for i, line in enumerate(lines):
        match = PARAM_LINE.match(line)
        if match:
            name = match['name']
            if name not in values:
                raise ValueError(f'the kernel needs a value for {name!r}')
            used.add(name)
            lines[i] = match['indent'] + flyhoist.spec_param(
                match['ssa'], name, values[name], match['type'])
    unused = set(values) - used
    if unused:
        raise ValueError(f'captured values the kernel never reads: {unused}')
    return '\n'.join(lines)


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


class JIT:
    """The frontend's entry point: jit(kernel, **constexprs) -> (code object,
    launch arguments). The kernel's identity is its code: every closure over
    a different width is the same kernel. What the signature says is read
    once per kernel, as a DSL caches it."""

    def __init__(self, cache):
        self.cache = cache
        self._signatures = {}

    def _signature(self, kernel):
        signature = self._signatures.get(kernel.__code__)
        if signature is None:
            parameters = inspect.signature(kernel).parameters
            constexprs = {name: p.default for name, p in parameters.items()
                          if p.annotation is Constexpr}
            signature = (constexprs, runtime_arguments(kernel))
            self._signatures[kernel.__code__] = signature
        return signature

    def __call__(self, kernel, **constexprs):
        defaults, runtime = self._signature(kernel)
        values = {name: cell.cell_contents for name, cell in
                  zip(kernel.__code__.co_freevars, kernel.__closure__ or ())
                  if isinstance(cell.cell_contents, int)}
        values.update(defaults)
        values.update(constexprs)
        launch = self.cache.get(kernel.__code__, values, trace)
        (obj,) = launch.objects.values()
        return obj, launch.arguments(runtime)


# ----------------------------------------------------------------------------
# The demo
# ----------------------------------------------------------------------------


def spread_widths(count, low=1, high=512):
    """`count` distinct page-table widths spread over [low, high]."""
    if count == 1:
        return [high]
    return sorted({round(low + i * (high - low) / (count - 1))
                   for i in range(count)})


def specialize_everything(context, widths, target):
    """The baseline: bake every value in, compile every trace."""
    objects = {}
    start = time.perf_counter()
    for width in widths:
        kernel = make_paged_mqa_kernel(width)
        module = context.parse(trace(baked_values(kernel, {})),
                               'paged_fp4_mqa_logits.mlir')
        with module:
            module.run_pipeline('builtin.module(materialize-specialization)')
            key = tuple(sorted(module.fingerprints().items()))
            if key not in objects:
                objects[key] = module.compile(target)
    return len(widths), len(objects), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--widths', type=int, default=125,
                        help='how many page-table widths to ask for')
    parser.add_argument('--cache-dir',
                        help='on-disk code object cache (default: a fresh '
                             'temporary folder, so the first run compiles)')
    parser.add_argument('--chip', default='gfx942',
                        help='gfx942, gfx950 (code objects) or sm_90 (PTX)')
    parser.add_argument('--format', help='bin or isa (default: the chip\'s)')
    parser.add_argument('--lib', help='path of libFlyHoistMLIRCAPI.so')
    parser.add_argument('--hit-calls', type=int, default=20000,
                        help='cache hits to time after the widths')
    parser.add_argument('--baseline', action='store_true',
                        help='also run the specialize-everything policy')
    args = parser.parse_args()

    if args.lib:
        os.environ['FLYHOIST_CAPI_LIB'] = args.lib
    target = flyhoist.Target(args.chip, args.format)
    widths = spread_widths(args.widths)
    print(f'widths: {len(widths)} over {widths[0]}..{widths[-1]}; '
          f'chip {target.chip}, format {target.format}')

    with tempfile.TemporaryDirectory() as scratch:
        cache_dir = args.cache_dir or scratch
        cache = flyhoist.KernelCache(target, cache_dir=cache_dir)
        jit = JIT(cache)
        start = time.perf_counter()
        results = {w: jit(make_paged_mqa_kernel(w)) for w in widths}
        elapsed = time.perf_counter() - start
        objects = {obj for obj, _ in results.values()}
        print(f'hoist policy: traced {cache.traced}, compiled '
              f'{cache.compiled}, from disk {cache.disk_hits}, level-1 hits '
              f'{cache.hits}, total {elapsed:.2f} s')
        sample = widths[len(widths) // 2]
        obj, launch_args = results[sample]
        kind = 'ELF' if obj[:4] == b'\x7fELF' else 'text'
        print(f'  width {sample}: code object {len(obj)} bytes ({kind}), '
              f'{len(objects)} distinct; launch args {launch_args}')
        ok = all(la[-1] == w for w, (_, la) in results.items())
        print(f'  every launch passes its own width as the last argument: '
              f'{"yes" if ok else "NO"}')

        # Hits, as a serving loop sees them. KernelCache.get alone (the
        # values already gathered), then the whole jit call (gathering the
        # baked values of a new closure by introspection, and the launch
        # arguments).
        kernels = [make_paged_mqa_kernel(w) for w in widths]
        calls = [(k.__code__, baked_values(k, {})) for k in kernels]
        hits_before = cache.hits
        start = time.perf_counter()
        for i in range(args.hit_calls):
            code, values = calls[i % len(calls)]
            cache.get(code, values, trace)
        per_get = (time.perf_counter() - start) / max(args.hit_calls, 1)
        start = time.perf_counter()
        for i in range(args.hit_calls):
            jit(kernels[i % len(kernels)])
        per_call = (time.perf_counter() - start) / max(args.hit_calls, 1)
        print(f'  {cache.hits - hits_before} more calls, all level-1 hits '
              f'(still traced {cache.traced}, compiled {cache.compiled}): '
              f'{per_get * 1e6:.1f} us per KernelCache.get, '
              f'{per_call * 1e6:.1f} us per jit call')
        if cache.remote is not None:  # FLYHOIST_REMOTE_CACHE
            print(f'remote cache: {cache.remote_hits} hits')
        context = cache.context
        if args.baseline:
            traced, compiled, base_elapsed = specialize_everything(
                context, widths, target)
            print(f'specialize policy: traced {traced}, compiled {compiled}, '
                  f'total {base_elapsed:.2f} s '
                  f'({base_elapsed / elapsed:.1f}x the hoist policy)')
        cache.close()
    return 0 if ok and cache.traced == 1 else 1


if __name__ == '__main__':
    sys.exit(main())

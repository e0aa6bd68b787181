#!/usr/bin/env python3
"""What lowering in a compile worker costs per compile (_compile_worker.py).

KernelCache lowers in a worker process so that a fatal error of LLVM's ends
the worker, not the caller. This measures, in one run, the same hoisted
module lowered N times in this process (Module.compile) and N times in a
warm worker (the module printed, sent, parsed and lowered there, the objects
sent back), interleaved so that both see the same load; the worker's start;
and the fatal-error case (an inline-asm "n" operand fed a hoisted value)
ending in a specialized fallback with one warning.

  bench/compile_worker.py [--chip gfx942] [--compiles 10]
                          [--kernel kernels/paged_fp4_mqa_logits.mlir]
"""

import argparse
import os
import statistics
import sys
import time

import common

FATAL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @imm(%out: memref<?xi32>) kernel {
      %k = spec.param "k" = K : i32
      %c0 = arith.constant 0 : index
      %r = llvm.inline_asm "ASM", "CONSTRAINTS" %k : (i32) -> i32
      memref.store %r, %out[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
'''


def per_compile(args, flyhoist, text, name):
    """Median seconds of an in-process compile and of a worker compile."""
    from flyhoist import _compile_worker
    target = flyhoist.Target(args.chip)
    context = flyhoist.Context()
    module = context.parse(text, name)
    module.hoist(args.options)
    _compile_worker.pool.close()  # the first compile starts a worker
    start = time.perf_counter()
    _compile_worker.compile_module(module, target)
    first = time.perf_counter() - start
    local, worker = [], []
    for _ in range(args.compiles):
        start = time.perf_counter()
        in_process = module.compile(target)
        local.append(time.perf_counter() - start)
        start = time.perf_counter()
        in_worker = _compile_worker.compile_module(module, target)
        worker.append(time.perf_counter() - start)
        assert in_worker == in_process, 'the worker made other objects'
    start = time.perf_counter()
    text_bytes = len(module.bytecode())
    printing = time.perf_counter() - start
    module.close()
    context.close()
    # Medians, and minima: on a loaded machine the fastest of N runs is
    # the closer estimate of what the worker adds.
    return ((statistics.median(local), min(local)),
            (statistics.median(worker), min(worker)),
            first - statistics.median(local), text_bytes, printing)


def asm_kernel(chip):
    """FATAL for `chip`: its inline asm and constraints."""
    asm, constraints = (('mov.u32 $0, $1;', '=r,n') if
                        chip.startswith('sm_') else
                        ('s_mov_b32 $0, $1', '=s,n'))
    return FATAL.replace('ASM', asm).replace('CONSTRAINTS', constraints)


def fatal_case(args, flyhoist):
    """The fatal error through KernelCache: (seconds, launch, warnings)."""
    kernel = asm_kernel(args.chip)
    cache = flyhoist.KernelCache(
        args.chip, options='address-operands=llvm.inline_asm[0]',
        cache_dir=False, log=lambda message: None)
    start = time.perf_counter()
    launch = cache.get('imm', {'k': 5},
                       lambda v: kernel.replace('K', str(v['k'])))
    return time.perf_counter() - start, launch, cache.warnings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--compiles', type=int, default=10)
    parser.add_argument('--kernel', default=common.KERNEL)
    parser.add_argument('--options', default='')
    args = parser.parse_args()
    flyhoist = common.import_flyhoist()
    with open(args.kernel) as f:
        reference = f.read()
    # A one-instruction kernel: what the worker adds, nearly alone.
    tiny = asm_kernel(args.chip).replace('spec.param "k" = K',
                                         'arith.constant 5')
    for name, text in ((os.path.relpath(args.kernel, common.ROOT),
                        reference), ('a one-instruction kernel', tiny)):
        local, worker, start, size, printing = per_compile(args, flyhoist,
                                                           text, name)
        print(f'{name} on {args.chip}, {args.compiles} compiles each:')
        for i, what in enumerate(('median', 'min')):
            print(f'  {what:6} in process {local[i] * 1e3:7.1f} ms, in the '
                  f'worker {worker[i] * 1e3:7.1f} ms ({worker[i] / local[i]:.2f}'
                  f'x, {(worker[i] - local[i]) * 1e3:+.1f} ms)')
        print(f'  writing the {size} bytes of bytecode: {printing * 1e3:.2f} '
              f'ms')
        print(f'  starting a worker {start * 1e3:.0f} ms (once per process)')
    seconds, launch, warnings = fatal_case(args, flyhoist)
    print(f'fatal error (inline-asm "n" fed a hoisted value): get returned '
          f'in {seconds * 1e3:.0f} ms, specialized={launch.specialized}, '
          f'{len(warnings)} warning(s):')
    for warning in warnings:
        print(f'  {warning}')
    return 0 if launch.specialized and len(warnings) == 1 else 1


if __name__ == '__main__':
    sys.exit(main())

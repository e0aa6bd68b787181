#!/usr/bin/env python3
"""Compiles the paged kernels for many page-table widths, both ways.

For each kernel (--kernel, repeatable; default DEFAULT_KERNELS: the
reference kernel kernels/paged_fp4_mqa_logits.mlir, the memory-bound gather
kernels/paged_fp4_k_gather.mlir and the FlyDSL-shaped MQA-logits texts) and
each of its chips, the kernel is compiled with
`max_blocks_per_seq` set to each width, once fully materialized
(materialize-specialization, today's behaviour) and once hoisted
(hoist-stride-specialization), through flyhoist-amdgpu-pipeline to an HSA
code object. Prints, per kernel, chip and mode, the distinct code objects
(sha256 of the .hsaco bytes) and the compile times (CPU time of each fly-opt
process).

  bench/widths.py [--kernel FILE[:CHIPS] ...] [--count 125] [--chips gfx942,gfx950]
                  [--jobs N] [--fly-opt PATH]

A kernel written for some chips only names them after a colon
(kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir:gfx950); the others are
compiled for --chips.
"""

import argparse
import concurrent.futures
import datetime
import os
import platform
import statistics
import sys
import tempfile
import time

import common

# (file, chips or None for --chips): what ./scripts/run.sh compiles.
DEFAULT_KERNELS = [
    (common.KERNEL, None),
    (common.GATHER_KERNEL, None),
    (os.path.join(common.ROOT, 'kernels', 'paged_fp4_mqa_logits_flydsl_gfx942.mlir'), 'gfx942'),
    (os.path.join(common.ROOT, 'kernels', 'paged_fp4_mqa_logits_flydsl_gfx950.mlir'), 'gfx950'),
]


def spread_widths(count, low=1, high=512):
    """`count` distinct widths spread evenly over [low, high], ends included;
    most are not powers of two."""
    if count == 1:
        return [high]
    widths = sorted({round(low + i * (high - low) / (count - 1)) for i in range(count)})
    if len(widths) != count:
        sys.exit(f'error: cannot spread {count} distinct widths over {low}..{high}')
    return widths


def run_kernel(path, args, fly_opt, widths, chips, save_dir):
    """All compiles of one kernel; prints its table. True when the target
    (one object per width materialized, one in all hoisted) is met."""
    with open(path) as f:
        kernel = f.read()
    opt_level = common.target_opt_level(kernel)
    modes = ['materialized', 'hoisted']
    print(f'kernel: {os.path.relpath(path, common.ROOT)}'
          + ('' if opt_level is None else f' (its gpu.module target: O={opt_level})'))
    sys.stdout.flush()
    jobs = [(chip, mode, w) for chip in chips for mode in modes for w in widths]
    results = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='flyhoist-widths-') as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        def run(job):
            chip, mode, width = job
            out, cpu, wall = common.compile_module(
                fly_opt, common.kernel_with_width(kernel, width),
                common.pipeline(mode, chip, opt_level=opt_level), workdir)
            objs = common.object_bytes(out)
            if len(objs) != 1:
                raise RuntimeError(f'{job}: expected one code object, got {len(objs)}')
            data = objs[0][2]
            if data[:4] != b'\x7fELF':
                raise RuntimeError(f'{job}: the object is not an ELF code object')
            if save_dir:
                d = os.path.join(save_dir, chip, mode)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, f'w{width}.hsaco'), 'wb') as f:
                    f.write(data)
            return job, common.sha256(data), cpu, wall
        for job, digest, cpu, wall in pool.map(run, jobs):
            results[job] = (digest, cpu, wall)
            if len(results) % 50 == 0 or len(results) == len(jobs):
                sys.stderr.write(f'  {len(results)}/{len(jobs)} compiled, '
                                 f'{time.monotonic() - start:.0f} s\n')
    elapsed = time.monotonic() - start

    print()
    header = (f'{"chip":<8} {"mode":<13} {"widths":>6} {"distinct":>8} '
              f'{"total s":>9} {"median s":>9} {"ratio":>16}')
    print(header)
    print('-' * len(header))
    summary = {}
    for chip in chips:
        for mode in modes:
            rows = [results[(chip, mode, w)] for w in widths]
            distinct = len({r[0] for r in rows})
            times = [r[1] for r in rows]
            summary[(chip, mode)] = (distinct, sum(times), statistics.median(times))
        m = summary[(chip, 'materialized')]
        h = summary[(chip, 'hoisted')]
        for mode in modes:
            distinct, total, median = summary[(chip, mode)]
            ratio = ''
            if mode == 'hoisted':
                ratio = f'{m[0] / distinct:.0f}x fewer objs'
            print(f'{chip:<8} {mode:<13} {len(widths):>6} {distinct:>8} '
                  f'{total:>9.1f} {median:>9.3f} {ratio:>16}')
        # A JIT caches on the object: each distinct object costs one compile.
        print(f'{chip:<8} {"compile cost, one compile per distinct object":<40}: '
              f'materialized {m[0] * m[2]:.1f} s, hoisted {h[0] * h[2]:.1f} s '
              f'({(m[0] * m[2]) / (h[0] * h[2]):.0f}x); median per compile '
              f'{m[2]:.3f} s vs {h[2]:.3f} s ({h[2] / m[2]:.2f}x)')
    print(f'\nwall time: {elapsed:.1f} s for {len(jobs)} compiles')

    ok = all(summary[(c, 'materialized')][0] == len(widths) and
             summary[(c, 'hoisted')][0] == 1 for c in chips)
    print('target (N distinct materialized, 1 hoisted): ' + ('met' if ok else 'MISSED'))
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--count', type=int, default=125)
    parser.add_argument('--chips', default='gfx942,gfx950')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    parser.add_argument('--fly-opt')
    parser.add_argument('--kernel', action='append', metavar='FILE[:CHIPS]',
                        help='kernel file, with its chips if not --chips '
                             '(repeatable; default: DEFAULT_KERNELS)')
    parser.add_argument('--save-objects', metavar='DIR',
                        help='write every code object as DIR/<chip>/<mode>/w<width>.hsaco '
                             '(DIR/<kernel>/<chip>/... with several kernels)')
    args = parser.parse_args()

    fly_opt = common.find_fly_opt(args.fly_opt)
    specs = ([(k.partition(':')[0], k.partition(':')[2] or None) for k in args.kernel]
             if args.kernel else DEFAULT_KERNELS)
    kernels = [(path, (chips or args.chips).split(',')) for path, chips in specs]
    widths = spread_widths(args.count)
    pow2 = sum(1 for w in widths if w & (w - 1) == 0)
    print(f'kernels: {", ".join(os.path.relpath(k, common.ROOT) for k, _ in kernels)}')
    print(f'widths: {len(widths)} over {widths[0]}..{widths[-1]} '
          f'({pow2} powers of two), e.g. {widths[:6]} ... {widths[-3:]}')
    print(f'fly-opt: {fly_opt}; {args.jobs} parallel compiles; '
          f'time = CPU time of each fly-opt process')
    print(f'machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores; '
          f'{datetime.datetime.now().isoformat(timespec="seconds")}')
    ok = True
    for path, chips in kernels:
        print()
        save_dir = args.save_objects
        if save_dir and len(kernels) > 1:
            save_dir = os.path.join(save_dir, os.path.splitext(os.path.basename(path))[0])
        ok &= run_kernel(path, args, fly_opt, widths, chips, save_dir)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

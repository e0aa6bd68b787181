#!/usr/bin/env python3
"""Cost of hoist-stride-specialization against cse, on generated modules.

Generates modules from about 1k to 1M operations: many gpu.func kernels in
one gpu.module, each with many `spec.param` strides feeding long address
chains (and one kept parameter), plus a host function that launches every
kernel. Each module runs through
  fly-opt --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},cse)'
    -mlir-timing -mlir-timing-display=list
and the wall time of both passes (same process, same module) is printed.

  bench/pass_cost.py [--sizes 1000,10000,100000,1000000] [--params 8] [--chain 32]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import common


def kernel_text(k, params, chain):
    """One kernel: `params` hoistable strides, each through a `chain`-long
    address computation, and one kept parameter (a comparison)."""
    lines = []
    args = ', '.join(f'%buf{i}: memref<?xf32>' for i in range(params))
    lines.append(f'    gpu.func @k{k}({args}, %out: memref<?xf32>) kernel {{')
    lines.append('      %tid = gpu.thread_id x')
    lines.append('      %bid = gpu.block_id x')
    lines.append('      %zero = arith.constant 0.0 : f32')
    lines.append(f'      %limit = spec.param "limit" = 4096 : index')
    acc = '%zero'
    for i in range(params):
        lines.append(f'      %p{i} = spec.param "stride{i}" = {17 + i} : index')
        prev = '%bid'
        for s in range(chain):
            name = f'%a{i}_{s}'
            if s % 2 == 0:
                lines.append(f'      {name} = arith.muli {prev}, %p{i} : index')
            else:
                lines.append(f'      {name} = arith.addi {prev}, %tid : index')
            prev = name
        lines.append(f'      %v{i} = memref.load %buf{i}[{prev}] : memref<?xf32>')
        lines.append(f'      %s{i} = arith.addf {acc}, %v{i} : f32')
        acc = f'%s{i}'
    lines.append('      %inside = arith.cmpi ult, %tid, %limit : index')
    lines.append('      scf.if %inside {')
    lines.append(f'        memref.store {acc}, %out[%tid] : memref<?xf32>')
    lines.append('      }')
    lines.append('      gpu.return')
    lines.append('    }')
    return lines


def module_text(target_ops, params, chain):
    per_kernel = params * (chain + 3) + 9
    kernels = max(1, round(target_ops / (per_kernel + 1)))
    lines = ['module attributes {gpu.container_module} {', '  gpu.module @kernels {']
    for k in range(kernels):
        lines += kernel_text(k, params, chain)
    lines.append('  }')
    margs = ', '.join(f'%buf{i}: memref<?xf32>' for i in range(params))
    lines.append(f'  func.func @host({margs}, %out: memref<?xf32>) {{')
    lines.append('    %c1 = arith.constant 1 : index')
    lines.append('    %c256 = arith.constant 256 : index')
    kargs = ', '.join(f'%buf{i} : memref<?xf32>' for i in range(params))
    for k in range(kernels):
        lines.append(f'    gpu.launch_func @kernels::@k{k} blocks in (%c256, %c1, %c1) '
                     f'threads in (%c256, %c1, %c1) args({kargs}, %out : memref<?xf32>)')
    lines.append('    return')
    lines.append('  }')
    lines.append('}')
    return '\n'.join(lines) + '\n', kernels


_TIMING = re.compile(r'^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(.+?)\s*$')


def timings(stderr):
    """Pass name -> wall seconds from -mlir-timing-display=list output."""
    result = {}
    for line in stderr.splitlines():
        m = _TIMING.match(line)
        if m:
            result[m.group(2)] = result.get(m.group(2), 0.0) + float(m.group(1))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='1000,10000,100000,1000000')
    parser.add_argument('--params', type=int, default=8)
    parser.add_argument('--chain', type=int, default=32)
    parser.add_argument('--repeat', type=int, default=3,
                        help='runs per size; the fastest is reported')
    parser.add_argument('--fly-opt')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    pipe = 'builtin.module(hoist-stride-specialization{remarks=false},cse)'

    header = (f'{"ops":>9} {"kernels":>7} {"params":>6} {"hoist s":>9} {"cse s":>9} '
              f'{"hoist/cse":>9} {"hoist us/op":>11} {"parse s":>8}')
    print(f'fly-opt: {fly_opt}\npipeline: {pipe}\n'
          f'{args.params} hoisted + 1 kept parameter per kernel, chains of {args.chain} ops')
    print(header)
    print('-' * len(header))
    with tempfile.TemporaryDirectory(prefix='flyhoist-passcost-') as workdir:
        for size in [int(s) for s in args.sizes.split(',')]:
            text, kernels = module_text(size, args.params, args.chain)
            path = os.path.join(workdir, 'm.mlir')
            with open(path, 'w') as f:
                f.write(text)
            ops = sum(1 for line in text.splitlines()
                      if '=' in line or line.strip().startswith(
                          ('gpu.', 'memref.store', 'scf.', 'func.', 'return', '}')))
            best = None
            for _ in range(args.repeat):
                proc = subprocess.run(
                    [fly_opt, f'--pass-pipeline={pipe}', '-mlir-timing',
                     '-mlir-timing-display=list', '-o', os.devnull, path],
                    capture_output=True, text=True)
                if proc.returncode != 0:
                    sys.stderr.write(proc.stderr)
                    return 1
                t = timings(proc.stderr)
                hoist = t.get('HoistStrideSpecialization', 0.0)
                cse = t.get('CSE', 0.0)
                parse = t.get('Parser', 0.0)
                if best is None or hoist + cse < best[0] + best[1]:
                    best = (hoist, cse, parse)
            hoist, cse, parse = best
            print(f'{ops:>9} {kernels:>7} {args.params * kernels:>6} {hoist:>9.4f} '
                  f'{cse:>9.4f} {hoist / cse if cse else float("nan"):>9.2f} '
                  f'{hoist / ops * 1e6:>11.3f} {parse:>8.3f}')
            sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Lowers a paged kernel to PTX for sm_90, hoisted and specialized.

For each width, the kernel (--kernel, default kernels/paged_fp4_mqa_logits.mlir;
kernels/paged_fp4_k_gather.mlir is the other) with `max_blocks_per_seq`
set to that width is compiled twice by fly-opt:
  hoisted:      hoist-stride-specialization, flyhoist-nvvm-pipeline{chip=sm_90 format=isa}
  specialized:  materialize-specialization,  flyhoist-nvvm-pipeline{chip=sm_90 format=isa}
and the PTX of each `gpu.binary` is written to OUT (default bench/gpu/ptx):
  hoisted.ptx              one file: every width must give the same bytes
  specialized_w<W>.ptx     one file per width
  manifest.json            widths, sha256 of every PTX, the kernel's entry
                           name and its parameter count

The NVVM pipeline lowers math ops to LLVM intrinsics, so the PTX needs no
libdevice; should a libdevice call (__nv_*) still appear and no CUDA toolkit
be found to link it, the PTX keeps an undefined call and this script stops.

Exit status 1 if the hoisted PTX differs between widths or the specialized
PTX is the same for two widths. Standard library only.

  bench/gpu/make_ptx.py [--kernel FILE] [--widths 1,7,100,128,333,512]
                        [--fly-opt PATH] [-o DIR]
"""

import argparse
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
import common  # bench/gpu/common.py: bench/common.py
from refcore import ptx_entry_params

DEFAULT_WIDTHS = '1,7,100,128,333,512'


def pipeline(mode, chip='sm_90'):
    first = {'hoisted': 'hoist-stride-specialization{remarks=false}',
             'specialized': 'materialize-specialization'}[mode]
    return f'builtin.module({first},flyhoist-nvvm-pipeline{{chip={chip} format=isa}})'


def kernel_entry(text):
    """The name of the kernel's gpu.func (each of our kernels has one)."""
    names = re.findall(r'gpu\.func\s+@(\w+)', text)
    if len(names) != 1:
        sys.exit(f'error: expected one gpu.func, found {names}')
    return names[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--widths', default=DEFAULT_WIDTHS)
    parser.add_argument('--fly-opt')
    parser.add_argument('--kernel', default=common.KERNEL)
    parser.add_argument('--chip', default='sm_90')
    parser.add_argument('-o', '--output-dir', default=os.path.join(HERE, 'ptx'))
    args = parser.parse_args()

    fly_opt = common.find_fly_opt(args.fly_opt)
    with open(args.kernel) as f:
        kernel = f.read()
    entry = kernel_entry(kernel)
    widths = [int(w) for w in args.widths.split(',')]
    os.makedirs(args.output_dir, exist_ok=True)

    manifest = {'kernel': os.path.relpath(args.kernel, common.ROOT),
                'chip': args.chip, 'entry': entry, 'widths': widths,
                'pipelines': {m: pipeline(m, args.chip)
                              for m in ('hoisted', 'specialized')},
                'cuda_home': os.environ.get('CUDA_HOME', ''),
                'hoisted': {}, 'specialized': {}}
    hoisted_ptx = None
    ok = True
    with tempfile.TemporaryDirectory() as work:
        for w in widths:
            text = common.kernel_with_width(kernel, w)
            for mode in ('hoisted', 'specialized'):
                out, cpu, _ = common.compile_module(fly_opt, text,
                                                    pipeline(mode, args.chip), work)
                objs = [o for o in common.gpu_objects.objects(out)]
                if len(objs) != 1 or objs[0][3] != 'assembly':
                    sys.exit(f'error: expected one PTX object, got {len(objs)}')
                ptx = objs[0][4]
                if b'.extern .func' in ptx:
                    # math.fma lowers to libdevice's __nv_fmaf; gpu-module-to-binary
                    # links libdevice only when it finds a CUDA toolkit.
                    sys.exit('error: the PTX calls an undefined function (libdevice not '
                             'linked): set CUDA_HOME to a CUDA toolkit and run again')
                digest = common.sha256(ptx)
                nparams = len(ptx_entry_params(ptx.decode(), entry))
                manifest[mode][str(w)] = {'sha256': digest, 'params': nparams}
                if mode == 'hoisted':
                    if hoisted_ptx is None:
                        hoisted_ptx = ptx
                        with open(os.path.join(args.output_dir, 'hoisted.ptx'), 'wb') as f:
                            f.write(ptx)
                    elif ptx != hoisted_ptx:
                        print(f'error: hoisted PTX of width {w} differs from width {widths[0]}')
                        ok = False
                else:
                    with open(os.path.join(args.output_dir, f'specialized_w{w}.ptx'), 'wb') as f:
                        f.write(ptx)
                print(f'width {w:4d} {mode:12s} params {nparams:3d} '
                      f'sha256 {digest[:16]} ({cpu:.2f} s)')
    spec = {v['sha256'] for v in manifest['specialized'].values()}
    hoist = {v['sha256'] for v in manifest['hoisted'].values()}
    print(f'distinct PTX: hoisted {len(hoist)}, specialized {len(spec)} '
          f'over {len(widths)} widths')
    if len(spec) != len(widths):
        print('error: two widths gave the same specialized PTX')
        ok = False
    with open(os.path.join(args.output_dir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write('\n')
    return 0 if ok and len(hoist) == 1 else 1


if __name__ == '__main__':
    sys.exit(main())

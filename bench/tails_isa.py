#!/usr/bin/env python3
"""Prints a tail kernel's AMDGPU instructions both ways: the default pass
(an offset tail kept, so the backend folds it into the access's immediate
offset) and with hoist-immediate-offsets=true (one module, the tail a
runtime add).

Usage: bench/tails_isa.py [--kernel bench/tails/lds_tail.mlir]
           [--param tail] [--value 64] [--chip gfx942]
"""
import argparse
import os
import re
import tempfile

import common

gpu_objects = common.sibling('gpu_objects')

INSTRUCTION = re.compile(r'^\s+[a-z_0-9]+(\s|$)')


def isa(fly_opt, text, hoist_options, chip, opt_level, workdir):
    first = 'hoist-stride-specialization{remarks=false%s}' % hoist_options
    o = '' if opt_level is None else f' O={opt_level}'
    pipe = (f'builtin.module({first},'
            f'flyhoist-amdgpu-pipeline{{chip={chip}{o} format=isa}})')
    out, _, _ = common.compile_module(fly_opt, text, pipe, workdir)
    lines = []
    for _, _, _, _, data in gpu_objects.objects(out):
        for line in data.decode('latin-1').splitlines():
            if INSTRUCTION.match(line) and not line.strip().startswith('.'):
                lines.append(line.strip())
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--kernel', default=os.path.join(common.BENCH, 'tails',
                                                         'lds_tail.mlir'))
    parser.add_argument('--param', default='tail')
    parser.add_argument('--value', type=int, default=64)
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--fly-opt')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    with open(args.kernel) as f:
        text = common.kernel_with_width(f.read(), args.value, args.param)
    opt_level = common.target_opt_level(text)
    # The module's own target names the chip compiled for (as quality.py
    # does): otherwise it would get a second target and object.
    text = re.sub(r'(#rocdl\.target<[^>]*chip = ")[^"]*(")',
                  lambda m: m.group(1) + args.chip + m.group(2), text)
    with tempfile.TemporaryDirectory() as workdir:
        for title, options in (('default (kept)', ''),
                               ('hoist-immediate-offsets=true',
                                ' hoist-immediate-offsets=true')):
            lines = isa(fly_opt, text, options, args.chip, opt_level, workdir)
            print(f'== {os.path.basename(args.kernel)} {args.param}='
                  f'{args.value} {args.chip}: {title}: {len(lines)} '
                  'instructions')
            print('\n'.join(lines))


if __name__ == '__main__':
    main()

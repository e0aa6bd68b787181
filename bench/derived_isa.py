#!/usr/bin/env python3
"""AMDGPU cost of values derived from one root under inference.

A kernel whose width enters as Python-folded products (4*w, 16*w*8/4,
w + 1: test/Python/Inputs/tuned_kernel.py, products=1) traced at three
widths and inferred (infer-spec-params) two ways: the derived values
computed from the width in the kernel (derive=true, the default: one
kernel argument) and each taken as its own argument (derive=false); both
hoisted (offset tails too, as inference does) and compiled to ISA, against
the width's own trace compiled specialized. Prints per form the
instruction count, SGPRs, VGPRs and kernel arguments.

  bench/derived_isa.py [--chip gfx942] [--widths 64,101,7] [--fly-opt PATH]
"""
import argparse
import json
import os
import re
import sys
import tempfile

import common

gpu_objects = common.sibling('gpu_objects')
sys.path.insert(0, os.path.join(common.ROOT, 'test', 'Python', 'Inputs'))

INSTRUCTION = re.compile(r'^\s+[a-z_0-9]+(\s|$)')
REGISTERS = {name: re.compile(r'\.amdhsa_next_free_' + name + r'\s+(\d+)')
             for name in ('sgpr', 'vgpr')}
INFERENCE = ' hoist-immediate-offsets=true'


def isa_cost(fly_opt, text, chip, workdir, hoist_options=INFERENCE):
    """{'instructions', 'sgpr', 'vgpr', 'hoisted'} of `text` hoisted (with
    `hoist_options`) and compiled to `chip`'s ISA; one kernel per module."""
    manifest = os.path.join(workdir, 'manifest.json')
    first = 'hoist-stride-specialization{remarks=false%s manifest=%s}' % (
        hoist_options, manifest)
    hoisted, _, _ = common.compile_module(
        fly_opt, text, f'builtin.module({first})', workdir)
    with open(manifest) as f:
        kernels = json.load(f)['kernels']
    o = common.target_opt_level(text)
    o = '' if o is None else f' O={o}'
    pipe = f'builtin.module(flyhoist-amdgpu-pipeline{{chip={chip}{o} ' \
           f'format=isa}})'
    out, _, _ = common.compile_module(fly_opt, hoisted, pipe, workdir)
    cost = {'instructions': 0, 'sgpr': 0, 'vgpr': 0,
            'hoisted': [e['name'] for k in kernels for e in k['hoisted']]}
    for _, _, _, _, data in gpu_objects.objects(out):
        asm = data.decode('latin-1')
        cost['instructions'] += sum(
            1 for line in asm.splitlines()
            if INSTRUCTION.match(line) and not line.strip().startswith('.'))
        for name, pattern in REGISTERS.items():
            cost[name] = max([cost[name]] +
                             [int(v) for v in pattern.findall(asm)])
    return cost


def cost_text(cost):
    return (f"{cost['instructions']} instructions, {cost['sgpr']} SGPRs, "
            f"{cost['vgpr']} VGPRs, hoisted {cost['hoisted']}")


def infer(fly_opt, traces, values, derive, workdir):
    nested = 'module {\n' + '\n'.join(
        re.sub(r'^module', 'module', t.strip()) for t in traces) + '\n}\n'
    pipe = (f"builtin.module(infer-spec-params{{values=width="
            f"{':'.join(map(str, values))} derive={str(derive).lower()}}})")
    out, _, _ = common.compile_module(fly_opt, nested, pipe, workdir)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--widths', default='64,101,7')
    parser.add_argument('--fly-opt')
    args = parser.parse_args()
    from tuned_kernel import kernel_text
    fly_opt = common.find_fly_opt(args.fly_opt)
    widths = [int(w) for w in args.widths.split(',')]
    traces = [kernel_text({'width': w, 'products': 1, 'stride': 8})
              for w in widths]
    with tempfile.TemporaryDirectory() as workdir:
        for title, derive in (('root once (derive=true)', True),
                              ('each an argument (derive=false)', False)):
            template = infer(fly_opt, traces, widths, derive, workdir)
            print(f'{title}: ' + cost_text(
                isa_cost(fly_opt, template, args.chip, workdir)))
        for width in widths:
            print(f'specialized width={width}: ' + cost_text(
                isa_cost(fly_opt, traces[widths.index(width)], args.chip,
                         workdir)))


if __name__ == '__main__':
    main()

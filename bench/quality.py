#!/usr/bin/env python3
"""Code quality of the hoisted kernel against the fully specialized one.

For a few widths and each chip, compiles a kernel (--kernel, default
kernels/paged_fp4_mqa_logits.mlir) materialized and hoisted to code objects
and compares: instructions (static count from llvm-objdump-22 disassembly up
to the last s_endpgm: padding excluded), the instructions inside loops
(from the assembly text, format=isa: every line between a label and a
branch back to it; a difference there is paid on every iteration, one
outside only once per workgroup), SGPRs, VGPRs, AGPRs, spills, LDS and
scratch bytes (code object metadata, from llvm-readelf-22 --notes), and the
kernel argument segment size.

  bench/quality.py [--kernel FILE] [--widths 1,7,100,128,333,512] [--chips gfx942,gfx950]
                   [--param NAME] [--hoist-immediate-offsets]

--param varies another spec.param than max_blocks_per_seq (the offset-tail
kernels of bench/tails/: --param tail). A kernel whose gpu.module carries
its own #rocdl.target (FlyDSL's texts) is compiled at that target's O, with
the target's chip set to the chip compiled for.

--hoist-immediate-offsets adds a third row per width, `hoisted-imm`: the
pass with hoist-immediate-offsets=true, which hoists offset tails that the
default keeps ("folds into an instruction's immediate offset"). The last
column, objects, counts the distinct code objects of each mode over the
widths of a chip: one for a parameter hoisted, one per width for one kept.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import common

FIELDS = ['.sgpr_count', '.vgpr_count', '.agpr_count', '.sgpr_spill_count',
          '.vgpr_spill_count', '.group_segment_fixed_size',
          '.private_segment_fixed_size', '.kernarg_segment_size']


def disassembly_stats(objdump, path):
    """Instruction count and a histogram of the instruction mnemonics."""
    text = subprocess.run([objdump, '-d', '--no-show-raw-insn', '--no-leading-addr', path],
                          check=True, capture_output=True, text=True).stdout
    mnemonics = []
    for line in text.splitlines():
        if not line.startswith('\t') and not line.startswith('  '):
            continue
        word = line.split()[0] if line.split() else ''
        if not word or word.endswith(':') or word.startswith('.') or word == 's_code_end':
            continue
        mnemonics.append(word)
    # The alignment padding after the kernel's last s_endpgm (s_nop) is not
    # code: counting it would hide small differences.
    if 's_endpgm' in mnemonics:
        last = len(mnemonics) - 1 - mnemonics[::-1].index('s_endpgm')
        mnemonics = mnemonics[:last + 1]
    return mnemonics


def loop_instructions(isa):
    """Instructions of the first kernel's assembly text that lie inside a
    loop: between a label and a later branch back to it (union of those
    ranges). `isa` is the text of a format=isa gpu.binary."""
    lines = isa.splitlines()
    labels = {}
    instrs = []        # (line index, mnemonic, operands)
    for i, line in enumerate(lines):
        t = line.strip()
        if not t or t.startswith((';', '//')):
            continue
        if t.endswith(':') and not line[:1].isspace():
            labels[t[:-1]] = i
            continue
        if line[:1].isspace() and not t.startswith('.'):
            word, _, rest = t.partition(' ')
            instrs.append((i, word, rest.strip()))
    inside = set()
    for i, word, rest in instrs:
        if word.startswith(('s_branch', 's_cbranch')):
            target = rest.split(',')[0].split()[0] if rest else ''
            start = labels.get(target)
            if start is not None and start < i:
                inside.update(range(start, i + 1))
    return sum(1 for i, _, _ in instrs if i in inside)


def metadata(readelf, path):
    """The first kernel's numeric metadata fields."""
    text = subprocess.run([readelf, '--notes', path], check=True,
                          capture_output=True, text=True).stdout
    values = {}
    for field in FIELDS:
        m = re.search(re.escape(field) + r':\s+(\d+)', text)
        values[field] = int(m.group(1)) if m else None
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--widths', default='1,7,100,128,333,512')
    parser.add_argument('--chips', default='gfx942,gfx950')
    parser.add_argument('--fly-opt')
    parser.add_argument('--kernel', default=common.KERNEL)
    parser.add_argument('--param', default=common.WIDTH_PARAM,
                        help='the spec.param whose value varies (default: the width)')
    parser.add_argument('--hoist-immediate-offsets', action='store_true',
                        help='add a row hoisted with hoist-immediate-offsets=true')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    objdump = common.find_llvm_tool('llvm-objdump')
    readelf = common.find_llvm_tool('llvm-readelf')
    with open(args.kernel) as f:
        kernel = f.read()
    opt_level = common.target_opt_level(kernel)
    widths = [int(w) for w in args.widths.split(',')]

    cols = ['instrs', 'loop', 'sgpr', 'vgpr', 'agpr', 'sspill', 'vspill', 'lds', 'scratch',
            'kernarg']
    modes = ['materialized', 'hoisted'] + (['hoisted-imm'] if args.hoist_immediate_offsets
                                           else [])
    header = (f'{"chip":<7} {"width":>5} {"mode":<13} ' + ' '.join(f'{c:>7}' for c in cols)
              + f' {"d instrs":>9} {"d loop":>7} {"objects":>7}')
    print(header)
    print('-' * len(header))
    worst = 0.0
    worst_loop = 0
    extra_vgpr = False
    spills = False
    worst_imm = None
    with tempfile.TemporaryDirectory(prefix='flyhoist-quality-') as workdir:
        for chip in args.chips.split(','):
            digests = {mode: set() for mode in modes}
            for width in widths:
                rows = {}
                loops = {}
                for mode in modes:
                    text = common.kernel_with_width(kernel, width, args.param)
                    text = re.sub(r'(#rocdl\.target<[^>]*chip = ")[^"]*(")',
                                  lambda m: m.group(1) + chip + m.group(2), text)
                    pipe = lambda fmt: pipeline(mode, chip, fmt, opt_level)
                    out, _, _ = common.compile_module(fly_opt, text, pipe('bin'), workdir)
                    data = common.object_bytes(out)[0][2]
                    digests[mode].add(common.sha256(data))
                    path = os.path.join(workdir, f'{chip}-{width}-{mode}.hsaco')
                    with open(path, 'wb') as f:
                        f.write(data)
                    md = metadata(readelf, path)
                    rows[mode] = [len(disassembly_stats(objdump, path))] + [md[f] for f in FIELDS]
                    out, _, _ = common.compile_module(fly_opt, text, pipe('isa'), workdir)
                    isa = common.object_bytes(out)[0][2].decode('latin-1')
                    loops[mode] = loop_instructions(isa)
                base = rows['materialized'][0]
                for mode in modes:
                    r = rows[mode]
                    delta = dloop = objects = ''
                    if mode != 'materialized':
                        d = (r[0] - base) / base * 100.0
                        delta = f'{d:+.2f}%'
                        dl = loops[mode] - loops['materialized']
                        dloop = f'{dl:+d}'
                    if mode == 'hoisted':
                        worst = max(worst, d)
                        worst_loop = max(worst_loop, dl)
                        extra_vgpr |= r[2] > rows['materialized'][2]
                    if mode == 'hoisted-imm':
                        extra = r[0] - base
                        worst_imm = extra if worst_imm is None else max(worst_imm, extra)
                    if width == widths[-1]:
                        objects = str(len(digests[mode]))
                    spills |= bool(r[4]) or bool(r[5]) or bool(r[7])
                    cells = [r[0], loops[mode]] + r[1:]
                    print(f'{chip:<7} {width:>5} {mode:<13} ' +
                          ' '.join(f'{("-" if v is None else v):>7}' for v in cells) +
                          f' {delta:>9} {dloop:>7} {objects:>7}')
    print()
    print(f'most extra instructions inside loops (hoisted vs materialized): {worst_loop:+d}')
    print(f'worst instruction delta (hoisted vs materialized): {worst:+.2f}% '
          f'(target <= +2%): {"met" if worst <= 2.0 else "MISSED"}')
    print(f'extra VGPRs: {"yes (MISSED)" if extra_vgpr else "none (met)"}; '
          f'spills or scratch: {"yes (MISSED)" if spills else "none (met)"}')
    if worst_imm is not None:
        print(f'most extra instructions with hoist-immediate-offsets=true: {worst_imm:+d}')
    return 0


def pipeline(mode, chip, fmt, opt_level):
    """common.pipeline, with hoisted-imm: the pass with
    hoist-immediate-offsets=true."""
    if mode != 'hoisted-imm':
        return common.pipeline(mode, chip, fmt, opt_level)
    return common.pipeline('hoisted', chip, fmt, opt_level).replace(
        '{remarks=false}', '{remarks=false hoist-immediate-offsets=true}')


if __name__ == '__main__':
    sys.exit(main())

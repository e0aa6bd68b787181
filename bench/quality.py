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
                   [--param NAME]

--param varies another spec.param than max_blocks_per_seq (the offset-tail
kernels of bench/tails/: --param tail). A kernel whose gpu.module carries
its own #rocdl.target (FlyDSL's texts) is compiled at that target's O, with
the target's chip set to the chip compiled for.
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
    header = (f'{"chip":<7} {"width":>5} {"mode":<13} ' + ' '.join(f'{c:>7}' for c in cols)
              + f' {"d instrs":>9} {"d loop":>7}')
    print(header)
    print('-' * len(header))
    worst = 0.0
    worst_loop = 0
    extra_vgpr = False
    spills = False
    with tempfile.TemporaryDirectory(prefix='flyhoist-quality-') as workdir:
        for chip in args.chips.split(','):
            for width in widths:
                rows = {}
                loops = {}
                for mode in ('materialized', 'hoisted'):
                    text = common.kernel_with_width(kernel, width, args.param)
                    text = re.sub(r'(#rocdl\.target<[^>]*chip = ")[^"]*(")',
                                  lambda m: m.group(1) + chip + m.group(2), text)
                    out, _, _ = common.compile_module(
                        fly_opt, text, common.pipeline(mode, chip, opt_level=opt_level), workdir)
                    data = common.object_bytes(out)[0][2]
                    path = os.path.join(workdir, f'{chip}-{width}-{mode}.hsaco')
                    with open(path, 'wb') as f:
                        f.write(data)
                    md = metadata(readelf, path)
                    rows[mode] = [len(disassembly_stats(objdump, path))] + [md[f] for f in FIELDS]
                    out, _, _ = common.compile_module(
                        fly_opt, text, common.pipeline(mode, chip, 'isa', opt_level), workdir)
                    isa = common.object_bytes(out)[0][2].decode('latin-1')
                    loops[mode] = loop_instructions(isa)
                base = rows['materialized'][0]
                for mode in ('materialized', 'hoisted'):
                    r = rows[mode]
                    delta = dloop = ''
                    if mode == 'hoisted':
                        d = (r[0] - base) / base * 100.0
                        worst = max(worst, d)
                        delta = f'{d:+.2f}%'
                        dl = loops['hoisted'] - loops['materialized']
                        worst_loop = max(worst_loop, dl)
                        dloop = f'{dl:+d}'
                        extra_vgpr |= r[2] > rows['materialized'][2]
                    spills |= bool(r[4]) or bool(r[5]) or bool(r[7])
                    cells = [r[0], loops[mode]] + r[1:]
                    print(f'{chip:<7} {width:>5} {mode:<13} ' +
                          ' '.join(f'{("-" if v is None else v):>7}' for v in cells) +
                          f' {delta:>9} {dloop:>7}')
    print()
    print(f'most extra instructions inside loops (hoisted vs materialized): {worst_loop:+d}')
    print(f'worst instruction delta (hoisted vs materialized): {worst:+.2f}% '
          f'(target <= +2%): {"met" if worst <= 2.0 else "MISSED"}')
    print(f'extra VGPRs: {"yes (MISSED)" if extra_vgpr else "none (met)"}; '
          f'spills or scratch: {"yes (MISSED)" if spills else "none (met)"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

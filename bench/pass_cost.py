#!/usr/bin/env python3
"""Pass cost: instructions of hoist-stride-specialization against one cse
run on the same module, on the generated modules of bench/pass_shapes.py.

Counts, not time: callgrind counts the instructions inside the pass manager
(`--toggle-collect`), so no load on the machine changes them and they compare
across runs and machines. Each pass runs in one callgrind process over every
case (the modules in one file split by `// -----`, callgrind dumping its
counts after each pass-manager run), after a one-kernel module that loads the
code and binds the symbols both passes call, whose counts are dropped.

The figure is hoist/cse per shape and size: what the pass costs a pipeline
that already runs cse, which no user notices below a few cse runs. With
--check, a ratio over --limit (1.5 unless given) on any case is a
regression: the cases over it are printed and the exit status is 1. With
--baseline FLY_OPT, the same cases are counted for that build too, in the
same run, and its ratio is printed beside (the "before" of a change).

The suite does not run this (it takes minutes of CPU); run it on a change
that touches the analysis, planning or the rewrite, and record the figure in
bench/RESULTS.md. Needs valgrind (scripts/setup.sh installs it).

  bench/pass_cost.py [--sizes 1000,10000] [--shapes independent,...]
                     [--params 8] [--chain 32] [--baseline FLY_OPT]
                     [--check [--limit 1.5]] [--fly-opt FLY_OPT]

bench/pass_profile.py measures the rest (wall time, heap, page faults).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import common
from pass_shapes import HOIST, SHAPES, module_text

ADAPTOR = 'mlir::detail::OpToOpPassAdaptor::run(*'


def batched_instructions(fly_opt, pipe, texts, workdir):
    """Instructions of `pipe` on each module of `texts`, all in one callgrind
    process, after a warm-up module (texts[0]) whose count is dropped."""
    path = os.path.join(workdir, 'batch.mlir')
    with open(path, 'w') as f:
        f.write('// -----\n'.join(texts))
    out = os.path.join(workdir, 'batch.out')
    for name in os.listdir(workdir):
        if name.startswith('batch.out'):
            os.remove(os.path.join(workdir, name))
    # The same pattern twice would name one callgrind function entry; the
    # leading '*' makes the dump pattern a second one.
    proc = subprocess.run(
        ['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}',
         f'--toggle-collect={ADAPTOR}', f'--dump-after=*{ADAPTOR}', fly_opt,
         '--split-input-file', f'--pass-pipeline={pipe}',
         '--verify-each=false', '-o', os.devnull, path],
        capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    dumps = sorted((name for name in os.listdir(workdir)
                    if re.fullmatch(r'batch\.out\.\d+', name)),
                   key=lambda name: int(name.rsplit('.', 1)[1]))
    counts = []
    for name in dumps:
        with open(os.path.join(workdir, name)) as f:
            counts.append(int(re.search(r'^totals:\s*(\d+)', f.read(),
                                        re.M).group(1)))
    if len(counts) != len(texts):
        raise RuntimeError(f'callgrind dumped {len(counts)} pass-manager runs '
                           f'for {len(texts)} modules')
    return counts[1:]


def ratios(fly_opt, texts):
    """(hoist, cse) instruction counts of `fly_opt` on each case of `texts`
    (texts[0] the warm-up)."""
    with tempfile.TemporaryDirectory(prefix='flyhoist-passcost-') as workdir:
        hoist = batched_instructions(fly_opt, f'builtin.module({HOIST})',
                                     texts, workdir)
        cse = batched_instructions(fly_opt, 'builtin.module(cse)', texts,
                                   workdir)
    return list(zip(hoist, cse))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='1000,10000')
    parser.add_argument('--shapes', default=','.join(SHAPES),
                        help='comma-separated kernel shapes (pass_shapes.py)')
    parser.add_argument('--params', type=int, default=8)
    parser.add_argument('--chain', type=int, default=32)
    parser.add_argument('--fly-opt')
    parser.add_argument('--baseline', metavar='FLY_OPT',
                        help='count this build too and print its ratio')
    parser.add_argument('--check', action='store_true',
                        help='exit 1 when hoist/cse exceeds --limit')
    parser.add_argument('--limit', type=float, default=1.5,
                        help='the ratio --check allows (default 1.5)')
    args = parser.parse_args()
    shapes = args.shapes.split(',')
    unknown = [shape for shape in shapes if shape not in SHAPES]
    if unknown:
        parser.error(f'unknown shape(s): {", ".join(unknown)}')
    if not shutil.which('valgrind'):
        sys.exit('error: valgrind not found (scripts/setup.sh installs it)')
    fly_opt = common.find_fly_opt(args.fly_opt)
    cases = [(shape, int(size)) for shape in shapes
             for size in args.sizes.split(',')]
    texts = [module_text(1, args.params, args.chain, 'many')[0]]
    rows = []
    for shape, size in cases:
        text, kernels = module_text(size, args.params, args.chain, shape)
        texts.append(text)
        rows.append((shape, size, kernels, text.count('spec.param')))
    counts = ratios(fly_opt, texts)
    before = ratios(args.baseline, texts) if args.baseline else None
    print(f'fly-opt: {fly_opt}')
    if before:
        print(f'baseline: {args.baseline}')
    print(f'--params {args.params} --chain {args.chain} (instructions, '
          'callgrind, one process per pass)')
    header = (f'{"shape":>12} {"size":>7} {"kernels":>7} {"params":>6} '
              f'{"hoist Mi":>9} {"cse Mi":>8} {"hoist/cse":>9}')
    if before:
        header += f' {"baseline":>8} {"change":>7}'
    print(header)
    print('-' * len(header))
    over = []
    for index, ((shape, size, kernels, params), (h, c)) in enumerate(
            zip(rows, counts)):
        line = (f'{shape:>12} {size:>7} {kernels:>7} {params:>6} '
                f'{h / 1e6:>9.2f} {c / 1e6:>8.2f} {h / c:>9.2f}')
        if before:
            bh, bc = before[index]
            line += f' {bh / bc:>8.2f} {h / bh - 1:>+7.1%}'
        print(line)
        if h / c > args.limit:
            over.append(f'{shape} {size}: {h / c:.2f} > {args.limit:.2f}')
    if not args.check:
        return 0
    if over:
        print('pass cost over the limit: ' + '; '.join(over))
        return 1
    print(f'pass cost within {args.limit:.2f}x cse on all {len(cases)} cases')
    return 0


if __name__ == '__main__':
    sys.exit(main())

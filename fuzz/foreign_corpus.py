#!/usr/bin/env python3
"""Runs hoist-stride-specialization over MLIR that this project did not write.

  fuzz/foreign_corpus.py --fly-opt build/bin/fly-opt PATH...   (files or folders of .mlir)
  fuzz/foreign_corpus.py --fly-opt ... --upstream-lowerings --mlir-opt mlir-opt PATH...

Each input file is split at `// -----` lines; each piece fly-opt parses and
verifies (others are not for the pass: counted, skipped) is checked under
every option set of OPTION_SETS:

1. as it is, where it holds no `spec.param`: the pass must succeed and print
   the module byte for byte as fly-opt prints it without the pass;
2. with integer `arith.constant`s inside its functions turned into
   `spec.param`s of their values, in four variants: every constant, one
   name per constant; the same with every `func.func` also marked
   `spec.kernel`; a random half of the constants (drawn per piece with
   --seed), so that parameters and constants of the same values meet in
   the same ops; and every constant named by its value and type, so that
   one name is a parameter of many functions and uses. The pass must not
   crash (be killed by a signal, fuzz/exits.py), must exit 0 with a module
   that reads back and verifies, or 1 with its diagnostic printed.

With --upstream-lowerings each piece is first also lowered by a few upstream
MLIR pipelines (mlir-opt; canonicalize+cse, affine/scf to cf, gpu kernel
outlining, memref/arith/func to llvm), and those outputs are checked too:
IR in the shapes upstream passes produce, not the shapes a test author
writes. Pieces that already hold `spec.param`s are materialized first
(materialize-specialization) so that the upstream tools can read them.

Prints one line per problem and a summary:
  foreign: F files, P pieces (S skipped: not parsed by fly-opt), M modules checked, R pass runs, 0 problems
"""

import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import threading

import exits

OPTION_SETS = [
    '',
    'remarks=false',
    'materialize-kept=false',
    'hoist-into-host=true',
    'divisibility=16',
    'divisibility=16 narrow-range=true',
    'narrow-range=true hoist-into-host=true',
    'divisibility=512 materialize-kept=false remarks=false',
]

UPSTREAM_PIPELINES = [
    'builtin.module(canonicalize,cse)',
    'builtin.module(lower-affine,convert-scf-to-cf,canonicalize)',
    'builtin.module(gpu-kernel-outlining)',
    'builtin.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,'
    'finalize-memref-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,'
    'convert-func-to-llvm,reconcile-unrealized-casts)',
]

CONSTANT = re.compile(
    r'^(\s*%[\w.$#-]+ = )arith\.constant (-?\d+) : (i\d+|index)\s*$', re.M)
FUNC = re.compile(r'^(\s*func\.func (?:private |public |nested )?@[\w.$-]+\(.*\))'
                  r'( attributes \{)?(.*)\{\s*$', re.M)


def run(cmd, text, timeout=120):
    try:
        done = subprocess.run(cmd, input=text, capture_output=True, text=True,
                              timeout=timeout, env=exits.ENV)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', '', ''


def pieces_of(path):
    with open(path, errors='replace') as f:
        text = f.read()
    return re.split(r'^// -----\s*$', text, flags=re.M)


def with_params(text, name_prefix, pick=None, by_value=False):
    """`text` with its integer constants turned into parameters: those
    `pick` (a random.Random) draws, or all; named by their value and type
    with `by_value` (the same name wherever the same constant appears),
    else one name each. Returns the text and how many were turned."""
    count = 0

    def replace(match):
        nonlocal count
        value, type_ = int(match.group(2)), match.group(3)
        if type_ == 'i1' or not -(1 << 63) <= value < (1 << 64):
            return match.group(0)
        if pick is not None and pick.random() < 0.5:
            return match.group(0)
        count += 1
        name = (f'{name_prefix}{type_}_{value}'.replace('-', 'm') if by_value
                else f'{name_prefix}{count}')
        return f'{match.group(1)}spec.param "{name}" = {value} : {type_}'
    return CONSTANT.sub(replace, text), count


def with_kernels(text):
    def mark(match):
        head, has_attrs, rest = match.group(1), match.group(2), match.group(3)
        if has_attrs:
            return f'{head} attributes {{spec.kernel, {rest}{{'
        return f'{head} attributes {{spec.kernel}} {rest}{{'
    return FUNC.sub(mark, text)


class Checker:
    def __init__(self, args):
        self.args = args
        self.fly_opt = args.fly_opt
        self.problems = []
        self.runs = 0
        self.modules = 0
        self.lock = threading.Lock()

    def problem(self, where, what, detail=''):
        with self.lock:
            self.problems.append(f'problem: {where}: {what}'
                                 + (f'\n{detail[-2000:]}' if detail else ''))

    def crashed(self, rc):
        """A run past the timeout, or an exit status fly-opt does not give
        (fuzz/exits.py: a signal; a sanitizer's report aborts)."""
        return rc == 'timeout' or exits.crashed(rc)

    def check_module(self, where, text, expect_noop):
        """Every option set on one module (custom form, as fly-opt prints)."""
        with self.lock:
            self.modules += 1
            self.runs += len(OPTION_SETS)
        for options in OPTION_SETS:
            flag = ('--hoist-stride-specialization' if not options else
                    f'--hoist-stride-specialization={options}')
            rc, out, err = run([self.fly_opt, '-', flag,
                                '-mlir-print-op-on-diagnostic=false'], text)
            label = f'{where} [{options or "defaults"}]'
            if self.crashed(rc):
                self.problem(label, f'crash (exit {rc})', err)
                continue
            if exits.failed(rc):
                # Exit 1 is a failure fly-opt reported as a diagnostic; one
                # that printed nothing at all reported none.
                if expect_noop:
                    self.problem(label, 'failed on a module without spec.param', err)
                elif not err.strip():
                    self.problem(label, 'failed without a diagnostic', err)
                continue
            if expect_noop and out != text:
                self.problem(label, 'changed a module without spec.param')
                continue
            rc2, _, err2 = run([self.fly_opt, '-', '-o', '/dev/null'], out)
            if rc2 != 0:
                self.problem(label, 'output does not read back and verify', err2)

    def check_piece(self, where, source):
        """Returns False when fly-opt does not take the piece."""
        rc, printed, _ = run([self.fly_opt, '-'], source)
        if rc != 0:
            return False
        variants = []
        if 'spec.param' not in printed:
            variants.append((where, printed, True))
        else:
            rc, materialized, _ = run(
                [self.fly_opt, '-', '--materialize-specialization'], printed)
            if rc == 0:
                printed = materialized
        if self.args.upstream_lowerings:
            for i, pipeline in enumerate(UPSTREAM_PIPELINES):
                rc, lowered, _ = run([self.args.mlir_opt, '-',
                                      f'--pass-pipeline={pipeline}'], printed)
                if rc != 0 or 'spec.' in lowered:
                    continue
                rc, reprinted, _ = run([self.fly_opt, '-'], lowered)
                if rc == 0:
                    variants.append((f'{where} lowered#{i}', reprinted, True))
        for label, text, _ in list(variants) or [(where, printed, False)]:
            params, count = with_params(text, 'c')
            if count == 0:
                continue
            variants.append((f'{label} +params', params, False))
            variants.append((f'{label} +params+kernels', with_kernels(params),
                             False))
            half, count = with_params(
                text, 'h', pick=random.Random(f'{self.args.seed}:{label}'))
            if count:
                variants.append((f'{label} +half-params', half, False))
            variants.append((f'{label} +params-by-value',
                             with_params(text, 'v', by_value=True)[0], False))
        for label, text, noop in variants:
            if not noop:
                rc, reprinted, _ = run([self.fly_opt, '-'], text)
                if rc != 0:
                    # A constant that is not valid as a parameter in its
                    # place (e.g. where an attribute is needed): not an input.
                    continue
                text = reprinted
            self.check_module(label, text, noop)
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='+')
    parser.add_argument('--fly-opt', default='fly-opt')
    parser.add_argument('--mlir-opt', default='mlir-opt')
    parser.add_argument('--upstream-lowerings', action='store_true')
    parser.add_argument('--sample', type=int, default=0,
                        help='check this many pieces, drawn with --seed (0: all)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    files = []
    for path in args.paths:
        if os.path.isdir(path):
            for folder, _, names in os.walk(path):
                files += [os.path.join(folder, n) for n in sorted(names)
                          if n.endswith('.mlir')]
        else:
            files.append(path)
    files.sort()
    pieces = [(f'{os.path.relpath(f)}#{i}', p)
              for f in files for i, p in enumerate(pieces_of(f))]
    if args.sample and args.sample < len(pieces):
        pieces = random.Random(args.seed).sample(pieces, args.sample)

    checker = Checker(args)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        taken = list(pool.map(lambda p: checker.check_piece(*p), pieces))
    for line in checker.problems:
        print(line)
    skipped = taken.count(False)
    print(f'foreign: {len(files)} files, {len(pieces)} pieces ({skipped} '
          f'skipped: not parsed by fly-opt), {checker.modules} modules '
          f'checked, {checker.runs} pass runs, {len(checker.problems)} problems')
    return 1 if checker.problems else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Where the time of hoist-stride-specialization goes, against cse, on the
generated modules of bench/pass_shapes.py (about 1k to 1M operations). The
figure the project records and checks is bench/pass_cost.py's (instruction
counts); this script measures the rest: wall time, heap, page faults.

Both passes are timed on the same input module, each in its own fly-opt
process right after parsing (the default, --protocol same-input):
  fly-opt --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false})'
  fly-opt --pass-pipeline='builtin.module(cse)'
each with --verify-each=false -mlir-timing -mlir-timing-display=list; the
fastest of --repeat runs of each is reported. "One cse run" is cse on the
module the hoisting pass is given: the same operations, and the same state
of the process (memory, caches) after parsing.

--protocol after-hoist is the earlier comparison: one process running
  hoist-stride-specialization{remarks=false},cse
which times cse on the hoisted module, a different (smaller) one: hoisting
erases every spec.param, which on the `many` generator is 40% of the
operations, and cse then runs in memory the first pass left warm.

The verifier is off by default: MLIR times the verifier run after a pass as
part of that pass, and runs it only when the pass changed the IR, so with it
on each pass is charged a whole-module verification or not depending on
whether it found anything to do (the hoisting pass always does; cse does when
it finds something to fold). --verify-each puts it back.

--warm times each pass in a process that has run it once already on the
same module (the file holds the module twice, split by `// -----`, and the
second part's times are reported), as in a frontend that compiles kernel
after kernel: without it, a small module's time includes what the first run
of a pass in a process costs (the pages of its code and of the MLIR code it
calls touched for the first time, lazy symbol binding).

--primed times each pass in a process that has first run it on a module
of one kernel of the same shape: the code of the pass, and of the MLIR it
calls, is loaded and its symbols bound, but the memory this module's run
needs is not yet part of the process. Of the three, cold - primed is what
loading the code costs, and primed - warm what the first touch of the
memory the run needs costs (the IR the rewrite creates, its scratch). The
header gives the cost of that first touch on this machine (a page fault,
first write to a fresh anonymous page): a virtual machine can charge ten
times what bare metal does.

--no-threading runs fly-opt with --mlir-disable-threading, as a frontend
whose context has threading off: MLIR's uniquer then takes no locks and
keeps no thread-local caches, which changes what a new attribute costs.

--instructions counts instructions instead (valgrind's callgrind, collecting
only inside the pass manager, one process per pass as above, or the split
of the one process with --protocol after-hoist): no load on the machine
changes these, so they are the figures to compare across runs and machines.
Slow (about 50x): use sizes up to 100k.

--heap traces the heap instead (heaptrack, one process per pass as above):
the bytes allocated inside the pass manager, the most of them live at once
(what the pass needs of memory the process has not touched yet: divided by
the page size, about its first run's page faults), and, for the hoisting
pass, what was live at that peak, by the two calls below
hoistStrideSpecialization() that made it. Needs heaptrack and zstd.

--faults counts page faults instead: each pass runs in its own fresh
process of flyhoist-pass-faults (bench/pass_faults.cpp, built next to
fly-opt), which reads the process's minor page faults right before and right
after the pass (getrusage), and times it the same way; the fewest faults and
the fastest time of --repeat runs are reported. The faults are the pages the
pass touches that the process did not have: heap it grows into, and code of
the pass and of the MLIR it calls.

  bench/pass_profile.py [--sizes 1000,10000,100000,1000000] [--params 8] [--chain 32]
                     [--shapes independent,shared,shared-kept,many]
                     [--protocol same-input|after-hoist]
                     [--verify-each] [--warm | --primed] [--no-threading]
                     [--instructions | --heap | --faults]
"""

import argparse
import collections
import mmap
import os
import re
import subprocess
import sys
import tempfile
import time

import common
from pass_shapes import HOIST, module_text

PAGE = mmap.PAGESIZE


_TIMING = re.compile(r'^\s*([\d.]+)\s+\(\s*([\d.]+)%\)\s+(.+?)\s*$')


def timings(stderr):
    """Pass name -> wall seconds from -mlir-timing-display=list output.

    MLIR prints seconds with four decimals, too coarse below 10 ms; there a
    pass's time is read as its percentage (one decimal) of the total, which
    is closer (about 3% on a 3 ms total)."""
    entries = []
    total = None
    for line in stderr.splitlines():
        m = _TIMING.match(line)
        if not m:
            continue
        seconds, percent, name = float(m.group(1)), float(m.group(2)), m.group(3)
        if name == 'Total':
            total = seconds
        else:
            entries.append((name, seconds, percent))
    result = {}
    for name, seconds, percent in entries:
        if seconds < 0.01 and total:
            seconds = total * percent / 100
        result[name] = result.get(name, 0.0) + seconds
    return result


def callgrind(fly_opt, pipe, extra, path, workdir):
    """(total instructions in the pass manager, callgrind_annotate output)."""
    out = os.path.join(workdir, 'callgrind.out')
    proc = subprocess.run(
        ['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}',
         '--toggle-collect=mlir::detail::OpToOpPassAdaptor::run(*',
         fly_opt, f'--pass-pipeline={pipe}', *extra, '-o', os.devnull, path],
        capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    total = int(re.search(r'I\s+refs:\s+([\d,]+)', proc.stderr)
                .group(1).replace(',', ''))
    annotated = subprocess.run(['callgrind_annotate', '--inclusive=yes', out],
                               capture_output=True, text=True, check=True).stdout
    return total, annotated


def count_instructions(fly_opt, protocol, extra, path, workdir):
    """(hoist, cse) instructions under `protocol` (see the module docstring)."""
    if protocol == 'same-input':
        hoist, _ = callgrind(fly_opt, f'builtin.module({HOIST})', extra, path,
                             workdir)
        cse, _ = callgrind(fly_opt, 'builtin.module(cse)', extra, path, workdir)
        return hoist, cse
    total, annotated = callgrind(fly_opt, f'builtin.module({HOIST},cse)', extra,
                                 path, workdir)
    for line in annotated.splitlines():
        if 'HoistStrideSpecializationPass::runOnOperation' in line:
            hoist = int(line.split()[0].replace(',', ''))
            return hoist, total - hoist
    raise RuntimeError('callgrind_annotate shows no hoisting pass')


def without_template_arguments(name):
    """`name` with its template argument lists written `<>`, so that a
    DenseMap's growth reads as `llvm::DenseMapBase<>::grow`."""
    out, depth = [], 0
    for char in name:
        if char == '<':
            if depth == 0:
                out.append('<>')
            depth += 1
        elif char == '>' and depth:
            depth -= 1
        elif depth == 0:
            out.append(char)
    return ''.join(out)


def heap_trace(fly_opt, pipe, extra, path, workdir):
    """The allocations of one fly-opt run of `pipe` under heaptrack: a list
    of (+1 or -1, size, stack), each stack a tuple of function names, the
    innermost first, in the order the process made them."""
    out = os.path.join(workdir, 'heap')
    subprocess.run(['heaptrack', '-o', out, fly_opt, f'--pass-pipeline={pipe}',
                    *extra, '-o', os.devnull, path],
                   capture_output=True, text=True, check=True)
    text = subprocess.run(['zstd', '-dc', out + '.zst'], capture_output=True,
                          text=True, check=True).stdout
    os.remove(out + '.zst')
    # heaptrack's data file: `s` strings, `i` instruction pointers (address,
    # module, function name, ...), `t` trace nodes (pointer, parent), `a`
    # allocation kinds (size, trace), `+`/`-` an allocation or free of a
    # kind; numbers in hex, every table numbered from 1 but `a` from 0.
    strings, pointers, nodes, kinds, events = [None], [None], [None], [], []
    for line in text.splitlines():
        tag, _, rest = line.partition(' ')
        if tag == 's':
            strings.append(rest.partition(' ')[2])
        elif tag == 'i':
            fields = [int(x, 16) for x in rest.split()]
            pointers.append(strings[fields[2]] if len(fields) > 2 and fields[2]
                            else hex(fields[0]))
        elif tag == 't':
            nodes.append(tuple(int(x, 16) for x in rest.split()))
        elif tag == 'a':
            kinds.append(tuple(int(x, 16) for x in rest.split()))
        elif tag in ('+', '-'):
            events.append((1 if tag == '+' else -1, int(rest, 16)))
    stacks = {}

    def stack(node):
        if node not in stacks:
            frames, n = [], node
            while n:
                pointer, n = nodes[n]
                frames.append(without_template_arguments(
                    pointers[pointer].split('(')[0]))
            stacks[node] = tuple(frames)
        return stacks[node]
    return [(sign, kinds[kind][0], stack(kinds[kind][1]))
            for sign, kind in events]


def heap_figures(trace, inside='mlir::detail::OpToOpPassAdaptor::run',
                 below='mlir::flyhoist::hoistStrideSpecialization'):
    """(bytes allocated, peak bytes live, {call path: bytes live at the
    peak}) of the allocations whose stack holds `inside`; call paths are the
    two calls below `below`."""
    live, allocated, current, peak, at_peak = collections.Counter(), 0, 0, 0, {}
    for sign, size, stack in trace:
        if not any(f.startswith(inside) for f in stack):
            continue
        key = 'other'
        for depth, frame in enumerate(stack):
            if frame == below:
                key = ' > '.join(reversed(stack[max(0, depth - 2):depth]))
                break
        live[key] += sign * size
        current += sign * size
        if sign > 0:
            allocated += size
        if current > peak:
            peak, at_peak = current, dict(live)
    return allocated, peak, at_peak


def page_touch_seconds(pages=4096):
    """Seconds the first write to a page of fresh anonymous memory costs
    (the page fault that maps it), the median of 5 runs over `pages`."""
    runs = []
    for _ in range(5):
        with mmap.mmap(-1, pages * PAGE) as memory:
            start = time.perf_counter()
            for offset in range(0, pages * PAGE, PAGE):
                memory[offset] = 1
            runs.append((time.perf_counter() - start) / pages)
    return sorted(runs)[len(runs) // 2]


def time_passes(fly_opt, pipe, extra, path, split_parts):
    """Pass name -> wall seconds of one fly-opt run of `pipe`. With
    `split_parts` (the file holds parts split by `// -----`), the last
    part's report."""
    split = ['--split-input-file'] if split_parts else []
    proc = subprocess.run(
        [fly_opt, f'--pass-pipeline={pipe}', *extra, *split, '-mlir-timing',
         '-mlir-timing-display=list', '-o', os.devnull, path],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise RuntimeError(f'fly-opt failed on {pipe}')
    return timings(proc.stderr.split('Execution time report')[-1])


def wall_times(fly_opt, protocol, extra, path, repeat, split_parts):
    """(hoist, cse, parse) seconds under `protocol`, the fastest of `repeat`
    runs (of each process, for same-input; of hoist + cse, for after-hoist)."""
    if protocol == 'same-input':
        hoist = cse = parse = None
        for _ in range(repeat):
            # Alternated, so that a change in the machine's load hits both.
            t = time_passes(fly_opt, f'builtin.module({HOIST})', extra, path,
                            split_parts)
            u = time_passes(fly_opt, 'builtin.module(cse)', extra, path,
                            split_parts)
            h = t.get('HoistStrideSpecialization', 0.0)
            c = u.get('CSE', 0.0)
            hoist = h if hoist is None else min(hoist, h)
            cse = c if cse is None else min(cse, c)
            p = t.get('Parser', 0.0)
            parse = p if parse is None else min(parse, p)
        return hoist, cse, parse
    best = None
    for _ in range(repeat):
        t = time_passes(fly_opt, f'builtin.module({HOIST},cse)', extra, path,
                        split_parts)
        run = (t.get('HoistStrideSpecialization', 0.0), t.get('CSE', 0.0),
               t.get('Parser', 0.0))
        if best is None or run[0] + run[1] < best[0] + best[1]:
            best = run
    return best


def count_faults(fly_opt, path, repeat):
    """{pass name: (fewest minor page faults, fastest wall seconds)} of
    hoisting and of cse, each in its own flyhoist-pass-faults process, the
    two alternated `repeat` times."""
    driver = os.path.join(os.path.dirname(fly_opt), 'flyhoist-pass-faults')
    best = {}
    for _ in range(repeat):
        for pipe in (f'builtin.module({HOIST})', 'builtin.module(cse)'):
            out = subprocess.run([driver, pipe, path], capture_output=True,
                                 text=True, check=True).stdout
            for line in out.splitlines():
                name, faults, micros = line.split()
                old = best.get(name, (int(faults), float(micros) / 1e6))
                best[name] = (min(old[0], int(faults)),
                              min(old[1], float(micros) / 1e6))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='1000,10000,100000,1000000')
    parser.add_argument('--params', type=int, default=8)
    parser.add_argument('--chain', type=int, default=32)
    parser.add_argument('--shapes', default='independent',
                        help='comma-separated kernel shapes (see above)')
    parser.add_argument('--repeat', type=int, default=3,
                        help='runs per size; the fastest is reported')
    parser.add_argument('--protocol', default='same-input',
                        choices=['same-input', 'after-hoist'],
                        help='what cse run the pass is compared with (see above)')
    parser.add_argument('--verify-each', action='store_true',
                        help='run the verifier after each pass (timed with it)')
    parser.add_argument('--warm', action='store_true',
                        help='time the second run in one process (see above)')
    parser.add_argument('--primed', action='store_true',
                        help='time a run after one on a one-kernel module (see above)')
    parser.add_argument('--no-threading', action='store_true',
                        help='run with --mlir-disable-threading (see above)')
    parser.add_argument('--instructions', action='store_true',
                        help='count instructions under callgrind instead of timing')
    parser.add_argument('--heap', action='store_true',
                        help='trace the heap under heaptrack instead of timing')
    parser.add_argument('--faults', action='store_true',
                        help='count page faults of each pass (see above)')
    parser.add_argument('--fly-opt')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    if (args.warm or args.primed) and args.instructions:
        parser.error('--warm and --primed time wall clock; --instructions '
                     'counts one run')
    if args.heap and (args.warm or args.primed or args.instructions):
        parser.error('--heap traces one cold run of each pass')
    if args.warm and args.primed:
        parser.error('--warm and --primed are two different processes')
    if args.faults and (args.warm or args.primed or args.instructions or
                        args.heap or args.no_threading or args.verify_each or
                        args.protocol != 'same-input'):
        parser.error('--faults counts one cold run of each pass, as '
                     'flyhoist-pass-faults runs it')
    extra = [f'--verify-each={"true" if args.verify_each else "false"}']
    if args.no_threading:
        extra.append('--mlir-disable-threading')

    if args.faults:
        header = (f'{"shape":>12} {"ops":>9} {"kernels":>7} {"params":>6} '
                  f'{"hoist pf":>8} {"cse pf":>7} {"hoist s":>9} {"cse s":>9} '
                  f'{"hoist/cse":>9}')
    elif args.heap:
        header = (f'{"shape":>12} {"ops":>9} {"kernels":>7} {"params":>6} '
                  f'{"hoist KiB":>10} {"peak KiB":>9} {"pages":>6} '
                  f'{"cse KiB":>8} {"peak KiB":>9} {"pages":>6}')
    elif args.instructions:
        header = (f'{"shape":>12} {"ops":>9} {"kernels":>7} {"params":>6} '
                  f'{"hoist Mi":>9} {"cse Mi":>9} {"hoist/cse":>9} {"hoist i/op":>11}')
    else:
        header = (f'{"shape":>12} {"ops":>9} {"kernels":>7} {"params":>6} {"hoist s":>9} '
                  f'{"cse s":>9} {"hoist/cse":>9} {"hoist us/op":>11} {"parse s":>8}')
    process = ' (warm)' if args.warm else ' (primed)' if args.primed else ''
    print(f'fly-opt: {fly_opt}\nprotocol: {args.protocol}{process} '
          f'{" ".join(extra)}\n'
          f'--params {args.params} --chain {args.chain}'
          f'{" (instructions, callgrind)" if args.instructions else ""}'
          f'{" (heap, heaptrack)" if args.heap else ""}'
          f'{" (page faults, flyhoist-pass-faults)" if args.faults else ""}')
    if not args.instructions and not args.heap:
        print(f'first touch of a {PAGE // 1024} KiB page here: '
              f'{page_touch_seconds() * 1e6:.2f} us')
    print(header)
    print('-' * len(header))
    cases = [(shape, int(size)) for shape in args.shapes.split(',')
             for size in args.sizes.split(',')]
    with tempfile.TemporaryDirectory(prefix='flyhoist-passcost-') as workdir:
        for shape, size in cases:
            text, kernels = module_text(size, args.params, args.chain, shape)
            params_per_kernel = text.count('spec.param') // max(kernels, 1)
            path = os.path.join(workdir, 'm.mlir')
            with open(path, 'w') as f:
                if args.warm:
                    f.write(text + '// -----\n' + text)
                elif args.primed:
                    small, _ = module_text(1, args.params, args.chain, shape)
                    f.write(small + '// -----\n' + text)
                else:
                    f.write(text)
            ops = sum(1 for line in text.splitlines()
                      if '=' in line or line.strip().startswith(
                          ('gpu.', 'memref.store', 'scf.', 'func.', 'return', '}')))
            if args.faults:
                best = count_faults(fly_opt, path, args.repeat)
                hoist, cse = best['HoistStrideSpecialization'], best['CSE']
                print(f'{shape:>12} {ops:>9} {kernels:>7} {params_per_kernel * kernels:>6} '
                      f'{hoist[0]:>8} {cse[0]:>7} {hoist[1]:>9.4f} {cse[1]:>9.4f} '
                      f'{hoist[1] / cse[1]:>9.2f}')
                sys.stdout.flush()
                continue
            if args.heap:
                hoist = heap_figures(heap_trace(
                    fly_opt, f'builtin.module({HOIST})', extra, path, workdir))
                cse = heap_figures(heap_trace(
                    fly_opt, 'builtin.module(cse)', extra, path, workdir))
                print(f'{shape:>12} {ops:>9} {kernels:>7} {params_per_kernel * kernels:>6} '
                      f'{hoist[0] / 1024:>10.1f} {hoist[1] / 1024:>9.1f} '
                      f'{hoist[1] / PAGE:>6.0f} {cse[0] / 1024:>8.1f} '
                      f'{cse[1] / 1024:>9.1f} {cse[1] / PAGE:>6.0f}')
                for path_name, size in sorted(hoist[2].items(),
                                              key=lambda item: -item[1])[:8]:
                    if size > 0:
                        print(f'{"":>14}{size / 1024:>7.1f} KiB live at the peak: '
                              f'{path_name}')
                sys.stdout.flush()
                continue
            if args.instructions:
                hoist, cse = count_instructions(fly_opt, args.protocol, extra,
                                                path, workdir)
                print(f'{shape:>12} {ops:>9} {kernels:>7} {params_per_kernel * kernels:>6} '
                      f'{hoist / 1e6:>9.1f} {cse / 1e6:>9.1f} {hoist / cse:>9.2f} '
                      f'{hoist / ops:>11.0f}')
                sys.stdout.flush()
                continue
            hoist, cse, parse = wall_times(fly_opt, args.protocol, extra, path,
                                           args.repeat, args.warm or args.primed)
            print(f'{shape:>12} {ops:>9} {kernels:>7} {params_per_kernel * kernels:>6} '
                  f'{hoist:>9.4f} {cse:>9.4f} {hoist / cse if cse else float("nan"):>9.2f} '
                  f'{hoist / ops * 1e6:>11.3f} {parse:>8.3f}')
            sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""A frontend that marks nothing, through KernelCache(infer_params=True).

For each kernel (--kernel FILE:CHIP, repeatable; default: the reference
kernel kernels/paged_fp4_mqa_logits.mlir and the gather kernel on gfx942,
and the FlyDSL-shaped MQA-logits kernels on their chips), the trace function
substitutes the page-table width into the kernel's `max_blocks_per_seq`
spec.param and materializes every spec.param into a plain `arith.constant`
(`materialize-specialization`, then `cse`, which merges the width with equal
unrelated constants at widths 64, 128 and 256): the IR a tracer with no
flyhoist hook emits. The cache learns the parameters from the traces.

Prints per kernel: traces, compiles (expect 2), the hoisted parameter names,
whether every launch's hoisted arguments are what its own trace baked in
(the template with its parameters set to the launch's arguments, run through
the trace's pipeline, prints what the width's own trace prints: the same
lines in the same order, but for where constants sit), and
per new width the time of trace + match (a KernelCache.get that
reuses the template) against one compile of the template.

  bench/infer_widths.py [--count 125] [--kernel FILE:CHIP ...] [--canonicalize]
                        [--cache-dir DIR] [--remote URL] [--part first|second]
                        [--isa 1,256,100]

With --isa, per listed width: the ISA (instructions, SGPRs, VGPRs) of the
template the width launched on, hoisted as inference hoists it, against
the width's own trace compiled specialized (bench/derived_isa.py).

With --cache-dir (and --remote), `--part first` and then `--part second` in
a new process show what persisted inference gives a new process (or, with
separate cache folders and one Redis, a new machine): the second half of the
widths, none seen before, with a trace and a match each.
"""

import argparse
import datetime
import os
import platform
import re
import statistics
import sys
import tempfile
import time

import common
from widths import spread_widths

flyhoist = common.import_flyhoist()

KERNELS = [
    (common.KERNEL, 'gfx942'),
    (common.GATHER_KERNEL, 'gfx942'),
    (os.path.join(common.ROOT, 'kernels',
                  'paged_fp4_mqa_logits_flydsl_gfx942.mlir'), 'gfx942'),
    (os.path.join(common.ROOT, 'kernels',
                  'paged_fp4_mqa_logits_flydsl_gfx950.mlir'), 'gfx950'),
]
WIDTH = re.compile(r'(spec\.param\s+"max_blocks_per_seq"\s*=\s*)(\d+)')
CONSTANT = re.compile(r'^\s*%\w+ = arith\.constant ')
PARAM = re.compile(r'(spec\.param\s+"([^"]+)"\s*=\s*)(-?\d+)')


def make_trace(path, frontend, pipeline, timings):
    with open(path) as f:
        source = f.read()
    name = os.path.basename(path)

    def trace(values):
        start = time.perf_counter()
        text = WIDTH.sub(lambda m: m[1] + str(values['max_blocks_per_seq']),
                         source)
        with frontend.parse(text, name) as module:
            module.run_pipeline(pipeline)
            text = module.text()
        timings.append(time.perf_counter() - start)
        return text
    return trace


def run_kernel(path, chip, widths, pipeline, settings):
    frontend = flyhoist.Context()
    trace_times = []
    trace = make_trace(path, frontend, pipeline, trace_times)
    log = []
    cache = flyhoist.KernelCache(flyhoist.Target(chip),
                                 cache_dir=settings.cache_dir or False,
                                 remote=settings.remote or False,
                                 infer_params=True, log=log.append)
    get_times, launches, templates = [], {}, {}
    key = os.path.basename(path)[:-len('.mlir')]
    for width in widths:
        start = time.perf_counter()
        launch = cache.get(key, {'max_blocks_per_seq': width}, trace)
        get_times.append(time.perf_counter() - start)
        launches[width] = launch
        # The template (unhoisted) the launch's object was compiled from,
        # while its group holds it (a later trace may widen it).
        templates[width] = next(
            (g.template.text() for g in cache._inference.kernels[key].groups
             if g.variant is launch.variant and g.template is not None),
            None)
    # Every hoisted argument carries what the width's own trace baked in:
    # the template (before hoisting) with its spec.params set to the values
    # the launch passes, materialized and run through the trace's pipeline,
    # prints exactly what the width's own trace prints. The argument list is
    # the one Launch.arguments builds (runtime arguments, then the hoisted
    # values where the manifest puts them).
    hoisted_names, wrong, specialized = set(), [], 0

    def canonical(text):
        # Where a constant op sits is not part of what the trace bakes in
        # (the template keeps a constant CSE shared at its first use and
        # puts the split-off parameter next to it): the ops other than
        # constants in order, and the constants (named by value) as a set.
        with frontend.parse(text, 'check.mlir') as module:
            module.run_pipeline(pipeline)
            lines = module.text().splitlines()
        constants = sorted(l.strip() for l in lines if CONSTANT.search(l))
        return [l for l in lines if not CONSTANT.search(l)], constants

    for width, launch in launches.items():
        if launch.specialized:
            specialized += 1
            continue
        template = templates[width]
        if template is None:
            wrong.append((width, 'no template'))
            continue
        values = {}
        for symbol, arguments in launch.variant.kernels.items():
            if not arguments:
                continue
            runtime = ['arg'] * min(a.argument for a in arguments)
            passed = launch.arguments(runtime, kernel=symbol)
            for argument in arguments:
                hoisted_names.add(argument.name)
                values[argument.name] = passed[argument.argument]
        # Kept parameters were baked in at the template's values.
        values = dict(launch.values, **values)
        filled = PARAM.sub(lambda m: m[1] + str(values.get(m[2], m[3])),
                           template)
        if canonical(filled) != canonical(
                trace({'max_blocks_per_seq': width})):
            wrong.append((width, values))
    # One compile of the template, timed alone (the cache compiled it once).
    compile_time = 0.0
    if settings.part == 'all':
        with cache.context.parse(trace({'max_blocks_per_seq': widths[1]}),
                                 'template.mlir') as module:
            module.hoist(cache._inference.options)
            start = time.perf_counter()
            module.compile(flyhoist.Target(chip))
            compile_time = time.perf_counter() - start
    # Later widths: trace + parse + match + Launch (the template's object).
    matched = get_times[2:]
    traced = trace_times[2:len(widths)]  # the check traced again after
    result = {
        'kernel': os.path.relpath(path, common.ROOT), 'chip': chip,
        'traced': cache.traced, 'compiled': cache.compiled,
        'hoisted': sorted(hoisted_names), 'specialized launches': specialized,
        'wrong': wrong, 'compile': compile_time,
        'get': statistics.median(matched) if matched else 0.0,
        'trace': statistics.median(traced) if traced else 0.0,
        'log': log[:3], 'disk': cache.disk_hits, 'remote': cache.remote_hits,
    }
    # A width launched on its own object (the first one) is compared with
    # the template that serves the others: what it would cost there.
    latest = next((t for t in reversed(list(templates.values())) if t), None)
    result['isa'] = [
        (w, launches[w].specialized,
         isa_pair(templates[w] or latest, trace({'max_blocks_per_seq': w}),
                  chip, cache._inference.options))
        for w in settings.isa if w in templates]
    cache.close()
    frontend.close()
    return result


def isa_pair(template, specialized, chip, options):
    """(the template's cost, the specialized trace's), per
    derived_isa.isa_cost; None for a width with no template."""
    if template is None:
        return None
    derived_isa = common.sibling('derived_isa')
    fly_opt = common.find_fly_opt(None)
    with tempfile.TemporaryDirectory() as workdir:
        # The options inference hoists with (offset tails hoisted).
        options = ' ' + ' '.join(o for o in options.split()
                                 if o.startswith('hoist-immediate-offsets'))
        return (derived_isa.isa_cost(fly_opt, template, chip, workdir,
                                     options),
                derived_isa.isa_cost(fly_opt, specialized, chip, workdir))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--count', type=int, default=125)
    parser.add_argument('--kernel', action='append',
                        help='FILE:CHIP (default: the four kernels)')
    parser.add_argument('--canonicalize', action='store_true',
                        help='trace with canonicalize,cse after '
                             'materializing (width 1 then folds x * 1)')
    parser.add_argument('--cache-dir', help='a disk cache (default: none)')
    parser.add_argument('--remote', help='a redis:// URL (default: none)')
    parser.add_argument('--part', default='all',
                        choices=('all', 'first', 'second'),
                        help='the first or second half of the widths only '
                             '(a first and a second process)')
    parser.add_argument('--isa', type=lambda t: [int(w) for w in
                                                 t.split(',') if w],
                        default=[], help='widths whose ISA is compared')
    args = parser.parse_args()
    kernels = KERNELS
    if args.kernel:
        kernels = [tuple(k.rsplit(':', 1)) for k in args.kernel]
    pipeline = ('builtin.module(materialize-specialization,canonicalize,cse)'
                if args.canonicalize else
                'builtin.module(materialize-specialization,cse)')
    widths = spread_widths(args.count)
    if args.part != 'all':
        half = len(widths) // 2
        widths = widths[:half] if args.part == 'first' else widths[half:]
    print(f'# {datetime.date.today()} {platform.node()} {platform.machine()}; '
          f'{len(widths)} widths over {widths[0]}..{widths[-1]} (order: '
          f'{widths[0]}, {widths[1]}, ...); trace: {pipeline}')
    failed = False
    for path, chip in kernels:
        r = run_kernel(path, chip, widths, pipeline, args)
        ok = not r['wrong']
        failed |= not ok
        print(f"{r['kernel']} {r['chip']}: traced {r['traced']}, compiled "
              f"{r['compiled']} (objects from disk {r['disk']}, remote "
              f"{r['remote']}); hoisted {r['hoisted']}; "
              f"{r['specialized launches']} launches on a specialized "
              f"compile; every hoisted launch passes what its own trace "
              f"baked in: "
              f"{'yes' if ok else 'NO ' + str(r['wrong'][:3])}")
        if r['get'] and r['compile']:
            print(f"  per new width: trace {r['trace'] * 1e3:.1f} ms, "
                  f"parse + match {(r['get'] - r['trace']) * 1e3:.1f} ms, "
                  f"trace + match {r['get'] * 1e3:.1f} ms (median of "
                  f"{len(widths) - 2}); one template compile "
                  f"{r['compile'] * 1e3:.0f} ms; compile / (trace + match) "
                  f"{r['compile'] / r['get']:.1f}x")
        for line in r['log']:
            print(f'  log: {line}')
        for width, own, pair in r['isa']:
            if pair is None:
                print(f'  isa width={width}: no template')
                continue
            t, sp = pair
            own = ' (launched on its own object)' if own else ''
            print(f"  isa width={width}{own}: template {t['instructions']} "
                  f"instructions, {t['sgpr']} SGPRs, {t['vgpr']} VGPRs "
                  f"(arguments {t['hoisted']}); specialized "
                  f"{sp['instructions']}, {sp['sgpr']}, {sp['vgpr']}")
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

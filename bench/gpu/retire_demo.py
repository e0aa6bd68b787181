#!/usr/bin/env python3
"""Stream-aware module retirement on a GPU: a bounded module cache filled
past its size while long kernels are still queued on several streams.

  bench/gpu/retire_demo.py make --out DIR       (here: PTX by fly-opt's
                                                 flyhoist-nvvm-pipeline)
  bench/gpu/retire_demo.py run --spec DIR/spin.json [--policy POLICY]
  bench/gpu/retire_demo.py both --spec DIR/spin.json [--policies P,P...]
                                                (on the GPU machine)

`make` compiles a spinning kernel for several iteration counts through
python/flyhoist's KernelCache (Target('sm_90'): hoist-stride-specialization,
then flyhoist-nvvm-pipeline): the iteration count is a loop bound, kept, so
each count is its own module; the row stride is hoisted, so every launch
passes its own. `run` loads them with CuPy (the package's CuPyModule) into a
ResidentModules of `--capacity` modules and, step after step, asks it for
the next module and launches it once on every stream, round after round, so
that each miss evicts a module whose kernels are still queued. Policies:

  retire  flyhoist.retire.ModuleRetirer: events on the module's streams,
          then a worker thread waits for them and for idle streams (or more
          than --max-deferred modules waiting) and unloads
  thread  the same with max_deferred=0: the worker unloads as soon as the
          events have completed
  sync    the same retirer as it was before it had a thread (SyncRetirer
          here): the launching thread unloads, on each retirement and miss,
          every module whose events have completed
  naive   unload at once (NaiveRetirer here)

Each launch also records a sentinel event of the harness's own: a module
unloaded while any of its sentinels is pending was unloaded while queued.
Every output row is checked against the CPU. The launching thread's stall is
the time of each step (the cache lookup with any eviction and unload it
does, and the launches); `--depth N` keeps the launcher N steps ahead of the
GPU (it waits for the end of step i-N before step i, a wait not counted as
a stall), the steady state of a launcher with a bounded queue, where
retirements complete while it launches; `--sync-every K --pause-ms P`
synchronizes the device every K steps and then works P ms on the host (a
launcher that reads results back), so the device has idle moments. The
harness also reports the longest time no thread got the GIL (a thread that
sleeps 1 ms at a time). `both` runs each policy in a
subprocess (the naive one may fault the context or crash the process) and
prints the results and the stall ratios against sync.
`--preload` loads every module the fill will use before the first launch:
CUDA's cuModuleLoad waits for the device's queued work, so without it each
miss drains the streams before the eviction it causes (bench/RESULTS.md).
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

import common  # bench/gpu/common.py: bench/common.py

HERE = os.path.dirname(os.path.abspath(__file__))
common.import_flyhoist()
from flyhoist.retire import (CuPyModule,  # noqa: E402
                             ModuleRetirer, ResidentModules)
from retire_kernel import (  # noqa: E402,F401
    ENTRY,
    THREADS,
    ROW_STRIDE,
    LCG_A,
    LCG_B,
    kernel_text,
    lcg_power,
    expected_row,
    make)
from retire_retirers import (  # noqa: E402,F401
    NaiveRetirer,
    SyncRetirer,
    RETIRERS,
    TrackingBackend)


# ----------------------------------------------------------------------------
# make (here)
# ----------------------------------------------------------------------------


# ----------------------------------------------------------------------------
# run (on the GPU machine)
# ----------------------------------------------------------------------------


def ms(seconds):
    return round(seconds * 1e3, 3)


def run(args):
    import cupy as cp
    with open(args.spec) as f:
        spec = json.load(f)
    folder = os.path.dirname(os.path.abspath(args.spec))
    variants = spec['variants']
    result = {'policy': args.policy, 'streams': args.streams,
              'capacity': args.capacity, 'rounds': args.rounds,
              'preload': args.preload, 'depth': args.depth,
              'modules': len(variants)}
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props['name']
    result['gpu'] = name.decode() if isinstance(name, bytes) else name
    result['driver'] = cp.cuda.runtime.driverGetVersion()
    result['cupy'] = cp.__version__

    backend = TrackingBackend(cp)
    if args.policy == 'retire' and args.max_deferred is not None:
        retirer = ModuleRetirer(backend, max_deferred=args.max_deferred)
        result['max_deferred'] = args.max_deferred
    else:
        retirer = RETIRERS[args.policy](backend)

    def module_at(path):
        return CuPyModule(os.path.join(folder, path), [ENTRY])

    # CUDA's module load synchronizes with the device (run 1 of
    # bench/RESULTS.md): with --preload every module the fill will ask for
    # is loaded before the first launch, so that loads do not drain the
    # streams and evictions meet queued work.
    pool = {}
    if args.preload:
        for r in range(args.rounds):
            for variant in variants:
                pool[(variant['ptx'], r)] = module_at(variant['ptx'])

    def load(key, payload):
        # The package's cache collected ready retirements on every miss
        # before it had a thread; SyncRetirer keeps doing that.
        getattr(retirer, 'collect', int)()
        path, round_index = payload
        if args.preload:
            return pool.pop((path, round_index))
        return module_at(path)

    resident = ResidentModules(args.capacity, load, retirer)
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(args.streams)]
    total = args.rounds * len(variants) * len(streams)
    stride = spec['row_stride']
    out = cp.zeros(total * stride, dtype=cp.int32)
    ptr, size = out.data.ptr, total * stride

    # One launch alone, timed: how long each queued kernel takes.
    probe = module_at(variants[0]['ptx'])
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record(streams[0])
    probe.function(ENTRY)((1,), (spec['threads'],),
                          (ptr, ptr, 0, size, 1, 0, stride),
                          stream=streams[0])
    stop.record(streams[0])
    stop.synchronize()
    result['kernel_ms'] = round(cp.cuda.get_elapsed_time(start, stop), 2)
    probe.unload()

    launches = []
    step_ends = []  # the last sentinel of each step, for --depth
    stalls = []     # seconds the launching thread spent on each step
    lookups = []    # of which in resident.get (evictions, retirements)
    throttled = 0.0
    max_pending = 0
    # A thread that only sleeps 1 ms at a time: a long gap between its
    # wake-ups means some thread held the GIL that long.
    ticking = [True, 0.0]

    def ticker():
        last = time.perf_counter()
        while ticking[0]:
            time.sleep(0.001)
            now = time.perf_counter()
            ticking[1] = max(ticking[1], now - last - 0.001)
            last = now
    tick_thread = threading.Thread(target=ticker, daemon=True)
    tick_thread.start()
    began = time.perf_counter()
    error = None
    try:
        row = 0
        for round_index in range(args.rounds):
            for index, variant in enumerate(variants):
                wait = time.perf_counter()
                if args.sync_every and stalls and \
                        len(stalls) % args.sync_every == 0:
                    # A host that reads results back every few steps: the
                    # device goes idle, then the host works for a while.
                    cp.cuda.runtime.deviceSynchronize()
                    time.sleep(args.pause_ms / 1e3)
                if args.depth and len(step_ends) >= args.depth:
                    # The launcher stays `depth` steps ahead of the GPU (a
                    # bounded queue); this wait is not a stall.
                    step_ends[-args.depth].synchronize()
                throttled += time.perf_counter() - wait
                step = time.perf_counter()
                module = resident.get(variant['key'],
                                      (variant['ptx'], round_index))
                lookups.append(time.perf_counter() - step)
                kernel = module.function(ENTRY)
                for stream in streams:
                    kernel((1,), (spec['threads'],),
                           (ptr, ptr, 0, size, 1, row, stride),
                           stream=stream)
                    retirer.launched(module, stream)
                    sentinel = cp.cuda.Event(block=False,
                                             disable_timing=True)
                    sentinel.record(stream)
                    backend.sentinels.setdefault(id(module), []).append(
                        sentinel)
                    launches.append((row, index))
                    row += 1
                stalls.append(time.perf_counter() - step)
                step_ends.append(sentinel)
                max_pending = max(max_pending, retirer.pending)
                del module, kernel
        result['enqueue_s'] = round(time.perf_counter() - began, 3)
        result['unloads_on_launch_thread_while_launching'] = len(
            backend.launch_thread_unload_seconds)
        shutdown = time.perf_counter()
        resident.clear()  # retire the rest; waits for their streams
        retirer.close()
        result['shutdown_s'] = round(time.perf_counter() - shutdown, 3)
        cp.cuda.runtime.deviceSynchronize()
    except Exception as e:  # a fault shows up here
        error = f'{type(e).__name__}: {e}'
    result['wall_s'] = round(time.perf_counter() - began, 3)
    ticking[0] = False
    tick_thread.join()
    ordered = sorted(stalls)
    result.update({
        'launches': len(launches), 'loads': resident.loads,
        'evictions': resident.evictions, 'unloads': backend.unloads,
        'unloaded_while_queued': backend.unloaded_while_queued,
        'queued_launches_at_unload': backend.queued_at_unload,
        'max_pending_retirements': max_pending,
        'max_unload_ms': ms(max(backend.unload_seconds or [0])),
        'unloads_on_launch_thread': len(backend.launch_thread_unload_seconds),
        'launch_thread_unload_ms': ms(sum(
            backend.launch_thread_unload_seconds)),
        'steps': len(stalls),
        'stall_max_ms': ms(ordered[-1]) if ordered else None,
        'stall_median_ms': ms(ordered[len(ordered) // 2]) if ordered
        else None,
        'stall_p90_ms': ms(ordered[int(len(ordered) * 0.9)]) if ordered
        else None,
        'stall_total_ms': ms(sum(stalls)),
        'lookup_max_ms': ms(max(lookups or [0])),
        'launch_max_ms': ms(max([a - b for a, b in zip(stalls, lookups)]
                                or [0])),
        'gil_gap_max_ms': ms(ticking[1]),
        'most_deferred': getattr(retirer, 'most_deferred', None),
        'forced_unloads': getattr(retirer, 'forced', None),
        'throttle_wait_s': round(throttled, 3),
        'retirer_errors': getattr(retirer, 'errors', []),
        'error': error,
    })
    if error is None:
        try:
            host = out.get().tolist()
            expected = {i: expected_row(v['iters'])
                        for i, v in enumerate(variants)}
            wrong = sum(host[r * stride:r * stride + spec['threads']] !=
                        expected[i] for r, i in launches)
            result['wrong_rows'] = wrong
        except Exception as e:
            result['error'] = f'reading results: {type(e).__name__}: {e}'
    print('RESULT ' + json.dumps(result), flush=True)
    return 0 if result['error'] is None and result.get('wrong_rows') == 0 \
        else 1


def both(args):
    shared = ['--spec', args.spec, '--streams', str(args.streams),
              '--capacity', str(args.capacity), '--rounds', str(args.rounds),
              '--depth', str(args.depth), '--sync-every',
              str(args.sync_every), '--pause-ms', str(args.pause_ms)]
    if args.max_deferred is not None:
        shared += ['--max-deferred', str(args.max_deferred)]
    if args.preload:
        shared.append('--preload')
    outcomes = {}
    for policy in args.policies.split(','):
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, os.path.abspath(__file__), 'run',
                 '--policy', policy] + shared, capture_output=True,
                text=True, timeout=args.timeout)
            status, stdout, stderr = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as e:
            status = 'timeout'
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) \
                else (e.stdout or '')
            stderr = e.stderr.decode() if isinstance(e.stderr, bytes) \
                else (e.stderr or '')
        lines = [l for l in stdout.splitlines() if l.startswith('RESULT ')]
        result = json.loads(lines[-1][7:]) if lines else {'policy': policy}
        result['exit_status'] = status
        result['seconds'] = round(time.perf_counter() - started, 2)
        if not lines or status != 0:
            result['stderr_tail'] = stderr[-1500:]
        outcomes[policy] = result
        print(json.dumps(result, indent=1), flush=True)
    ok = True
    for policy in ('retire', 'thread', 'sync'):
        if policy in outcomes:
            r = outcomes[policy]
            passed = (r.get('exit_status') == 0 and
                      r.get('unloaded_while_queued') == 0 and
                      r.get('evictions', 0) > 0)
            ok &= passed
            print(f'{policy}: {"PASS" if passed else "FAIL"} (unloaded with '
                  f'queued work {r.get("unloaded_while_queued")}, unloads on '
                  f'the launching thread while launching '
                  f'{r.get("unloads_on_launch_thread_while_launching")}, '
                  f'launch-thread stall per step: worst '
                  f'{r.get("stall_max_ms")} ms, median '
                  f'{r.get("stall_median_ms")} ms; longest unload '
                  f'{r.get("max_unload_ms")} ms, most deferred '
                  f'{r.get("most_deferred")}, forced '
                  f'{r.get("forced_unloads")})', flush=True)
    if 'naive' in outcomes:
        r = outcomes['naive']
        shown = (r.get('exit_status') != 0 or
                 r.get('unloaded_while_queued', 0) > 0)
        print(f'naive unload caught: {"yes" if shown else "NO"}', flush=True)
    old = outcomes.get('sync')
    for policy in ('thread', 'retire'):
        new = outcomes.get(policy)
        for key in ('stall_max_ms', 'stall_median_ms'):
            if old and new and new.get(key) and old.get(key):
                print(f'{key}: sync {old[key]} / {policy} {new[key]} = '
                      f'{old[key] / new[key]:.1f}x', flush=True)
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='command', required=True)
    m = sub.add_parser('make')
    m.add_argument('--out', required=True)
    m.add_argument('--variants', type=int, default=8)
    m.add_argument('--iters', type=int, default=192_000_000)
    for name in ('run', 'both'):
        r = sub.add_parser(name)
        r.add_argument('--spec', required=True)
        r.add_argument('--streams', type=int, default=4)
        r.add_argument('--capacity', type=int, default=3)
        r.add_argument('--rounds', type=int, default=3)
        r.add_argument('--policy', choices=sorted(RETIRERS),
                       default='retire')
        r.add_argument('--policies', default='retire,naive',
                       help='both: the policies to run, in this order')
        r.add_argument('--timeout', type=int, default=90)
        r.add_argument('--preload', action='store_true',
                       help='load every module before the first launch')
        r.add_argument('--depth', type=int, default=0,
                       help='keep the launcher at most this many steps '
                            'ahead of the GPU (0: no limit)')
        r.add_argument('--sync-every', type=int, default=0,
                       help='synchronize the device every this many steps '
                            '(0: never)')
        r.add_argument('--pause-ms', type=float, default=0,
                       help='host work after each such synchronization')
        r.add_argument('--max-deferred', type=int,
                       help='retire: ModuleRetirer(max_deferred=...)')
    args = parser.parse_args()
    return {'make': make, 'run': run, 'both': both}[args.command](args)


if __name__ == '__main__':
    sys.exit(main())

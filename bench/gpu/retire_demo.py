#!/usr/bin/env python3
"""Stream-aware module retirement on a GPU: a bounded module cache filled
past its size while long kernels are still queued on several streams.

  bench/gpu/retire_demo.py make --out DIR       (here: PTX by fly-opt's
                                                 flyhoist-nvvm-pipeline)
  bench/gpu/retire_demo.py run --spec DIR/spin.json [--policy retire|naive]
  bench/gpu/retire_demo.py both --spec DIR/spin.json   (on the GPU machine)

`make` compiles a spinning kernel for several iteration counts through
python/flyhoist's KernelCache (Target('sm_90'): hoist-stride-specialization,
then flyhoist-nvvm-pipeline): the iteration count is a loop bound, kept, so
each count is its own module; the row stride is hoisted, so every launch
passes its own. `run` loads them with CuPy into a ResidentModules of
`--capacity` modules and launches every module on every stream, round
after round, so that each miss evicts a module whose kernels are still
queued. With `--policy retire` (flyhoist.retire.ModuleRetirer) an evicted
module is unloaded once events recorded on its streams have completed;
with `--policy naive` at once. Each launch also records a sentinel event of
the harness's own: a module unloaded while any of its sentinels is pending
was unloaded while queued. Every output row is checked against the CPU.
`both` runs the retiring policy, then the naive one in a subprocess (it may
fault the context or crash the process), and prints both results.
`--preload` loads every module the fill will use before the first launch:
CUDA's cuModuleLoad waits for the device's queued work, so without it each
miss drains the streams before the eviction it causes (bench/RESULTS.md).

Modules are loaded with cupy.cuda.function.Module, the object
cupy.RawModule wraps: RawModule memoizes path-loaded modules per device for
the life of the process (cupy/_core/raw.pyx, _get_raw_module), so it cannot
unload, and a bounded cache cannot be built on it.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for candidate in (os.path.join(ROOT, 'python'), os.path.join(HERE, 'python')):
    if os.path.isdir(os.path.join(candidate, 'flyhoist')):
        sys.path.insert(0, candidate)
        break

from flyhoist.params import spec_param  # noqa: E402
from flyhoist.retire import (CuPyBackend, ModuleRetirer,  # noqa: E402
                             NaiveRetirer, ResidentModules)

ENTRY = 'spin'
THREADS = 256
ROW_STRIDE = 256
LCG_A, LCG_B = 1664525, 1013904223


def kernel_text(values):
    """The traced kernel: out[row * row_stride + tid] = lcg^iters(tid)."""
    return f'''module attributes {{gpu.container_module}} {{
  gpu.module @spin_kernels {{
    gpu.func @{ENTRY}(%out: memref<?xi32>, %row: index) kernel {{
      {spec_param('iters', 'iters', values['iters'], 'index')}
      {spec_param('stride', 'row_stride', values['row_stride'], 'index')}
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = arith.constant {LCG_A} : i32
      %b = arith.constant {LCG_B} : i32
      %seed = arith.index_cast %tid : index to i32
      %x = scf.for %i = %c0 to %iters step %c1 iter_args(%v = %seed) -> (i32) {{
        %m = arith.muli %v, %a : i32
        %n = arith.addi %m, %b : i32
        scf.yield %n : i32
      }}
      %base = arith.muli %row, %stride : index
      %at = arith.addi %base, %tid : index
      memref.store %x, %out[%at] : memref<?xi32>
      gpu.return
    }}
  }}
}}
'''


def lcg_power(iters):
    """(A, B) with lcg^iters(x) = A x + B mod 2^32."""
    result, step = (1, 0), (LCG_A, LCG_B)
    while iters:
        if iters & 1:
            result = ((step[0] * result[0]) % 2**32,
                      (step[0] * result[1] + step[1]) % 2**32)
        step = ((step[0] * step[0]) % 2**32,
                (step[0] * step[1] + step[1]) % 2**32)
        iters >>= 1
    return result


def expected_row(iters):
    a, b = lcg_power(iters)
    row = []
    for tid in range(THREADS):
        x = (a * tid + b) % 2**32
        row.append(x - 2**32 if x >= 2**31 else x)
    return row


# ----------------------------------------------------------------------------
# make (here)
# ----------------------------------------------------------------------------

def make(args):
    from flyhoist import KernelCache, Target
    os.makedirs(args.out, exist_ok=True)
    cache = KernelCache(Target('sm_90'), cache_dir=False)
    variants = []
    for i in range(args.variants):
        iters = args.iters + i * 1024
        launch = cache.get('spin', {'iters': iters, 'row_stride': ROW_STRIDE},
                           kernel_text)
        (ptx,) = launch.objects.values()
        path = f'spin_{i}.ptx'
        with open(os.path.join(args.out, path), 'wb') as f:
            f.write(ptx)
        # The kernel's own arguments, then the hoisted stride where the
        # manifest put it.
        order = launch.arguments(['out', 'row'])
        variants.append({'key': launch.fingerprints['spin_kernels'],
                         'iters': iters, 'ptx': path, 'arguments': order})
    spec = {'entry': ENTRY, 'threads': THREADS, 'row_stride': ROW_STRIDE,
            'variants': variants, 'traced': cache.traced,
            'compiled': cache.compiled, 'recompiles': cache.recompiles}
    with open(os.path.join(args.out, 'spin.json'), 'w') as f:
        json.dump(spec, f, indent=1)
    print(f'{len(variants)} modules (traced {cache.traced}, compiled '
          f'{cache.compiled}), arguments {variants[0]["arguments"]}')
    for line in cache.recompiles:
        print(' ', line)


# ----------------------------------------------------------------------------
# run (on the GPU machine)
# ----------------------------------------------------------------------------

class FunctionModule:
    """A PTX file loaded with cupy.cuda.function.Module; unload() drops the
    only references, which unloads it (cuModuleUnload) at once."""

    def __init__(self, cp, path):
        import cupy.cuda.function
        self.module = cupy.cuda.function.Module()
        self.module.load_file(path)
        self.functions = {ENTRY: self.module.get_function(ENTRY)}

    def launch(self, *call, **kwargs):
        self.functions[ENTRY](*call, **kwargs)

    def unload(self):
        self.functions = None
        self.module = None


class TrackingBackend(CuPyBackend):
    """The package's CuPy backend; at each unload it also looks at the
    harness's own sentinel events of the module's launches."""

    def __init__(self, cp):
        super().__init__(cp)
        self.sentinels = {}
        self.unloads = 0
        self.unloaded_while_queued = 0
        self.queued_at_unload = 0
        self.unload_seconds = []

    def unload(self, module):
        pending = sum(not e.done for e in self.sentinels.pop(id(module), ()))
        if pending:
            self.unloaded_while_queued += 1
            self.queued_at_unload += pending
        start = time.perf_counter()
        module.unload()
        self.unload_seconds.append(time.perf_counter() - start)
        self.unloads += 1


def run(args):
    import cupy as cp
    with open(args.spec) as f:
        spec = json.load(f)
    folder = os.path.dirname(os.path.abspath(args.spec))
    variants = spec['variants']
    result = {'policy': args.policy, 'streams': args.streams,
              'capacity': args.capacity, 'rounds': args.rounds,
              'preload': args.preload, 'modules': len(variants)}
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props['name']
    result['gpu'] = name.decode() if isinstance(name, bytes) else name
    result['driver'] = cp.cuda.runtime.driverGetVersion()
    result['cupy'] = cp.__version__

    backend = TrackingBackend(cp)
    retirer = (ModuleRetirer if args.policy == 'retire' else
               NaiveRetirer)(backend)
    # CUDA's module load synchronizes with the device (run 1 of
    # bench/RESULTS.md): with --preload every module the fill will ask for
    # is loaded before the first launch, so that loads do not drain the
    # streams and evictions meet queued work.
    pool = {}
    if args.preload:
        for r in range(args.rounds):
            for variant in variants:
                pool[(variant['ptx'], r)] = FunctionModule(
                    cp, os.path.join(folder, variant['ptx']))

    def load(key, payload):
        path, round_index = payload
        if args.preload:
            return pool.pop((path, round_index))
        return FunctionModule(cp, os.path.join(folder, path))

    resident = ResidentModules(args.capacity, load, retirer)
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(args.streams)]
    total = args.rounds * len(variants) * len(streams)
    stride = spec['row_stride']
    out = cp.zeros(total * stride, dtype=cp.int32)
    ptr, size = out.data.ptr, total * stride

    # One launch alone, timed: how long each queued kernel takes.
    probe = FunctionModule(cp, os.path.join(folder, variants[0]['ptx']))
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record(streams[0])
    probe.launch((1,), (spec['threads'],), (ptr, ptr, 0, size, 1, 0, stride),
                 stream=streams[0])
    stop.record(streams[0])
    stop.synchronize()
    result['kernel_ms'] = round(cp.cuda.get_elapsed_time(start, stop), 2)
    probe.unload()

    launches = []
    max_pending = 0
    began = time.perf_counter()
    error = None
    try:
        row = 0
        for round_index in range(args.rounds):
            for index, variant in enumerate(variants):
                module = resident.get(variant['key'],
                                      (variant['ptx'], round_index))
                for stream in streams:
                    module.launch((1,), (spec['threads'],),
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
                max_pending = max(max_pending, retirer.pending)
                del module
        result['enqueue_s'] = round(time.perf_counter() - began, 3)
        resident.clear()  # retire the rest; waits for their streams
        cp.cuda.runtime.deviceSynchronize()
    except Exception as e:  # a fault shows up here
        error = f'{type(e).__name__}: {e}'
    result['wall_s'] = round(time.perf_counter() - began, 3)
    result.update({
        'launches': len(launches), 'loads': resident.loads,
        'evictions': resident.evictions, 'unloads': backend.unloads,
        'unloaded_while_queued': backend.unloaded_while_queued,
        'queued_launches_at_unload': backend.queued_at_unload,
        'max_pending_retirements': max_pending,
        'max_unload_ms': round(max(backend.unload_seconds or [0]) * 1e3, 3),
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
    common = ['--spec', args.spec, '--streams', str(args.streams),
              '--capacity', str(args.capacity), '--rounds', str(args.rounds)]
    if args.preload:
        common.append('--preload')
    outcomes = []
    for policy in ('retire', 'naive'):
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, os.path.abspath(__file__), 'run',
                 '--policy', policy] + common, capture_output=True,
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
        outcomes.append(result)
        print(json.dumps(result, indent=1), flush=True)
    retire, naive = outcomes
    passed = (retire.get('exit_status') == 0 and
              retire.get('unloaded_while_queued') == 0 and
              retire.get('evictions', 0) > 0)
    shown = (naive.get('exit_status') != 0 or
             naive.get('unloaded_while_queued', 0) > 0)
    print(f'retire: {"PASS" if passed else "FAIL"}; naive unload caught: '
          f'{"yes" if shown else "NO"}', flush=True)
    return 0 if passed and shown else 1


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
        r.add_argument('--policy', choices=['retire', 'naive'],
                       default='retire')
        r.add_argument('--timeout', type=int, default=90)
        r.add_argument('--preload', action='store_true',
                       help='load every module before the first launch')
    args = parser.parse_args()
    return {'make': make, 'run': run, 'both': both}[args.command](args)


if __name__ == '__main__':
    sys.exit(main())

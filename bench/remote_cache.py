#!/usr/bin/python3
"""A fleet sharing compiles through the remote cache (Redis).

N processes (nodes), each with a disk cache of its own, compile the bundled
kernels for W page-table widths through KernelCache, three ways:

  1. no remote cache: every node compiles every kernel;
  2. one Redis server, the nodes started together: the compile lock makes
     one node compile each kernel while the others wait for its value;
  3. one more node, started afterwards with an empty disk cache: every
     kernel is a remote hit.

Prints total compiles, remote hits and lock waits of each phase, and the
time of a KernelCache.get that compiled vs one that was a remote hit (both
include tracing, parsing and hoisting; the compile adds the lowering, the
hit a Redis read and the hash check).

  bench/remote_cache.py [--processes 4] [--widths 125] [--chip gfx942]
                        [--kernel FILE ...] [--quick]

--quick: 2 processes, 8 widths, the gather kernel only. A redis-server of
its own runs on a free loopback port (Debian's redis-server). Run it with
/usr/bin/python3 (its shebang), which has Debian's python3-redis.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
import common
from widths import spread_widths

DEFAULT_KERNELS = [
    common.KERNEL,
    common.GATHER_KERNEL,
    os.path.join(ROOT, 'kernels', 'paged_fp4_mqa_logits_flydsl_gfx942.mlir'),
]
_PARAM = re.compile(r'(spec\.param\s+"(\w+)"\s*=\s*)(-?\d+)')


def kernel_values(text):
    """{name: value} of the kernel's spec.param lines, as written."""
    return {m[2]: int(m[3]) for m in _PARAM.finditer(text)}


def make_trace(text):
    def trace(values):
        return _PARAM.sub(lambda m: m[1] + str(values[m[2]]), text)
    return trace


def worker(args):
    """One node: every kernel at every width; prints what it did."""
    KernelCache = common.import_flyhoist().KernelCache
    cache = KernelCache(args.chip, cache_dir=args.cache_dir,
                        remote=args.redis or False)
    kernels = []
    for path in args.kernel:
        with open(path) as f:
            text = f.read()
        kernels.append((path, kernel_values(text), make_trace(text)))
    # Level 2 alone: the lowering of a compile (in the compile worker, as
    # KernelCache lowers), the read and check of a hit.
    lower_s, fetch_s = [], []
    real_compile = cache._compile

    def timed_compile(module):
        t = time.perf_counter()
        objects = real_compile(module)
        lower_s.append(time.perf_counter() - t)
        return objects
    cache._compile = timed_compile
    if cache.remote:
        real_get = cache.remote.get

        def timed_get(digest):
            t = time.perf_counter()
            objects = real_get(digest)
            if objects is not None:
                fetch_s.append(time.perf_counter() - t)
            return objects
        cache.remote.get = timed_get
    # Made before the clock starts, as a warm frontend has them: the MLIR
    # context, and the client (its import and connection).
    cache.context
    if cache.remote:
        cache.remote._call('connect', lambda client: client.ping())
    while args.go and not os.path.exists(args.go):
        time.sleep(0.001)
    compile_s, hit_s = [], []
    start = time.perf_counter()
    for width in spread_widths(args.widths):
        for path, values, trace in kernels:
            params = dict(values, max_blocks_per_seq=width)
            compiled, remote = cache.compiled, cache.remote_hits
            t = time.perf_counter()
            cache.get(path, params, trace)
            t = time.perf_counter() - t
            if cache.compiled > compiled:
                compile_s.append(t)
            elif cache.remote_hits > remote:
                hit_s.append(t)
    total = time.perf_counter() - start
    print(json.dumps({
        'compiled': cache.compiled, 'remote_hits': cache.remote_hits,
        'disk_hits': cache.disk_hits, 'hits': cache.hits,
        'waited': cache.remote.waited if cache.remote else 0,
        'compile_s': compile_s, 'hit_s': hit_s, 'total_s': total,
        'lower_s': lower_s, 'fetch_s': fetch_s,
        'warnings': cache.warnings}))


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_redis(folder):
    binary = shutil.which('redis-server')
    if not binary:
        sys.exit('error: redis-server not found (scripts/setup.sh installs '
                 'it)')
    port = free_port()
    process = subprocess.Popen(
        [binary, '--port', str(port), '--bind', '127.0.0.1', '--save', '',
         '--appendonly', 'no', '--dir', folder],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        with socket.socket() as s:
            if s.connect_ex(('127.0.0.1', port)) == 0:
                return process, f'redis://127.0.0.1:{port}'
        time.sleep(0.01)
    process.kill()
    sys.exit('error: redis-server did not start')


def phase(args, scratch, name, count, redis):
    """`count` nodes started together; their results."""
    go = os.path.join(scratch, name + '.go')
    nodes = []
    for i in range(count):
        command = [sys.executable, __file__, '--worker',
                   '--cache-dir', os.path.join(scratch, f'{name}-{i}'),
                   '--go', go, '--widths', str(args.widths),
                   '--chip', args.chip]
        command += [a for k in args.kernel for a in ('--kernel', k)]
        if redis:
            command += ['--redis', redis]
        nodes.append(subprocess.Popen(command, stdout=subprocess.PIPE,
                                      text=True))
    time.sleep(1.0)  # every node imported flyhoist and waits
    start = time.perf_counter()
    open(go, 'w').close()
    results = []
    for node in nodes:
        out, _ = node.communicate()
        if node.returncode:
            sys.exit(f'error: a node failed ({node.returncode})')
        results.append(json.loads(out))
    elapsed = time.perf_counter() - start
    compiled = sum(r['compiled'] for r in results)
    remote = sum(r['remote_hits'] for r in results)
    waited = sum(r['waited'] for r in results)
    gets = sum(r['hits'] + r['compiled'] + r['remote_hits'] + r['disk_hits']
               for r in results)
    print(f'{name:<22} {count:>5} {compiled:>8} {remote:>11} {waited:>11} '
          f'{elapsed:>9.1f}')
    for r in results:
        for w in r['warnings']:
            print(f'  warning: {w}')
    return results, gets


def median_ms(values):
    return statistics.median(values) * 1e3 if values else float('nan')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--processes', type=int, default=4)
    parser.add_argument('--widths', type=int, default=125)
    parser.add_argument('--chip', default='gfx942')
    parser.add_argument('--kernel', action='append')
    parser.add_argument('--quick', action='store_true')
    parser.add_argument('--worker', action='store_true',
                        help=argparse.SUPPRESS)
    parser.add_argument('--cache-dir', help=argparse.SUPPRESS)
    parser.add_argument('--go', help=argparse.SUPPRESS)
    parser.add_argument('--redis', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.processes, args.widths = 2, 8
        args.kernel = args.kernel or [common.GATHER_KERNEL]
    args.kernel = args.kernel or DEFAULT_KERNELS
    if args.worker:
        worker(args)
        return 0

    print(f'kernels: {", ".join(os.path.relpath(k, ROOT) for k in args.kernel)}')
    print(f'{args.processes} processes, {args.widths} widths, chip '
          f'{args.chip}; each process has its own disk cache')
    print(f'machine: {platform.node()} {platform.machine()}, '
          f'{os.cpu_count()} cores; '
          f'{datetime.datetime.now().isoformat(timespec="seconds")}')
    print()
    print(f'{"phase":<22} {"nodes":>5} {"compiles":>8} {"remote hits":>11} '
          f'{"lock waits":>11} {"wall s":>9}')
    with tempfile.TemporaryDirectory(prefix='flyhoist-fleet-') as scratch:
        server, url = start_redis(scratch)
        try:
            alone, _ = phase(args, scratch, 'no remote cache',
                             args.processes, None)
            together, gets = phase(args, scratch, 'remote, together',
                                   args.processes, url)
            later, _ = phase(args, scratch, 'remote, one node later', 1,
                             url)
        finally:
            server.kill()
            server.wait()
    compile_s = [t for r in alone + together for t in r['compile_s']]
    waited_hit_s = [t for r in together for t in r['hit_s']]
    hit_s = [t for r in later for t in r['hit_s']]
    print()
    print(f'KernelCache.get calls per phase: {gets} '
          f'({args.processes} x {args.widths} widths x {len(args.kernel)} '
          f'kernels)')
    print(f'median get that compiled:              '
          f'{median_ms(compile_s):9.1f} ms  ({len(compile_s)} gets)')
    print(f'median get that was a remote hit:      '
          f'{median_ms(hit_s):9.1f} ms  ({len(hit_s)} gets, node started '
          f'later)')
    print(f'median remote hit after a lock wait:   '
          f'{median_ms(waited_hit_s):9.1f} ms  ({len(waited_hit_s)} gets)')
    lower_s = [t for r in alone + together for t in r['lower_s']]
    fetch_s = [t for r in later for t in r['fetch_s']]
    print(f'level 2 alone: lowering {median_ms(lower_s):.1f} ms vs remote '
          f'read + hash check {median_ms(fetch_s):.2f} ms')
    if compile_s and hit_s:
        print(f'a get that was a remote hit takes '
              f'{median_ms(hit_s) / median_ms(compile_s):.3f}x the time of '
              f'one that compiled; the level-2 step '
              f'{median_ms(fetch_s) / median_ms(lower_s):.4f}x')
    expected = len(args.kernel)
    ok = sum(r['compiled'] for r in together) == expected and \
        sum(r['compiled'] for r in later) == 0
    print(f'target (each kernel compiled once in the fleet): '
          f'{"met" if ok else "MISSED"}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""A user's upgrade: two flyhoist builds share one Redis and never serve each
other's code objects.

Each run is a process of its own, with one of the two libraries
(FLYHOIST_CAPI_LIB), a disk cache of its own and the one redis-server this
script starts: it asks for one kernel at three widths through KernelCache and
reports what it compiled and where objects came from. Expected:

  build A, first    compiles 1
  build B, first    compiles 1 (A's object in Redis is not B's)
  build A, second   compiles 0, 1 from Redis
  build B, second   compiles 0, 1 from Redis

The second library is a copy of the build reconfigured with another source
revision, with only the C API library rebuilt:

  flock /tmp/flyhoist-build.lock cp -a build /tmp/build-rev2
  cmake -S . -B /tmp/build-rev2 -DFLYHOIST_SOURCE_REVISION=upgrade-test
  cmake --build /tmp/build-rev2 --target FlyHoistMLIRCAPI

  bench/upgrade_identity.py [--a build/lib/...so] [--b /tmp/build-rev2/lib/...so]
                            [--package DIR]

--package runs another copy of the Python package (the code as it was:
/work/baseline/src/python) over the same two libraries.

Runs under /usr/bin/python3 (Debian's python3-redis). Exit status 1 when a
build was served the other's object or compiled when it should not have.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'test', 'Python', 'Inputs'))
LIBRARY = 'libFlyHoistMLIRCAPI.so'

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = WIDTH : index
      %base = arith.muli %row, %w : index
      %v = memref.load %m[%base] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %m[%base] : memref<?xf32>
      gpu.return
    }
  }
}
'''


def node(folder, url, package):
    """One process: the kernel at three widths; what it did, as JSON."""
    sys.path.insert(0, package)
    from flyhoist import KernelCache
    cache = KernelCache('gfx942', cache_dir=folder, remote=url)
    for width in (1, 64, 200):
        launch = cache.get('scale', {'row_stride': width},
                           lambda v: KERNEL.replace('WIDTH',
                                                    str(v['row_stride'])))
    print(json.dumps({
        'identity': getattr(cache.context.lib, 'build_identity',
                            cache.context.lib.revision),
        'compiled': cache.compiled, 'remote_hits': cache.remote_hits,
        'disk_hits': cache.disk_hits, 'key': str(launch.variant.okey[0])}))


def run(library, folder, url, package):
    env = dict(os.environ, FLYHOIST_CAPI_LIB=library)
    env.pop('FLYHOIST_REMOTE_CACHE', None)
    out = subprocess.run([sys.executable, __file__, 'node', folder, url,
                          package],
                         env=env, check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--a', default=os.path.join(ROOT, 'build', 'lib',
                                                     LIBRARY))
    parser.add_argument('--b', default=os.path.join('/tmp/build-rev2', 'lib',
                                                     LIBRARY))
    parser.add_argument('--package', default=os.path.join(ROOT, 'python'))
    args = parser.parse_args()
    for library in (args.a, args.b):
        if not os.path.exists(library):
            sys.exit(f'{library} not found: see this script\'s docstring')
    from redis_server import RedisServer
    server = RedisServer()
    expected = [('A', 1, 0), ('B', 1, 0), ('A', 0, 1), ('B', 0, 1)]
    wrong = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            keys = {}
            for i, (name, compiles, hits) in enumerate(expected):
                library = args.a if name == 'A' else args.b
                r = run(library, os.path.join(tmp, f'disk{i}'), server.url,
                        args.package)
                keys.setdefault(name, set()).add(r['key'])
                ok = (r['compiled'], r['remote_hits']) == (compiles, hits)
                wrong += not ok
                print(f'build {name} ({r["identity"]}): compiled '
                      f'{r["compiled"]}, from Redis {r["remote_hits"]}, from '
                      f'disk {r["disk_hits"]}{"" if ok else "  UNEXPECTED"}')
            stored = server.client.keys('flyhoist:objects:*')
            print(f'entries in Redis: {len(stored)}; keys differ between '
                  f'builds: {not (keys["A"] & keys["B"])}')
            wrong += len(stored) != 2 or bool(keys['A'] & keys['B'])
    finally:
        server.stop()
    return 1 if wrong else 0


if __name__ == '__main__':
    if sys.argv[1:2] == ['node']:
        node(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(main())

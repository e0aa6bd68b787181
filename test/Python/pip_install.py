# What a new user does, in a new virtual environment of the default
# python3: `pip install '.[remote]'` from the repository root (the C API
# library built by the project's CMake and bundled; the Redis client from
# the registry, pinned), then examples/jit_frontend.py with
# FLYHOIST_REMOTE_CACHE and two disk caches: compiled 1, then 0 (the second
# gets the code object from Redis). No FLYHOIST_CAPI_LIB, no PYTHONPATH: the
# package finds its own library. The wheel of that build then installs into
# a second environment without building (--no-index --no-build-isolation:
# nothing fetched, no backend), and works.
#
# Needs the registry (pip fetches scikit-build-core and redis). The CMake
# build tree persists in FLYHOIST_WHEEL_BUILD_DIR (default: python-wheel in
# the build folder), so only the first run compiles the C API library's
# sources; the shared build tree itself is never reconfigured.
# (The sanitized build's library needs the sanitizer runtime in the host.)
# UNSUPPORTED: asan
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s %t %flyhoist_src_root %flyhoist_obj_root/python-wheel | FileCheck %s

import glob
import os
import subprocess
import sys
import time

scratch, source, wheel_build = sys.argv[1:4]
wheel_build = os.environ.get('FLYHOIST_WHEEL_BUILD_DIR', wheel_build)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from redis_server import RedisServer  # noqa: E402

# The user's environment, not the test suite's: no library path, no
# checkout on sys.path, no caches of the user's.
env = {k: v for k, v in os.environ.items()
       if k not in ('FLYHOIST_CAPI_LIB', 'FLYHOIST_BUILD_DIR', 'PYTHONPATH',
                    'FLYHOIST_CACHE_DIR', 'FLYHOIST_REMOTE_CACHE',
                    'PYTHONHOME')}
env['PIP_DISABLE_PIP_VERSION_CHECK'] = '1'


def run(command, what, **kwargs):
    start = time.perf_counter()
    out = subprocess.run(command, env=kwargs.pop('env', env), cwd=scratch,
                         capture_output=True, text=True, **kwargs)
    seconds = time.perf_counter() - start
    if out.returncode:
        print(f'{what} FAILED ({out.returncode}):\n{out.stdout[-3000:]}\n'
              f'{out.stderr[-3000:]}')
        sys.exit(1)
    print(f'{what}: ok', file=sys.stderr)
    print(f'[{what}: {seconds:.1f} s]', file=sys.stderr)
    return out.stdout


def venv(name):
    path = os.path.join(scratch, name)
    run(['python3', '-m', 'venv', path], f'venv {name}')
    return os.path.join(path, 'bin', 'python')


# CHECK-LABEL: install
print('install')
python = venv('venv')
run([python, '-m', 'pip', 'install', '--quiet', f'{source}[remote]',
     f'--config-settings=build-dir={wheel_build}'], "pip install '.[remote]'")
info = run([python, '-m', 'flyhoist', 'info'], 'python -m flyhoist info')
site = run([python, '-c', 'import sysconfig; '
            'print(sysconfig.get_paths()["platlib"])'], 'site').strip()
print(info.replace(site, '<site-packages>').strip())
# CHECK-NEXT: package: flyhoist {{[0-9.]+}} at <site-packages>/flyhoist
# CHECK-NEXT: library: <site-packages>/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package)
# CHECK-NEXT: build: flyhoist {{[0-9.]+}} (git:{{.*}}), MLIR 22
print(run([python, '-c', 'import redis; print(redis.__version__)'],
          'redis client').strip())
# CHECK-NEXT: 5.2.1

# CHECK-LABEL: two machines
print('two machines')
example = os.path.join(source, 'examples', 'jit_frontend.py')
with RedisServer() as server:
    remote = dict(env, FLYHOIST_REMOTE_CACHE=server.url)
    for disk in ('first', 'second'):
        out = run([python, example, '--widths', '6', '--hit-calls', '50',
                   '--cache-dir', os.path.join(scratch, disk)],
                  f'jit_frontend.py, disk cache {disk}', env=remote)
        print(disk, [line for line in out.splitlines()
                     if line.startswith(('hoist policy', 'remote cache'))])
# CHECK-NEXT: first ['hoist policy: traced 1, compiled 1, from disk 0, level-1 hits 5, {{.*}}', 'remote cache: 0 hits']
# CHECK-NEXT: second ['hoist policy: traced 1, compiled 0, from disk 0, level-1 hits 5, {{.*}}', 'remote cache: 1 hits']

# CHECK-LABEL: the wheel elsewhere
print('the wheel elsewhere')
wheels = os.path.join(scratch, 'wheels')
run([python, '-m', 'pip', 'wheel', '--quiet', '--no-deps', '-w', wheels,
     source, f'--config-settings=build-dir={wheel_build}'], 'pip wheel')
(wheel,) = glob.glob(os.path.join(wheels, 'flyhoist-*.whl'))
print(os.path.basename(wheel))
# CHECK-NEXT: flyhoist-{{[0-9.]+}}-py3-none-linux_x86_64.whl
other = venv('other')
run([other, '-m', 'pip', 'install', '--quiet', '--no-index',
     '--no-build-isolation', wheel], 'pip install the wheel')
print(run([other, '-c', 'import flyhoist; t = flyhoist.Target("gfx942"); '
           'print(t.pipeline())'], 'import in the second venv').strip())
# CHECK-NEXT: builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})

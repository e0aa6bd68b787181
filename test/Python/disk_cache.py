# The on-disk cache: a second process with the same folder compiles nothing;
# a damaged file is a miss, never a wrong object; two processes started
# together compile once between them; FLYHOIST_CACHE_DIR and the default
# folder under ~/.cache/flyhoist.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s driver %t 2>&1 | FileCheck %s

import json
import os
import subprocess
import sys
import time

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = WIDTH : index
      %k = spec.param "unroll" = 2 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %base = arith.muli %row, %w : index
      scf.for %i = %c0 to %k step %c1 {
        %at = arith.addi %base, %i : index
        %v = memref.load %m[%at] : memref<?xf32>
        %d = arith.addf %v, %v : f32
        memref.store %d, %m[%at] : memref<?xf32>
      }
      gpu.return
    }
  }
}
'''


def trace(values):
    return KERNEL.replace('WIDTH', str(values['row_stride']))


def worker(folder, widths, go=None):
    """One frontend process: ask for `widths`, report what it did."""
    from flyhoist import KernelCache
    if go:
        while not os.path.exists(go):
            time.sleep(0.001)
    cache = KernelCache('gfx942', cache_dir=folder if folder != '-' else None)
    objects = set()
    for width in widths:
        launch = cache.get('scale', {'row_stride': width, 'unroll': 2}, trace)
        objects.update(launch.objects.values())
    (obj,) = objects
    print(json.dumps({'traced': cache.traced, 'compiled': cache.compiled,
                      'disk_hits': cache.disk_hits, 'elf': obj[:4] == b'\x7fELF',
                      'size': len(obj), 'root': cache.disk.root}))


def spawn(*args, env=None):
    return subprocess.Popen([sys.executable, __file__, *args],
                            stdout=subprocess.PIPE, text=True,
                            env=env or os.environ)


def run(*args, env=None):
    process = spawn(*args, env=env)
    out, _ = process.communicate()
    return json.loads(out)


def objects_in(folder):
    return sorted(os.path.join(d, f) for d, _, files in
                  os.walk(os.path.join(folder, 'objects')) for f in files)


def driver(tmp):
    folder = os.path.join(tmp, 'cache')
    # CHECK-LABEL: first and second process
    print('first and second process')
    first = run('worker', folder, '1,64,200')
    second = run('worker', folder, '7,8,9,512')
    for r in (first, second):
        print(f"traced {r['traced']}, compiled {r['compiled']}, from disk "
              f"{r['disk_hits']}, ELF {r['elf']}")
    print('same object size:', first['size'] == second['size'])
    (path,) = objects_in(folder)
    print('files:', os.path.relpath(path, folder).split(os.sep)[0],
          path.endswith('.bin'))
    # CHECK-NEXT: traced 1, compiled 1, from disk 0, ELF True
    # CHECK-NEXT: traced 1, compiled 0, from disk 1, ELF True
    # CHECK-NEXT: same object size: True
    # CHECK-NEXT: files: objects True

    # CHECK-LABEL: damaged
    print('damaged')
    with open(path, 'r+b') as f:
        f.seek(-10, os.SEEK_END)
        f.write(b'XXXXXXXXXX')
    third = run('worker', folder, '3')
    fourth = run('worker', folder, '4')
    print(f"after damage: compiled {third['compiled']}; then "
          f"{fourth['compiled']}")
    with open(path, 'r+b') as f:
        f.truncate(os.path.getsize(path) // 2)
    print(f"truncated: compiled {run('worker', folder, '5')['compiled']}")
    # CHECK-NEXT: after damage: compiled 1; then 0
    # CHECK-NEXT: truncated: compiled 1

    # CHECK-LABEL: concurrent
    print('concurrent')
    shared = os.path.join(tmp, 'shared')
    go = os.path.join(tmp, 'go')
    workers = [spawn('worker', shared, ','.join(map(str, range(i, 40, 3))),
                     go) for i in range(3)]
    time.sleep(0.5)  # every worker is up and waiting
    open(go, 'w').close()
    results = [json.loads(w.communicate()[0]) for w in workers]
    print('compiled in all:', sum(r['compiled'] for r in results),
          'from disk:', sum(r['disk_hits'] for r in results))
    print('temporary files left:',
          [f for f in objects_in(shared) if os.path.basename(f).startswith(
              '.tmp')])
    # CHECK-NEXT: compiled in all: 1 from disk: 2
    # CHECK-NEXT: temporary files left: []

    # CHECK-LABEL: default folders
    print('default folders')
    env = dict(os.environ, FLYHOIST_CACHE_DIR=os.path.join(tmp, 'env'))
    r = run('worker', '-', '1', env=env)
    print('FLYHOIST_CACHE_DIR:', r['root'] == os.path.join(tmp, 'env'),
          len(objects_in(os.path.join(tmp, 'env'))))
    env = dict(os.environ, HOME=os.path.join(tmp, 'home'))
    env.pop('FLYHOIST_CACHE_DIR', None)
    env.pop('XDG_CACHE_HOME', None)
    r = run('worker', '-', '1', env=env)
    print('default:', os.path.relpath(r['root'], tmp),
          len(objects_in(r['root'])))
    # CHECK-NEXT: FLYHOIST_CACHE_DIR: True 1
    # CHECK-NEXT: default: home/.cache/flyhoist 1


if __name__ == '__main__':
    if sys.argv[1] == 'worker':
        worker(sys.argv[2], [int(w) for w in sys.argv[3].split(',')],
               *sys.argv[4:])
    else:
        driver(sys.argv[2])

# The disk cache fails safe: with no home, under a file, read-only, with
# `objects` not a folder, or with a folder where an entry's file goes,
# KernelCache compiles anyway, keeps the objects in memory, warns once (on
# stderr and to its log) and raises nothing. Files it writes get the mode the
# umask gives (a cache shared by a group stays group-writable).
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s driver %t 2>&1 | FileCheck %s

import builtins
import json
import os
import subprocess
import sys

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = WIDTH : index
      %k = spec.param "unroll" = UNROLL : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %base = arith.muli %row, %w : index
      scf.for %i = %c0 to %k step %c1 {
        %at = arith.addi %base, %i : index
        %v = memref.load %m[%at] : memref<?xf32>
        memref.store %v, %m[%at] : memref<?xf32>
      }
      gpu.return
    }
  }
}
'''


def trace(values):
    return KERNEL.replace('WIDTH', str(values['row_stride'])).replace(
        'UNROLL', str(values['unroll']))


def read_only(root):
    """Makes every write under `root` fail with EACCES, as a read-only
    mount or a folder of another user would (root ignores chmod)."""
    root = os.path.realpath(root)

    def under(path):
        try:
            return os.path.realpath(os.fspath(path)).startswith(root)
        except TypeError:
            return False

    def denied(path):
        raise PermissionError(13, 'Permission denied', os.fspath(path))

    real_open, real_os_open, real_mkdir = builtins.open, os.open, os.mkdir
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def fake_open(file, mode='r', *args, **kwargs):
        if under(file) and any(c in mode for c in 'wax+'):
            denied(file)
        return real_open(file, mode, *args, **kwargs)

    def fake_os_open(path, flags, *args, **kwargs):
        if under(path) and flags & writes:
            denied(path)
        return real_os_open(path, flags, *args, **kwargs)

    def fake_mkdir(path, *args, **kwargs):
        if under(path) and not os.path.isdir(path):
            denied(path)
        return real_mkdir(path, *args, **kwargs)

    builtins.open, os.open, os.mkdir = fake_open, fake_os_open, fake_mkdir


def worker(folder, unroll, mode):
    """One process: two widths of one kernel, twice; what it did."""
    if mode == 'no-home':
        import pwd

        def no_entry(uid):
            raise KeyError(uid)
        pwd.getpwuid = no_entry  # a user the password database lacks
    if mode == 'read-only':
        read_only(folder)
    if mode.startswith('umask'):
        os.umask(int(mode[5:], 8))
    from flyhoist import KernelCache
    log = []
    cache = KernelCache('sm_90', cache_dir=None if folder == '-' else folder,
                        log=log.append)
    objects = set()
    for width in (3, 40, 3, 40):
        launch = cache.get('scale', {'row_stride': width,
                                     'unroll': int(unroll)}, trace)
        objects.add(launch.objects['kernels'])
    print(json.dumps({'compiled': cache.compiled, 'disk': cache.disk_hits,
                      'objects': len(objects),
                      'ptx': all(o.startswith(b'//') for o in objects),
                      'log': [m for m in log if m.startswith('warning')]}))


def run(folder, unroll, mode='', env=None, cwd=None):
    process = subprocess.run(
        [sys.executable, __file__, 'worker', folder, str(unroll), mode],
        capture_output=True, text=True, env=env or os.environ, cwd=cwd)
    if process.returncode:
        print(f'worker failed ({process.returncode}):', process.stderr)
        return None
    result = json.loads(process.stdout)
    warnings = [line for line in process.stderr.splitlines()
                if 'warning' in line]
    print(f"compiled {result['compiled']}, from disk {result['disk']}, "
          f"{result['objects']} object, PTX {result['ptx']}; "
          f"{len(warnings)} warning on stderr, {len(result['log'])} in the "
          f"log")
    for line in warnings:
        print('  ' + line)
    return result


def files_in(folder):
    return sorted(os.path.join(d, f) for d, _, files in os.walk(folder)
                  for f in files)


def driver(tmp):
    # CHECK-LABEL: no home
    print('no home')
    env = {k: v for k, v in os.environ.items()
           if k not in ('HOME', 'XDG_CACHE_HOME', 'FLYHOIST_CACHE_DIR')}
    cwd = os.path.join(tmp, 'cwd')
    os.makedirs(cwd)
    run('-', 2, 'no-home', env=env, cwd=cwd)
    print('left in the working folder:', os.listdir(cwd))
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 1 warning on stderr, 1 in the log
    # CHECK-NEXT: [flyhoist] warning: no disk cache: HOME is not set and the user has no home directory; set FLYHOIST_CACHE_DIR
    # CHECK-NEXT: left in the working folder: []

    # CHECK-LABEL: under a file
    print('under a file')
    blocker = os.path.join(tmp, 'a-file')
    open(blocker, 'w').close()
    run(os.path.join(blocker, 'cache'), 2)
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 1 warning on stderr, 1 in the log
    # CHECK-NEXT: [flyhoist] warning: the disk cache {{.*}}/a-file/cache is not usable (create objects/: [Errno 20] Not a directory: {{.*}}); code objects are compiled and kept in memory only

    # CHECK-LABEL: read-only shared cache
    print('read-only shared cache')
    shared = os.path.join(tmp, 'shared')
    run(shared, 2)
    before = files_in(shared)
    run(shared, 2, 'read-only')
    run(shared, 5, 'read-only')
    print('unchanged:', files_in(shared) == before)
    # The first fills it; a hit needs no write; a miss compiles.
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 0 warning on stderr, 0 in the log
    # CHECK-NEXT: compiled 0, from disk 1, 1 object, PTX True; 0 warning on stderr, 0 in the log
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 1 warning on stderr, 1 in the log
    # CHECK-NEXT: [flyhoist] warning: the disk cache {{.*}}/shared is not usable (open a lock file: [Errno 13] Permission denied: {{.*}}.lock'); code objects are compiled and kept in memory only
    # CHECK-NEXT: unchanged: True

    # CHECK-LABEL: objects is a file
    print('objects is a file')
    broken = os.path.join(tmp, 'broken')
    os.makedirs(broken)
    open(os.path.join(broken, 'objects'), 'w').close()
    run(broken, 2)
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 1 warning on stderr, 1 in the log
    # CHECK-NEXT: warning: the disk cache {{.*}}/broken is not usable (create objects/: [Errno 17] File exists: {{.*}}

    # CHECK-LABEL: entry path is a folder
    print('entry path is a folder')
    folder = os.path.join(tmp, 'folder')
    run(folder, 2)
    (entry,) = files_in(os.path.join(folder, 'objects'))
    os.unlink(entry)
    os.makedirs(entry)
    run(folder, 2)
    print('still a folder:', os.path.isdir(entry),
          'no temporary left:', [f for f in files_in(folder)
                                 if '.tmp-' in f])
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 0 warning on stderr, 0 in the log
    # CHECK-NEXT: compiled 1, from disk 0, 1 object, PTX True; 1 warning on stderr, 1 in the log
    # CHECK-NEXT: warning: the disk cache {{.*}}/folder is not usable (write objects/{{.*}}.bin: [Errno 21] Is a directory: {{.*}}); code objects are compiled and kept in memory only
    # CHECK-NEXT: still a folder: True no temporary left: []

    # CHECK-LABEL: umask
    print('umask')
    for mask in ('002', '022', '077'):
        cache = os.path.join(tmp, 'umask' + mask)
        result = run(cache, 2, 'umask' + mask)
        (entry,) = files_in(os.path.join(cache, 'objects'))
        lock = files_in(os.path.join(cache, 'locks'))[0]
        print(f'umask {mask}: entry {oct(os.stat(entry).st_mode & 0o777)}, '
              f'lock {oct(os.stat(lock).st_mode & 0o777)}')
    # CHECK: umask 002: entry 0o664, lock 0o664
    # CHECK: umask 022: entry 0o644, lock 0o644
    # CHECK: umask 077: entry 0o600, lock 0o600


if __name__ == '__main__':
    if sys.argv[1] == 'worker':
        worker(*sys.argv[2:5])
    else:
        driver(sys.argv[2])

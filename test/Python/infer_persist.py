# What inference learns outlives the process: a second process on the same
# disk cache, and a second "machine" (a process with a disk cache of its own
# sharing one redis-server), serve widths neither has seen with a trace and
# a match: 0 compiles. A damaged entry, a forged template that does not
# parse, and one of another kernel are misses with a logged reason, never a
# wrong launch (each launch checked against its own trace's constants). A
# kernel without a stable name is learned in memory only, said once.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s driver %t 2>&1 | FileCheck %s

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'Inputs'))


def worker(disk, remote, widths, kernel='tuned'):
    from flyhoist import KernelCache
    from tuned_kernel import check, kernel_text
    log = []
    cache = KernelCache('sm_90', cache_dir=disk, infer_params=True,
                        remote=remote if remote != '-' else False,
                        log=log.append)
    name = kernel if kernel == 'tuned' else object()
    wrong = []
    for width in widths:
        launch = cache.get(name, {'width': width}, kernel_text)
        why = check(cache, name, launch, kernel_text({'width': width}))
        if why:
            wrong.append([width, why])
    print(json.dumps({'compiled': cache.compiled, 'wrong': wrong,
                      'log': log}))
    cache.close()


def interleaved(disk):
    """Two caches (as two processes would) learn one tile each on one disk
    cache, each writing after the other has read; a third serves new
    widths of both tiles."""
    from flyhoist import KernelCache
    from tuned_kernel import kernel_text

    def cache():
        return KernelCache('sm_90', cache_dir=disk, infer_params=True,
                           remote=False, log=lambda m: None)
    a, b = cache(), cache()
    a.get('tuned', {'width': 8, 'tile': 16}, kernel_text)
    b.get('tuned', {'width': 8, 'tile': 32}, kernel_text)
    a.get('tuned', {'width': 16, 'tile': 16}, kernel_text)
    b.get('tuned', {'width': 16, 'tile': 32}, kernel_text)
    log = []
    c = KernelCache('sm_90', cache_dir=disk, infer_params=True,
                    remote=False, log=log.append)
    for tile in (16, 32):
        for width in (100, 200):
            c.get('tuned', {'width': width, 'tile': tile}, kernel_text)
    print(json.dumps({'compiled': c.compiled, 'wrong': [], 'log': [
        f'learning caches compiled {a.compiled} and {b.compiled}'] + log}))


def entry_path(disk):
    """Where the disk cache holds tuned's inference state."""
    from flyhoist import KernelCache
    cache = KernelCache('sm_90', cache_dir=disk, infer_params=True,
                        remote=False)
    key = cache._inference.persist.key('tuned')
    cache.close()
    return os.path.join(disk, 'objects', key[:2], key + '.bin'), key


def damage(disk):
    path, _ = entry_path(disk)
    data = bytearray(open(path, 'rb').read())
    data[len(data) // 2] ^= 0x40
    open(path, 'wb').write(bytes(data))


def forge(disk, how):
    """Rewrites the entry, validly encoded (no secret), with a template
    that does not parse or that is another kernel's."""
    from flyhoist import Context, _objects, infer_spec_params
    from tuned_kernel import kernel_text
    path, key = entry_path(disk)
    objects, why = _objects.check(open(path, 'rb').read(), key)
    assert objects is not None, why
    part = next(p for p in objects if p.endswith('.template'))
    if how == 'garbage':
        objects[part] = b'\x00not MLIR bytecode'
    elif how == 'values':
        state = json.loads(objects['inference.json'])
        for group in state['groups']:
            group['values'] = {n: v + 1 for n, v in group['values'].items()}
        objects['inference.json'] = json.dumps(state).encode()
    else:
        with Context() as context:
            a = context.parse(kernel_text({'width': 8, 'tile': 32}))
            b = context.parse(kernel_text({'width': 9, 'tile': 32}))
            infer_spec_params(a, [b], [('width', [8, 9])])
            objects[part] = a.bytecode()
            a.close()
            b.close()
    open(path, 'wb').write(_objects.encode(objects, key))


def run(*args, secret=None):
    env = dict(os.environ)
    env.pop('FLYHOIST_CACHE_SECRET', None)
    if secret:
        env['FLYHOIST_CACHE_SECRET'] = secret
    done = subprocess.run([sys.executable, __file__, *map(str, args)],
                          capture_output=True, text=True, env=env)
    if done.returncode:
        print(done.stderr)
    result = json.loads(done.stdout.splitlines()[-1])
    warnings = [line for line in done.stderr.splitlines() if 'warning' in line]
    return result, warnings


def show(what, result, warnings=()):
    print(what)
    print(f'compiled {result["compiled"]}, wrong {result["wrong"]}')
    for line in result['log'] + list(warnings):
        print('  ' + line)


def driver(folder):
    from redis_server import RedisServer
    d1 = os.path.join(folder, 'd1')
    # CHECK-LABEL: first process
    show('first process', *run('worker', d1, '-', 64, 100, 3, 40))
    # CHECK-NEXT: compiled 2, wrong []
    # CHECK-NEXT: compiled tuned template for width=100 in group 1: learned from 2 traces: hoists 'width'; computed in the kernel: p0 = 4*width; probed at width=136 (traced, not compiled)
    # CHECK-LABEL: second process
    show('second process', *run('worker', d1, '-', 7, 500, 333))
    # CHECK-NEXT: compiled 0, wrong []
    # CHECK-NEXT: loaded tuned template for width=7 in group 1 from the disk cache: template learned in an earlier process (hoists 'width')
    # CHECK-NOT: compiled
    with RedisServer() as redis:
        # CHECK-LABEL: first machine
        show('first machine', *run('worker', os.path.join(folder, 'm1'),
                                   redis.url, 64, 100, 3))
        # CHECK-NEXT: compiled 2, wrong []
        # CHECK-LABEL: second machine
        show('second machine', *run('worker', os.path.join(folder, 'm2'),
                                    redis.url, 9, 11, 250))
        # CHECK-NEXT: compiled 0, wrong []
        # CHECK-NEXT: loaded tuned template for width=9 in group 1 from the remote cache: template learned in an earlier process (hoists 'width')
        # CHECK-NOT: compiled
    # CHECK-LABEL: damaged
    damage(d1)
    show('damaged', *run('worker', d1, '-', 21, 22, 23))
    # CHECK-NEXT: compiled {{[12]}}, wrong []
    # CHECK-NEXT: warning: the disk cache entry {{.*}} is not a valid entry for its key (an entry whose SHA-256 does not match); compiling it again
    # CHECK-NEXT: inference state of tuned not loaded: the entry in the disk cache does not check out (see the warning); learning it again
    # CHECK-NEXT: {{compiled|loaded}} tuned template for width=22 in group 1{{.*}}: learned from 2 traces
    # CHECK-LABEL: forged, garbage
    forge(d1, 'garbage')
    show('forged, garbage', *run('worker', d1, '-', 31, 32))
    # CHECK-NEXT: compiled {{[0-2]}}, wrong []
    # CHECK-NEXT: inference state of tuned: group 1's template from the disk cache does not parse
    # CHECK-LABEL: forged, another kernel
    run('worker', d1, '-', 41, 42)
    forge(d1, 'other')
    show('forged, another kernel', *run('worker', d1, '-', 51, 52, 53))
    # The forged template (tile 32) matches none of these traces (tile 64):
    # learned again from the entry's traces, which are this kernel's.
    # CHECK-NEXT: compiled {{[0-2]}}, wrong []
    # CHECK-NOT: template learned in an earlier process
    # CHECK-LABEL: forged values
    # The entry's values for a template must be the template's own (what
    # its compile bakes in).
    forge(d1, 'values')
    show('forged values', *run('worker', d1, '-', 61, 62))
    # CHECK-NEXT: compiled {{[0-2]}}, wrong []
    # CHECK-NEXT: dropped tuned template for width=61 in group {{[0-9]+}}: persisted template not usable: its values are not the template's own
    # CHECK-LABEL: interleaved writers
    # Each writer merges what the other stored: neither's template is lost.
    show('interleaved writers', *run('interleaved',
                                     os.path.join(folder, 'd7')))
    # CHECK-NEXT: compiled 0, wrong []
    # CHECK-NEXT: learning caches compiled 2 and 2
    # CHECK-NEXT: loaded tuned template for tile=16, width=100 in group {{[0-9]+}} (tile=16) from the disk cache: template learned in an earlier process
    # CHECK-NEXT: loaded tuned template for tile=32, width=100 in group {{[0-9]+}} (tile=32) from the disk cache: template learned in an earlier process
    # CHECK-LABEL: cache secrets
    # State written under one cache secret is not read under another.
    print('cache secrets')
    d6 = os.path.join(folder, 'd6')
    show('one secret', *run('worker', d6, '-', 64, 100, secret='one'))
    show('another secret', *run('worker', d6, '-', 3, 40, secret='two'))
    # CHECK: one secret
    # CHECK-NEXT: compiled 2, wrong []
    # CHECK: another secret
    # CHECK-NEXT: compiled 2, wrong []
    # CHECK-NEXT: warning: the disk cache entry {{.*}} (an HMAC that does not match the secret); compiling it again
    # CHECK-NEXT: inference state of tuned not loaded: the entry in the disk cache does not check out (see the warning); learning it again
    # CHECK-LABEL: no stable name
    show('no stable name', *run('worker', os.path.join(folder, 'd5'), '-',
                                64, 100, 3, 'object'))
    # CHECK-NEXT: compiled 2, wrong []
    # CHECK: warning: <object object at {{.*}}>: no stable name (a str, a function, a code object or a tuple of those): what inference learns about it is kept in this process only


if __name__ == '__main__':
    if sys.argv[1] == 'driver':
        driver(sys.argv[2])
    elif sys.argv[1] == 'interleaved':
        interleaved(sys.argv[2])
    else:
        args = sys.argv[4:]
        kernel = args.pop() if args and args[-1] == 'object' else 'tuned'
        worker(sys.argv[2], sys.argv[3], [int(w) for w in args], kernel)

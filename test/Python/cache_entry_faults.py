# Cache entries are trusted only when they check out whole: a real entry
# (a gfx942 kernel compiled through KernelCache), corrupted every way in
# turn, on disk and in Redis, is a miss each time; nothing raises; each
# damaged entry is warned about once (two reads, one warning). The
# corruptions: every byte of the header flipped (two ways), every header
# field replaced (with the entry's SHA-256 recomputed, as someone writing
# the store would), the payload's bytes flipped (every one up to 1024
# bytes, else a stride that gives 1024: every 5th of this 4.6 KB object;
# once as is and once with the SHA-256 recomputed), every byte of the
# trailer, truncations (every length through the header, then the same
# stride), extensions, a deeply nested header (RecursionError), huge and
# negative declared sizes, and another key's valid entry under this key.
# With a secret: an entry written without it or with another one is a
# miss, and one written with it is a hit.
# `driver DIR report` prints the counts without failing: run with the old
# package (PYTHONPATH, FLYHOIST_CAPI_LIB) it shows what it let through.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s driver %t 2>&1 | FileCheck %s

import hashlib
import hmac
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from redis_server import RedisServer  # noqa: E402

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
      %w = spec.param "row_stride" = 8 : index
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
LIMIT = 1024


def compile_entry(folder, unroll, **kw):
    """A real entry: (key, bytes) of the one file KernelCache wrote."""
    from flyhoist import KernelCache
    cache = KernelCache('gfx942', cache_dir=folder, remote=False, **kw)
    cache.get('scale', {'row_stride': 8, 'unroll': unroll},
              lambda v: KERNEL.replace('UNROLL', str(v['unroll'])))
    (path,) = [os.path.join(d, f) for d, _, fs in os.walk(folder)
               for f in fs if f.endswith('.bin')]
    with open(path, 'rb') as f:
        return os.path.basename(path)[:-4], f.read()


def split(entry):
    """(magic, header bytes, payload, trailer) of a format-1 or 2 entry."""
    first = entry.index(b'\n') + 1
    end = entry.index(b'\n', first)
    header = json.loads(entry[first:end])
    size = sum(o[1] for o in header['objects'])
    body = end + 1 + size
    return entry[:first], entry[first:end], entry[end + 1:body], entry[body:]


def rebuild(magic, header, payload, trailer, secret=None):
    """An entry from its parts, its SHA-256 (and HMAC) made again when the
    format has them: what a writer of the store can do."""
    text = header if isinstance(header, bytes) else json.dumps(
        header, sort_keys=True, separators=(',', ':')).encode()
    body = magic + text + b'\n' + payload
    if not magic.startswith(b'FLYHOIST-OBJECTS 2'):
        return body
    tail = hashlib.sha256(body).digest()
    if secret:
        tail += hmac.new(secret, body, hashlib.sha256).digest()
    return body + tail


def field_mutations(header, other_key):
    key, objects = header['key'], header['objects']
    symbol, size, sha = objects[0]

    def with_object(**changes):
        item = [changes.get('symbol', symbol), changes.get('size', size),
                changes.get('sha', sha)]
        return dict(header, objects=[item] + objects[1:])
    yield 'key: another', dict(header, key=other_key)
    yield 'key: a prefix', dict(header, key=key[:16])
    yield 'key: longer', dict(header, key=key + '0')
    yield 'key: missing', {k: v for k, v in header.items() if k != 'key'}
    yield 'key: null', dict(header, key=None)
    yield 'symbol: renamed', with_object(symbol='kernelz')
    yield 'symbol: empty', with_object(symbol='')
    yield 'symbol: a number', with_object(symbol=7)
    yield 'size: +1', with_object(size=size + 1)
    yield 'size: -1', with_object(size=size - 1)
    yield 'size: huge', with_object(size=10 ** 18)
    yield 'size: 2^63', with_object(size=2 ** 63)
    yield 'size: negative', with_object(size=-size)
    yield 'size: a string', with_object(size=str(size))
    yield 'size: true', with_object(size=True)
    yield 'sha: another', with_object(sha=hashlib.sha256(b'x').hexdigest())
    yield 'sha: upper case', with_object(sha=sha.upper())
    yield 'objects: none', dict(header, objects=[])
    yield 'objects: twice', dict(header, objects=objects + objects)
    yield 'objects: a dict', dict(header, objects={'a': 1})
    yield 'auth: unknown', dict(header, auth='md5')
    yield 'auth: hmac without one', dict(header, auth='hmac-sha256')
    yield 'extra field', dict(header, extra=1)
    yield 'not an object', [header]


def stride_of(n):
    return max(1, -(-n // LIMIT))


def corruptions(good, other_key, other_entry):
    magic, header_bytes, payload, trailer = split(good)
    header = json.loads(header_bytes)
    head = magic + header_bytes + b'\n'
    for i in range(len(head)):
        for bit in (0x01, 0x20):
            yield 'header byte', good[:i] + bytes([good[i] ^ bit]) + \
                good[i + 1:]
    for name, changed in field_mutations(header, other_key):
        yield 'header field', rebuild(magic, changed, payload, trailer)
    step = stride_of(len(payload))
    for i in range(0, len(payload), step):
        flipped = payload[:i] + bytes([payload[i] ^ 0x01]) + payload[i + 1:]
        yield 'payload byte', head + flipped + trailer
        yield 'payload byte, digest redone', rebuild(magic, header_bytes,
                                                     flipped, trailer)
    for i in range(len(trailer)):
        yield 'trailer byte', good[:len(good) - len(trailer) + i] + \
            bytes([trailer[i] ^ 0x01]) + good[len(good) - len(trailer) + i + 1:]
    step = stride_of(len(good))
    for n in list(range(0, len(head) + 2)) + list(range(len(head) + 2,
                                                        len(good), step)):
        yield 'truncated', good[:n]
    for extra in (b'\0', b'x' * 1000, good):
        yield 'extended', good + extra
    yield 'extended, digest redone', rebuild(magic, header_bytes,
                                             payload + b'\0', trailer)
    deep = b'[' * 200000 + b']' * 200000
    yield 'nested header', magic + deep + b'\n' + payload + trailer
    yield 'nested header', magic + b'{"a":' * 100000 + b'1' + \
        b'}' * 100000 + b'\n'
    yield 'long header', magic + b' ' * (4 << 20) + b'\n'
    yield 'another key\'s entry', other_entry
    yield 'empty', b''


class Reader:
    """One kind of store: put the bytes, read them twice with a new
    cache, count what came back."""

    def __init__(self, name, put, new_cache, key):
        self.name, self.put, self.new_cache, self.key = name, put, \
            new_cache, key
        self.kinds = {}

    def read(self, kind, data, good_objects):
        self.put(data)
        warnings = []
        cache = self.new_cache(lambda key, message: warnings.append(message))
        counts = self.kinds.setdefault(kind, [0, 0, 0, 0, 0])
        counts[0] += 1
        try:
            results = [cache.get(self.key), cache.get(self.key)]
        except BaseException as error:  # counted: nothing may escape
            counts[2] += 1
            print(f'  {self.name} {kind}: raised {type(error).__name__}')
            return
        if any(r is not None for r in results):
            counts[1] += 1
            if any(r is not None and r != good_objects for r in results):
                counts[3] += 1  # a different object served as a hit
        elif len(warnings) != 1:
            counts[4] += 1

    def report(self):
        total = [sum(c[i] for c in self.kinds.values()) for i in range(5)]
        print(f'{self.name}: {total[0]} corruptions, accepted {total[1]} '
              f'(other objects {total[3]}), raised {total[2]}, not warned '
              f'once {total[4]}')
        for kind, c in sorted(self.kinds.items()):
            if c[1] or c[2] or c[4]:
                print(f'  {kind}: {c[0]} tried, accepted {c[1]}, raised '
                      f'{c[2]}, not warned once {c[4]}')
        return total


def object_key(digest):
    try:
        from flyhoist.keys import ObjectKey
    except ImportError:  # the package as it was
        return digest
    return ObjectKey(digest, ['kernels'])


def readers(tmp, server, digest, secret=None):
    try:
        from flyhoist.disk import DiskCache
    except ImportError:  # the package as it was
        from flyhoist.cache import DiskCache
    from flyhoist.remote import RemoteCache
    folder = os.path.join(tmp, 'faults')
    path = os.path.join(folder, 'objects', digest[:2], digest + '.bin')
    os.makedirs(os.path.dirname(path), exist_ok=True)
    extra = {} if secret is None else {'secret': secret}

    def to_disk(data):
        with open(path, 'wb') as f:
            f.write(data)

    def to_redis(data):
        server.client.set(f'flyhoist:objects:{digest}', data)
    key = object_key(digest)
    return [Reader('disk', to_disk,
                   lambda warn: DiskCache(folder, warn=warn, **extra), key),
            Reader('redis', to_redis,
                   lambda warn: RemoteCache(server.url, warn=warn, **extra),
                   key)]


def secret_cases(tmp, server, digest, good_objects):
    """Entries written without the secret, with another and with it."""
    from flyhoist import _objects
    print('secret')
    a, b = b'secret A', b'secret B'
    entries = [('no secret', _objects.encode(good_objects, digest), False),
               ('another secret', _objects.encode(good_objects, digest, b),
                False),
               ('the secret', _objects.encode(good_objects, digest, a),
                True)]
    body = _objects.encode(good_objects, digest, a)
    magic, header, payload, _ = split(body)
    stripped = json.loads(header)
    stripped['auth'] = None
    entries.append(('HMAC stripped, digest redone',
                    rebuild(magic, stripped, payload, b''), False))
    entries.append(('HMAC flipped', body[:-1] + bytes([body[-1] ^ 1]),
                    False))
    for reader in readers(tmp, server, digest, secret=a):
        for name, data, expected in entries:
            reader.put(data)
            warnings = []
            got = reader.new_cache(
                lambda k, m: warnings.append(m)).get(reader.key)
            print(f'{reader.name}, {name}: '
                  f'{"hit" if got == good_objects else "miss"}, '
                  f'{len(warnings)} warning(s)',
                  'as expected' if (got == good_objects) == expected
                  else 'WRONG')


def end_to_end(tmp, digest, good, path_of):
    """Through KernelCache: a renamed symbol with the SHA-256 redone is
    compiled again, the right object comes back, one warning."""
    from flyhoist import KernelCache
    magic, header, payload, trailer = split(good)
    changed = json.loads(header)
    changed['objects'][0][0] = 'kernelz'
    with open(path_of, 'wb') as f:
        f.write(rebuild(magic, changed, payload, trailer))
    messages = []
    cache = KernelCache('gfx942', cache_dir=os.path.dirname(os.path.dirname(
        os.path.dirname(path_of))), remote=False, log=messages.append)
    launch = cache.get('scale', {'row_stride': 8, 'unroll': 2},
                       lambda v: KERNEL.replace('UNROLL', '2'))
    print('end to end:', f'compiled {cache.compiled}, disk {cache.disk_hits}',
          'symbols', sorted(launch.objects), 'warnings',
          sum(m.startswith('warning') for m in messages))


def driver(tmp, report=False):
    digest, good = compile_entry(os.path.join(tmp, 'a'), 2)
    other_key, other = compile_entry(os.path.join(tmp, 'b'), 3)
    from flyhoist import _objects
    magic = good[:good.index(b'\n') + 1]
    good_objects = (_objects.decode(good, object_key(digest))
                    if magic.startswith(b'FLYHOIST-OBJECTS 2')
                    else _objects.decode(good, digest))
    print('entry:', magic.strip().decode(), 'objects',
          sorted(good_objects), 'payload',
          len(split(good)[2]), 'bytes, stride', stride_of(len(split(good)[2])))
    server = RedisServer()
    try:
        print('faults')
        totals = []
        for reader in readers(tmp, server, digest):
            for kind, data in corruptions(good, other_key, other):
                reader.read(kind, data, good_objects)
            # The entry itself still reads: the test can tell a hit.
            reader.put(good)
            assert reader.new_cache(lambda k, m: None).get(reader.key) == \
                good_objects, f'{reader.name}: the good entry is a miss'
            totals.append(reader.report())
        if not report:
            secret_cases(tmp, server, digest, good_objects)
    finally:
        server.stop()
    if not report:
        end_to_end(tmp, digest, good, os.path.join(
            tmp, 'a', 'objects', digest[:2], digest + '.bin'))


# CHECK: entry: FLYHOIST-OBJECTS 2 objects ['kernels']
# CHECK-LABEL: faults
# CHECK-NEXT: disk: {{[0-9]+}} corruptions, accepted 0 (other objects 0), raised 0, not warned once 0
# CHECK-NEXT: redis: {{[0-9]+}} corruptions, accepted 0 (other objects 0), raised 0, not warned once 0
# CHECK-LABEL: secret
# CHECK-NEXT: disk, no secret: miss, 1 warning(s) as expected
# CHECK-NEXT: disk, another secret: miss, 1 warning(s) as expected
# CHECK-NEXT: disk, the secret: hit, 0 warning(s) as expected
# CHECK-NEXT: disk, HMAC stripped, digest redone: miss, 1 warning(s) as expected
# CHECK-NEXT: disk, HMAC flipped: miss, 1 warning(s) as expected
# CHECK-NEXT: redis, no secret: miss, 1 warning(s) as expected
# CHECK-NEXT: redis, another secret: miss, 1 warning(s) as expected
# CHECK-NEXT: redis, the secret: hit, 0 warning(s) as expected
# CHECK-NEXT: redis, HMAC stripped, digest redone: miss, 1 warning(s) as expected
# CHECK-NEXT: redis, HMAC flipped: miss, 1 warning(s) as expected
# CHECK-NEXT: end to end: compiled 1, disk 0 symbols ['kernels'] warnings 1

if __name__ == '__main__':
    driver(sys.argv[2], report=sys.argv[3:] == ['report'])

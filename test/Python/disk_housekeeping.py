# The disk cache stays bounded: entries past max_bytes (or
# FLYHOIST_CACHE_MAX_BYTES) are evicted least recently used first (a hit
# counts as a use), down to 90% of the limit; lock files are one per key
# stripe (256 at most), not one per key forever; `python -m flyhoist cache
# info` shows the folder and `cache clear` empties it (old per-key lock
# files too); a bad limit is an error where it is given.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t | FileCheck %s
# RUN: env FLYHOIST_CACHE_DIR=%t/cli python3 -m flyhoist cache info | FileCheck %s --check-prefix=EMPTY
# RUN: env FLYHOIST_CACHE_MAX_BYTES=12k python3 -m flyhoist cache info --cache-dir %t/limited | FileCheck %s --check-prefix=INFO
# RUN: python3 -m flyhoist cache clear --cache-dir %t/limited | FileCheck %s --check-prefix=CLEAR
# RUN: python3 -m flyhoist cache info --cache-dir %t/limited | FileCheck %s --check-prefix=CLEARED
# RUN: not env FLYHOIST_CACHE_MAX_BYTES=lots python3 -m flyhoist cache info --cache-dir %t/limited 2>&1 | FileCheck %s --check-prefix=BAD

import os
import sys
import time

from flyhoist import DiskCache, housekeeping

root = sys.argv[1]
os.environ.pop('FLYHOIST_CACHE_MAX_BYTES', None)


def digest(i):
    return f'{i:02x}' + 'ab' * 31


def objects(size):
    return {'kernels': bytes(size)}


# CHECK-LABEL: limit
print('limit')
# The limit is about 4.2 entries, whatever the entry format's header adds.
probe = DiskCache(os.path.join(root, 'probe'), max_bytes=0)
probe.put(digest(0), objects(3000))
entry = os.path.getsize(probe._path(digest(0)))
limit = int(4.2 * entry)
cache = DiskCache(os.path.join(root, 'limited'), max_bytes=str(limit))
print('max_bytes', cache.max_bytes == limit)
# CHECK-NEXT: max_bytes True
now = time.time()
for i in range(4):  # 4 entries of about 3 KiB each, oldest first
    cache.put(digest(i), objects(3000))
    os.utime(cache._path(digest(i)), (now - 100 + i, now - 100 + i))
# A hit makes entry 0 the most recently used one.
print('hit 0:', cache.get(digest(0)) is not None)
# CHECK-NEXT: hit 0: True
cache.put(digest(4), objects(3000))  # past 12 KiB: evict down to 90%
present = [i for i in range(5) if os.path.exists(cache._path(digest(i)))]
print('kept', present)
# CHECK-NEXT: kept [0, 3, 4]
size = sum(s for _, s, _ in housekeeping.entries(cache.root))
print('within 90%:', size <= 0.9 * limit)
# CHECK-NEXT: within 90%: True

# CHECK-LABEL: locks
print('locks')
for i in range(600):
    with cache.lock(f'{i % 256:02x}{i:062x}'):
        pass
locks = os.listdir(os.path.join(cache.root, 'locks'))
print(len(locks), sorted(locks)[:2])
# CHECK-NEXT: 256 ['00.lock', '01.lock']
# An old version's per-key lock file, for clear to remove.
open(os.path.join(cache.root, 'locks', 'ab' * 32 + '.lock'), 'w').close()

# CHECK-LABEL: settings
print('settings')
for value in (0, '0', 1 << 20, '512M', '2G', '1GiB', ' 64 kb '):
    print(repr(value), housekeeping.parse_size(value))
# CHECK-NEXT: 0 0
# CHECK-NEXT: '0' 0
# CHECK-NEXT: 1048576 1048576
# CHECK-NEXT: '512M' 536870912
# CHECK-NEXT: '2G' 2147483648
# CHECK-NEXT: '1GiB' 1073741824
# CHECK-NEXT: ' 64 kb ' 65536
for value in (-1, 'lots', '1.5G', True, '12 parsecs'):
    try:
        DiskCache(os.path.join(root, 'bad'), max_bytes=value)
        print(repr(value), 'accepted')
    except ValueError as error:
        print(repr(value), 'ValueError:', error)
# CHECK-NEXT: -1 ValueError: max_bytes: -1 is negative
# CHECK-NEXT: 'lots' ValueError: max_bytes: 'lots' is not a size (bytes, or a number with K, M, G or T: 512M, 2G)
# CHECK-NEXT: '1.5G' ValueError: max_bytes: '1.5G' is not a size
# CHECK-NEXT: True ValueError: max_bytes: True is not a size
# CHECK-NEXT: '12 parsecs' ValueError: max_bytes: '12 parsecs' is not a size
os.environ['FLYHOIST_CACHE_MAX_BYTES'] = '3x'
try:
    DiskCache(os.path.join(root, 'bad'))
except ValueError as error:
    print('env ValueError:', error)
# CHECK-NEXT: env ValueError: FLYHOIST_CACHE_MAX_BYTES: '3x' is not a size
os.environ['FLYHOIST_CACHE_MAX_BYTES'] = '0'
print('no limit:', DiskCache(os.path.join(root, 'bad')).max_bytes)
# CHECK-NEXT: no limit: 0
del os.environ['FLYHOIST_CACHE_MAX_BYTES']
print('default:', DiskCache(os.path.join(root, 'bad')).max_bytes)
# CHECK-NEXT: default: 1073741824

# EMPTY: cache: {{.*}}/cli (not created yet)
# EMPTY-NEXT: entries: 0, 0 B; limit 1.0 GiB (default)

# INFO: cache: {{.*}}/limited
# INFO-NEXT: entries: 3, {{[0-9.]+}} KiB; limit 12.0 KiB (FLYHOIST_CACHE_MAX_BYTES)
# INFO-NEXT: least recently used: {{.*}} ago; most recently used: {{.*}} ago
# INFO-NEXT: lock files: 257 (at most 256; 1 of an older version, removed by clear); temporary files: 0

# CLEAR: cleared {{.*}}/limited: 260 files, {{[0-9.]+}} KiB

# CLEARED: entries: 0, 0 B
# CLEARED: lock files: 0

# BAD: error: FLYHOIST_CACHE_MAX_BYTES: 'lots' is not a size

"""Keeping the disk cache bounded: its size limit, least-recently-used
eviction, its lock files, and what `python -m flyhoist cache` shows.

The folder (disk.py) holds `objects/<2 hex>/<digest>.bin`, one file per
entry, and `locks/<2 hex>.lock`: 256 lock files at most, one per first byte
of the key, so two processes compiling keys of one stripe wait for each
other (1 in 256 pairs) but the folder never grows with the keys. Older
versions kept one `locks/<digest>.lock` per key; `clear` removes them.

Recency is a file's modification time: a hit touches it, a write sets it.
When the entries pass `max_bytes`, the least recently used ones are removed
until they fill at most 90% of it (so that eviction is not paid on every
write). Removing a file another process is reading is safe on POSIX (it
keeps its open file); one it is about to open is a miss, and a compile.
"""

from __future__ import annotations

import contextlib
import os
import re

#: The default limit (FLYHOIST_CACHE_MAX_BYTES overrides it): a code object
#: is tens to hundreds of KiB, so this holds thousands of variants.
DEFAULT_MAX_BYTES = 1 << 30
LOCK_STRIPES = 256
_LOW_WATER = 0.9
_RESCAN_EVERY = 64  # writes between two scans of the folder

_SIZE = re.compile(r'^\s*(\d+)\s*([kmgt]?)(i?b)?\s*$', re.IGNORECASE)
_UNITS = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}
_LEGACY_LOCK = re.compile(r'^[0-9a-f]{64}\.lock$')


def parse_size(text: str | int, what: str = 'a size') -> int:
    """Bytes from 123, '123', '512M', '2G', '1GiB' (powers of 1024); 0 means
    no limit. ValueError, naming `what`, for anything else."""
    if isinstance(text, bool):
        raise ValueError(f'{what}: {text!r} is not a size')
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f'{what}: {text} is negative')
        return text
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f'{what}: {text!r} is not a size (bytes, or a '
                         f'number with K, M, G or T: 512M, 2G)')
    return int(match[1]) * _UNITS[match[2].lower()]


def max_bytes_setting(value: str | int | None) -> tuple[int, str]:
    """(limit, where it comes from): `value` if given, else
    FLYHOIST_CACHE_MAX_BYTES, else DEFAULT_MAX_BYTES."""
    if value is not None:
        return parse_size(value, 'max_bytes'), 'max_bytes'
    env = os.environ.get('FLYHOIST_CACHE_MAX_BYTES')
    if env:
        return (parse_size(env, 'FLYHOIST_CACHE_MAX_BYTES'),
                'FLYHOIST_CACHE_MAX_BYTES')
    return DEFAULT_MAX_BYTES, 'default'


def lock_path(root: str, digest: str) -> str:
    """The lock file of `digest`'s stripe."""
    stripe = digest[:2] if len(digest) >= 2 else 'xx'
    return os.path.join(root, 'locks', stripe + '.lock')


def entries(root: str) -> list[tuple[float, int, str]]:
    """[(mtime, size, path)] of the entries, oldest first."""
    found = []
    with contextlib.suppress(OSError), \
            os.scandir(os.path.join(root, 'objects')) as shards:
        for shard in shards:
            if not shard.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError), os.scandir(shard.path) as it:
                for entry in it:
                    if not entry.name.endswith('.bin') or \
                            not entry.is_file(follow_symlinks=False):
                        continue
                    with contextlib.suppress(OSError):
                        stat = entry.stat(follow_symlinks=False)
                        found.append((stat.st_mtime, stat.st_size,
                                      entry.path))
    found.sort()
    return found


def touch(path: str) -> None:
    """Marks an entry used now (a hit), for least-recently-used order."""
    with contextlib.suppress(OSError):
        os.utime(path)


def evict(root: str, max_bytes: int) -> tuple[int, int, int]:
    """Removes the least recently used entries while they fill more than
    `max_bytes`, down to 90% of it. Returns (removed, bytes removed, bytes
    left)."""
    found = entries(root)
    total = sum(size for _, size, _ in found)
    removed = removed_bytes = 0
    if not max_bytes or total <= max_bytes:
        return 0, 0, total
    target = int(max_bytes * _LOW_WATER)
    for _, size, path in found:
        if total <= target:
            break
        try:
            os.unlink(path)
        except FileNotFoundError:  # another process removed it first
            pass
        except OSError:
            continue
        total -= size
        removed += 1
        removed_bytes += size
    return removed, removed_bytes, total


class SizeLimit:
    """A DiskCache's limit: counts what this process writes and scans the
    folder (which other processes fill too) when the count passes the limit
    or every few writes."""

    def __init__(self, root: str, max_bytes: int):
        self.root, self.max_bytes = root, max_bytes
        self._estimate = None
        self._writes = 0

    def wrote(self, size: int) -> None:
        if not self.max_bytes:
            return
        self._writes += 1
        if self._estimate is None or self._writes % _RESCAN_EVERY == 0:
            self._estimate = sum(s for _, s, _ in entries(self.root))
        else:
            self._estimate += size
        if self._estimate > self.max_bytes:
            self._estimate = evict(self.root, self.max_bytes)[2]


def info(root: str, max_bytes: int | None = None) -> dict:
    """What `python -m flyhoist cache info` shows, as a dict."""
    limit, source = max_bytes_setting(max_bytes)
    found = entries(root)
    locks = legacy = temporary = 0
    with contextlib.suppress(OSError), \
            os.scandir(os.path.join(root, 'locks')) as it:
        for entry in it:
            locks += 1
            legacy += bool(_LEGACY_LOCK.match(entry.name))
    for _, _, files in os.walk(os.path.join(root, 'objects')):
        temporary += sum(name.startswith('.tmp-') for name in files)
    return {'root': root, 'exists': os.path.isdir(root),
            'entries': len(found), 'bytes': sum(s for _, s, _ in found),
            'max_bytes': limit, 'max_bytes_from': source,
            'oldest': found[0][0] if found else None,
            'newest': found[-1][0] if found else None,
            'lock_files': locks, 'legacy_lock_files': legacy,
            'temporary_files': temporary}


def clear(root: str) -> tuple[int, int]:
    """Removes every entry, lock file and leftover temporary file (the
    folders stay). Returns (files removed, bytes removed). A process
    compiling now writes its entry again; one holding a lock keeps it."""
    removed = removed_bytes = 0
    for sub in ('objects', 'locks'):
        for folder, _, files in os.walk(os.path.join(root, sub)):
            for name in files:
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError):
                    size = os.lstat(path).st_size
                    os.unlink(path)
                    removed += 1
                    removed_bytes += size
    return removed, removed_bytes

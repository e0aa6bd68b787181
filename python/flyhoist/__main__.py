"""`python -m flyhoist`: what is installed, and the disk cache.

  python -m flyhoist info                which package and library are used
  python -m flyhoist cache info [--cache-dir DIR]   the disk cache: where,
                                         how many entries, how big, its limit
  python -m flyhoist cache clear [--cache-dir DIR]  empty it

The cache folder is the one KernelCache uses by default: FLYHOIST_CACHE_DIR,
$XDG_CACHE_HOME/flyhoist or ~/.cache/flyhoist; its limit is
FLYHOIST_CACHE_MAX_BYTES (default 1 GiB).
"""

from __future__ import annotations

import argparse
import sys
import time

from . import _discovery, housekeeping
from .disk import default_cache_dir


def _size(n: int) -> str:
    for unit in ('B', 'KiB', 'MiB', 'GiB'):
        if n < 1024 or unit == 'GiB':
            return f'{n} {unit}' if unit == 'B' else f'{n:.1f} {unit}'
        n /= 1024
    return f'{n} B'  # not reached


def _age(then: float | None) -> str:
    if then is None:
        return '-'
    seconds = max(0, time.time() - then)
    for unit, length in (('d', 86400), ('h', 3600), ('min', 60)):
        if seconds >= length:
            return f'{seconds / length:.1f} {unit} ago'
    return f'{seconds:.0f} s ago'


def _cache_root(args) -> str | None:
    root = args.cache_dir or default_cache_dir()
    if root is None:
        print('no cache folder: HOME is not set and the user has no home '
              'directory; pass --cache-dir or set FLYHOIST_CACHE_DIR',
              file=sys.stderr)
    return root


def cache_info(args) -> int:
    root = _cache_root(args)
    if root is None:
        return 1
    facts = housekeeping.info(root)
    limit = ('none' if not facts['max_bytes']
             else _size(facts['max_bytes']))
    print(f'cache: {root}{"" if facts["exists"] else " (not created yet)"}')
    print(f'entries: {facts["entries"]}, {_size(facts["bytes"])}; limit '
          f'{limit} ({facts["max_bytes_from"]})')
    print(f'least recently used: {_age(facts["oldest"])}; most recently '
          f'used: {_age(facts["newest"])}')
    print(f'lock files: {facts["lock_files"]} (at most '
          f'{housekeeping.LOCK_STRIPES}; {facts["legacy_lock_files"]} of '
          f'an older version, removed by clear); temporary files: '
          f'{facts["temporary_files"]}')
    return 0


def cache_clear(args) -> int:
    root = _cache_root(args)
    if root is None:
        return 1
    removed, removed_bytes = housekeeping.clear(root)
    print(f'cleared {root}: {removed} files, {_size(removed_bytes)}')
    return 0


def package_info(_args) -> int:
    from . import _capi
    identity = _discovery.package_identity()
    print(f'package: {__package__} {_discovery.package_version()} at '
          f'{_discovery.__file__.rsplit("/", 1)[0]}'
          f'{"" if identity else " (a source checkout)"}')
    try:
        path, origin = _discovery.find()
        library = _capi.load()
    except _discovery.LibraryError as error:
        print(f'library: {error}', file=sys.stderr)
        return 1
    print(f'library: {path} ({origin})')
    print(f'build: {library.build_identity}')
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog='python -m flyhoist', description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest='command', required=True)
    commands.add_parser('info', help='which package and library are used'
                        ).set_defaults(run=package_info)
    cache = commands.add_parser('cache', help='the disk code-object cache')
    actions = cache.add_subparsers(dest='action', required=True)
    for name, run, text in (('info', cache_info, 'show the disk cache'),
                            ('clear', cache_clear, 'empty the disk cache')):
        action = actions.add_parser(name, help=text)
        action.add_argument('--cache-dir', help='the cache folder (default: '
                            'FLYHOIST_CACHE_DIR or ~/.cache/flyhoist)')
        action.set_defaults(run=run)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:  # FLYHOIST_CACHE_MAX_BYTES, say
        print(f'error: {error}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())

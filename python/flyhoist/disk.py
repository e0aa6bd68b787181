"""The on-disk level of the code-object cache (FLYHOIST_CACHE_DIR)."""

import contextlib
import errno
import os
import sys
import tempfile
import threading

from . import _objects, housekeeping

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms we run on
    fcntl = None


def default_cache_dir():
    """FLYHOIST_CACHE_DIR, $XDG_CACHE_HOME/flyhoist or ~/.cache/flyhoist;
    None when there is no home to put it in."""
    explicit = os.environ.get('FLYHOIST_CACHE_DIR')
    if explicit:
        return explicit
    base = os.environ.get('XDG_CACHE_HOME')
    if not base:
        # Without HOME Python asks the password database; without an entry
        # there it returns '~' as is, which is no folder to create.
        base = os.path.expanduser('~/.cache')
        if base.startswith('~'):
            return None
    return os.path.join(base, 'flyhoist')


_umask_lock = threading.Lock()


def _umask():
    """The process umask, without changing it where Linux says it."""
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('Umask:'):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _stderr_warning(key, message):
    print(f'[flyhoist] warning: {message}', file=sys.stderr, flush=True)


class DiskCache:
    """Code objects by key, one file per key, shared by processes.

    A file is written to a temporary name in the same folder and renamed
    over the final one (atomic on POSIX), so a reader sees all of an entry
    or none; its header carries each object's SHA-256, so a damaged file is
    a miss, never a wrong object. Files get the mode the process umask gives
    a new file (0o666 & ~umask), so a cache shared by a group stays shared.

    It never raises: a folder that cannot be made, read or written (no home,
    a read-only file system, a file where a folder should be, an object path
    that is a folder) makes the cache miss or skip the write, and
    `warn(key, message)` is told once per kind of trouble. An entry that
    does not check out (_objects.check: another key's, damaged, truncated,
    not authenticated with `secret`) is a miss, warned once per key.

    secret  bytes or str: entries carry an HMAC made with it and only such
            entries are read (a cache folder others can write to)
    max_bytes  the most the entries may fill (bytes, or '512M', '2G'; 0: no
            limit; None: FLYHOIST_CACHE_MAX_BYTES, else 1 GiB): past it the
            least recently used are removed (housekeeping.py). A bad value
            raises ValueError here, the one exception the cache raises.
    """

    #: Larger files are not read: no code object comes near it.
    MAX_ENTRY = 1 << 30

    def __init__(self, root, warn=None, secret=None, max_bytes=None):
        self.root = root
        self.max_bytes = housekeeping.max_bytes_setting(max_bytes)[0]
        self._limit = housekeeping.SizeLimit(root, self.max_bytes)
        self._warn = warn or _stderr_warning
        self._secret = _objects.secret_bytes(secret)
        self.damaged = 0  # entries that did not check out
        self._reported = set()  # their keys: each is warned about once
        for sub in ('objects', 'locks'):
            try:
                os.makedirs(os.path.join(root, sub), exist_ok=True)
            except OSError as error:
                self._trouble(f'create {sub}/', error)

    def _trouble(self, what, error):
        self._warn('disk', f'the disk cache {self.root} is not usable '
                           f'({what}: {error}); code objects are compiled '
                           f'and kept in memory only')

    def _path(self, digest):
        return os.path.join(self.root, 'objects', digest[:2],
                            digest + '.bin')

    def get(self, digest, symbols=None):
        """The objects stored for `digest` (of exactly `symbols`, by
        default the `symbols` a keys.ObjectKey carries), or None."""
        if symbols is None:
            symbols = getattr(digest, 'symbols', None)
        path = self._path(digest)
        try:
            with open(path, 'rb') as f:
                size = os.fstat(f.fileno()).st_size
                data = f.read(self.MAX_ENTRY + 1) if size <= \
                    self.MAX_ENTRY else None
        except Exception:  # OSError, MemoryError: no entry to read
            return None
        if data is None or len(data) > self.MAX_ENTRY:
            objects, why = None, f'over {self.MAX_ENTRY} bytes'
        else:
            objects, why = _objects.check(data, digest, symbols,
                                          self._secret)
        if objects is None:
            self.damaged += 1
            if str(digest) in self._reported:
                return None
            self._reported.add(str(digest))
            self._warn(('disk-damaged', str(digest)),
                       f'the disk cache entry '
                       f'{os.path.relpath(path, self.root)} is not a valid '
                       f'entry for its key ({why}); compiling it again')
        else:
            self._used(path)
        return objects

    def _used(self, path):
        """A hit: the entry is the most recently used one now."""
        housekeeping.touch(path)

    def _written(self, path):
        """Keeps the folder within max_bytes after a write."""
        try:
            size = os.path.getsize(path)
        except OSError:
            return
        self._limit.wrote(size)

    def put(self, digest, objects):
        """Writes the entry; False (after a warning) when it cannot."""
        path = self._path(digest)
        temporary = None
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path),
                                             prefix='.tmp-')
            with os.fdopen(fd, 'wb') as f:
                f.write(_objects.encode(objects, str(digest),
                                        self._secret))
                f.flush()
                # mkstemp makes 0600 files whatever the umask.
                os.fchmod(f.fileno(), 0o666 & ~_umask())
                os.fsync(f.fileno())
            os.replace(temporary, path)
            self._written(path)
            return True
        except OSError as error:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
            self._trouble(f'write {os.path.relpath(path, self.root)}', error)
            return False

    @contextlib.contextmanager
    def lock(self, digest):
        """Held while one process checks, compiles and writes `digest`.
        Without a lock file (a read-only cache) it is not held, and two
        processes may compile the same key."""
        if fcntl is None:
            yield
            return
        # One lock file per key stripe (housekeeping.py), not per key.
        path = housekeeping.lock_path(self.root, str(digest))
        try:
            f = open(path, 'a')
        except OSError as error:
            self._trouble('open a lock file', error)
            yield
            return
        with f:
            locked = False
            while True:
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                    locked = True
                    break
                except OSError as error:
                    if error.errno != errno.EINTR:  # not just interrupted
                        self._trouble('lock', error)
                        break
            try:
                yield
            finally:
                if locked:
                    with contextlib.suppress(OSError):
                        fcntl.flock(f.fileno(), fcntl.LOCK_UN)

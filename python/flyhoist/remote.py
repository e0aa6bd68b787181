"""A level-2 code object cache on Redis, shared by machines.

`KernelCache(remote='redis://HOST:PORT')`, or FLYHOIST_REMOTE_CACHE, puts a
remote cache next to the disk cache, keyed by the same digests (the
fingerprints of the GPU modules, the target's pipeline and the library's
revision). A node that misses both looks there before it compiles, and
writes what it compiled there; a lock (SET NX with an expiry) makes nodes
that miss one key at once compile it once between them: the others wait
for the value. The client is Debian's python3-redis.

Faults never stop a compile: a server that is down, dies, or does not
answer within `timeout` seconds, and a value that is damaged, truncated or
stored under another key, are misses. The cache warns once, then leaves the
server alone for `retry_after` seconds. Every value carries each object's
SHA-256 (flyhoist._objects), checked on read.

Environment: FLYHOIST_REMOTE_CACHE (the URL), FLYHOIST_REMOTE_CACHE_TTL
(seconds a value lives; default: no expiry), FLYHOIST_REMOTE_CACHE_TIMEOUT
(seconds per request, default 1).
"""

import contextlib
import os
import sys
import time
import uuid

from . import _objects

# Deletes the lock only while it is still ours: a holder that outlived its
# expiry must not free a lock another node has taken since.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def _stderr_warning(key, message):
    print(f'[flyhoist] warning: {message}', file=sys.stderr, flush=True)


def _env_seconds(name, default):
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        _stderr_warning(name, f'{name}={text!r} is not a number of seconds; '
                              f'using {default}')
        return default
    return value if value > 0 else default


class RemoteCache:
    """Code objects by digest in Redis.

    url          redis://[:password@]host:port[/db]
    ttl          seconds a value lives (None: no expiry)
    timeout      seconds a request may take before it counts as a fault
    lock_ttl     seconds a compile lock lives if its holder dies (a
                 longer compile may then be repeated by another node)
    wait         seconds to wait for another node's compile (lock_ttl)
    retry_after  seconds to leave the server alone after a fault
    client       a redis.Redis to use instead of one made from `url`
    warn         warn(key, message): how faults are reported (stderr)
    """

    def __init__(self, url, ttl=None, timeout=None, lock_ttl=60.0,
                 wait=None, retry_after=30.0, client=None, warn=None,
                 prefix='flyhoist:', poll=0.05):
        self.url = url
        self.ttl = ttl if ttl is not None else _env_seconds(
            'FLYHOIST_REMOTE_CACHE_TTL', None)
        self.timeout = timeout if timeout is not None else _env_seconds(
            'FLYHOIST_REMOTE_CACHE_TIMEOUT', 1.0)
        self.lock_ttl = lock_ttl
        self.wait = wait if wait is not None else lock_ttl
        self.retry_after = retry_after
        self.prefix = prefix
        self.poll = poll
        self.warn = warn  # None: stderr; KernelCache gives its own
        self._client = client
        self._down_until = 0.0
        self.hits = self.misses = self.puts = 0
        self.errors = 0       # requests that failed or timed out
        self.damaged = 0      # values that did not check out
        self.waited = 0       # misses that waited for another node

    def _warning(self, key, message):
        (self.warn or _stderr_warning)(key, message)

    # -- the connection -----------------------------------------------------

    def _connect(self):
        if self._client is None:
            try:
                import redis  # Debian's python3-redis
            except ImportError:
                raise RuntimeError(
                    f'no redis module in {sys.executable} (Debian\'s '
                    f'python3-redis serves /usr/bin/python3)') from None
            self._client = redis.Redis.from_url(
                self.url, socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout)
        return self._client

    def _call(self, what, request):
        """request(client)'s result, or _FAILED: never raises."""
        if time.monotonic() < self._down_until:
            return _FAILED
        try:
            return request(self._connect())
        except Exception as error:  # redis errors, OSError, ImportError
            self.errors += 1
            self._down_until = time.monotonic() + self.retry_after
            reason = (f'{type(error).__name__}: {error}'.strip()
                      if str(error) else type(error).__name__)
            self._warning('remote', f'the remote cache {self.url} failed to '
                                 f'{what} ({reason}); compiling locally, '
                                 f'next try in {self.retry_after:g} s')
            return _FAILED

    def _key(self, digest):
        return f'{self.prefix}objects:{digest}'

    # -- values ---------------------------------------------------------------

    def get(self, digest):
        """The objects stored under `digest`, or None."""
        data = self._call('read', lambda c: c.get(self._key(digest)))
        if data is _FAILED or data is None:
            self.misses += 1
            return None
        objects = _objects.decode(data, digest)
        if objects is None:
            self.damaged += 1
            self.misses += 1
            self._warning(('remote-damaged', digest),
                       f'the remote cache {self.url} holds a damaged value '
                       f'for {digest[:16]}... ({len(data)} bytes); '
                       f'compiling it again')
            return None
        self.hits += 1
        return objects

    def put(self, digest, objects):
        """Stores `objects`; True when the server took them."""
        value = _objects.encode(objects, digest)
        ex = int(self.ttl) if self.ttl else None
        done = self._call('write', lambda c: c.set(self._key(digest), value,
                                                    ex=ex))
        if done is _FAILED:
            return False
        self.puts += 1
        return True

    # -- one compile per key, across nodes -----------------------------------

    @contextlib.contextmanager
    def lock(self, digest):
        """Yields the objects another node stored meanwhile, or None: then
        the caller compiles (and puts), holding the key's lock when the
        server is reachable. Waits at most `wait` seconds for another
        node's compile; never raises."""
        name = f'{self.prefix}lock:{digest}'
        token = uuid.uuid4().hex
        deadline = time.monotonic() + self.wait
        waited = False
        while True:
            taken = self._call('lock', lambda c: c.set(
                name, token, nx=True, px=max(1, int(self.lock_ttl * 1000))))
            if taken is _FAILED:
                yield None
                return
            if taken:
                try:
                    # The holder before us may have finished just now.
                    yield self.get(digest)
                finally:
                    self._call('unlock', lambda c: c.eval(_RELEASE, 1, name,
                                                          token))
                return
            if not waited:
                waited = True
                self.waited += 1
            objects = self.get(digest)
            if objects is not None:
                yield objects
                return
            if time.monotonic() >= deadline:
                self._warning(('remote-wait', digest),
                           f'waited {self.wait:g} s for another node to '
                           f'compile {digest[:16]}...; compiling locally')
                yield None
                return
            time.sleep(self.poll)


_FAILED = object()


def from_setting(remote, warn=None):
    """A RemoteCache for KernelCache's `remote`: a RemoteCache as is, a URL,
    None for FLYHOIST_REMOTE_CACHE (unset: none), False for none."""
    if remote is False:
        return None
    if remote is None:
        remote = os.environ.get('FLYHOIST_REMOTE_CACHE') or None
        if remote is None:
            return None
    if isinstance(remote, RemoteCache):
        if remote.warn is None:
            remote.warn = warn
        return remote
    if not isinstance(remote, str) or not remote.startswith(
            ('redis://', 'rediss://', 'unix://')):
        (warn or _stderr_warning)(
            'remote', f'remote cache {remote!r} is not a redis:// URL; '
                      f'using none')
        return None
    return RemoteCache(remote, warn=warn)

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

Entries are checked whole (flyhoist._objects: the full key, the symbols,
every digest); with a secret (`secret`, KernelCache's, or
FLYHOIST_CACHE_SECRET) they carry an HMAC and an entry without one made
with that secret is a miss: without it, whoever can write the server can
run code on every GPU that reads it (docs/INTEGRATION.md).

Settings are checked where they are given: a URL that is not
redis://host[:port][/db], rediss://... or unix://path, or a TTL or timeout
that is not a finite number of seconds > 0, is a ValueError naming the
setting (the environment variable, for one read from there). Every
message shows the URL with its credentials replaced by *** (`redact`).

Environment: FLYHOIST_REMOTE_CACHE (the URL), FLYHOIST_REMOTE_CACHE_TTL
(seconds a value lives; default: no expiry), FLYHOIST_REMOTE_CACHE_TIMEOUT
(seconds per request, default 1).
"""

import contextlib
import math
import os
import re
import sys
import time
import urllib.parse
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


_SCHEMES = ('redis', 'rediss', 'unix')
_SECRET_QUERY = re.compile(r'pass|secret|token|auth|key', re.IGNORECASE)
#: The longest TTL taken: Redis keeps expiries in milliseconds.
MAX_TTL = 10 ** 9


def redact(url):
    """`url` with its credentials (user info after the user name, query
    values such as password=) replaced by ***. Never raises: what is not a
    URL is shown as its type."""
    if not isinstance(url, str):
        return f'<{type(url).__name__}>'
    try:
        parts = urllib.parse.urlsplit(url)
        netloc = parts.netloc
        if '@' in netloc:
            info, _, host = netloc.rpartition('@')
            user, colon, _ = info.partition(':')
            netloc = f'{user}:***@{host}' if colon else f'***@{host}'
        pairs = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        if netloc == parts.netloc and not any(_SECRET_QUERY.search(k)
                                              for k, _ in pairs):
            return url
        query = '&'.join(f'{k}=***' if _SECRET_QUERY.search(k) else
                         f'{k}={v}' for k, v in pairs)
        return urllib.parse.urlunsplit(parts._replace(netloc=netloc,
                                                      query=query))
    except Exception:
        return re.sub(r'//[^/]*@', '//***@', url.split('?')[0]) + \
            ('?***' if '?' in url else '')


def _secrets_of(url):
    """What redact() hides in `url`, to scrub from other messages."""
    try:
        parts = urllib.parse.urlsplit(url)
        found = [parts.password, parts.username if parts.password is None
                 else None]
        found += [v for k, v in urllib.parse.parse_qsl(parts.query)
                  if _SECRET_QUERY.search(k)]
    except Exception:
        return []
    found = [f for f in found if f and len(f) >= 3]
    return found + [urllib.parse.unquote(f) for f in found]


def check_url(url, what='the remote cache URL'):
    """`url` when it is a redis://, rediss:// or unix:// URL with a host,
    a port in 1..65535 and a database number; else ValueError."""
    if not isinstance(url, str):
        raise ValueError(f'{what} must be a redis://, rediss:// or unix:// '
                         f'URL, not {type(url).__name__}')
    shown = redact(url)
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # ValueError: not a number or out of range
    except ValueError as error:
        raise ValueError(f'{what} {shown!r} is not a valid URL '
                         f'({error})') from None
    if parts.scheme not in _SCHEMES or re.search(r'[\s\x00-\x1f]', url):
        raise ValueError(f'{what} {shown!r} is not a redis://, rediss:// '
                         f'or unix:// URL')
    if parts.scheme == 'unix':
        if not parts.path:
            raise ValueError(f'{what} {shown!r} names no socket path')
        return url
    if not parts.hostname:
        raise ValueError(f'{what} {shown!r} names no host')
    if port == 0:
        raise ValueError(f'{what} {shown!r}: port 0 is not a port')
    db = parts.path.strip('/')
    if db and not db.isdigit():
        raise ValueError(f'{what} {shown!r}: the database {db!r} is not a '
                         f'number')
    return url


def check_seconds(value, what, none=False, zero=False):
    """`value` as a finite float > 0 (>= 0 with `zero`; None passes with
    `none`); else ValueError naming `what`."""
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f'{what} must be a number of seconds, not '
                         f'{value!r}')
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero) \
            or value > MAX_TTL:
        raise ValueError(f'{what} must be a finite number of seconds '
                         f'{">=" if zero else ">"} 0 and at most {MAX_TTL}, '
                         f'not {value!r}')
    return float(value)


def _env_seconds(name, default):
    """FLYHOIST_REMOTE_CACHE_* in seconds, `default` when unset or empty;
    a ValueError naming the variable when it is not a good number."""
    text = os.environ.get(name, '').strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f'{name}={text!r} is not a number of '
                         f'seconds') from None
    return check_seconds(value, f'{name}={text!r}')


class RemoteCache:
    """Code objects by digest in Redis.

    url          redis://[[user]:password@]host[:port][/db],
                 rediss://... (TLS) or unix:///path/to/socket
    ttl          seconds a value lives (None: FLYHOIST_REMOTE_CACHE_TTL, or
                 no expiry)
    timeout      seconds a request may take before it counts as a fault
    lock_ttl     seconds a compile lock lives if its holder dies (a
                 longer compile may then be repeated by another node)
    wait         seconds to wait for another node's compile (lock_ttl)
    retry_after  seconds to leave the server alone after a fault
    client       a redis.Redis to use instead of one made from `url`
    warn         warn(key, message): how faults are reported (stderr)
    secret       bytes or str: entries are written with an HMAC made with
                 it and read only when they carry one (None: none; a
                 KernelCache gives it its own)
    A bad setting is a ValueError here, not a fault at the first request.
    """

    def __init__(self, url, ttl=None, timeout=None, lock_ttl=60.0,
                 wait=None, retry_after=30.0, client=None, warn=None,
                 prefix='flyhoist:', poll=0.05, secret=None):
        self.url = check_url(url)
        self.ttl = check_seconds(ttl, 'the remote cache TTL') \
            if ttl is not None else _env_seconds(
                'FLYHOIST_REMOTE_CACHE_TTL', None)
        self.timeout = check_seconds(timeout, 'the remote cache timeout') \
            if timeout is not None else _env_seconds(
                'FLYHOIST_REMOTE_CACHE_TIMEOUT', 1.0)
        self.lock_ttl = check_seconds(lock_ttl, 'lock_ttl')
        self.wait = check_seconds(wait if wait is not None else lock_ttl,
                                  'wait', zero=True)
        self.retry_after = check_seconds(retry_after, 'retry_after',
                                         zero=True)
        self.poll = check_seconds(poll, 'poll')
        self.prefix = prefix
        self.secret = _objects.secret_bytes(secret, 'the remote cache secret')
        self.warn = warn  # None: stderr; KernelCache gives its own
        self._client = client
        self._down_until = 0.0
        self._reported = set()  # keys of damaged values, warned once each
        self.hits = self.misses = self.puts = 0
        self.errors = 0       # requests that failed or timed out
        self.damaged = 0      # values that did not check out
        self.waited = 0       # misses that waited for another node

    @property
    def redacted_url(self):
        """The URL as messages show it: credentials replaced by ***."""
        return redact(self.url)

    def __repr__(self):
        return f'RemoteCache({self.redacted_url!r})'

    __str__ = __repr__

    def _scrub(self, text):
        """`text` with the URL and its secrets replaced by their redacted
        forms: what a client error may quote."""
        text = str(text).replace(self.url, self.redacted_url)
        for secret in _secrets_of(self.url):
            text = text.replace(secret, '***')
        return text

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
            self._warning('remote', f'the remote cache {self.redacted_url} '
                                    f'failed to {what} '
                                    f'({self._scrub(reason)}); compiling '
                                    f'locally, next try in '
                                    f'{self.retry_after:g} s')
            return _FAILED

    def _key(self, digest):
        return f'{self.prefix}objects:{digest}'

    # -- values ---------------------------------------------------------------

    def get(self, digest, symbols=None):
        """The objects stored under `digest` (of exactly `symbols`, by
        default those a keys.ObjectKey carries), or None."""
        if symbols is None:
            symbols = getattr(digest, 'symbols', None)
        data = self._call('read', lambda c: c.get(self._key(digest)))
        if data is _FAILED or data is None:
            self.misses += 1
            return None
        objects, why = _objects.check(data, digest, symbols, self.secret)
        if objects is None:
            self.damaged += 1
            self.misses += 1
            if str(digest) not in self._reported:
                self._reported.add(str(digest))
                self._warning(('remote-damaged', str(digest)),
                              f'the remote cache {self.redacted_url} holds '
                              f'a damaged value for {digest} ({why}); '
                              f'compiling it again')
            return None
        self.hits += 1
        return objects

    def put(self, digest, objects):
        """Stores `objects`; True when the server took them."""
        value = _objects.encode(objects, str(digest), self.secret)
        # Milliseconds, rounded up: a TTL under a second is not "none".
        px = max(1, math.ceil(self.ttl * 1000)) if self.ttl else None
        done = self._call('write', lambda c: c.set(self._key(digest), value,
                                                    px=px))
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
                self._warning(('remote-wait', str(digest)),
                              f'waited {self.wait:g} s for another node to '
                              f'compile {digest}; compiling locally')
                yield None
                return
            time.sleep(self.poll)


_FAILED = object()


def from_setting(remote, warn=None, secret=None):
    """A RemoteCache for KernelCache's `remote`: a RemoteCache as is (given
    `secret` when it has none), a URL, None for FLYHOIST_REMOTE_CACHE
    (unset: none), False for none. A bad URL or setting is a ValueError,
    naming the variable when it came from the environment."""
    if remote is False:
        return None
    if isinstance(remote, RemoteCache):
        if remote.warn is None:
            remote.warn = warn
        if remote.secret is None:
            remote.secret = _objects.secret_bytes(secret)
        return remote
    if remote is None:
        remote = os.environ.get('FLYHOIST_REMOTE_CACHE', '').strip() or None
        if remote is None:
            return None
        try:
            check_url(remote, 'FLYHOIST_REMOTE_CACHE')
        except ValueError as error:
            raise ValueError(f'{error} (set FLYHOIST_REMOTE_CACHE to a '
                             f'redis:// URL, or unset it)') from None
    elif not isinstance(remote, str):
        raise ValueError(f'remote must be a redis:// URL, a RemoteCache, '
                         f'None or False, not {type(remote).__name__}')
    return RemoteCache(remote, warn=warn, secret=secret)

"""The byte format of a cache entry, shared by the disk and remote caches.

    FLYHOIST-OBJECTS 2\\n
    {"auth":null|"hmac-sha256","key":"<64 hex>","objects":[[symbol,size,sha256],...]}\\n
    <the objects' bytes, in that order>
    <SHA-256 of everything above: 32 bytes>
    [<HMAC-SHA256 of everything above the SHA-256, under the secret: 32 bytes>]

A reader checks all of it against what it asked for: the full key (equal,
not a prefix), the symbols (when it knows them), the header's form and
size (at most MAX_HEADER bytes), each object's size and SHA-256, that
nothing follows, and the digest of the whole entry, so that a byte changed
anywhere, in the header too, is a miss. With a secret the entry must carry
an HMAC made with it; one without, or made with another secret, is a miss.
Whoever can write the store can otherwise write a valid entry for any key:
docs/INTEGRATION.md, "Who the caches trust".

Two kinds of entry share the format, told apart by their key: a module's
code objects ({symbol: object}, keys.object_key) and a kernel's inference
state ({'inference.json': groups, 'gN.template': MLIR bytecode},
keys.inference_key, persist.py).

`check` never raises: whatever the bytes (a header nested deep enough for
RecursionError, a declared size of 10**18, not bytes at all), it returns
(None, why).
"""

import hashlib
import hmac
import json
import os
import re

MAGIC = b'FLYHOIST-OBJECTS 2\n'
MAX_HEADER = 1 << 20   # bytes of header: ~10^4 kernels' symbols and digests
MAX_OBJECTS = 10000
_HEX64 = re.compile(r'[0-9a-f]{64}\Z')
_DIGEST_SIZE = 32
_AUTH = 'hmac-sha256'


def secret_bytes(secret, what='the cache secret'):
    """`secret` (str or bytes) as bytes; None for none ('' or None). A value
    of another type is a ValueError naming `what`."""
    if secret is None or secret is False:
        return None
    if isinstance(secret, str):
        secret = secret.encode()
    if not isinstance(secret, (bytes, bytearray)):
        raise ValueError(f'{what} must be a str or bytes, not '
                         f'{type(secret).__name__}')
    return bytes(secret) or None


def secret_from_setting(secret):
    """KernelCache's `secret`: None for FLYHOIST_CACHE_SECRET (unset or
    empty: none), False for none, else str or bytes; as bytes or None."""
    if secret is None:
        return secret_bytes(os.environ.get('FLYHOIST_CACHE_SECRET'),
                            'FLYHOIST_CACHE_SECRET')
    if isinstance(secret, (str, bytes, bytearray)) and not secret:
        raise ValueError('the cache secret is empty: pass None (for '
                         'FLYHOIST_CACHE_SECRET) or False for none')
    return secret_bytes(secret)


def encode(objects, key, secret=None):
    """{symbol: bytes} -> one entry for `key` (authenticated with
    `secret`, bytes or None)."""
    items = sorted(objects.items())
    header = {'auth': _AUTH if secret else None, 'key': key,
              'objects': [[s, len(b), hashlib.sha256(b).hexdigest()]
                          for s, b in items]}
    body = b''.join([MAGIC, json.dumps(header, sort_keys=True,
                                       separators=(',', ':')).encode(),
                     b'\n'] + [bytes(b) for _, b in items])
    tail = hashlib.sha256(body).digest()
    if secret:
        tail += hmac.new(secret, body, hashlib.sha256).digest()
    return body + tail


def _header(data, key, symbols):
    """(header, end of header) of a well-formed header for `key`, or a
    str: why not."""
    if not data.startswith(MAGIC):
        if data.startswith(b'FLYHOIST-OBJECTS '):
            return 'an entry of another format'
        return 'not an entry'
    end = data.find(b'\n', len(MAGIC), len(MAGIC) + MAX_HEADER + 1)
    if end < 0:
        return f'no header end within {MAX_HEADER} bytes'
    try:
        header = json.loads(bytes(data[len(MAGIC):end]))
    except RecursionError:
        return 'a header nested too deep'
    except ValueError as error:
        return f'a header that is not JSON ({error})'
    if not isinstance(header, dict) or \
            set(header) != {'auth', 'key', 'objects'}:
        return 'a header without exactly auth, key and objects'
    if header['key'] != key:
        return 'an entry stored for another key'
    if header['auth'] not in (None, _AUTH):
        return f'an unknown authentication {str(header["auth"])[:40]!r}'
    listed = header['objects']
    if not isinstance(listed, list) or not 0 < len(listed) <= MAX_OBJECTS:
        return 'no list of objects'
    for item in listed:
        if not (isinstance(item, list) and len(item) == 3 and
                isinstance(item[0], str) and item[0] and
                type(item[1]) is int and item[1] >= 0 and
                isinstance(item[2], str) and _HEX64.match(item[2])):
            return 'an object that is not [symbol, size, sha256]'
    names = [item[0] for item in listed]
    if names != sorted(set(names)):
        return 'symbols out of order or repeated'
    if symbols is not None and set(names) != set(symbols):
        return (f'objects for {", ".join(sorted(names))[:200]}, not for '
                f'{", ".join(sorted(symbols))[:200]}')
    return header, end


def _check(data, key, symbols, secret):
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return None, f'not bytes but {type(data).__name__}'
    data = bytes(data) if isinstance(data, memoryview) else data
    parsed = _header(data, key, symbols)
    if isinstance(parsed, str):
        return None, parsed
    header, end = parsed
    authenticated = header['auth'] == _AUTH
    if secret and not authenticated:
        return None, 'an entry without an HMAC (a secret is set)'
    tail = _DIGEST_SIZE * (2 if authenticated else 1)
    declared = sum(item[1] for item in header['objects'])
    if end + 1 + declared + tail != len(data):
        return None, (f'{len(data)} bytes, not the {end + 1 + declared + tail}'
                      f' its header declares')
    body_end = len(data) - tail
    body = memoryview(data)[:body_end]
    if not hmac.compare_digest(hashlib.sha256(body).digest(),
                               data[body_end:body_end + _DIGEST_SIZE]):
        return None, 'an entry whose SHA-256 does not match'
    if secret and not hmac.compare_digest(
            hmac.new(secret, body, hashlib.sha256).digest(),
            data[body_end + _DIGEST_SIZE:]):
        return None, 'an HMAC that does not match the secret'
    offset, objects = end + 1, {}
    for symbol, size, sha in header['objects']:
        payload = bytes(data[offset:offset + size])
        if hashlib.sha256(payload).hexdigest() != sha:
            return None, f'object {symbol[:80]!r} does not match its SHA-256'
        objects[symbol] = payload
        offset += size
    return objects, None


def check(data, key, symbols=None, secret=None):
    """(objects, None) for a whole, intact entry stored for exactly `key`,
    holding the objects of exactly `symbols` (when given) and, with a
    `secret` (bytes), authenticated with it; else (None, why). Never
    raises."""
    try:
        return _check(data, key, symbols, secret)
    except Exception as error:  # RecursionError, MemoryError, anything
        return None, f'an entry that does not read ({type(error).__name__})'


def decode(data, key, symbols=None, secret=None):
    """check()'s objects, or None."""
    return check(data, key, symbols, secret)[0]

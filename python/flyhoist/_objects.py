"""The byte format of a cache entry, shared by the disk and remote caches.

    FLYHOIST-OBJECTS 1\n
    {"key": "<digest>", "objects": [[symbol, size, sha256], ...]}\n
    <the objects' bytes, in that order>

Each object is checked against its SHA-256 on read and the entry against
the key it was stored under, so a damaged, truncated or misplaced entry is
a miss, never a wrong object.
"""

import hashlib
import json

MAGIC = b'FLYHOIST-OBJECTS 1\n'


def encode(objects, key=None):
    """{symbol: bytes} -> one entry."""
    header = {'objects': [[s, len(b), hashlib.sha256(b).hexdigest()]
                          for s, b in sorted(objects.items())]}
    if key is not None:
        header['key'] = key
    return b''.join([MAGIC, json.dumps(header).encode(), b'\n'] +
                    [payload for _, payload in sorted(objects.items())])


def decode(data, key=None):
    """One entry -> {symbol: bytes}, or None when it is not whole, not
    intact, or (given `key`) stored for another key."""
    if not isinstance(data, (bytes, bytearray)) or not data.startswith(MAGIC):
        return None
    header_end = data.find(b'\n', len(MAGIC))
    if header_end < 0:
        return None
    try:
        header = json.loads(data[len(MAGIC):header_end])
        if key is not None and header.get('key', key) != key:
            return None
        offset, objects = header_end + 1, {}
        for symbol, size, sha in header['objects']:
            payload = bytes(data[offset:offset + size])
            if len(payload) != size or \
                    hashlib.sha256(payload).hexdigest() != sha:
                return None
            objects[symbol] = payload
            offset += size
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if offset != len(data) or not objects:
        return None
    return objects

# Remote cache settings are checked where they are given (RemoteCache,
# KernelCache, the environment), with a ValueError that names the setting;
# and no message, exception or repr shows a URL's credentials.
# RUN: %python %s 2>&1 | FileCheck %s --implicit-check-not=hunter2

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from redis_server import free_port  # noqa: E402

from flyhoist import KernelCache, RemoteCache  # noqa: E402
from flyhoist.remote import redact  # noqa: E402

SECRET = 'hunter2-s3cret'
KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<?xf32>
      memref.store %v, %m[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
'''


def error_of(make):
    try:
        made = make()
    except ValueError as error:
        return f'ValueError: {error}'
    return f'accepted: {made!r}'


# CHECK-LABEL: redaction
print('redaction')
port = free_port()
for url in [f'redis://:{SECRET}@127.0.0.1:{port}/0',
            f'redis://user:{SECRET}@127.0.0.1:{port}',
            f'rediss://{SECRET}@127.0.0.1:{port}',
            f'redis://127.0.0.1:{port}/0?password={SECRET}&db=1']:
    print(redact(url).replace(str(port), 'PORT'))
# CHECK-NEXT: redis://:***@127.0.0.1:PORT/0
# CHECK-NEXT: redis://user:***@127.0.0.1:PORT
# CHECK-NEXT: rediss://***@127.0.0.1:PORT
# CHECK-NEXT: redis://127.0.0.1:PORT/0?password=***&db=1

# A server that is down: the warning names it, without the password.
messages = []
url = f'redis://user:{SECRET}@127.0.0.1:{port}/0'
cache = KernelCache('sm_90', cache_dir=False, remote=url, log=messages.append)
cache.get('k', {}, lambda v: KERNEL)
shown = ' '.join(messages + [repr(cache.remote), str(cache.remote)])
print('warnings:', len(messages), 'secret shown:', SECRET in shown)
print(repr(cache.remote).replace(str(port), 'PORT'))
# CHECK: warnings: 1 secret shown: False
# CHECK-NEXT: RemoteCache('redis://user:***@127.0.0.1:PORT/0')

# CHECK-LABEL: bad URLs
print('bad URLs')
for bad in ['http://example', f'redis://:{SECRET}@127.0.0.1:70000',
            f'redis://:{SECRET}@127.0.0.1:port', 'redis://:x@/0',
            'redis://127.0.0.1:6379/zero', 'unix://', 'redis://h:0', 42]:
    message = error_of(lambda: RemoteCache(bad))
    print(message.replace(SECRET, '<LEAKED>'))
# CHECK-NEXT: ValueError: the remote cache URL 'http://example' is not a redis://, rediss:// or unix:// URL
# CHECK-NEXT: ValueError: the remote cache URL 'redis://:***@127.0.0.1:70000' is not a valid URL (Port out of range 0-65535)
# CHECK-NEXT: ValueError: the remote cache URL 'redis://:***@127.0.0.1:port' is not a valid URL (Port could not be cast to integer value as 'port')
# CHECK-NEXT: ValueError: the remote cache URL 'redis://:***@/0' names no host
# CHECK-NEXT: ValueError: the remote cache URL 'redis://127.0.0.1:6379/zero': the database 'zero' is not a number
# CHECK-NEXT: ValueError: the remote cache URL 'unix://' names no socket path
# CHECK-NEXT: ValueError: the remote cache URL 'redis://h:0': port 0 is not a port
# CHECK-NEXT: ValueError: the remote cache URL must be a redis://, rediss:// or unix:// URL, not int
print(error_of(lambda: KernelCache('sm_90', cache_dir=False,
                                   remote='http://example')))
# CHECK-NEXT: ValueError: the remote cache URL 'http://example' is not a redis://, rediss:// or unix:// URL

# CHECK-LABEL: TTLs
print('TTLs')
good = f'redis://127.0.0.1:{port}'
for ttl in [float('inf'), float('nan'), -1, 0, 'abc', True, 1e30]:
    print(repr(ttl), error_of(lambda: RemoteCache(good, ttl=ttl)))
print('0.5:', RemoteCache(good, ttl=0.5).ttl)
# CHECK-NEXT: inf ValueError: the remote cache TTL must be a finite number of seconds > 0 and at most 1000000000, not inf
# CHECK-NEXT: nan ValueError: the remote cache TTL must be a finite number of seconds > 0 and at most 1000000000, not nan
# CHECK-NEXT: -1 ValueError: the remote cache TTL must be a finite number of seconds > 0 and at most 1000000000, not -1
# CHECK-NEXT: 0 ValueError: the remote cache TTL must be a finite number of seconds > 0 and at most 1000000000, not 0
# CHECK-NEXT: 'abc' ValueError: the remote cache TTL must be a number of seconds, not 'abc'
# CHECK-NEXT: True ValueError: the remote cache TTL must be a number of seconds, not True
# CHECK-NEXT: 1e+30 ValueError: the remote cache TTL must be a finite number of seconds > 0 and at most 1000000000, not 1e+30
# CHECK-NEXT: 0.5: 0.5
print(error_of(lambda: RemoteCache(good, timeout=0)))
# CHECK-NEXT: ValueError: the remote cache timeout must be a finite number of seconds > 0 {{.*}}

# CHECK-LABEL: the environment
print('the environment')
for name, value in [('FLYHOIST_REMOTE_CACHE_TTL', 'inf'),
                    ('FLYHOIST_REMOTE_CACHE_TTL', 'soon'),
                    ('FLYHOIST_REMOTE_CACHE_TIMEOUT', '-3'),
                    ('FLYHOIST_REMOTE_CACHE', f'redis://:{SECRET}@h:99999')]:
    os.environ['FLYHOIST_REMOTE_CACHE'] = good
    os.environ[name] = value
    print(error_of(lambda: KernelCache('sm_90', cache_dir=False))
          .replace(SECRET, '<LEAKED>'))
    for variable in (name, 'FLYHOIST_REMOTE_CACHE'):
        os.environ.pop(variable, None)
# CHECK-NEXT: ValueError: FLYHOIST_REMOTE_CACHE_TTL='inf' must be a finite number of seconds > 0 {{.*}}
# CHECK-NEXT: ValueError: FLYHOIST_REMOTE_CACHE_TTL='soon' is not a number of seconds
# CHECK-NEXT: ValueError: FLYHOIST_REMOTE_CACHE_TIMEOUT='-3' must be a finite number of seconds > 0 {{.*}}
# CHECK-NEXT: ValueError: FLYHOIST_REMOTE_CACHE 'redis://:***@h:99999' is not a valid URL (Port out of range 0-65535) (set FLYHOIST_REMOTE_CACHE to a redis:// URL, or unset it)
os.environ['FLYHOIST_REMOTE_CACHE_TTL'] = 'inf'
print('TTL without a remote cache:',
      KernelCache('sm_90', cache_dir=False).remote)
# CHECK-NEXT: TTL without a remote cache: None
os.environ.pop('FLYHOIST_REMOTE_CACHE_TTL')
print(error_of(lambda: KernelCache('sm_90', cache_dir=False, secret=42)))
print(error_of(lambda: KernelCache('sm_90', cache_dir=False, secret='')))
# CHECK-NEXT: ValueError: the cache secret must be a str or bytes, not int
# CHECK-NEXT: ValueError: the cache secret is empty: pass None (for FLYHOIST_CACHE_SECRET) or False for none

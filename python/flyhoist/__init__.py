"""flyhoist for Python frontends: ctypes over libFlyHoistMLIRCAPI.so.

Use it from the source tree (`sys.path.insert(0, '<repo>/python')`); it has
no build step of its own and needs the Python standard library only. The
library is found through FLYHOIST_CAPI_LIB or the checkout's build*/lib
(never a sanitized build unless named; docs/INTEGRATION.md has the order).

  params.spec_param   emit `spec.param` from a tracer
  ir.Context/Module   a frontend's own context and module: hoist with the
                      pass's option string, manifest, fingerprints, compile
  ir.Target           gfx942/gfx950 code objects, sm_90 PTX
  cache.KernelCache   the two-level JIT cache (docs/INTEGRATION.md);
                      infer_params=True learns the values from plain traces
  infer               infer_spec_params, match_spec_params (TraceMismatch)
  remote.RemoteCache  its level 2 shared by machines, on Redis
  retire              stream-aware module retirement (unloads on a thread
                      of its own)
"""

from .cache import DiskCache, KernelCache, Launch, PreconditionError
from .contract import ManifestError
from .infer import TraceMismatch, infer_spec_params, match_spec_params
from .remote import RemoteCache
from .ir import (CompileError, Context, HoistError, MLIRError, Module,
                 Target, known_chips)
from .params import spec_param
from .retire import ModuleRetirer, ResidentModules

__all__ = [
    'CompileError', 'Context', 'DiskCache', 'HoistError', 'KernelCache',
    'Launch', 'MLIRError', 'ManifestError', 'Module', 'ModuleRetirer', 'PreconditionError',
    'RemoteCache', 'ResidentModules', 'Target', 'TraceMismatch',
    'infer_spec_params', 'known_chips', 'match_spec_params', 'spec_param',
]

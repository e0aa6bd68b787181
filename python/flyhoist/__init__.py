"""flyhoist for Python frontends: compile a kernel once, not once per value.

A JIT DSL bakes host integers into every kernel it compiles; when a value
only scales addresses (a page table's row stride, say), flyhoist makes it a
kernel argument instead, and `KernelCache` compiles once for every value.

Install (Debian 12 with LLVM 22: the checkout's scripts/setup.sh), in any
virtual environment; pip builds the C API library and bundles it:

    pip install '.[remote]'      # from the checkout; [remote]: Redis client
    python -m flyhoist info      # the package, its library and build

A kernel, traced by the frontend with each baked value as a `spec.param`:

    import flyhoist

    KERNEL = '''module attributes {gpu.container_module} {
      gpu.module @kernels {
        gpu.func @scale(%m: memref<?xf32>, %row: index) kernel {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          ROW_STRIDE
          STEPS
          %base = arith.muli %row, %w : index
          scf.for %i = %c0 to %n step %c1 {
            %at = arith.addi %base, %i : index
            %v = memref.load %m[%at] : memref<?xf32>
            memref.store %v, %m[%at] : memref<?xf32>
          }
          gpu.return
        }
      }
    }'''

    def trace(params):
        return KERNEL.replace('ROW_STRIDE', flyhoist.spec_param(
            'w', 'row_stride', params['row_stride'])).replace(
            'STEPS', flyhoist.spec_param('n', 'steps', params['steps']))

    cache = flyhoist.KernelCache('gfx942', log=print)
    for width in (64, 100, 128):
        launch = cache.get('scale', {'row_stride': width, 'steps': 4}, trace)
    print(cache.traced, cache.compiled)   # 1 1: one compile, three widths
    print(launch.arguments(['m', 'row']))  # ['m', 'row', 128]
    cache.get('scale', {'row_stride': 64, 'steps': 8}, trace)
    # the recompile log (log=, or FLYHOIST_LOG=recompiles on stderr):
    # compiled @kernels::@scale again: 'steps' 4 -> 8 (kept specialized:
    # loop bound or step at ...)

`row_stride` only scales an address: it is hoisted, and each launch passes
it. `steps` bounds a loop: it stays baked in, and a new value compiles
again, saying why. Code objects are kept on disk (~/.cache/flyhoist,
`python -m flyhoist cache info|clear`, FLYHOIST_CACHE_MAX_BYTES) and, with
FLYHOIST_REMOTE_CACHE=redis://host:port, shared by machines.
examples/jit_frontend.py is a whole frontend; docs/INTEGRATION.md the
reference.

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

from ._discovery import (LibraryError, LibraryMismatch, LibraryNotFound,
                         package_version)
from .cache import DiskCache, KernelCache, Launch, PreconditionError
from .contract import ManifestError
from .infer import TraceMismatch, infer_spec_params, match_spec_params
from .remote import RemoteCache
from .ir import (CompileError, Context, HoistError, MLIRError, Module,
                 Target, known_chips)
from .params import spec_param
from .retire import ModuleRetirer, ResidentModules

__version__ = package_version()

__all__ = [
    'CompileError', 'Context', 'DiskCache', 'HoistError', 'KernelCache',
    'Launch', 'LibraryError', 'LibraryMismatch', 'LibraryNotFound',
    'MLIRError', 'ManifestError', 'Module', 'ModuleRetirer',
    'PreconditionError', 'RemoteCache', 'ResidentModules', 'Target',
    'TraceMismatch', 'infer_spec_params', 'known_chips', 'match_spec_params',
    'spec_param',
]

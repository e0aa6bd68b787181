"""The key of a module's code objects: everything that can change their bytes.

One place computes it, for the in-memory, disk and remote levels alike
(KernelCache._attach_objects):

  schema          this layout of the key (KEY_SCHEMA)
  build           the library's build identity: flyhoist's version and
                  source revision, and MLIR's version
                  (flyhoistGetBuildIdentity), so that a flyhoist that lowers
                  differently never reads another build's objects
  capi            the C API and MLIR versions (flyhoistGetRevision)
  pipeline        the target's whole pipeline string (chip, format, options)
  module          the compile fingerprint of the module the pipeline runs
                  on (flyhoistPrintCompileFingerprint): its gpu.modules
                  with their targets and records, any gpu.binary, and the
                  attributes of the ops around them (the root's data
                  layout), in generic form without locations. Host code is
                  left out: the pipelines lower each gpu.module on its own,
                  and a launcher that passes a hoisted value as a constant
                  must not make every value a compile.

The fingerprint is taken in C++ because hoist records hold locations as
attributes, which MLIR prints whatever the flags say: only there can they
be stripped (as fingerprintGPUModule does), and one function serves the C
API's hosts too.

`check_targets` refuses, before any compile, a gpu.module that carries a
target other than the requested chip: the pipeline would append its own
and return the module's (a gfx90a object under a gfx942 key).
"""

import hashlib
import json

from .ir import CompileError, _Collector

#: Changes when the key's inputs change: old entries are then never read.
KEY_SCHEMA = 2

# The kind of target each pipeline attaches (flyhoistPrintGPUTargets'
# `kind`).
_TARGET_KINDS = {'amdgpu': 'rocdl', 'nvvm': 'nvvm'}


class ObjectKey(str):
    """The hex digest that names a module's objects in every cache, with
    `symbols`: the gpu.module and gpu.binary symbols its entry must hold
    (the disk and remote caches check them)."""

    symbols = None

    def __new__(cls, digest, symbols):
        key = super().__new__(cls, digest)
        key.symbols = frozenset(symbols)
        return key


def compile_fingerprint(module):
    """flyhoistPrintCompileFingerprint of an ir.Module."""
    out = _Collector()
    with module.context.lock:
        ok = module.lib.flyhoistPrintCompileFingerprint(
            module.op, out.callback, None).value
        diagnostics = module.context.take_diagnostics()
    if not ok:
        raise CompileError('no compile fingerprint', diagnostics)
    return out.text()


def check_targets(module, target):
    """Raises CompileError when a gpu.module of `module` carries a target
    that is not `target`'s kind and chip: its code would be for that chip,
    under a key that says `target.chip`. The targets are read as the
    library reads the attributes (Module.gpu_targets)."""
    kind = _TARGET_KINDS[target.kind]
    for gpu_module in module.gpu_targets():
        for found in gpu_module['targets']:
            if found['kind'] == kind and found['chip'] == target.chip:
                continue
            raise CompileError(
                f'gpu.module @{gpu_module["symbol"]} carries the target '
                f'{found["attribute"]}, but code objects for {target.chip} '
                f'were asked for ({target!r}): the compile would make code '
                f'for the module\'s own target and pass it off as '
                f'{target.chip} code. Remove its `targets` attribute, or ask '
                f'for a Target of that chip')


def device_symbols(module):
    """The symbols of the gpu.modules and gpu.binary ops: those a compile
    returns objects for."""
    return [module._symbol(op) for op in module._walk()
            if module.op_name(op) in ('gpu.module', 'gpu.binary')]


def object_key(module, target, fingerprints):
    """(okey, digest) of `module`'s code objects under `target`: `okey`
    the in-memory key, (digest, sorted gpu.module fingerprints) (the second
    part is what Launch.fingerprints shows); `digest` an ObjectKey, the
    name of the objects in the disk and remote caches. Raises CompileError
    first when a gpu.module carries another chip's target."""
    check_targets(module, target)
    lib = module.lib
    text = json.dumps({
        'schema': KEY_SCHEMA,
        'build': lib.build_identity,
        'capi': lib.revision,
        'pipeline': target.key(),
        'module': compile_fingerprint(module),
    }, sort_keys=True)
    digest = ObjectKey(hashlib.sha256(text.encode()).hexdigest(),
                       device_symbols(module))
    return (str(digest), tuple(sorted(fingerprints.items()))), digest


def inference_key(lib, target, options, name):
    """The digest that names a kernel's inference state (persist.py) in
    the disk and remote caches: the same build identity as code objects,
    the target's pipeline, the pass options the templates are hoisted
    with, and the kernel's stable name, under `kind: inference` (never an
    object key)."""
    text = json.dumps({
        'schema': KEY_SCHEMA,
        'kind': 'inference',
        'build': lib.build_identity,
        'capi': lib.revision,
        'pipeline': target.key(),
        'options': options,
        'kernel': name,
    }, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()

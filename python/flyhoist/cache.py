"""KernelCache: compile once per kernel, never once per hoisted value.

The protocol (docs/INTEGRATION.md, "The cache protocol"):

1. Level 1, before tracing: the key is the kernel's identity plus the values
   of its parameters that are not known to be hoisted. The names a kernel
   hoists are learned from its first compile's manifest, so a call with a
   new page-table width is a dictionary lookup: no tracing, no pass, no
   compile. A level-1 entry holds one or more variants; each admits the
   values its recorded preconditions (and anything it baked in) allow.
2. Level 2, after tracing and hoisting: the code object is keyed by the
   fingerprints of the GPU modules and the target's pipeline, in memory and
   in an on-disk cache (FLYHOIST_CACHE_DIR, default ~/.cache/flyhoist) that
   concurrent processes share: writes are atomic and a per-key file lock
   makes a second process wait for the first one's compile instead of
   repeating it.
3. Every call checks the preconditions of the variant it returns. A value
   that breaks one is traced again: hoisting it gives a variant whose facts
   hold for it, or, when the facts are the frontend's own (an `equals`
   contract the arguments break), the kernel is compiled fully specialized.
   Nothing is launched with a broken precondition.
4. FLYHOIST_LOG=recompiles prints why a kernel compiled again, e.g.
   "compiled @k again: 'heads' 64 -> 32 (kept specialized: loop bound or
   step at kernel.mlir:12:5)".
5. With a loader, loaded modules are bounded (`capacity`) and a dropped one
   is unloaded only after every stream it launched on has passed it, on
   the retirer's own thread (retire.ModuleRetirer).
"""

import contextlib
import errno
import hashlib
import json
import os
import re
import sys
import tempfile
import threading

from . import _objects
from .infer import Inference
from .ir import CompileError, Context, Target
from .contract import (ManifestError, check_manifest, compile_precondition,
                       kept_reason_text, precondition_text)
from .remote import RemoteCache, from_setting as _remote_from_setting
from .retire import ModuleRetirer, ResidentModules

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms we run on
    fcntl = None


class PreconditionError(RuntimeError):
    """A launch whose arguments break what the kernel was compiled for."""


# --------------------------------------------------------------------------
# Preconditions
# --------------------------------------------------------------------------

def _divisor(entry):
    """The power of two the kernel assumes divides the value (its
    `divisible-by` precondition, 1 without one). Informational: the value is
    passed as is and the divisibility is one of the preconditions checked
    before a launch."""
    for fact in entry.get('preconditions', ()):
        if isinstance(fact, dict) and fact.get('kind') == 'divisible-by':
            return int(fact['divisor'])
    return 1


# --------------------------------------------------------------------------
# Variants: one compiled module and what it admits
# --------------------------------------------------------------------------

class _Guard:
    __slots__ = ('name', 'text', 'check')

    def __init__(self, name, text, check):
        self.name, self.text, self.check = name, text, check

    def holds(self, values, args):
        """Whether the guard holds for `values` (all parameters) and `args`:
        True, False, or None when it needs `args` and has none."""
        return self.check(values[self.name], args, values)


class HoistedArgument:
    """A hoisted parameter of one kernel: where and how to pass it."""
    __slots__ = ('name', 'argument', 'type', 'divisor')

    def __init__(self, entry):
        self.name = entry['name']
        self.argument = entry.get('argument')
        self.type = entry.get('type', 'index')
        self.divisor = _divisor(entry)

    def encode(self, value):
        # The kernel takes the value itself (docs/MANIFEST.md): facts such
        # as divisibility are assumptions it states, not an encoding.
        return value


class Variant:
    """A compiled module and the values it may be launched with."""

    def __init__(self, kernel, params, manifest, known_hoisted,
                 specialized=False):
        self.kernel = kernel
        self.params = dict(params)
        self.manifest = manifest
        self.specialized = specialized
        self.why_specialized = None  # a reason other than the manifest's
        self.okey = None
        self.objects = None
        self.kernels = {}      # symbol -> [HoistedArgument] by argument
        self.kept = {}         # name -> (symbol, kept entry)
        hoisted_anywhere = set()
        guards = []
        if not specialized:
            check_manifest(manifest)
        for kernel_entry in manifest.get('kernels', ()):
            symbol = kernel_entry['symbol']
            arguments = []
            for entry in kernel_entry.get('hoisted', ()):
                hoisted_anywhere.add(entry['name'])
                argument = HoistedArgument(entry)
                if argument.argument is not None and \
                        entry.get('source', 'argument') == 'argument':
                    arguments.append(argument)
                # (The first is the range of the type it is passed as.)
                for fact in entry.get('preconditions', ()):
                    guards.append(_Guard(entry['name'],
                                         precondition_text(fact),
                                         compile_precondition(fact)))
            arguments.sort(key=lambda h: h.argument)
            self.kernels[symbol] = arguments
            for entry in kernel_entry.get('kept', ()):
                self.kept.setdefault(entry['name'], (symbol, entry))
        # A name is hoisted when no kernel keeps it.
        self.hoisted = frozenset(hoisted_anywhere - set(self.kept))
        # What this variant baked in although the level-1 key leaves it out.
        for name in sorted(set(known_hoisted) - self.hoisted):
            if name in self.params:
                guards.append(_Guard(
                    name, f'value == {self.params[name]} (baked in)',
                    lambda v, a, values=None, c=self.params[name]: v == c))
        self.guards = guards
        self.names = frozenset(self.params)

    def failure(self, values, args):
        """The first guard `values` (and `args`) break, or None. A guard that
        needs the arguments and has none passes here; Launch.arguments
        checks it again."""
        if values.keys() != self.names:
            return _Guard(None, 'the same parameter names', None)
        for guard in self.guards:
            if guard.holds(values, args) is False:
                return guard
        return None

    def symbol_for(self, name):
        if name in self.kept:
            return self.kept[name][0]
        return next(iter(self.kernels), None) or str(self.kernel)

    def why_not_hoisted(self, name, values, args):
        """Why a new value of `name` needed a compile (recompile log)."""
        if self.why_specialized:
            return self.why_specialized
        if name in self.kept:
            _, entry = self.kept[name]
            return (f'kept specialized: {kept_reason_text(entry)} at '
                    f'{entry.get("location", "unknown")}')
        for guard in self.guards:
            if guard.name == name and name in values and \
                    guard.holds(values, args) is False:
                return f'precondition {guard.text} does not hold'
        if name not in self.params:
            return 'a new parameter'
        return 'not used by a kernel'


class Launch:
    """What a call gets: the code objects (or loaded module) of its variant
    and the values to pass."""
    __slots__ = ('cache', 'variant', 'values')

    def __init__(self, cache, variant, values):
        self.cache, self.variant, self.values = cache, variant, values

    @property
    def objects(self):
        """{gpu.module symbol: code object bytes}."""
        return self.variant.objects

    @property
    def fingerprints(self):
        return dict(self.variant.okey[1])

    @property
    def specialized(self):
        """True when this call got a fully specialized compile."""
        return self.variant.specialized

    def arguments(self, runtime_args=(), kernel=None, lowered=False,
                  args=None):
        """The kernel's runtime arguments with each hoisted value inserted.

        lowered=False: `runtime_args` holds one entry per argument of the
        MLIR kernel (a memref is one entry) and each hoisted value goes in
        at the manifest's `argument`. That is the MLIR signature, what a
        `gpu.launch_func` or a launcher that lowers its own host code takes:
        it is NOT the code object's parameter list when the kernel has
        memref arguments, which lower to several parameters each.

        lowered=True: `runtime_args` holds the code object's kernel
        parameters other than the hoisted values, each memref expanded the
        way the target's pipeline lowers it (allocated pointer, aligned
        pointer, offset, sizes, strides; one pointer under
        use-bare-ptr-memref-call-conv=true), and each hoisted value goes in
        at its `kernel_parameter` slot: the result is the full lowered
        argument list a driver launch takes (docs/MANIFEST.md, "Launch
        ABI"). Preconditions that name the kernel's arguments
        (`value == argument i`) count MLIR arguments: give those as `args`.

        Checks every precondition; raises PreconditionError rather than
        return arguments the kernel would compute wrong with (also when a
        precondition needs `args` in lowered mode and none were given)."""
        runtime_args = list(runtime_args)
        checked = (runtime_args if not lowered else
                   (list(args) if args is not None else None))
        for guard in self.variant.guards:
            holds = guard.holds(self.values, checked)
            if holds is None and lowered:
                raise PreconditionError(
                    f'{self.variant.symbol_for(guard.name)}: '
                    f'{guard.name!r} must satisfy {guard.text}, which names '
                    f'the kernel\'s own arguments: pass them as args= (one '
                    f'per MLIR argument) to arguments(lowered=True)')
            if holds is False:
                raise PreconditionError(
                    f'{self.variant.symbol_for(guard.name)}: '
                    f'{guard.name!r} = {self.values[guard.name]} breaks '
                    f'{guard.text}; pass args= to KernelCache.get to get a '
                    f'kernel compiled for it')
        kernels = self.variant.kernels
        if kernel is None:
            if len(kernels) > 1:
                raise ValueError(f'several kernels ({", ".join(kernels)}); '
                                 f'name one')
            kernel = next(iter(kernels), None)
        if lowered:
            return self._lowered_arguments(runtime_args, kernel)
        for hoisted in kernels.get(kernel, ()):
            runtime_args.insert(hoisted.argument,
                                hoisted.encode(self.values[hoisted.name]))
        return runtime_args

    @property
    def memref_convention(self):
        """'bare_pointers' when the target's pipeline passes memrefs as bare
        pointers (use-bare-ptr-memref-call-conv=true), else
        'memref_descriptors': the `kernel_parameter` key that applies."""
        target = getattr(self.cache, 'target', None)
        options = getattr(target, 'options', '') or ''
        match = re.search(r'(?:^|\s)use-bare-ptr-memref-call-conv'
                          r'(?:=(\S*))?(?=\s|$)', options)
        if match and (match[1] is None or
                      match[1].lower() in ('true', '1')):
            return 'bare_pointers'
        return 'memref_descriptors'

    def _lowered_arguments(self, parameters, kernel):
        convention = self.memref_convention
        slots = []
        for entry in self._manifest_entry(kernel).get('hoisted', ()):
            if entry.get('source', 'argument') != 'argument' or \
                    entry.get('argument') is None:
                continue  # an `equals` value: no parameter of its own
            where = entry.get('kernel_parameter')
            if not isinstance(where, dict) or convention not in where:
                raise ValueError(
                    f'{kernel}: the manifest gives no kernel_parameter for '
                    f'{entry["name"]!r} (a library older than this package)')
            if where[convention] is None:
                raise ValueError(
                    f'{kernel}: its signature has a memref that '
                    f'{convention.replace("_", " ")} cannot lower')
            slots.append((where[convention], entry['name']))
        slots.sort()
        if slots and len(parameters) != slots[0][0]:
            raise ValueError(
                f'{kernel}: the code object takes {slots[0][0]} parameters '
                f'before its hoisted ones ({convention.replace("_", " ")}), '
                f'got {len(parameters)}')
        for slot, name in slots:
            parameters.insert(slot, self.values[name])
        return parameters

    def _manifest_entry(self, kernel):
        for entry in self.variant.manifest.get('kernels', ()):
            if entry.get('symbol') == kernel:
                return entry
        return {}

    def module_for(self, stream):
        """The loaded module (the cache's loader made it), noting that it
        launches on `stream` so that it is unloaded only after that
        stream's work is done."""
        module = self.cache._resident.get(self.variant.okey,
                                          self.variant.objects)
        self.cache.retirer.launched(module, stream)
        return module


# --------------------------------------------------------------------------
# The on-disk cache
# --------------------------------------------------------------------------

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
    `warn(key, message)` is told once per kind of trouble.
    """

    def __init__(self, root, warn=None):
        self.root = root
        self._warn = warn or _stderr_warning
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

    def get(self, digest):
        try:
            with open(self._path(digest), 'rb') as f:
                data = f.read()
        except OSError:
            return None
        return _objects.decode(data, digest)

    def put(self, digest, objects):
        """Writes the entry; False (after a warning) when it cannot."""
        path = self._path(digest)
        temporary = None
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path),
                                             prefix='.tmp-')
            with os.fdopen(fd, 'wb') as f:
                f.write(_objects.encode(objects, digest))
                f.flush()
                # mkstemp makes 0600 files whatever the umask.
                os.fchmod(f.fileno(), 0o666 & ~_umask())
                os.fsync(f.fileno())
            os.replace(temporary, path)
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
        path = os.path.join(self.root, 'locks', digest + '.lock')
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


# --------------------------------------------------------------------------
# The cache
# --------------------------------------------------------------------------

def _logging_enabled(topic):
    return topic in {t.strip() for t in
                     os.environ.get('FLYHOIST_LOG', '').split(',')}


class KernelCache:
    """A JIT's kernel cache over hoist-stride-specialization.

    `get(kernel, params, trace, args=None)`:
      kernel  any hashable identity of the kernel (its function, say)
      params  {name: int}: the values the frontend would bake in
      trace   trace(params) -> MLIR text of the module, spec.param for each
              value (called on a miss only)
      args    the kernel's own runtime arguments, when preconditions may
              involve them (`equals` contracts)
    returns a Launch.

    target:    a Target, or a chip name ('gfx942', 'sm_90')
    options:   the pass's option string ('divisibility=16 ...')
    cache_dir: the on-disk cache (None: FLYHOIST_CACHE_DIR or
               ~/.cache/flyhoist; False: none)
    remote:    the remote cache (remote.py): a redis:// URL or a
               RemoteCache; None: FLYHOIST_REMOTE_CACHE if set; False: none
    loader:    loader(objects) -> a loaded module (Launch.module_for)
    capacity:  how many loaded modules stay resident (None: all)
    backend:   the stream/event backend of the retirer (retire.py)
    infer_params: `trace` may emit plain constants: the values are learned
               from the traces (infer.py); every new value is traced
    """

    def __init__(self, target, options='', cache_dir=None, loader=None,
                 capacity=None, backend=None, retirer=None, context=None,
                 log=None, remote=None, infer_params=False):
        self.target = target if isinstance(target, Target) else Target(target)
        self.options = options
        self._context = context
        self._user_log = log
        self._warned = set()
        self.warnings = []
        self.disk = None
        if cache_dir is not False:
            root = cache_dir or default_cache_dir()
            if root is None:
                self._warn('disk', 'no disk cache: HOME is not set and the '
                                   'user has no home directory; set '
                                   'FLYHOIST_CACHE_DIR to share compiles '
                                   'between processes')
            else:
                self.disk = DiskCache(root, warn=self._warn)
        self.remote = _remote_from_setting(remote, warn=self._warn)
        self.retirer = retirer or (ModuleRetirer(backend) if backend else
                                   None)
        self._owns_retirer = retirer is None and self.retirer is not None
        self._resident = None
        if loader is not None:
            if self.retirer is None:
                raise ValueError('a loader needs a backend (or retirer) to '
                                 'unload modules safely')
            self._resident = ResidentModules(
                capacity, lambda okey, objects: loader(objects), self.retirer)
        self._log = log if log is not None else (
            (lambda message: print(f'[flyhoist] {message}', file=sys.stderr,
                                   flush=True))
            if _logging_enabled('recompiles') else None)
        self._lock = threading.RLock()
        self._key_names = {}   # kernel -> names the level-1 key holds
        self._hoisted_names = {}  # kernel -> the names it leaves out
        self._entries = {}     # level-1 key -> [Variant]
        self._last = {}        # kernel -> the last Variant compiled
        self._objects = {}     # level-2 key -> {symbol: bytes}
        self._unlowerable = {}  # level-2 key -> its CompileError
        self.traced = self.compiled = self.disk_hits = self.remote_hits = 0
        self.hits = self.misses = 0
        self.specialized_after_failure = 0
        self.recompiles = []
        self._inference = Inference(self) if infer_params else None

    def _warn(self, key, message):
        """Warns once per `key`: on stderr, and to the `log` given."""
        if key in self._warned:
            return
        self._warned.add(key)
        self.warnings.append(message)
        print(f'[flyhoist] warning: {message}', file=sys.stderr, flush=True)
        if self._user_log is not None:
            self._user_log(f'warning: {message}')

    @property
    def context(self):
        if self._context is None:
            self._context = Context()
        return self._context

    # -- level 1 ------------------------------------------------------------

    def _key(self, kernel, params):
        names = self._key_names.get(kernel)
        if names is None:
            return (kernel, tuple(sorted(params.items())))
        try:
            return (kernel, tuple([params[n] for n in names]))
        except KeyError:
            return (kernel, tuple(sorted(params.items())))

    def get(self, kernel, params, trace, args=None):
        if self._inference is not None:
            return self._inference.get(kernel, params, trace, args)
        variants = self._entries.get(self._key(kernel, params))
        if variants:
            for variant in variants:
                if variant.failure(params, args) is None:
                    self.hits += 1
                    return Launch(self, variant, params)
        return self._miss(kernel, params, trace, args)

    # -- a miss -------------------------------------------------------------

    def _miss(self, kernel, params, trace, args):
        with self._lock:
            self.misses += 1
            text = trace(params)
            self.traced += 1
            name = getattr(kernel, '__name__', None) or str(kernel)
            source = f'{name}.mlir'
            known = self._known_hoisted(kernel)
            context = self.context
            module = context.parse(text, source)
            try:
                manifest = module.hoist(self.options)
                variant = Variant(kernel, params, manifest, known)
                if variant.failure(params, args) is not None:
                    # The facts the pass chose hold for the value it saw;
                    # what fails is a contract on the arguments: bake it in.
                    module.close()
                    module = context.parse(text, source)
                    module.run_pipeline(
                        'builtin.module(materialize-specialization)')
                    variant = Variant(kernel, params, {'kernels': []},
                                      set(params), specialized=True)
                fingerprints = module.fingerprints()
                try:
                    origin = self._attach_objects(variant, module,
                                                  fingerprints)
                except CompileError as error:
                    if variant.specialized:
                        raise
                    # Hoisting must not turn a kernel that compiles into
                    # one that does not: bake the values in instead.
                    module.close()
                    module = context.parse(text, source)
                    variant, origin = self._specialize_after_failure(
                        kernel, params, module, variant, error)
            finally:
                module.close()
            self._record(kernel, variant, params, args, origin)
            return Launch(self, variant, params)

    def _specialize_after_failure(self, kernel, params, module, hoisted,
                                  error):
        """The kernel compiled fully specialized for `params`, after its
        hoisted form failed to lower with `error`; logged with the reason."""
        module.run_pipeline('builtin.module(materialize-specialization)')
        variant = Variant(kernel, params, {'kernels': []}, set(params),
                          specialized=True)
        variant.why_specialized = 'kept specialized: its hoisted form does ' \
                                  'not lower'
        origin = self._attach_objects(variant, module, module.fingerprints())
        self.specialized_after_failure += 1
        key = ('lowering', hoisted.okey)
        if key not in self._warned:
            # Said once per hoisted module; later values of the kernel
            # show in the recompile log with the short reason.
            reason = next((line for line in error.diagnostics
                           if ': error: ' in line),
                          str(error).split('\n')[0])
            values = ', '.join(f'{n!r} = {v}'
                               for n, v in sorted(params.items()))
            message = (f'compiled {hoisted.symbol_for(None)} fully '
                       f'specialized ({values}): its hoisted form does not '
                       f'lower: {reason}')
            self.recompiles.append(message)
            # A warning goes to stderr and to the log given: where the
            # recompile log goes either way.
            self._warn(key, f'{message}; every new value of its hoisted '
                            f'parameters compiles again')
        return variant, origin

    def _known_hoisted(self, kernel):
        return self._hoisted_names.get(kernel, frozenset())

    def _record(self, kernel, variant, params, args, origin):
        previous = self._last.get(kernel)
        if kernel not in self._key_names:
            # The first compile teaches which names a new value of which
            # costs nothing: the key leaves them out from now on.
            self._key_names[kernel] = tuple(sorted(
                n for n in params if n not in variant.hoisted))
            self._hoisted_names[kernel] = frozenset(
                n for n in params if n in variant.hoisted)
        self._entries.setdefault(self._key(kernel, params), []).append(
            variant)
        self._last[kernel] = variant
        if previous is not None:
            self._log_recompile(previous, variant, params, args, origin)

    def _log_recompile(self, previous, variant, params, args, origin):
        changes = []
        symbol = None
        failing = {g.name for g in previous.guards
                   if g.name in params and
                   g.holds(params, args) is False}
        for name in sorted(set(params) | set(previous.params)):
            old, new = previous.params.get(name), params.get(name)
            if old == new:
                continue
            if name in previous.hoisted and name not in failing:
                continue  # a runtime value there: not why it compiled
            symbol = symbol or previous.symbol_for(name)
            why = previous.why_not_hoisted(name, params, args)
            changes.append(f'{name!r} {old} -> {new} ({why})')
        if not changes:
            guard = previous.failure(params, args)
            changes.append(f'same values ({guard.text if guard else "?"} '
                           f'does not hold)')
        if variant.specialized:
            changes.append('compiled fully specialized')
        message = (f'compiled {symbol or previous.symbol_for(None)} again: '
                   + '; '.join(changes))
        if origin != 'compiled':
            message += f' [code object from {origin}]'
        self.recompiles.append(message)
        if self._log:
            self._log(message)

    # -- level 2 ------------------------------------------------------------

    def _attach_objects(self, variant, module, fingerprints):
        """Finds or makes the code objects; says where they came from."""
        okey = (self.target.key(), tuple(sorted(fingerprints.items())))
        variant.okey = okey
        objects = self._objects.get(okey)
        if objects is not None:
            variant.objects = objects
            return 'memory'
        failed = self._unlowerable.get(okey)
        if failed is not None:
            raise failed  # this module failed to lower before
        # The library's revision names the LLVM that makes the objects.
        digest = hashlib.sha256(json.dumps(
            [self.context.lib.revision, okey]).encode()).hexdigest()
        try:
            objects, origin = self._level2(digest, module)
        except CompileError as error:
            self._unlowerable[okey] = error
            raise
        if origin == 'the disk cache':
            self.disk_hits += 1
        elif origin == 'the remote cache':
            self.remote_hits += 1
        self._objects[okey] = objects
        variant.objects = objects
        return origin

    def _level2(self, digest, module):
        """(objects, origin) from the disk cache, the remote cache or a
        compile, in that order, with the disk lock (processes of this
        machine) and the remote lock (other machines) held around the
        compile. A cache that fails is a miss; the compile is kept in
        memory whatever the caches do."""
        disk, remote = self.disk, self.remote
        objects = disk.get(digest) if disk else None
        if objects is not None:
            return objects, 'the disk cache'
        with disk.lock(digest) if disk else contextlib.nullcontext():
            # Another process may have compiled it while we waited.
            objects = disk.get(digest) if disk else None
            if objects is not None:
                return objects, 'the disk cache'
            objects = remote.get(digest) if remote else None
            if objects is None:
                with remote.lock(digest) if remote else \
                        contextlib.nullcontext() as found:
                    objects = found
                    if objects is None:
                        objects = module.compile(self.target)
                        self.compiled += 1
                        if disk:
                            disk.put(digest, objects)
                        if remote:
                            remote.put(digest, objects)
                        return objects, 'compiled'
            if disk:
                disk.put(digest, objects)
            return objects, 'the remote cache'

    # -- shutdown -------------------------------------------------------------

    def close(self):
        """Unloads every loaded module once its streams are done (and
        stops the retirer's thread if this cache made the retirer)."""
        if self._resident is not None:
            self._resident.clear()
        if self._owns_retirer:
            self.retirer.close()
        if self._inference is not None:
            self._inference.close()
        if self._context is not None:
            self._context.close()
            self._context = None

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

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Any, Callable, Hashable, Mapping, Sequence

from . import _compile_worker
from . import _objects, keys
from .disk import DiskCache, default_cache_dir
from .infer import Inference
from .ir import CompileError, Context, Target, check_options, check_pipeline
from .remote import RemoteCache, from_setting as _remote_from_setting
from .retire import ModuleRetirer, ResidentModules
from .variant import HoistedArgument, Launch, PreconditionError, Variant

__all__ = ['DiskCache', 'HoistedArgument', 'KernelCache', 'Launch',
           'PreconditionError', 'RemoteCache', 'Variant',
           'default_cache_dir']

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
               from the traces (infer.py); every new value is traced. What
               is learned is kept in the disk and remote caches under the
               kernel's stable name (persist.py: a str, a function, a code
               object, or a tuple of those with ints and strs)
    probe_traces: inference may call `trace` at values the frontend did not
               ask for (never compiled or launched) to see how parameters
               relate (infer.py); False: only at the values asked for
    compile_in_worker: lower in a worker process, where a fatal error of
               LLVM's cannot end this one (_compile_worker.py); None:
               unless FLYHOIST_COMPILE_WORKER=0
    secret:    authenticates the disk and remote caches' entries (HMAC):
               only entries written with it are read. None:
               FLYHOIST_CACHE_SECRET if set; False: none
               (docs/INTEGRATION.md, "Who the caches trust")
    Bad options and settings raise ValueError here, not at the first get.
    """

    def __init__(self, target: Target | str, options: str = '',
                 cache_dir: str | bool | None = None,
                 loader: Callable[[dict[str, bytes]], Any] | None = None,
                 capacity: int | None = None, backend: Any = None,
                 retirer: ModuleRetirer | None = None,
                 context: Context | None = None,
                 log: Callable[[str], Any] | None = None,
                 remote: str | RemoteCache | bool | None = None,
                 infer_params: bool = False,
                 probe_traces: bool = True,
                 compile_in_worker: bool | None = None,
                 secret: str | bytes | bool | None = None) -> None:
        self.target = target if isinstance(target, Target) else Target(target)
        self.options = options
        self._context = context
        self._check_settings()
        secret = _objects.secret_from_setting(secret)
        self.compile_in_worker = (_compile_worker.enabled_by_default()
                                  if compile_in_worker is None
                                  else bool(compile_in_worker))
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
                self.disk = DiskCache(root, warn=self._warn,
                                      secret=secret)
        self.remote = _remote_from_setting(remote, warn=self._warn,
                                           secret=secret)
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
        self.probed = 0  # traces inference asked for (a subset of traced)
        self.probe_traces = bool(probe_traces)
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

    def _check_settings(self):
        """The pass options and the target's pipeline, parsed by the
        library as every compile will: a ValueError now, naming the option,
        rather than at the first get."""
        try:
            check_options(self.context, self.options)
        except ValueError as error:
            raise ValueError(f'invalid options {self.options!r} for '
                             f'hoist-stride-specialization: {error}') from None
        check_pipeline(self.context, self.target.pipeline())

    @property
    def context(self) -> Context:
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

    def get(self, kernel: Hashable, params: Mapping[str, int],
            trace: Callable[[dict[str, int]], str],
            args: Sequence[Any] | None = None) -> Launch:
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
                if variant.failure(params, args) is None:
                    variant, origin = self.attach_or_specialize(
                        variant, module, params, text, source)
                else:
                    # The facts the pass chose hold for the value it saw;
                    # what fails is a contract on the arguments: bake it in.
                    module.close()
                    module = context.parse(text, source)
                    variant, origin = self.compile_specialized(
                        kernel, params, module)
            finally:
                module.close()
            self._record(kernel, variant, params, args, origin)
            return Launch(self, variant, params)

    # -- compiles, and the fallback every route shares ------------------------

    UNLOWERABLE = 'kept specialized: its hoisted form does not lower'

    def compile_specialized(self, kernel, params, module, why=None):
        """`module` (the trace as the frontend gave it) with every value
        baked in (materialize-specialization) and compiled: (variant,
        origin). Raises CompileError: there is nothing left to fall back to."""
        module.run_pipeline('builtin.module(materialize-specialization)')
        variant = Variant(kernel, params, {'kernels': []}, set(params),
                          specialized=True)
        variant.why_specialized = why
        origin = self._attach_objects(variant, module, module.fingerprints())
        return variant, origin

    def attach_or_specialize(self, variant, module, params, text, source):
        """The code objects of `variant`, compiled from its hoisted
        `module`: (variant, origin). A hoisted module that does not lower
        (or that ends the compile worker) is never an error of the JIT:
        the trace `text` is compiled fully specialized for `params` instead,
        with one warning and a recompile-log line. Every route (KernelCache's
        and inference's) comes through here."""
        try:
            return variant, self._attach_objects(variant, module,
                                                 module.fingerprints())
        except CompileError as error:
            if variant.specialized:
                raise
            failure = error
        # Hoisting must not turn a kernel that compiles into one that does
        # not: bake the values in instead.
        with self.context.parse(text, source) as fresh:
            return self._specialize_after_failure(variant, params, fresh,
                                                  failure)

    def _specialize_after_failure(self, hoisted, params, module, error):
        """The kernel compiled fully specialized for `params`, after its
        hoisted form failed to lower with `error`; logged with the reason."""
        variant, origin = self.compile_specialized(
            hoisted.kernel, params, module, self.UNLOWERABLE)
        self.specialized_after_failure += 1
        key = ('lowering', hoisted.okey)
        if key not in self._warned:
            # Said once per hoisted module; later values of the kernel
            # show in the recompile log with the short reason.
            reason = next((f'{r["location"]}: error: {r["message"]}'
                           for r in error.records
                           if r['severity'] == 'error'),
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
        # Everything that can change the objects' bytes (keys.py); a
        # gpu.module carrying another chip's target is a CompileError.
        okey, digest = keys.object_key(module, self.target, fingerprints)
        variant.okey = okey
        objects = self._objects.get(okey)
        if objects is not None:
            variant.objects = objects
            return 'memory'
        failed = self._unlowerable.get(okey)
        if failed is not None:
            raise failed  # this module failed to lower before
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
                        objects = self._compile(module)
                        self.compiled += 1
                        if disk:
                            disk.put(digest, objects)
                        if remote:
                            remote.put(digest, objects)
                        return objects, 'compiled'
            if disk:
                disk.put(digest, objects)
            return objects, 'the remote cache'

    def _compile(self, module):
        """The target's code objects for `module`: in a compile worker,
        where a fatal error of LLVM's ends the worker (a CompileError here)
        and not this process; in this process with compile_in_worker=False
        or where no worker can start (warned once)."""
        if self.compile_in_worker:
            try:
                return _compile_worker.compile_module(module, self.target)
            except _compile_worker.WorkerUnavailable as error:
                self.compile_in_worker = False
                self._warn('worker', f'no compile worker ({error}); '
                                     f'compiling in this process, where a '
                                     f'fatal error of LLVM ends it')
        return module.compile(self.target)

    # -- shutdown -------------------------------------------------------------

    def close(self) -> None:
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

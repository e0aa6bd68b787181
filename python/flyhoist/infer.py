"""Inference of a kernel's specialization values from the frontend's traces.

For a frontend that marks nothing: its `trace(values)` emits plain
`arith.constant`s. Two traces of one kernel for two values, aligned op by op
(flyhoistInferSpecParams), show which constants depend on the value; they
become `spec.param`s and the hoisting pass runs as for a marked kernel. Every
later value is traced and matched against that template
(flyhoistMatchSpecParams): the match gives the constants of its own trace,
which the launch passes for the hoisted parameters. No value is launched on
code its trace was not proven equal to.

KernelCache(target, infer_params=True) uses `Inference`:
  1st value   trace, compile (as without inference: nothing to learn yet)
  2nd value   trace, infer against the 1st trace, hoist, compile the template
  later       trace, match: the template's code object, or, when the trace
              does not match or a kept parameter changed, a compile for this
              value with the reason in the recompile log

A compile that does not lower (or ends the compile worker) falls back as on
KernelCache's own route, through the same KernelCache.attach_or_specialize:
the trace compiled fully specialized, one warning, a recompile-log line.
When it is the template's, later values get specialized compiles too.
"""

import ctypes
import json

from . import _capi
from .contract import kept_reason_text
from .ir import HoistError, MLIRError


class TraceMismatch(MLIRError):
    """Two traces of a kernel that differ beyond integer constants."""

    def summary(self):
        """One line: what differs, where, and where in the other trace."""
        error = next((d for d in self.diagnostics if ': error: ' in d), None)
        if error is None:
            return str(self).splitlines()[0]
        location, _, message = error.partition(': error: ')
        note = next((d for d in self.diagnostics if ': note: ' in d), None)
        text = f'{message} at {location}'
        if note:
            text += f' ({note.partition(": note: ")[0]} in the other trace)'
        return text


def _collect(lib):
    pieces = []
    callback = _capi.MlirStringCallback(
        lambda ref, _: pieces.append(ref.bytes()))
    return pieces, callback


def infer_spec_params(base, others, frontend=None):
    """Rewrites `base` (an ir.Module) so that the integer constants that
    differ between it and `others` (traces of the same kernel, same context)
    are spec.params. `frontend` is [(name, [value in base, value in each
    other])]: a parameter with those values is named after it. Returns the
    parameters as dicts (name, type, values, location, uses). Raises
    TraceMismatch (base unchanged) when the traces do not align."""
    context = base.context
    lib = context.lib
    frontend = list(frontend or ())
    operations = (_capi.MlirOperation * max(len(others), 1))(
        *[o.op for o in others])
    # The refs own the bytes the array points at: keep them until the call.
    refs = [_capi.MlirStringRef.of(n) for n, _ in frontend]
    names = (_capi.MlirStringRef * max(len(frontend), 1))(*refs)
    flat = [int(v) for _, values in frontend for v in values]
    values = (ctypes.c_int64 * max(len(flat), 1))(*flat)
    pieces, callback = _collect(lib)
    with context.lock:
        context.take_diagnostics()
        result = lib.flyhoistInferSpecParams(
            base.op, len(others), operations, len(frontend), names, values,
            callback, None)
        diagnostics = context.take_diagnostics()
    del refs
    if not result.value:
        raise TraceMismatch('the traces do not align', diagnostics)
    return json.loads(b''.join(pieces))


def match_spec_params(template, trace):
    """{name: value} of the template's parameters in `trace` (ir.Modules of
    one context), or raises TraceMismatch."""
    context = template.context
    lib = context.lib
    pieces, callback = _collect(lib)
    with context.lock:
        context.take_diagnostics()
        result = lib.flyhoistMatchSpecParams(template.op, trace.op, callback,
                                             None)
        diagnostics = context.take_diagnostics()
    if not result.value:
        raise TraceMismatch('the trace does not match the template',
                            diagnostics)
    return json.loads(b''.join(pieces))


class _Kernel:
    """What inference knows about one kernel."""

    def __init__(self):
        self.traces = []       # (values, text) of traces not yet paired:
                               # the first and the latest ones
        self.template = None   # ir.Module: the inferred, unhoisted template
        self.variant = None    # the template's Variant
        self.names = ()        # the template's parameter names
        self.inferred = []     # what inference introduced (dicts)
        self.reason = None     # why inference gave up on this kernel


class Inference:
    """KernelCache's route for traces with plain constants (see above)."""

    def __init__(self, cache):
        self.cache = cache
        self.kernels = {}
        self.launches = {}  # (kernel, values) -> (Variant, launch values)

    # -- the cache's entry point ---------------------------------------------

    def get(self, kernel, params, trace, args=None):
        from .variant import Launch
        cache = self.cache
        key = (kernel, tuple(sorted(params.items())))
        known = self.launches.get(key)
        if known is not None and known[0].failure(known[1], args) is None:
            cache.hits += 1
            return Launch(cache, known[0], known[1])
        with cache._lock:
            cache.misses += 1
            text = trace(params)  # a trace that raises leaves no trace here
            cache.traced += 1
            state = self.kernels.setdefault(kernel, _Kernel())
            module = cache.context.parse(text, self._source(kernel))
            try:
                variant, values = self._resolve(kernel, state, params, text,
                                                module, args)
            finally:
                module.close()
            self.launches[key] = (variant, values)
            return Launch(cache, variant, values)

    def close(self):
        for state in self.kernels.values():
            if state.template is not None:
                state.template.close()
                state.template = None

    # -- the three cases -----------------------------------------------------

    def _resolve(self, kernel, state, params, text, module, args):
        if state.template is not None:
            try:
                matched = match_spec_params(state.template, module)
            except TraceMismatch as mismatch:
                return self._per_value(kernel, params, text, module,
                                       mismatch.summary())
            values = {**params, **matched}
            if state.variant.failure(values, args) is None:
                return state.variant, values
            return self._per_value(kernel, params, text, module,
                                   self._why(state, values, args))
        if not state.traces:
            state.traces.append((dict(params), text))
            return self._compile(kernel, params, text, module), dict(params)
        if state.reason is not None:
            return self._per_value(kernel, params, text, module,
                                   state.reason)
        return self._infer(kernel, state, params, text, module, args)

    def _infer(self, kernel, state, params, text, module, args):
        cache = self.cache
        # The latest unpaired trace first, then the first one: a value the
        # DSL folds (x * 1 at width 1) gives a trace of its own structure,
        # which says nothing about the others.
        mismatches = []
        for other_values, other_text in reversed(state.traces):
            other = cache.context.parse(other_text, self._source(kernel))
            frontend = [(name, [value, other_values[name]])
                        for name, value in sorted(params.items())
                        if name in other_values and isinstance(value, int)]
            try:
                # The new trace is the base: the template's kept parameters
                # are baked in at its values, so its compile serves it.
                state.inferred = infer_spec_params(module, [other], frontend)
                break
            except TraceMismatch as mismatch:
                mismatches.append(mismatch)
            finally:
                other.close()
        else:
            # Kept for the next value to pair with: the first trace and
            # the latest.
            state.traces = state.traces[:1] + [(dict(params), text)]
            return self._per_value(kernel, params, text, module,
                                   f'not inferred: {mismatches[0].summary()}')
        template = module.clone()
        matched = match_spec_params(template, module)
        values = {**params, **matched}
        try:
            manifest = module.hoist(cache.options)
        except HoistError as error:
            template.close()
            state.reason = f'not hoisted: {str(error).splitlines()[-1]}'
            return self._per_value_fresh(kernel, params, text, state.reason)
        from .variant import Variant
        variant = Variant(kernel, values, manifest, set(matched))
        if variant.failure(values, args) is not None:
            template.close()
            state.reason = 'the template does not hold for its own values'
            return self._per_value_fresh(kernel, params, text, state.reason)
        compiled, _ = cache.attach_or_specialize(
            variant, module, params, text, self._source(kernel))
        if compiled is not variant:
            # The template does not lower: this value got a specialized
            # compile (warned once); so does every later one.
            template.close()
            state.reason = cache.UNLOWERABLE
            self._log(kernel, params, state.reason)
            return compiled, dict(params)
        state.template, state.variant, state.names = \
            template, variant, tuple(matched)
        kept = [self._kept(variant, p['name']) for p in state.inferred
                if p['name'] not in variant.hoisted]
        if kept:
            # A new value of a kept parameter is a compile: say so now.
            self._log(kernel, params, 'inferred, ' + '; '.join(kept))
        return variant, values

    # -- compiles --------------------------------------------------------------

    def _compile(self, kernel, params, text, module):
        """The trace hoisted as it is (its own spec.params, if any) and
        compiled: good for these values only. A hoisted form that does not
        lower falls back to the specialized compile (KernelCache's)."""
        from .variant import Variant
        cache = self.cache
        manifest = module.hoist(cache.options)
        variant = Variant(kernel, params, manifest, ())
        variant, _ = cache.attach_or_specialize(variant, module, params, text,
                                                self._source(kernel))
        return variant

    def _per_value_fresh(self, kernel, params, text, reason):
        """_per_value on the trace as the frontend gave it (inference
        rewrote `module`)."""
        with self.cache.context.parse(text, self._source(kernel)) as module:
            return self._per_value(kernel, params, text, module, reason)

    def _per_value(self, kernel, params, text, module, reason):
        self._log(kernel, params, reason)
        cache = self.cache
        if reason == cache.UNLOWERABLE:  # the template's hoisted form
            variant, _ = cache.compile_specialized(kernel, params, module,
                                                   reason)
            cache.specialized_after_failure += 1
            return variant, dict(params)
        return self._compile(kernel, params, text, module), dict(params)

    # -- reasons ------------------------------------------------------------

    @staticmethod
    def _kept(variant, name):
        if name in variant.kept:
            _, entry = variant.kept[name]
            return (f'{name!r} kept specialized: {kept_reason_text(entry)} '
                    f'at {entry.get("location", "unknown")}')
        return f'{name!r} is used by no kernel'

    def _why(self, state, values, args):
        template = state.variant
        changes = []
        for name in state.names:
            old, new = template.params.get(name), values.get(name)
            broken = any(g.name == name and
                         g.holds(values, args) is False
                         for g in template.guards)
            if not broken and (old == new or name in template.hoisted):
                continue
            why = template.why_not_hoisted(name, values, args)
            changes.append(f'{name!r} {old} -> {new} ({why})')
        return '; '.join(changes) or 'a precondition does not hold'

    def _log(self, kernel, params, reason):
        cache = self.cache
        shown = ', '.join(f'{k}={v}' for k, v in sorted(params.items()))
        message = f'compiled {self._name(kernel)} again for {shown}: {reason}'
        cache.recompiles.append(message)
        if cache._log:
            cache._log(message)

    @staticmethod
    def _name(kernel):
        return getattr(kernel, '__name__', None) or str(kernel)

    def _source(self, kernel):
        return f'{self._name(kernel)}.mlir'

"""Inference of a kernel's specialization values from the frontend's traces.

For a frontend that marks nothing: its `trace(values)` emits plain
`arith.constant`s. Two traces of one kernel for two values, aligned op by op
(flyhoistInferSpecParams), show which constants depend on the value; they
become `spec.param`s and the hoisting pass runs as for a marked kernel. Every
later value is traced and matched against that template
(flyhoistMatchSpecParams): the match gives the constants of its own trace,
which the launch passes for the hoisted parameters. No value is launched on
code its trace was not proven equal to.

KernelCache(target, infer_params=True) uses `Inference`, per kernel, over
groups of traces (groups.py: one template serves a group; a value baked in
where the pass keeps it splits groups, a value the trace does not show
splits nothing):
  a new trace  matched against each group's template, closest first: a
               match whose values pass the template's guards launches on
               it with its own constants (no compile)
  else         inferred against the traces of the closest groups: a
               template that hoists something that varies is compiled and
               widens that group (or, when it keeps a varying value, such as
               a loop bound, starts a group for this trace's kept values)
  else         compiled for its own values alone, in a group of its own,
               logged with the closest group's reason (located)
Templates and groups are kept in the disk and remote caches (persist.py),
so another process serves a new value with a trace and a match. Offset
tails are hoisted unless the options name `hoist-immediate-offsets`.

A compile that does not lower (or ends the compile worker) falls back as on
KernelCache's own route, through the same KernelCache.attach_or_specialize:
the trace compiled fully specialized, one warning, a recompile-log line.
When it is a template's, later values of its group get specialized
compiles too.
"""

from .groups import (MAX_PAIRINGS, KernelState, broken_text,
                     computed_in_kernel, derive, derived_text, disagreement,
                     folded_note, kept_text, offset_tails)
from .ir import HoistError
from .matching import (TraceMismatch, infer_spec_params, match_spec_params)
from .options import hoist_options
from .persist import Persistence, PersistedTemplates, stable_name
from .probe import Probing
from .variant import Variant

__all__ = ['Inference', 'TraceMismatch', 'infer_spec_params',
           'match_spec_params']


class NotInferred(str):
    """Why a trace did not learn with a group: their traces do not align
    (a structure that differs, not a value the template keeps)."""


def inference_options(options, context):
    """The pass options inference hoists with: the cache's, with offset
    tails hoisted unless they name `hoist-immediate-offsets` themselves (as
    the pass reads them, options.hoist_options). A parameter the traces vary
    kept as an immediate offset would compile once per value; hoisted it
    costs an add per access (DESIGN.md 7)."""
    if 'hoist-immediate-offsets' in hoist_options(context,
                                                   options)['explicit']:
        return options
    return (options + ' hoist-immediate-offsets=true').strip()


class Inference(Probing, PersistedTemplates):
    """KernelCache's route for traces with plain constants (see above)."""

    def __init__(self, cache):
        self.cache = cache
        self.kernels = {}   # kernel -> groups.KernelState
        self.launches = {}  # (kernel, values) -> (Variant, launch values)
        self.options = inference_options(cache.options, cache.context)
        self.persist = Persistence(cache, self.options)

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
            state = self._state(kernel)
            module = cache.context.parse(text, self._source(kernel))
            try:
                variant, values = self._resolve(kernel, state, params, text,
                                                module, args, trace)
            finally:
                module.close()
            self.launches[key] = (variant, values)
            return Launch(cache, variant, values)

    def close(self):
        for state in self.kernels.values():
            state.close()

    def _state(self, kernel):
        state = self.kernels.get(kernel)
        if state is None:
            state = self.kernels[kernel] = KernelState(stable_name(kernel))
            if self.persist.enabled:
                self._load(kernel, state)
        return state

    # -- serve, learn, or compile alone ---------------------------------------

    def _resolve(self, kernel, state, params, text, module, args, trace):
        reasons = []
        ranked = state.ranked(params, module)
        for group in ranked:
            served = self._serve(kernel, group, params, module, args)
            if isinstance(served, tuple):
                return served
            group.miss = served
            if served:
                reasons.append((group, served))
        unaligned = None  # the closest group whose traces do not align
        for group in [g for g in ranked if g.reason is None][:MAX_PAIRINGS]:
            learned = self._learn(kernel, state, group, params, text, module,
                                  args, trace)
            if isinstance(learned, tuple):
                return learned
            reasons.append((group, learned))
            if isinstance(learned, NotInferred) and unaligned is None:
                unaligned = (group, learned)
        if unaligned is not None and \
                reasons[0][1] != self.cache.UNLOWERABLE:
            partnered = self._partner(kernel, state, params, text, module,
                                      args, trace, *unaligned)
            if partnered is not None:
                return partnered
        return self._alone(kernel, state, params, text, module, reasons)

    def _serve(self, kernel, group, params, module, args):
        """(variant, values) when `module` matches the group's template
        and its values pass the guards, else why not (None: no template)."""
        if group.template is None:
            return group.reason
        try:
            matched = match_spec_params(group.template, module)
        except TraceMismatch as mismatch:
            return mismatch.summary() + folded_note(params, group)
        # A template from another process is hoisted and its objects
        # found once a trace matches it.
        if self._template_variant(kernel, group, params) is None:
            return group.reason
        values = {**params, **matched}
        if group.variant.failure(values, args) is not None:
            return broken_text(group, values, args)
        why = disagreement(group.derived, values)
        if why:
            return f'a derived value disagrees: {why}'
        self._derive(kernel, group, values, params)
        return group.variant, values

    def _derive(self, kernel, group, values, params):
        """Records a served trace's values; from the third distinct one,
        the parameters that are affine in one root are derived from it
        (checked on every later match), and logged once."""
        if group.derived or len(group.samples) >= 8:
            return
        group.samples.append(values)
        derived = derive(group.samples, set(group.values), params)
        if derived:
            # Launch.variant.derived; the log shows it where a template is
            # compiled.
            group.derived = group.variant.derived = derived

    def _learn(self, kernel, state, group, params, text, module, args,
               trace, probe=None):
        """Infers a template from `module` and `group`'s traces: (variant,
        values) when it hoists something that varies, else why not. The
        template widens the group, or, when it keeps a value that varies
        (a loop bound), starts a group of its own for `module`'s values.
        `probe` says that the group's trace is a probe (Probing._partner)."""
        base = module.clone()
        try:
            inferred = self._infer(kernel, base, group.traces, params)
        except TraceMismatch as mismatch:
            base.close()
            return NotInferred(f'not inferred: {mismatch.summary()}' +
                               folded_note(params, group))
        samples_of = inferred
        inferred, computed = computed_in_kernel(inferred)
        if not inferred:  # the same trace, up to where constants sit
            base.close()
            if probe:
                return 'the probe\'s trace is this one\'s'
            return self._same(kernel, state, group, params, module, args)
        built = self._build(kernel, base, module, params, inferred, computed,
                            args)
        if isinstance(built, str):
            base.close()
            return built
        notes = []
        if len(built[1].hoisted & set(built[3])) > 1 and not computed:
            # Several hoisted arguments from two traces: a probe may show
            # them affine in one value, computed in the kernel.
            better = self._fewer_arguments(kernel, group, params, module,
                                           trace, args, len(inferred), built)
            if better is not None:
                base.close()
                built[0].close()
                base, samples_of, built, note = better
                notes.append(note)
        hoisted, variant, matched, varying = built
        kept = [n for n in varying if n not in variant.hoisted]
        samples = [] if kept else [
            {**p, **{q['name']: q['values'][i + 1] for q in samples_of}}
            for i, (p, _) in enumerate(group.traces)]
        return self._adopt(kernel, state, (group, samples),
                           (params, text), (base, hoisted), variant, matched,
                           [kept_text(variant, n) for n in kept], notes,
                           probe)

    def _build(self, kernel, base, module, params, inferred, computed, args):
        """`base` (a template) hoisted and matched against `module`:
        (hoisted module, Variant, matched values, the varying names), or
        why it serves nothing (`base` is the caller's either way)."""
        varying = [p['name'] for p in inferred]
        hoisted = base.clone()
        try:
            manifest = hoisted.hoist(self.options)
            matched = match_spec_params(base, module)
        except (HoistError, TraceMismatch) as error:
            hoisted.close()
            return f'not hoisted: {str(error).splitlines()[-1]}'
        values = {**params, **matched}
        variant = Variant(kernel, values, manifest, set(matched))
        variant.computed, variant.tails = computed, offset_tails(variant)
        kept = [n for n in varying if n not in variant.hoisted]
        failure = variant.failure(values, args)
        if len(kept) == len(varying) or failure is not None:
            hoisted.close()
            return ('; '.join(kept_text(variant, n) for n in kept) or
                    f'the template breaks {failure.text} for its own values')
        return hoisted, variant, matched, varying

    def _same(self, kernel, state, group, params, module, args):
        """A trace inference finds no constant varying in: the group's own
        object when the trace matches the group's first trace (inference
        lets an `equals` value differ; the match does not) and its guards
        hold (a named leaf aligns whatever its value)."""
        if group.template is not None:
            return 'the same trace as the template\'s, whose ' \
                   'preconditions it breaks'
        first, text = group.traces[0]
        try:
            with self.cache.context.parse(text, self._source(kernel)) as same:
                match_spec_params(same, module)
        except TraceMismatch as mismatch:
            return mismatch.summary()
        if group.per_value is None:  # a group of another process
            group.per_value, _ = self._own(kernel, state, first, text)
        own = group.per_value
        broken = own.failure(params, args)
        if broken is None:
            return own, dict(params)
        return own.why_specialized or f'{broken.text} does not hold'

    def _adopt(self, kernel, state, group, trace, modules, variant,
               matched, kept, notes=(), probe=None):
        """Compiles the learned template and makes it `group`'s, or, when
        it keeps a varying value (`split`), a new group's, whose kept
        values are `trace`'s. `probe` names the probe `group` holds."""
        cache = self.cache
        params, text = trace
        base, hoisted = modules
        group, samples = group
        split = bool(kept)
        paired = group.describe()
        group = None if split else group
        compiled, origin = cache.attach_or_specialize(
            variant, hoisted, params, text, self._source(kernel))
        hoisted.close()
        widened = group is not None and group.template is not None
        if group is None:
            group = state.new_group([])
        group.add(params, text)
        self._count(state, origin)
        if compiled is not variant:
            # The template does not lower: this value got a specialized
            # compile (warned once); so does every later one of the group.
            base.close()
            group.drop_template(cache.UNLOWERABLE)
            self._log(kernel, params, cache.UNLOWERABLE, origin, group)
            self._store(state)
            return compiled, dict(params)
        group.set_template(base, matched, variant)
        group.samples = samples
        self._derive(kernel, group, {**params, **matched}, params)
        for title, rules in (('computed in the kernel', variant.computed),
                             ('derived', group.derived)):
            if rules:
                kept = kept + [f'{title}: ' + ', '.join(
                    derived_text(n, r) for n, r in sorted(rules.items()))]
        kept = kept + list(notes) + ([variant.tails] if variant.tails else
                                     [])
        what = ', '.join(repr(n) for n in sorted(variant.hoisted)) or 'none'
        why = (f'learned with {probe}' if probe else
               f'split from {paired}' if split else
               f'{"widened" if widened else "learned"} from '
               f'{len(group.traces)} traces') + f': hoists {what}'
        if widened and group.miss:
            why += f' (the template missed: {group.miss})'
        self._log(kernel, params, '; '.join([why] + kept), origin, group,
                  'template')
        self._store(state)
        return variant, {**params, **matched}

    def _alone(self, kernel, state, params, text, module, reasons):
        """The trace compiled for its own values, in a group of its own;
        logged with the closest group's reason."""
        cache = self.cache
        reason = reasons[0][1] if reasons else None
        if reason == cache.UNLOWERABLE:
            with cache.context.parse(text, self._source(kernel)) as fresh:
                variant, origin = cache.compile_specialized(
                    kernel, params, fresh, reason)
            cache.specialized_after_failure += 1
            self._count(state, origin)
        else:
            variant, origin = self._own(kernel, state, params, text)
        group = state.new_group([(params, text)])
        group.per_value = variant
        if reason is not None:
            self._log(kernel, params, reason, origin, group)
        self._store(state)
        return variant, dict(params)

    def _own(self, kernel, state, params, text):
        """The trace compiled for its own values: (variant, origin)."""
        with self.cache.context.parse(text, self._source(kernel)) as fresh:
            variant, origin = self._compile(kernel, params, text, fresh)
        if not variant.hoisted:
            variant.specialized = True  # an object for these values alone
        self._count(state, origin)
        return variant, origin

    def _compile(self, kernel, params, text, module):
        """The trace hoisted as it is (its own spec.params, if any) and
        compiled: (variant, origin). A hoisted form that does not lower
        falls back to the specialized compile (KernelCache's)."""
        cache = self.cache
        manifest = module.hoist(self.options)
        variant = Variant(kernel, params, manifest, ())
        return cache.attach_or_specialize(variant, module, params, text,
                                          self._source(kernel))

    @staticmethod
    def _count(state, origin):
        if origin == 'compiled':
            state.compiles += 1

    # -- the log ------------------------------------------------------------

    def _log(self, kernel, params, reason, origin, group, what='again'):
        """One line: compiled, loaded (from which cache) or reused, what,
        for which values, in which group, and why."""
        shown = ', '.join(f'{k}={v}' for k, v in sorted(params.items()))
        verb, where = {'compiled': ('compiled', ''), None: ('dropped', ''),
                       'memory': ('reused', '')}.get(
            origin, ('loaded', f' from {origin}'))
        self._note(f'{verb} {self._name(kernel)} {what} for {shown} in '
                   f'{group.describe()}{where}: {reason}')

    def _note(self, message):
        cache = self.cache
        cache.recompiles.append(message)
        if cache._log:
            cache._log(message)

    @staticmethod
    def _name(kernel):
        return getattr(kernel, '__name__', None) or str(kernel)

    def _source(self, kernel):
        return f'{self._name(kernel)}.mlir'

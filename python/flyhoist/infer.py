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

import re

from .groups import (MAX_PAIRINGS, KernelState, broken_text,
                     computed_in_kernel, derive, derived_text, disagreement,
                     folded_note, kept_text, offset_tails)
from .ir import HoistError, MLIRError
from .matching import TraceMismatch, infer_spec_params, match_spec_params
from .persist import Persistence, decode as persist_decode, stable_name
from .variant import Variant

__all__ = ['Inference', 'TraceMismatch', 'infer_spec_params',
           'match_spec_params']


def inference_options(options):
    """The pass options inference hoists with: the cache's, with offset
    tails hoisted unless they name `hoist-immediate-offsets` themselves. A
    parameter the traces vary kept as an immediate offset would compile
    once per value; hoisted it costs an add per access (DESIGN.md 7)."""
    if re.search(r'(^|\s)hoist-immediate-offsets(=|\s|$)', options):
        return options
    return (options + ' hoist-immediate-offsets=true').strip()


class Inference:
    """KernelCache's route for traces with plain constants (see above)."""

    def __init__(self, cache):
        self.cache = cache
        self.kernels = {}   # kernel -> groups.KernelState
        self.launches = {}  # (kernel, values) -> (Variant, launch values)
        self.options = inference_options(cache.options)
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
        for group in [g for g in ranked if g.reason is None][:MAX_PAIRINGS]:
            learned = self._learn(kernel, state, group, params, text, module,
                                  args, trace)
            if isinstance(learned, tuple):
                return learned
            reasons.append((group, learned))
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
               trace):
        """Infers a template from `module` and `group`'s traces: (variant,
        values) when it hoists something that varies, else why not. The
        template widens the group, or, when it keeps a value that varies
        (a loop bound), starts a group of its own for `module`'s values."""
        base = module.clone()
        try:
            inferred = self._infer(kernel, base, group.traces, params)
        except TraceMismatch as mismatch:
            base.close()
            return f'not inferred: {mismatch.summary()}' + \
                folded_note(params, group)
        samples_of = inferred
        inferred, computed = computed_in_kernel(
            inferred, template_values(base) or {p['name'] for p in inferred})
        if not inferred:  # the same trace, up to where constants sit
            base.close()
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
            probed = self._probe(kernel, group, params, module, trace,
                                 len(inferred))
            rebuilt = probed and self._build(kernel, probed[0], module,
                                             params, *probed[2:4], args)
            if rebuilt and not isinstance(rebuilt, str) and \
                    len(rebuilt[1].hoisted) < len(built[1].hoisted):
                base.close()
                built[0].close()
                base, samples_of, note = probed[0], probed[1], probed[4]
                built = rebuilt
                notes.append(note)
            elif probed:
                probed[0].close()
                if rebuilt and not isinstance(rebuilt, str):
                    rebuilt[0].close()
        hoisted, variant, matched, varying = built
        kept = [n for n in varying if n not in variant.hoisted]
        samples = [] if kept else [
            {**p, **{q['name']: q['values'][i + 1] for q in samples_of}}
            for i, (p, _) in enumerate(group.traces)]
        return self._adopt(kernel, state, (group, samples),
                           (params, text), (base, hoisted), variant, matched,
                           [kept_text(variant, n) for n in kept], notes)

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

    def _infer(self, kernel, base, traces, params):
        """infer_spec_params of `base` (the trace of `params`) against
        `traces` ([(params, text)]), naming parameters after the frontend's
        values."""
        cache = self.cache
        others = [cache.context.parse(t, self._source(kernel))
                  for _, t in traces]
        try:
            names = sorted(n for n, v in params.items()
                           if isinstance(v, int) and
                           all(n in p for p, _ in traces))
            frontend = [(n, [params[n]] + [p[n] for p, _ in traces])
                        for n in names]
            return infer_spec_params(base, others, frontend)
        finally:
            for other in others:
                other.close()

    def _probe(self, kernel, group, params, module, trace, count):
        """A third point for the relations between parameters, when two
        traces make `count` of them (Python-folded products of one value:
        `4*w`, `w*k//4`): the frontend's values that changed between the two
        are moved on once more (v2 + |v2 - v1| past the larger) and traced,
        never compiled or launched. Inference over the three traces
        computes the parameters that are affine in one root in the kernel
        (InferSpecParams.cpp), so the template takes the root alone:
        (base, inferred as infer_spec_params gives it, the parameters that
        stay, computed, a note for the log), or None when the frontend
        refuses the value, its trace does not align, or nothing is saved."""
        first = group.traces[0][0]
        moved = {n: max(v, first[n]) + abs(v - first[n])
                 for n, v in params.items()
                 if _is_int(v) and _is_int(first.get(n)) and v != first[n]}
        if not moved or not self.cache.probe_traces:
            return None
        values = {**params, **moved}
        shown = ', '.join(f'{n}={v}' for n, v in sorted(moved.items()))
        try:
            text = trace(dict(values))
        except Exception as error:  # noqa: BLE001 - the frontend's own
            # A value the frontend never asked for may be one it rejects.
            self._note(f'probe of {self._name(kernel)} at {shown} not traced '
                       f'({type(error).__name__}: {error}); the parameters '
                       f'stay as two traces show them')
            return None
        self.cache.traced += 1
        self.cache.probed += 1
        base = module.clone()
        try:
            inferred = self._infer(kernel, base,
                                   group.traces + [(values, text)], params)
        except TraceMismatch as mismatch:
            base.close()
            self._note(f'probe of {self._name(kernel)} at {shown} does not '
                       f'align: {mismatch.summary()}')
            return None
        kept, computed = computed_in_kernel(
            inferred, template_values(base) or {p['name'] for p in inferred})
        if len(kept) >= count:
            base.close()
            return None
        return (base, inferred, kept, computed,
                f'probed at {shown} (traced, not compiled)')

    def _adopt(self, kernel, state, group, trace, modules, variant,
               matched, kept, notes=()):
        """Compiles the learned template and makes it `group`'s, or, when
        it keeps a varying value (`split`), a new group's, whose kept
        values are `trace`'s."""
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
        why = (f'split from {paired}' if split else
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

    # -- templates from another process ----------------------------------------

    def _template_variant(self, kernel, group, asked):
        """The group's Variant, built (hoisted, its objects found) the first
        time a persisted template is asked for (by values `asked`); None
        when it cannot be."""
        if group.variant is not None:
            return group.variant
        cache = self.cache
        params, text = group.traces[-1]
        values = {**params, **group.values}
        hoisted = group.template.clone()
        try:
            # What the compile bakes in is the template's own values: the
            # entry's must be those (a forged kept value would pass its
            # guard otherwise).
            if template_values(group.template) != group.values:
                raise ValueError('its values are not the template\'s own')
            manifest = hoisted.hoist(self.options)
            variant = Variant(kernel, values, manifest, set(group.values))
            if variant.failure(values, None) is not None:
                raise ValueError('the template does not hold for its values')
            compiled, origin = cache.attach_or_specialize(
                variant, hoisted, params, text, self._source(kernel))
        except (HoistError, ValueError, MLIRError) as error:
            group.drop_template(f'persisted template not usable: '
                                f'{str(error).splitlines()[-1]}')
            self._log(kernel, asked, group.reason, None, group, 'template')
            return None
        finally:
            hoisted.close()
        state = self.kernels[kernel]
        self._count(state, origin)
        if compiled is not variant:
            group.drop_template(cache.UNLOWERABLE)
            return None
        group.variant = variant
        what = ', '.join(repr(n) for n in sorted(variant.hoisted))
        self._log(kernel, asked, f'template learned in an earlier process '
                  f'(hoists {what})', origin, group, 'template')
        return variant

    def _load(self, kernel, state):
        name = self._name(kernel)
        if state.name is None:
            self.cache._warn('infer-name', f'{name}: no stable name (a str, '
                             f'a function, a code object or a tuple of '
                             f'those): what inference learns about it is '
                             f'kept in this process only')
            return
        objects, where, why = self.persist.read(state.name)
        entries = persist_decode(objects, state.name) if objects else why
        if isinstance(entries, str):
            self._note(f'inference state of {name} not loaded: {entries}; '
                       f'learning it again')
            return
        for entry in entries or ():
            group = state.new_group([tuple(t) for t in entry['traces']])
            group.persisted = True
            if entry['template'] is None:
                continue
            try:
                group.template = self.cache.context.parse(
                    objects[entry['template']], f'{name}.template.mlir')
                group.values = dict(entry['values'])
            except MLIRError as error:
                # Its traces are still good to learn from.
                self._note(f'inference state of {name}: group '
                           f'{group.index}\'s template from {where} does '
                           f'not parse ({str(error).splitlines()[0]}); '
                           f'learning it again')

    def _store(self, state):
        if state.name is not None and self.persist.enabled:
            self.persist.write(state)

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


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def template_values(template):
    """{name: value} of a template's spec.params without `equals`, as the
    library reads them (Module.spec_params); None when one name has two
    values."""
    values = {}
    for param in template.spec_params():
        if param['equals']:
            continue
        if values.setdefault(param['name'], param['value']) != param['value']:
            return None
    return values

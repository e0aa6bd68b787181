"""Probe traces: a third value traced for inference, never compiled.

Two traces cannot show that parameters are affine functions of one value
(two points fit any line). When a template from two traces would take
more than one varying argument, Inference asks the frontend's `trace` for
a third value (the frontend values that changed between the two, moved on
once more) and infers from the three: the parameters affine in one root
are computed from it in the kernel (InferSpecParams.cpp), and the template
is kept when it takes fewer arguments. The probe is never compiled,
launched or added to a group; a frontend that raises for its value, or a
probe that does not align, is logged and dropped. KernelCache(...,
probe_traces=False) turns probes off (docs/DESIGN.md section 10).
"""

from .groups import computed_in_kernel
from .matching import TraceMismatch, infer_spec_params


#: Probes for traces that pair with no group that may serve nothing in a
#: row (a kernel whose structure changes with every value: a memref type
#: of the width) before a kernel gets no more of them in this process.
MAX_PARTNER_MISSES = 2


class Probing:
    """Inference's traces against each other, probes included (a mixin of
    infer.Inference: `cache`, `_note`, `_name` and `_source` are its)."""

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

    def _traced_probe(self, kernel, params, moved, trace):
        """(values, text): `trace` at `params` with `moved`, or None when
        probes are off or the frontend refuses the value (logged)."""
        if not moved or not self.cache.probe_traces:
            return None
        values = {**params, **moved}
        try:
            text = trace(dict(values))
        except Exception as error:  # noqa: BLE001 - the frontend's own
            # A value the frontend never asked for may be one it rejects.
            self._note(f'probe of {self._name(kernel)} at {shown(moved)} not '
                       f'traced ({type(error).__name__}: {error})')
            return None
        self.cache.traced += 1
        self.cache.probed += 1
        return values, text

    def _partner(self, kernel, state, params, text, module, args, trace,
                 closest, why):
        """A trace that pairs with no group because its structure differs
        from the `closest` group's traces (a width whose trace folds `x * 1`
        came first, a check only wide rows have) learns its template with a
        probe at once: the frontend's values that changed since that
        group's latest trace, moved on once more as `_probe` moves them.
        The probe starts a group with it, as a trace of the frontend like
        any other. (variant, values) as Inference._learn gives them, or
        None: the probe is dropped and the trace compiled alone. `why`
        says why it did not learn with `closest`; the log repeats it."""
        moved = _moved_on(params, closest.traces[-1][0])
        if not moved or state.partner_misses >= MAX_PARTNER_MISSES:
            return None
        probe = self._traced_probe(kernel, params, moved, trace)
        if probe is None:
            return None
        group = state.new_group([probe])
        learned = self._learn(kernel, state, group, params, text, module,
                              args, trace,
                              f'a probe at {shown(moved)} (traced, not '
                              f'compiled), not with {closest.describe()} '
                              f'({why})')
        if group.template is None:
            state.forget(group)
        if isinstance(learned, tuple):
            state.partner_misses = 0
            return learned
        state.partner_misses += 1
        stop = ('; no more such probes of this kernel'
                if state.partner_misses == MAX_PARTNER_MISSES else '')
        self._note(f'probe of {self._name(kernel)} at {shown(moved)} serves '
                   f'nothing: {learned}{stop}')
        return None

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
        moved = _moved_on(params, group.traces[0][0])
        probe = self._traced_probe(kernel, params, moved, trace)
        if probe is None:
            return None
        base = module.clone()
        try:
            inferred = self._infer(kernel, base, group.traces + [probe],
                                   params)
        except TraceMismatch as mismatch:
            base.close()
            self._note(f'probe of {self._name(kernel)} at {shown(moved)} does '
                       f'not align: {mismatch.summary()}')
            return None
        kept, computed = computed_in_kernel(inferred)
        if len(kept) >= count:
            base.close()
            return None
        return (base, inferred, kept, computed,
                f'probed at {shown(moved)} (traced, not compiled)')

    def _fewer_arguments(self, kernel, group, params, module, trace, args,
                         count, built):
        """The template of `_probe`'s three traces, built (Inference._build),
        when it takes fewer arguments than `built`, the two traces' one:
        (base, inferred as infer_spec_params gives it, built, a note for
        the log), or None, nothing of the probe's left open."""
        probed = self._probe(kernel, group, params, module, trace, count)
        if probed is None:
            return None
        base, inferred, kept, computed, note = probed
        rebuilt = self._build(kernel, base, module, params, kept, computed,
                              args)
        if isinstance(rebuilt, str) or \
                len(rebuilt[1].hoisted) >= len(built[1].hoisted):
            base.close()
            if not isinstance(rebuilt, str):
                rebuilt[0].close()
            return None
        return base, inferred, rebuilt, note


def shown(values):
    """'tile=17, width=65'."""
    return ', '.join(f'{n}={v}' for n, v in sorted(values.items()))


def _moved_on(params, previous):
    """{name: value}: each of the frontend's ints that differs from
    `previous` (an earlier trace's values), moved on once more past the
    larger of the two (v2 + |v2 - v1|), so the three are distinct."""
    return {n: max(v, previous[n]) + abs(v - previous[n])
            for n, v in params.items()
            if _is_int(v) and _is_int(previous.get(n)) and v != previous[n]}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)

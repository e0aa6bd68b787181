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
from .matching import TraceMismatch, infer_spec_params, template_values


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


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)

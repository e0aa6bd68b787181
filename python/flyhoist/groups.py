"""What inference knows about one kernel: its traces, grouped.

A group is a set of traces of one kernel that one template serves: traces
that differ only in integer constants whose uses the hoisting pass hoists.
Traces are grouped by what they are, not by the frontend's values: a value
the trace bakes in somewhere the pass keeps (a loop bound, a tile size)
splits traces into groups, one per value; a value that changes nothing in
the trace (`debug`) is invisible and splits nothing; a value that changes
the trace's structure (an op more, a folded `x * 1`) gives a group of its
own. Each group learns its template from its second distinct trace and
widens it when a later trace differs from it only in integer constants
(infer.py).
"""

from fractions import Fraction

from .contract import kept_reason_text
from .ir import MLIRError
from .variant import Variant

#: Traces a group keeps to learn from: its first and its latest ones (the
#: last is the base of its template).
MAX_TRACES = 3
#: Groups a kernel keeps; beyond it the oldest group without a template is
#: forgotten (its values stay served by the launches already made).
MAX_GROUPS = 32
#: Groups a new trace tries to learn with before it is compiled alone.
MAX_PAIRINGS = 3


class Group:
    """Traces of one kernel that one template serves (or one trace, alone,
    until a second one pairs with it)."""

    def __init__(self, index, traces):
        self.index = index
        self.traces = [(dict(p), t) for p, t in traces]  # [(params, text)]
        self.template = None   # ir.Module: inferred, unhoisted
        self.values = {}       # the template's parameters at its base trace
        self.variant = None    # the template's Variant, once built
        self.reason = None     # why the group has no usable template
        self.per_value = None  # the first trace's own compile (a Variant)
        self.persisted = False  # learned in another process
        self.samples = []      # the template's values in each trace served
        self.derived = {}      # name -> (root, slope, intercept)
        self.miss = None       # why the latest trace missed its template
        self._signature = None

    def add(self, params, text):
        """Keeps `params`' trace as the latest (the base of a new
        template)."""
        traces = self.traces + [(dict(params), text)]
        if len(traces) > MAX_TRACES:
            traces = traces[:1] + traces[-(MAX_TRACES - 1):]
        self.traces = traces

    def set_template(self, template, values, variant):
        if self.template is not None:
            self.template.close()
        self.template, self.values, self.variant = template, dict(values), \
            variant
        self.reason = None
        self.persisted = False
        self.samples, self.derived = [dict(values)], {}

    def drop_template(self, reason):
        if self.template is not None:
            self.template.close()
        self.template, self.variant, self.reason = None, None, reason

    def signature(self, context):
        """The structure of the group's first trace (`signature`), parsed
        in `context` once."""
        if self._signature is None:
            try:
                with context.parse(self.traces[0][1]) as first:
                    self._signature = signature(first)
            except MLIRError:
                self._signature = ''  # ranks after the groups that parse
        return self._signature

    def distance(self, params):
        """How many of the frontend's values differ from the latest
        trace's: the closest group is tried first."""
        last = self.traces[-1][0]
        return sum(1 for n in set(params) | set(last)
                   if params.get(n) != last.get(n))

    def describe(self):
        """'group 2 (tile=128)': its number and the frontend values all its
        traces share, but for the ones its template hoists."""
        hoisted = self.variant.hoisted if self.variant else frozenset()
        first = self.traces[0][0]
        same = [n for n in sorted(first) if n not in hoisted and
                all(p.get(n) == first[n] for p, _ in self.traces)]
        if len(self.traces) > 1 and self.template is None:
            same = []
        shown = ', '.join(f'{n}={first[n]}' for n in same)
        return f'group {self.index}' + (f' ({shown})' if shown else '')

    def close(self):
        if self.template is not None:
            self.template.close()
            self.template = None


class KernelState:
    """The groups of one kernel, and its name across processes."""

    def __init__(self, name):
        self.name = name   # persist.stable_name(kernel); None: not persisted
        self.groups = []
        self.next_index = 1
        self.compiles = 0  # compiles of this kernel in this process
        self.partner_misses = 0  # probe.py: probes in a row that served

    def new_group(self, traces):
        group = Group(self.next_index, traces)
        self.next_index += 1
        self.groups.append(group)
        if len(self.groups) > MAX_GROUPS:
            alone = next((g for g in self.groups[:-1]
                          if g.template is None), self.groups[0])
            self.groups.remove(alone)
            alone.close()
        return group

    def forget(self, group):
        """Drops `group` (a probe's that taught nothing)."""
        if group in self.groups:
            self.groups.remove(group)
            group.close()
            if group.index == self.next_index - 1:
                self.next_index -= 1  # the numbers the log shows stay dense

    def ranked(self, params, trace):
        """The groups, those whose traces have the ops of `trace` (an
        ir.Module) first, then the closest to `params`, then the newest."""
        shape = signature(trace)
        return sorted(self.groups,
                      key=lambda g: (g.signature(trace.context) != shape,
                                     g.distance(params), -g.index))

    def close(self):
        for group in self.groups:
            group.close()


def signature(trace):
    """The ops of `trace` (an ir.Module), in order, but for the constants
    and parameters traces may differ in (canonicalize merges and places them
    differently from value to value), as the library's aligner sees them
    (Module.trace_signature): traces of one structure share it, so the
    groups worth pairing with are tried first."""
    return trace.trace_signature()


def kept_text(variant, name):
    """Why `variant` keeps `name` baked in, located."""
    if name in variant.kept:
        _, entry = variant.kept[name]
        return (f'{name!r} kept specialized: {kept_reason_text(entry)} '
                f'at {entry.get("location", "unknown")}')
    return f'{name!r} is used by no kernel'


def broken_text(group, values, args):
    """Why a trace that matched `group`'s template cannot launch on it:
    the kept values that changed, or the precondition that broke."""
    variant = group.variant
    changes = []
    for name in sorted(group.values):
        old, new = variant.params.get(name), values.get(name)
        broken = any(g.name == name and g.holds(values, args) is False
                     for g in variant.guards)
        if not broken and (old == new or name in variant.hoisted):
            continue
        why = variant.why_not_hoisted(name, values, args)
        changes.append(f'{name!r} {old} -> {new} ({why})')
    return '; '.join(changes) or 'a precondition does not hold'


def folded_note(params, group):
    """A note for a trace that does not align with `group`'s when the two
    differ in a frontend value of 0 or 1 on one side: the frontend likely
    folded it (`x * 1`, `x + 0`), which traces differently. Learning from
    two traces needs the same ops; matching a template absorbs such a fold
    (lib/Transforms/IdentityFolds.cpp), so a trace that misses a template
    differs from it beyond one."""
    last = group.traces[-1][0]
    for name in sorted(set(params) & set(last)):
        a, b = params[name], last[name]
        if a == b or not all(isinstance(v, int) for v in (a, b)):
            continue
        if a in (0, 1) or b in (0, 1):
            value = a if a in (0, 1) else b
            if group.template is not None:
                return (f'; {name}={value} may fold away in the trace '
                        f'(x * 1, x + 0), which matching absorbs: this '
                        f'trace differs from the template beyond such a '
                        f'fold')
            return (f'; {name}={value} folds away in the trace (x * 1, '
                    f'x + 0): its trace has its own structure and is '
                    f'compiled for that value alone')
    return ''


def affine_fit(points):
    """(slope, intercept), Fractions, when the (x, y) `points` lie on one
    line through at least 3 distinct x; else None."""
    points = set(points)
    xs = {x for x, _ in points}
    if len(xs) < 3 or len(xs) != len(points):
        return None
    (x0, y0), (x1, y1) = sorted(points)[:2]
    slope = Fraction(y1 - y0, x1 - x0)
    intercept = y0 - slope * x0
    if all(slope * x + intercept == y for x, y in points):
        return slope, intercept
    return None


def derive(samples, names, frontend):
    """{name: (root, slope, intercept)}: each of `names` (template
    parameters) that is an affine function of one root over `samples`
    (the values of each trace the group has seen). The root is a
    parameter the frontend names (`width`) when there is one."""
    roots = [n for n in sorted(names) if n in frontend] or sorted(
        n for n, v in frontend.items()
        if isinstance(v, int) and not isinstance(v, bool))
    derived = {}
    for root in roots[:1]:
        for name in sorted(names):
            if name == root or name in derived:
                continue
            fit = affine_fit([(s[root], s[name]) for s in samples
                              if root in s and name in s])
            if fit is not None:
                derived[name] = (root,) + fit
    return derived


def computed_in_kernel(inferred):
    """(kept, computed): the parameters of `inferred` (infer_spec_params'
    list) that the kernel takes, and {name: (root, scale, offset)} for the
    ones inference made it compute from a root (`derived` in the library's
    JSON: three or more traces, an integral affine relation; the launch
    passes the root alone)."""
    kept = [p for p in inferred if not p.get('derived')]
    computed = {p['name']: (p['derived']['root'], p['derived']['scale'],
                            p['derived']['offset'])
                for p in inferred if p.get('derived')}
    return kept, computed


def offset_tails(variant):
    """'offset tails hoisted ...' naming the variant's hoisted parameters
    that would have folded into an instruction's immediate offset (the
    manifest's `immediate_offsets`: inference hoists them, a compile per
    value saved for an add per access, bench/RESULTS.md 8b), each with the
    number of accesses summed over the functions, or None."""
    adds = {}
    for function in Variant._functions(variant.manifest):
        for entry in function.get('hoisted', ()):
            count = entry.get('immediate_offsets')
            if entry['name'] in variant.hoisted and isinstance(count, int):
                adds[entry['name']] = adds.get(entry['name'], 0) + count
    return ('offset tails hoisted (an add per access instead of an '
            'immediate offset): ' + ', '.join(
                f'{n!r} ({c} access{"" if c == 1 else "es"})'
                for n, c in sorted(adds.items()))) if adds else None


def derived_text(name, rule):
    """'p0 = 4*width + 1'."""
    root, slope, intercept = rule
    text = root if slope == 1 else f'{slope}*{root}'
    if intercept:
        text += f' {"+" if intercept > 0 else "-"} {abs(intercept)}'
    return f'{name} = {text}'


def disagreement(derived, values):
    """Why `values` (a trace's match) break the group's derived rules, or
    None."""
    for name, (root, slope, intercept) in sorted(derived.items()):
        if not isinstance(values.get(root), int) or name not in values:
            return f'no value of {root!r} or {name!r} to check'
        expected = slope * values[root] + intercept
        if expected != values[name]:
            return (f'{derived_text(name, (root, slope, intercept))} '
                    f'gives {expected} at {root}={values[root]}, the trace '
                    f'has {values[name]}')
    return None

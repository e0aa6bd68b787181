"""Inference state in the disk and remote caches, across processes.

What a kernel's inference learned (groups.py: its groups, each with its
traces, its template and the template's parameter values) is one cache
entry of the disk and remote caches, next to the code objects and in their
format (_objects.py: the full key, each part's SHA-256, the whole entry's
digest, an HMAC with the cache secret). It is an entry of another kind by
its key (keys.inference_key: the build identity, the target's pipeline,
the pass options and the kernel's stable name, under `kind: inference`)
and by its parts: `inference.json` (the groups and their traces) and one
`gN.template` (MLIR bytecode, locations included) per group that has a
template. Code objects are not part of it: a new process hoists the
template again and finds its objects under their own key.

A kernel has a stable name when `kernel` is a str, a function or class
(module + qualified name), a code object (file + qualified name), or a
tuple of those and of ints, strs and bools (a frontend's kernel and its own
key: `(fn, 'bf16')`). Any other kernel (an object hashed by identity) is
learned in memory only, said once per cache.

Nothing read is trusted further than the match: a template from the cache
serves a trace only when the trace matches it (infer.py), so a damaged or
forged entry is at worst a compile; an entry that does not check out or
does not decode is a miss with the reason logged.
"""

import hashlib
import json
import types

from . import keys
from .groups import MAX_TRACES
from .ir import HoistError, MLIRError
from .matching import template_values
from .variant import Variant

SCHEMA = 1
STATE = 'inference.json'
#: Groups without a template written per kernel (the latest ones).
MAX_ALONE = 4
#: Groups written per kernel.
MAX_WRITTEN = 32


def stable_name(kernel):
    """The kernel's name across processes, or None (see above)."""
    if isinstance(kernel, bool):
        return None
    if isinstance(kernel, str):
        return kernel
    if isinstance(kernel, tuple):
        parts = [p if isinstance(p, (int, str)) else stable_name(p)
                 for p in kernel]
        if any(p is None for p in parts) or not parts:
            return None
        return json.dumps(parts)
    if isinstance(kernel, types.CodeType):
        qualname = getattr(kernel, 'co_qualname', kernel.co_name)
        return f'{kernel.co_filename}:{qualname}'
    if isinstance(kernel, (types.FunctionType, type)):
        return f'{kernel.__module__}.{kernel.__qualname__}'
    return None


def _scalar(value):
    return isinstance(value, (bool, int, str)) and \
        (not isinstance(value, int) or abs(value) < 1 << 63)


def _params_ok(params):
    return isinstance(params, dict) and all(
        isinstance(k, str) and _scalar(v) for k, v in params.items())


def encode(state):
    """{part: bytes} of `state`'s groups, or None when a value is not
    a str, int or bool."""
    groups, objects = [], {}
    alone = [g for g in state.groups if g.template is None and
             g.reason is None][-MAX_ALONE:]
    for group in state.groups:
        if group.template is None and group not in alone:
            continue
        if not all(_params_ok(p) for p, _ in group.traces):
            return None
        entry = {'traces': [[p, t] for p, t in group.traces],
                 'template': None, 'values': group.values}
        if group.template is not None:
            entry['template'] = f'g{len(groups)}.template'
            objects[entry['template']] = group.template.bytecode()
        groups.append(entry)
    objects[STATE] = json.dumps({'schema': SCHEMA, 'kernel': state.name,
                                 'groups': groups[-MAX_WRITTEN:]},
                                sort_keys=True).encode()
    return objects


def _check_group(entry, objects):
    if not isinstance(entry, dict) or \
            set(entry) != {'traces', 'template', 'values'}:
        return 'a group without exactly traces, template and values'
    traces = entry['traces']
    if not isinstance(traces, list) or not 0 < len(traces) <= MAX_TRACES:
        return 'a group without traces'
    for item in traces:
        if not (isinstance(item, list) and len(item) == 2 and
                _params_ok(item[0]) and isinstance(item[1], str)):
            return 'a trace that is not [values, text]'
    values = entry['values']
    if not isinstance(values, dict) or not all(
            isinstance(k, str) and type(v) is int for k, v in values.items()):
        return 'template values that are not {name: int}'
    template = entry['template']
    if template is not None and template not in objects:
        return f'a template {str(template)[:40]!r} that is not in the entry'
    return None


def decode(objects, name):
    """[group entry] of an entry's parts, or a str: why not."""
    try:
        state = json.loads(objects[STATE])
    except KeyError:
        return f'no {STATE}'
    except (ValueError, RecursionError) as error:
        return f'{STATE} is not JSON ({type(error).__name__})'
    if not isinstance(state, dict) or state.get('schema') != SCHEMA or \
            set(state) != {'schema', 'kernel', 'groups'}:
        return f'{STATE} of another schema'
    if state['kernel'] != name:
        return f'the state of another kernel ({str(state["kernel"])[:80]!r})'
    if not isinstance(state['groups'], list):
        return 'no list of groups'
    for entry in state['groups']:
        why = _check_group(entry, objects)
        if why:
            return why
    return state['groups']


def _identity(traces):
    """A group's identity: its first trace (a group keeps it)."""
    return hashlib.sha256(traces[0][1].encode()).hexdigest()


def merge(objects, stored, state):
    """`objects` (`state` encoded) with the groups another process stored
    meanwhile (`stored`, an entry's parts) that `state` does not hold, and
    their templates for groups still alone here. A group dropped here
    stays dropped."""
    theirs = decode(stored, state.name) if stored is not None else None
    if not isinstance(theirs, list):
        return objects
    ours = json.loads(objects[STATE])
    held = {_identity(g.traces): g for g in state.groups}
    slots = {_identity(e['traces']): i for i, e in enumerate(ours['groups'])}
    for i, entry in enumerate(theirs):
        identity = _identity(entry['traces'])
        mine = held.get(identity)
        if mine is not None and not (
                entry['template'] and mine.template is None and
                mine.reason is None and identity in slots):
            continue
        if mine is None and len(ours['groups']) >= MAX_WRITTEN:
            continue
        if entry['template']:
            part = f'm{i}.template'
            objects[part] = stored[entry['template']]
            entry = dict(entry, template=part)
        if mine is None:
            ours['groups'].append(entry)
        else:
            ours['groups'][slots[identity]] = entry
    objects[STATE] = json.dumps(ours, sort_keys=True).encode()
    return objects


class Persistence:
    """Reads and writes one KernelCache's inference states."""

    def __init__(self, cache, options):
        self.cache = cache
        self.options = options

    @property
    def enabled(self):
        return self.cache.disk is not None or self.cache.remote is not None

    def key(self, name):
        cache = self.cache
        return keys.inference_key(cache.context.lib, cache.target,
                                  self.options, name)

    def read(self, name):
        """(parts, where, why): the stored entry's parts and which cache
        held it, or (None, None, why it is a miss: None when there is no
        entry, else what was wrong with the one there)."""
        cache, key = self.cache, self.key(name)
        why = None
        for store, where in ((cache.disk, 'the disk cache'),
                             (cache.remote, 'the remote cache')):
            if store is None:
                continue
            damaged = store.damaged
            objects = store.get(key)
            if objects is not None:
                return objects, where, None
            if store.damaged != damaged:
                why = (f'the entry in {where} does not check out (see the '
                       f'warning)')
        return None, None, why

    def write(self, state):
        """Stores `state` in both caches, merged with what is there."""
        objects = encode(state)
        if objects is None:
            self.cache._warn(('infer-values', state.name),
                             f'inference state of {state.name} not kept '
                             f'across processes: a frontend value is not '
                             f'a str, int or bool')
            return
        stored, _, _ = self.read(state.name)
        objects = merge(objects, stored, state)
        key = self.key(state.name)
        for store in (self.cache.disk, self.cache.remote):
            if store is not None:
                store.put(key, objects)


class PersistedTemplates:
    """Templates learned in an earlier process: read when a kernel is first
    seen, hoisted and their objects found when a trace first matches one
    (a mixin of infer.Inference: `cache`, `kernels`, `persist`, `options`,
    `_log`, `_note`, `_count`, `_name` and `_source` are its)."""

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
        entries = decode(objects, state.name) if objects else why
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

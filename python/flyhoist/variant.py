"""What one compiled module admits, and what a call gets.

A `Variant` is a compiled module (its code objects, its manifest) and the
guards a launch's values must pass: the preconditions the manifest records
for hoisted values, and every value the module baked in. A `Launch` is what
`KernelCache.get` returns: the variant's objects and the arguments to pass.
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from .contract import (check_manifest, compile_precondition,
                       kept_reason_text, precondition_text)
from .options import pipeline_options


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
        # Device functions are compiled into the same object: a value one
        # of them keeps is baked in whatever the kernels' entries say.
        for kernel_entry in self._functions(manifest):
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
            if not kernel_entry.get('device'):
                arguments.sort(key=lambda h: h.argument)
                self.kernels[symbol] = arguments
            for entry in kernel_entry.get('kept', ()):
                self.kept.setdefault(entry['name'], (symbol, entry))
        # A name is hoisted when no function, kernel or device, keeps it.
        self.hoisted = frozenset(hoisted_anywhere - set(self.kept))
        # Every value this variant baked in is a guard: each kept entry, and
        # what the level-1 key leaves out although this variant baked it.
        baked = (set(self.kept) | set(known_hoisted)) - self.hoisted
        for name in sorted(baked):
            if name in self.params:
                guards.append(self._baked(name))
        guards = self._unique(guards)
        self.guards = guards
        self.names = frozenset(self.params)

    @staticmethod
    def _functions(manifest):
        """The manifest's kernels, then its device functions (marked
        `device`: not launchable), whichever list holds them."""
        for entry in manifest.get('kernels', ()):
            yield entry
        for entry in manifest.get('device_functions', ()):
            yield {**entry, 'device': True}

    def _baked(self, name):
        value = self.params[name]
        where = ''
        if name in self.kept:
            symbol, entry = self.kept[name]
            where = (f', kept in {symbol}: {kept_reason_text(entry)} at '
                     f'{entry.get("location", "unknown")}')
        return _Guard(name, f'value == {value} (baked in{where})',
                      lambda v, a, values=None, c=value: v == c)

    @staticmethod
    def _unique(guards):
        seen, unique = set(), []
        for guard in guards:
            if (guard.name, guard.text) not in seen:
                seen.add((guard.name, guard.text))
                unique.append(guard)
        return unique

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
    def objects(self) -> dict[str, bytes]:
        """{gpu.module symbol: code object bytes}."""
        return self.variant.objects

    @property
    def fingerprints(self) -> dict[str, str]:
        return dict(self.variant.okey[1])

    @property
    def specialized(self) -> bool:
        """True when this call got a fully specialized compile."""
        return self.variant.specialized

    def arguments(self, runtime_args: Sequence[Any] = (),
                  kernel: Hashable | None = None, lowered: bool = False,
                  args: Sequence[Any] | None = None) -> list[Any]:
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
    def memref_convention(self) -> str:
        """'bare_pointers' when the target's pipeline passes memrefs as bare
        pointers (use-bare-ptr-memref-call-conv=true), else
        'memref_descriptors': the `kernel_parameter` key that applies."""
        target = getattr(self.cache, 'target', None)
        if target is None:
            return 'memref_descriptors'
        # As the pipeline reads its options (options.pipeline_options).
        values = pipeline_options(self.cache.context, target.pipeline_name,
                                  target.pipeline_options())['values']
        if values['use-bare-ptr-memref-call-conv']:
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

    def module_for(self, stream: Any) -> Any:
        """The loaded module (the cache's loader made it), noting that it
        launches on `stream` so that it is unloaded only after that
        stream's work is done."""
        module = self.cache._resident.get(self.variant.okey,
                                          self.variant.objects)
        self.cache.retirer.launched(module, stream)
        return module

"""The manifest's closed vocabularies and the checks of its preconditions.

The pass writes each precondition as a JSON object with a `kind` and each
kept parameter's `reason` as a mnemonic (docs/MANIFEST.md). Which kinds,
reasons and argument parts exist is the library's: the C
API lists them from the spec dialect's enums (flyhoistPrintContractKinds),
and vocabularies() reads them once per process. What is this package's own
is the schema version it reads (MANIFEST_VERSION), how each precondition
kind is checked on a value (PRECONDITION_CHECKS) and how each argument part
is read from a runtime argument (_PART_FIELDS).
Anything else in a manifest is a ManifestError: never a silent full
specialization.
"""

import functools

# The manifest schema version this reader understands: how the manifest is
# laid out is this package's knowledge, not a vocabulary.
MANIFEST_VERSION = 3


@functools.cache
def vocabularies():
    """The library's vocabularies: a dict with `version` (the manifest
    schema version) and the frozensets `reasons`, `preconditions` and
    `argument_parts`."""
    from .ir import contract_kinds  # loads the library on first use
    kinds = contract_kinds()
    return {'version': kinds['version'],
            'reasons': frozenset(kinds['reasons']),
            'preconditions': frozenset(kinds['preconditions']),
            'argument_parts': frozenset(kinds['argument_parts'])}


class ManifestError(ValueError):
    """A manifest this package cannot read: another schema version, or a
    precondition kind or reason it does not know."""


def _needs(fact, *fields):
    missing = [f for f in fields if f not in fact]
    if missing:
        raise ManifestError(f'precondition {fact!r} lacks '
                            f'{", ".join(missing)}')
    return [fact[f] for f in fields]


# Where a memref runtime argument (an object or a dict) holds each part an
# `equals` precondition can name; `value` is the argument itself.
_PART_FIELDS = {'offset': 'offset', 'size': 'sizes', 'stride': 'strides'}


def _memref_part(arg, part, index):
    """`part` (number `index`) of a memref runtime argument given as an
    object or a dict with `offset`, `sizes` and `strides`; None when `arg`
    has no such field."""
    field = _PART_FIELDS[part]
    value = arg.get(field) if isinstance(arg, dict) else \
        getattr(arg, field, None)
    if callable(value):
        value = value()
    if value is None:
        return None
    if part == 'offset':
        return value
    try:
        return value[index]
    except (IndexError, TypeError, KeyError):
        return None


def _as_int(x):
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def _divisible_by(fact):
    (divisor,) = _needs(fact, 'divisor')
    return lambda v, a, values=None: v % divisor == 0


def _range(fact):
    low, high = _needs(fact, 'min', 'max')
    return lambda v, a, values=None: low <= v <= high


def _equals(fact):
    argument, part = _needs(fact, 'argument', 'part')
    index = fact.get('index')
    if part not in vocabularies()['argument_parts'] or (
            part != 'value' and part not in _PART_FIELDS):
        raise ManifestError(f'unknown argument part {part!r} in {fact!r}')

    def check(v, a, values=None):
        if a is None:
            return None  # needs the kernel's own arguments
        if argument >= len(a):
            return False
        arg = a[argument]
        got = _as_int(arg) if part == 'value' else \
            _as_int(_memref_part(arg, part, index))
        return got == v
    return check


def _equals_parameter(fact):
    (name,) = _needs(fact, 'name')

    def check(v, a, values=None):
        if values is None or name not in values:
            return None
        return values[name] == v
    return check


def _equals_constant(fact):
    (value,) = _needs(fact, 'value')
    return lambda v, a, values=None: v == value


def _equals_unverifiable(fact):
    # The value equals something a launcher cannot read: only a compile for
    # the values at hand is safe.
    _needs(fact, 'description')
    return lambda v, a, values=None: False


PRECONDITION_CHECKS = {
    'divisible-by': _divisible_by,
    'range': _range,
    'equals': _equals,
    'equals-parameter': _equals_parameter,
    'equals-constant': _equals_constant,
    'equals-unverifiable': _equals_unverifiable,
}


def compile_precondition(fact):
    """A check for a precondition object of the manifest:
    fn(value, runtime_args, values=None) -> True, False, or None when it
    needs the runtime arguments (or the other parameters' values) and has
    none. Raises ManifestError for a kind it does not know."""
    known = vocabularies()
    if not isinstance(fact, dict) or 'kind' not in fact:
        raise ManifestError(f'a precondition is an object with a kind, not '
                            f'{fact!r} (manifest version {MANIFEST_VERSION} '
                            f'expected)')
    kind = fact['kind']
    if kind not in known['preconditions']:
        raise ManifestError(f'unknown precondition kind {kind!r}; the '
                            f'library writes '
                            f'{", ".join(sorted(known["preconditions"]))}')
    make = PRECONDITION_CHECKS.get(kind)
    if make is None:
        raise ManifestError(f'precondition kind {kind!r}: this package has '
                            f'no check for it (a newer library)')
    return make(fact)


def precondition_text(fact):
    """The precondition in words, as the pass renders it."""
    return fact.get('text') or fact['kind']


def check_manifest(manifest):
    """Raises ManifestError unless this package can read `manifest`: its
    version, and every kept reason it names."""
    known = vocabularies()
    version = manifest.get('version')
    if version != MANIFEST_VERSION:
        raise ManifestError(f'manifest version {version!r}; this package '
                            f'reads version {MANIFEST_VERSION}')
    for group in ('kernels', 'device_functions'):
        for function in manifest.get(group, ()):
            for entry in function.get('kept', ()):
                if entry.get('reason') not in known['reasons']:
                    raise ManifestError(
                        f'{function.get("symbol")}: unknown reason '
                        f'{entry.get("reason")!r} for {entry.get("name")!r}')
    return manifest


def kept_reason_text(entry):
    """Why a kept parameter is kept, in the pass's words."""
    return entry.get('reason_text') or entry.get('reason', '?')

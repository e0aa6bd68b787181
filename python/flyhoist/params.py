"""Emitting `spec.param`: the values a frontend would bake into a kernel.

A tracer that would write `%c = arith.constant 128 : index` for a host value
writes `%c = spec.param "max_blocks_per_seq" = 128 : index` instead
(docs/INTEGRATION.md says which values).
"""

import re

_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_.$-]*$')
_SSA = re.compile(r'^%?[A-Za-z0-9_.$-]+$')
_INTEGER_TYPE = re.compile(r'^(index|i([0-9]+))$')


def type_bounds(type_name):
    """(min, max) of the values a `spec.param` of `type_name` may hold: the
    type read as signed or as unsigned, as the verifier accepts."""
    match = _INTEGER_TYPE.match(type_name)
    if not match:
        raise ValueError(f'spec.param needs a signless integer or index type, '
                         f'not {type_name!r}')
    width = 64 if type_name == 'index' else int(match.group(2))
    if width == 0:
        return 0, 0
    return -(1 << (width - 1)), (1 << width) - 1


def spec_param(result, name, value, type_name='index', equals=None):
    """One line of MLIR: `%result = spec.param "name" = value [equals %v] :
    type`. Checks what the verifier would reject, so that a tracer fails at
    its own call site rather than at parse time."""
    if not _SSA.match(result):
        raise ValueError(f'bad SSA name {result!r}')
    if not _NAME.match(name):
        raise ValueError(f'bad parameter name {name!r} (a host variable '
                         f'name, e.g. max_blocks_per_seq)')
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f'{name}: spec.param holds an int, not '
                        f'{type(value).__name__}')
    low, high = type_bounds(type_name)
    if not low <= value <= high:
        raise ValueError(f'{name} = {value} does not fit {type_name}')
    if not -(1 << 63) <= value < (1 << 63):
        # The attribute is an i64; an unsigned i64 value is written as the
        # signed number with the same bits.
        value -= 1 << 64
    ssa = result if result.startswith('%') else '%' + result
    tail = ''
    if equals is not None:
        if not _SSA.match(equals):
            raise ValueError(f'bad SSA name {equals!r}')
        tail = ' equals ' + (equals if equals.startswith('%') else
                             '%' + equals)
    return f'{ssa} = spec.param "{name}" = {value}{tail} : {type_name}'

"""Emitting `spec.param`: the values a frontend would bake into a kernel.

A tracer that would write `%c = arith.constant 128 : index` for a host value
writes `%c = spec.param "max_blocks_per_seq" = 128 : index` instead
(docs/INTEGRATION.md says which values).

What a `spec.param` may hold is the library's to say: spec_param() parses
the line it writes, in a function of its own, through the C API, so the
spec dialect's parser and verifier (the type, the value fitting it, the
`equals` operand's type) reject it at the tracer's call site, with their
own words, instead of a copy of their rules here.
"""

import threading

_checker = None  # the Context spec_param() parses in, made on first use
_checker_lock = threading.Lock()


def _context():
    global _checker
    with _checker_lock:
        if _checker is None:
            from .ir import Context  # loads the library on first use
            _checker = Context()
        return _checker


def _ssa(name):
    return name if name.startswith('%') else '%' + name


def _check(line, type_name, equals):
    """Raises ValueError with the library's diagnostics unless `line` is one
    valid `spec.param` (and nothing else) in a function taking `equals`."""
    from .ir import MLIRError
    argument = f'{_ssa(equals)}: {type_name}' if equals is not None else ''
    text = (f'module {{\nfunc.func @spec_param_check({argument}) {{\n'
            f'  {line}\n  func.return\n}}\n}}\n')
    try:
        module = _context().parse(text, '<spec_param>')
    except MLIRError as error:
        raise ValueError(f'{line!r} is not a valid spec.param: '
                         + ('; '.join(error.diagnostics) or str(error))
                         ) from None
    try:
        # One line, one op: a name cannot smuggle in a second one.
        names = [module.op_name(op) for op in module._walk()]
    finally:
        module.close()
    if names != ['builtin.module', 'func.func', 'spec.param', 'func.return']:
        raise ValueError(f'{line!r} is not one spec.param (it parses as '
                         f'{", ".join(names[2:-1])})')


def spec_param(result, name, value, type_name='index', equals=None):
    """One line of MLIR: `%result = spec.param "name" = value [equals %v] :
    type`, checked by the library's parser and verifier (ValueError with
    their diagnostics), so that a tracer fails at its own call site rather
    than when its module is parsed."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f'{name}: spec.param holds an int, not '
                        f'{type(value).__name__}')
    if (1 << 63) <= value < (1 << 64):
        # The attribute is an i64; an unsigned i64 value is written as the
        # signed number with the same bits.
        value -= 1 << 64
    tail = f' equals {_ssa(equals)}' if equals is not None else ''
    line = f'{_ssa(result)} = spec.param "{name}" = {value}{tail} : {type_name}'
    _check(line, type_name, equals)
    return line

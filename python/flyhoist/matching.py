"""Aligning traces through the C API: inference and matching.

infer_spec_params (flyhoistInferSpecParams) turns the integer constants that
differ between traces of one kernel into spec.params; match_spec_params
(flyhoistMatchSpecParams) reads a later trace's value of each parameter of a
template, or says where the trace differs (TraceMismatch, located).
docs/DESIGN.md section 10 says what is compared.
"""

import ctypes
import json

from . import _capi
from .ir import MLIRError


class TraceMismatch(MLIRError):
    """Two traces of a kernel that differ beyond integer constants."""

    def summary(self):
        """One line: what differs, where, and where in the other trace."""
        error = next((r for r in self.records if r['severity'] == 'error'),
                     None)
        if error is None:
            return str(self).splitlines()[0]
        text = f'{error["message"]} at {error["location"]}'
        if error['notes']:
            text += f' ({error["notes"][0]["location"]} in the other trace)'
        return text


def _collect(lib):
    pieces = []
    callback = _capi.MlirStringCallback(
        lambda ref, _: pieces.append(ref.bytes()))
    return pieces, callback


def infer_spec_params(base, others, frontend=None):
    """Rewrites `base` (an ir.Module) so that the integer constants that
    differ between it and `others` (traces of the same kernel, same context)
    are spec.params. `frontend` is [(name, [value in base, value in each
    other])]: a parameter with those values is named after it. Returns the
    parameters as dicts (name, type, values, location, uses). Raises
    TraceMismatch (base unchanged) when the traces do not align."""
    context = base.context
    lib = context.lib
    frontend = list(frontend or ())
    operations = (_capi.MlirOperation * max(len(others), 1))(
        *[o.op for o in others])
    # The refs own the bytes the array points at: keep them until the call.
    refs = [_capi.MlirStringRef.of(n) for n, _ in frontend]
    names = (_capi.MlirStringRef * max(len(frontend), 1))(*refs)
    flat = [int(v) for _, values in frontend for v in values]
    values = (ctypes.c_int64 * max(len(flat), 1))(*flat)
    pieces, callback = _collect(lib)
    with context.lock:
        context.take_diagnostics()
        result = lib.flyhoistInferSpecParams(
            base.op, len(others), operations, len(frontend), names, values,
            callback, None)
        records = context.take_records()
        diagnostics = context.take_diagnostics()
    del refs
    if not result.value:
        raise TraceMismatch('the traces do not align', diagnostics, records)
    return json.loads(b''.join(pieces))


def match_spec_params(template, trace):
    """{name: value} of the template's parameters in `trace` (ir.Modules of
    one context), or raises TraceMismatch."""
    context = template.context
    lib = context.lib
    pieces, callback = _collect(lib)
    with context.lock:
        context.take_diagnostics()
        result = lib.flyhoistMatchSpecParams(template.op, trace.op, callback,
                                             None)
        records = context.take_records()
        diagnostics = context.take_diagnostics()
    if not result.value:
        raise TraceMismatch('the trace does not match the template',
                            diagnostics, records)
    return json.loads(b''.join(pieces))


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

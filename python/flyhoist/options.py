"""Option strings parsed by the library that owns them, as data.

The hoisting pass and the lowering pipelines parse their own options, with
every check they make before they run (flyhoistPrintHoistOptions and
flyhoistPrintPipelineOptions, C API 1.8), and hand back each option's typed
value and the names the string sets. The package asks them what a string
says instead of matching its text.
"""

import json

from . import _capi
from .ir import MLIRError, _Collector

#: (function name, arguments) -> the JSON the library returned: a string
#: parses the same way in every context, and launches ask per call.
_parsed = {}


def _ask(context, function, what, *texts):
    key = (function, texts)
    if key not in _parsed:
        out = _Collector()
        lib = context.lib
        with context.lock:
            context.take_diagnostics()
            ok = getattr(lib, function)(
                context.handle, *[_capi.MlirStringRef.of(t) for t in texts],
                out.callback, None).value
            records = context.take_records()
            diagnostics = context.take_diagnostics()
        if not ok:
            raise MLIRError(f'invalid options for {what}', diagnostics,
                            records)
        _parsed[key] = out.text()
    return json.loads(_parsed[key])


def hoist_options(context, options: str = '') -> dict:
    """hoist-stride-specialization's reading of `options`: a dict with
    `values` (every option of the pass, typed, defaults filled in) and
    `explicit` (the names `options` sets, whatever their value). Raises
    MLIRError (its `records` the library's error and one note per reason)
    when the pass rejects them."""
    return _ask(context, 'flyhoistPrintHoistOptions',
                'hoist-stride-specialization', options)


def pipeline_options(context, pipeline: str, options: str = '') -> dict:
    """The same for the options of `pipeline` (flyhoist-amdgpu-pipeline or
    flyhoist-nvvm-pipeline: chip, format, O,
    use-bare-ptr-memref-call-conv, ...), the chip checked as the pipeline
    checks it."""
    return _ask(context, 'flyhoistPrintPipelineOptions', pipeline, pipeline,
                options)

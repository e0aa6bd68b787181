"""Where code objects are made for: Target, a chip and its fly-opt
pipeline, and the chips the library's backends know (known_chips).
flyhoist.ir re-exports both."""

from . import _capi


_known_chips = {}


def known_chips(kind):
    """The chips the lowering pipeline of `kind` ('amdgpu' or 'nvvm')
    accepts: the processors LLVM's backend knows, as the C API reports them
    (flyhoistPrintKnownChips), so the package and the pipelines share one
    list. Empty when the library has no such backend."""
    if kind not in _known_chips:
        from .ir import _Collector  # ir re-exports this module
        lib = _capi.load()
        out = _Collector()
        ok = lib.flyhoistPrintKnownChips(_capi.MlirStringRef.of(kind),
                                         out.callback, None).value
        _known_chips[kind] = tuple(out.text().split()) if ok else ()
    return _known_chips[kind]


class Target:
    """Where code objects are made for: a chip and its fly-opt pipeline.

    `Target('gfx942')` -> flyhoist-amdgpu-pipeline, HSA code object (`bin`);
    `Target('sm_90')` -> flyhoist-nvvm-pipeline, PTX (`isa`).
    A chip LLVM does not know raises ValueError at once, naming the known
    chips of its family and the nearest spelling (LLVM would abort the
    process for an AMDGPU one, or write PTX for it); so does a chip with
    target features in its name (gfx942:xnack+). chips.py has the hints.
    """

    def __init__(self, chip: str, fmt: 'str | None' = None,
                 options: str = '') -> None:
        from .chips import check_chip  # the hints, in their own module
        kind = check_chip(chip, known_chips)
        if kind == 'nvvm':
            self.kind, self.pipeline_name = 'nvvm', 'flyhoist-nvvm-pipeline'
            fmt = fmt or 'isa'
        else:
            self.kind, self.pipeline_name = 'amdgpu', 'flyhoist-amdgpu-pipeline'
            fmt = fmt or 'bin'
        self.chip, self.format, self.options = chip, fmt, options

    def pipeline_options(self) -> str:
        """The option string of the lowering pipeline (pipeline_name)."""
        extra = f' {self.options}' if self.options else ''
        return f'chip={self.chip} format={self.format}{extra}'

    def pipeline(self) -> str:
        """Every kept spec.param becomes a constant, then the lowering."""
        return (f'builtin.module(materialize-specialization,'
                f'{self.pipeline_name}{{{self.pipeline_options()}}})')

    def key(self) -> str:
        """What, besides the GPU module, decides the object's bytes."""
        return self.pipeline()

    def __repr__(self):
        return f'Target({self.chip!r}, {self.format!r})'

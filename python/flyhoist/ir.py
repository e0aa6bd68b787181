"""A frontend's own MLIR context and modules, over MLIR's C API.

`Context` registers what a frontend registers (every upstream dialect plus
`spec` through its dialect handle, the LLVM IR translations) and collects the
diagnostics MLIR emits, rendered as `file:line:col: severity: message`.
`Module` is a `builtin.module` owned by the frontend: hoisting with the
pass's option string, the manifest, fingerprints, pipelines and code objects.
"""

from __future__ import annotations

import json
import threading

from . import _capi
from .target import Target, known_chips  # noqa: F401 (re-exported)

_SEVERITIES = ('error', 'warning', 'note', 'remark')


class MLIRError(RuntimeError):
    """A failed MLIR call, with the diagnostics it emitted."""

    def __init__(self, message, diagnostics=(), records=()):
        self.message = message  # without the diagnostics
        self.diagnostics = list(diagnostics)
        #: The same diagnostics as data (Context.take_records).
        self.records = list(records)
        text = message
        if self.diagnostics:
            text += ':\n' + '\n'.join(self.diagnostics)
        super().__init__(text)


class HoistError(MLIRError):
    """hoist-stride-specialization failed; the module is unchanged."""


class CompileError(MLIRError):
    """Lowering to a code object failed."""


class _Collector:
    """Appends the pieces a MlirStringCallback delivers."""

    def __init__(self):
        self.pieces = []
        self.callback = _capi.MlirStringCallback(
            lambda ref, _: self.pieces.append(ref.bytes()))

    def bytes(self):
        return b''.join(self.pieces)

    def text(self):
        return self.bytes().decode('utf-8', errors='replace')


class Context:
    """An MLIR context with upstream dialects and `spec` registered.

    Not thread-safe (MLIR contexts are not either): use one per thread, or
    serialize calls, as KernelCache does.
    """

    def __init__(self, library=None, threading_enabled=False):
        self.lib = library or _capi.load()
        lib = self.lib
        registry = lib.mlirDialectRegistryCreate()
        lib.mlirRegisterAllDialects(registry)
        lib.mlirDialectHandleInsertDialect(lib.mlirGetDialectHandle__spec__(),
                                           registry)
        self.handle = lib.mlirContextCreateWithRegistry(registry,
                                                        threading_enabled)
        lib.mlirDialectRegistryDestroy(registry)
        # Every note of a diagnostic is one its emitter wrote: MLIR would
        # attach the whole op to each one emitted on an op.
        lib.flyhoistContextSetPrintOpOnDiagnostic(self.handle, False)
        # gpu-module-to-binary translates each gpu.module to LLVM IR.
        lib.mlirRegisterAllLLVMTranslations(self.handle)
        self._diagnostics = []
        self._records = []  # the same, as data (take_records)
        self.errors = 0  # error diagnostics among them
        self._handler = _capi.MlirDiagnosticHandler(self._on_diagnostic)
        self._no_delete = _capi.MlirDeleteUserData(0)
        lib.mlirContextAttachDiagnosticHandler(self.handle, self._handler,
                                               None, self._no_delete)
        self.lock = threading.RLock()

    # -- diagnostics ------------------------------------------------------

    def _location(self, location):
        """Where `location` points, worded as the manifest words it."""
        text = _Collector()
        self.lib.flyhoistPrintLocation(location, text.callback, None)
        return text.text()

    def _render(self, diagnostic, lines):
        lib = self.lib
        message = _Collector()
        lib.mlirDiagnosticPrint(diagnostic, message.callback, None)
        text = message.text()
        severity = _SEVERITIES[lib.mlirDiagnosticGetSeverity(diagnostic)]
        location = self._location(lib.mlirDiagnosticGetLocation(diagnostic))
        lines.append(f'{location}: {severity}: {text}')
        for i in range(lib.mlirDiagnosticGetNumNotes(diagnostic)):
            self._render(lib.mlirDiagnosticGetNote(diagnostic, i), lines)

    def _on_diagnostic(self, diagnostic, _):
        try:
            if self.lib.mlirDiagnosticGetSeverity(diagnostic) == 0:
                self.errors += 1
            self._render(diagnostic, self._diagnostics)
            self._records.append(self._record(diagnostic))
        except Exception as error:  # never unwind through C
            self._diagnostics.append(f'<diagnostic not rendered: {error}>')
        return 1  # handled

    def _record(self, diagnostic):
        """`diagnostic` as data: severity, location, message and notes."""
        lib = self.lib
        message = _Collector()
        lib.mlirDiagnosticPrint(diagnostic, message.callback, None)
        return {'severity': _SEVERITIES[lib.mlirDiagnosticGetSeverity(
                    diagnostic)],
                'location': self._location(
                    lib.mlirDiagnosticGetLocation(diagnostic)),
                'message': message.text(),
                'notes': [self._record(lib.mlirDiagnosticGetNote(diagnostic, i))
                          for i in range(
                              lib.mlirDiagnosticGetNumNotes(diagnostic))]}

    def take_diagnostics(self) -> list[str]:
        """Every diagnostic emitted since the last call, one line each."""
        taken, self._diagnostics = self._diagnostics, []
        self._records = []
        self.errors = 0
        return taken

    def take_records(self) -> list[dict]:
        """Every diagnostic emitted since the last call, as data (dicts with
        severity, location, message and notes, each note a dict alike);
        take_diagnostics() after it still has their lines."""
        taken, self._records = self._records, []
        return taken

    # -- modules ------------------------------------------------------------

    def parse(self, text: str,
              source_name: str = '<frontend>') -> Module:
        """Parses a `builtin.module` (text or bytecode); `source_name` is the
        file name of its locations. Raises MLIRError."""
        with self.lock:
            self.take_diagnostics()
            op = self.lib.mlirOperationCreateParse(
                self.handle, _capi.MlirStringRef.of(text),
                _capi.MlirStringRef.of(source_name))
            diagnostics = self.take_diagnostics()
            if not op.ptr:
                raise MLIRError(f'{source_name} does not parse', diagnostics)
            module = Module(self, op)
            if module.op_name() != 'builtin.module':
                name = module.op_name()
                module.close()
                raise MLIRError(f'{source_name} holds a {name!r}, not a '
                                f'builtin.module')
            return module

    def close(self):
        if self.handle and self.handle.ptr:
            self.lib.mlirContextDestroy(self.handle)
            self.handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Module:
    """A `builtin.module` of a Context, owned by the caller."""

    def __init__(self, context, op):
        self.context, self.op = context, op
        self.remarks = []

    @property
    def lib(self):
        return self.context.lib

    def op_name(self, op=None):
        return self.lib.mlirIdentifierStr(
            self.lib.mlirOperationGetName(op or self.op)).str()

    def _walk(self, op=None):
        """Pre-order walk of the ops under `op` (the module itself first)."""
        lib = self.lib
        stack = [op or self.op]
        while stack:
            current = stack.pop()
            yield current
            children = []
            for r in range(lib.mlirOperationGetNumRegions(current)):
                block = lib.mlirRegionGetFirstBlock(
                    lib.mlirOperationGetRegion(current, r))
                if not block.ptr:
                    continue
                child = lib.mlirBlockGetFirstOperation(block)
                while child.ptr:
                    children.append(child)
                    child = lib.mlirOperationGetNextInBlock(child)
            stack.extend(reversed(children))

    def _symbol(self, op):
        attr = self.lib.mlirOperationGetAttributeByName(
            op, _capi.MlirStringRef.of('sym_name'))
        if attr.ptr and self.lib.mlirAttributeIsAString(attr):
            return self.lib.mlirStringAttrGetValue(attr).str()
        return None

    def text(self) -> str:
        out = _Collector()
        with self.context.lock:
            self.lib.mlirOperationPrint(self.op, out.callback, None)
        return out.text()

    def bytecode(self) -> bytes:
        """MLIR bytecode of the module, locations included: what a compile
        worker's context parses back to it, its errors located as here."""
        out = _Collector()
        with self.context.lock:
            self.lib.mlirOperationWriteBytecode(self.op, out.callback, None)
        return out.bytes()

    def location(self, op=None):
        """Where `op` (default: the module) is, as diagnostics word it."""
        with self.context.lock:
            return self.context._location(
                self.lib.mlirOperationGetLocation(op or self.op))

    def clone(self) -> Module:
        with self.context.lock:
            return Module(self.context, self.lib.mlirOperationClone(self.op))

    def hoist(self, options: str = '') -> dict:
        """Runs hoist-stride-specialization with the pass's option string
        (e.g. "hoist-into-host=true divisibility=16") and returns the
        manifest. The remarks are left in `self.remarks`. Raises HoistError
        (module unchanged) with the located diagnostics."""
        with self.context.lock:
            self.context.take_diagnostics()
            result = self.lib.flyhoistHoistStrideSpecialization(
                self.op, _capi.MlirStringRef.of(options))
            failed = not result.value or self.context.errors
            records = self.context.take_records()
            diagnostics = self.context.take_diagnostics()
            if failed:
                raise HoistError('hoist-stride-specialization failed',
                                 diagnostics, records)
            self.remarks = diagnostics
            return self.manifest()

    def run_pipeline(self, pipeline, error=MLIRError):
        """Runs a textual pipeline (`builtin.module(...)`) over the module
        through MLIR's parser and pass manager, as any frontend does."""
        lib = self.lib
        with self.context.lock:
            self.context.take_diagnostics()
            pm = lib.mlirPassManagerCreate(self.context.handle)
            try:
                invalid = _parse_pipeline(lib, pm, pipeline)
                if invalid is not None:
                    raise error(f'invalid pipeline {pipeline!r}', [invalid])
                ran = lib.mlirPassManagerRunOnOp(pm, self.op)
            finally:
                lib.mlirPassManagerDestroy(pm)
            # A pass that reports an error without failing (MLIR 22's
            # gpu-module-to-binary does, for an unknown format) still failed.
            failed = not ran.value or self.context.errors
            records = self.context.take_records()
            diagnostics = self.context.take_diagnostics()
            if failed:
                raise error(f'pipeline {pipeline!r} failed', diagnostics,
                            records)
            self.remarks = diagnostics

    def manifest(self) -> dict:
        """The hoisting manifest (docs/MANIFEST.md), as a dict."""
        out = _Collector()
        with self.context.lock:
            result = self.lib.flyhoistPrintManifest(self.op, out.callback,
                                                    None)
            diagnostics = self.context.take_diagnostics()
        if not result.value:
            raise MLIRError('no manifest', diagnostics)
        return json.loads(out.bytes())

    def spec_params(self) -> list[dict]:
        """Every spec.param in the module, in IR order, as the library reads
        it: dicts of name, value, type, equals (whether it has an `equals`
        operand) and location (flyhoistPrintSpecParams)."""
        out = _Collector()
        with self.context.lock:
            self.lib.flyhoistPrintSpecParams(self.op, out.callback, None)
        return json.loads(out.bytes())

    def trace_signature(self) -> str:
        """The module's op structure but for the constants traces may
        differ in: equal for traces that align op by op
        (flyhoistPrintTraceSignature)."""
        out = _Collector()
        with self.context.lock:
            self.lib.flyhoistPrintTraceSignature(self.op, out.callback, None)
        return out.text()

    def gpu_targets(self) -> list[dict]:
        """The targets of each gpu.module, in IR order, as the library reads
        the attributes: dicts of symbol and targets, each target a dict of
        kind ('rocdl', 'nvvm' or 'unknown'), chip (None for an unknown
        kind), dialect and attribute (as MLIR prints it)
        (flyhoistPrintGPUTargets)."""
        out = _Collector()
        with self.context.lock:
            self.lib.flyhoistPrintGPUTargets(self.op, out.callback, None)
        return json.loads(out.bytes())

    def gpu_modules(self) -> dict:
        """{symbol: MlirOperation} of the gpu.module ops, in module order."""
        return {self._symbol(op): op for op in self._walk()
                if self.op_name(op) == 'gpu.module'}

    def fingerprints(self) -> dict[str, str]:
        """{gpu.module symbol: fingerprint}, by flyhoistPrintFingerprint."""
        result = {}
        with self.context.lock:
            for symbol, op in self.gpu_modules().items():
                out = _Collector()
                if not self.lib.flyhoistPrintFingerprint(op, out.callback,
                                                         None).value:
                    raise MLIRError(f'no fingerprint for @{symbol}',
                                    self.context.take_diagnostics())
                result[symbol] = out.text()
        return result

    def binaries(self) -> dict[str, bytes]:
        """{gpu.binary symbol: object bytes} (the first object of each)."""
        lib = self.lib
        result = {}
        for op in self._walk():
            if self.op_name(op) != 'gpu.binary':
                continue
            objects = lib.mlirOperationGetAttributeByName(
                op, _capi.MlirStringRef.of('objects'))
            if not objects.ptr or not lib.mlirAttributeIsAArray(objects) or \
                    lib.mlirArrayAttrGetNumElements(objects) < 1:
                continue
            first = lib.mlirArrayAttrGetElement(objects, 0)
            if lib.mlirAttributeIsAGPUObjectAttr(first):
                result[self._symbol(op)] = \
                    lib.mlirGPUObjectAttrGetObject(first).bytes()
        return result

    def compile(self, target: Target) -> dict[str, bytes]:
        """Compiles a copy of the module (this one is left as it is) with
        `target`'s pipeline (a Target, or a pipeline's text) and returns
        {gpu.module symbol: object bytes}. Raises CompileError. It runs in
        this process, where a fatal error of LLVM's ends it: the low-level
        call. KernelCache compiles in a worker (_compile_worker.py)."""
        pipeline = target if isinstance(target, str) else target.pipeline()
        copy = self.clone()
        try:
            copy.run_pipeline(pipeline, error=CompileError)
            objects = copy.binaries()
        finally:
            copy.close()
        if not objects:
            raise CompileError(f'{target} produced no gpu.binary')
        return objects

    def close(self):
        if self.op is not None and self.op.ptr:
            with self.context.lock:
                self.lib.mlirOperationDestroy(self.op)
            self.op = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check_options(context, options):
    """ValueError with the library's reason when hoist-stride-specialization
    rejects `options` (hoisting an empty module parses them as every hoist)."""
    if not isinstance(options, str):
        raise ValueError(f'options must be a string, not {options!r}')
    if not options.strip():
        return
    with context.parse('module {}', '<options>') as empty:
        try:
            empty.hoist(options)
        except HoistError as error:
            # The reasons are the notes of the library's one error.
            reasons = [note['message'] for record in error.records
                       for note in record['notes']]
            raise ValueError('; '.join(reasons) or str(error)) from None


def _one_line(text):
    return '; '.join(line.strip() for line in text.splitlines()
                     if line.strip())


def _parse_pipeline(lib, pm, pipeline):
    """Parses `pipeline` into `pm`; the error text, or None."""
    errors = _Collector()  # with the option parser's reason (a bad value)
    parsed = lib.flyhoistParsePassPipeline(
        lib.mlirPassManagerGetAsOpPassManager(pm),
        _capi.MlirStringRef.of(pipeline), errors.callback, None)
    return None if parsed.value else errors.text().strip()


def check_pipeline(context, pipeline):
    """Raises ValueError when MLIR does not parse `pipeline`."""
    lib = context.lib
    with context.lock:
        pm = lib.mlirPassManagerCreate(context.handle)
        try:
            invalid = _parse_pipeline(lib, pm, pipeline)
        finally:
            lib.mlirPassManagerDestroy(pm)
    if invalid is not None:
        raise ValueError(f'invalid pipeline {pipeline!r}: '
                         f'{_one_line(invalid)}')


def contract_kinds():
    """What the pass can write in a manifest's closed vocabularies, as the
    C API lists them from the spec dialect's enums
    (flyhoistPrintContractKinds): a dict with `version`, `reasons`,
    `preconditions` and `argument_parts`."""
    lib = _capi.load()
    out = _Collector()
    lib.flyhoistPrintContractKinds(out.callback, None)
    return json.loads(out.text())

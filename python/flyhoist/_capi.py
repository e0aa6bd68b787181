"""ctypes declarations of libFlyHoistMLIRCAPI.so: MLIR's C API and flyhoist's.

Only what the package uses is declared. MLIR's handle types are structs of
one pointer and MlirStringRef is a (pointer, length) pair; both are passed by
value, which ctypes does for foreign functions and callbacks alike.
"""

import ctypes
import os

# Which library is loaded is _discovery's (one rule, docs/INTEGRATION.md).
from ._discovery import (LIBRARY_NAME, ROOT, LibraryError,  # noqa: F401
                         LibraryMismatch, LibraryNotFound, find,
                         find_library, is_sanitizer_build, library_candidates)
from . import _discovery

#: The version of include/flyhoist-c/FlyHoist.h this package speaks: the
#: library's major version must be this one and its minor version at least
#: this one (1.3 added flyhoistPrintLocation; 1.4 flyhoistGetBuildIdentity
#: and flyhoistPrintCompileFingerprint, which code-object keys need; 1.5
#: flyhoistContextSetPrintOpOnDiagnostic, so diagnostics read as data; 1.6
#: flyhoistPrintSpecParams and flyhoistPrintTraceSignature, so inference
#: reads templates and traces as data, not their printed text; 1.7
#: flyhoistPrintGPUTargets, so the chip check reads a gpu.module's targets
#: as data; 1.8 flyhoistPrintHoistOptions and flyhoistPrintPipelineOptions,
#: so the package asks what an option string sets instead of matching it).
API_MAJOR = 1
API_MINOR = 8


def _handle(name):
    return type(name, (ctypes.Structure,),
                {'_fields_': [('ptr', ctypes.c_void_p)]})


MlirContext = _handle('MlirContext')
MlirDialectRegistry = _handle('MlirDialectRegistry')
MlirDialectHandle = _handle('MlirDialectHandle')
MlirOperation = _handle('MlirOperation')
MlirBlock = _handle('MlirBlock')
MlirRegion = _handle('MlirRegion')
MlirAttribute = _handle('MlirAttribute')
MlirIdentifier = _handle('MlirIdentifier')
MlirLocation = _handle('MlirLocation')
MlirDiagnostic = _handle('MlirDiagnostic')
MlirPassManager = _handle('MlirPassManager')
MlirOpPassManager = _handle('MlirOpPassManager')


class MlirStringRef(ctypes.Structure):
    _fields_ = [('data', ctypes.c_void_p), ('length', ctypes.c_size_t)]

    @classmethod
    def of(cls, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        ref = cls(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p),
                  len(data))
        ref._keep = data  # the bytes must outlive the call
        return ref

    def bytes(self):
        return ctypes.string_at(self.data, self.length) if self.length else b''

    def str(self):
        return self.bytes().decode('utf-8', errors='replace')


class MlirLogicalResult(ctypes.Structure):
    _fields_ = [('value', ctypes.c_int8)]


MlirStringCallback = ctypes.CFUNCTYPE(None, MlirStringRef, ctypes.c_void_p)
# MlirLogicalResult (a struct of one int8) is returned as an int8: ctypes
# callbacks cannot return structs, and the two are returned alike by the C
# calling conventions of x86-64 and AArch64.
MlirDiagnosticHandler = ctypes.CFUNCTYPE(ctypes.c_int8, MlirDiagnostic,
                                         ctypes.c_void_p)
MlirDeleteUserData = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_B = ctypes.c_bool
_I = ctypes.c_int
_IP = ctypes.c_ssize_t  # intptr_t
_U = ctypes.c_uint32
_V = ctypes.c_void_p
_S = MlirStringRef
_R = MlirLogicalResult

_SIGNATURES = {
    # flyhoist
    'flyhoistGetAPIVersion': (_U, []),
    'flyhoistGetRevision': (ctypes.c_char_p, []),
    'flyhoistGetBuildIdentity': (ctypes.c_char_p, []),
    'flyhoistContextSetPrintOpOnDiagnostic': (None, [MlirContext, _B]),
    'flyhoistPrintCompileFingerprint': (_R, [MlirOperation,
                                             MlirStringCallback, _V]),
    'mlirGetDialectHandle__spec__': (MlirDialectHandle, []),
    'mlirRegisterFlyHoistPasses': (None, []),
    'mlirRegisterFlyHoistPipelines': (None, []),
    'flyhoistHoistStrideSpecialization': (_R, [MlirOperation, _S]),
    'flyhoistPrintManifest': (_R, [MlirOperation, MlirStringCallback, _V]),
    'flyhoistPrintFingerprint': (_R, [MlirOperation, MlirStringCallback, _V]),
    'flyhoistPrintKnownChips': (_R, [_S, MlirStringCallback, _V]),
    'flyhoistPrintContractKinds': (None, [MlirStringCallback, _V]),
    'flyhoistPrintLocation': (None, [MlirLocation, MlirStringCallback, _V]),
    'flyhoistParsePassPipeline': (_R, [MlirOpPassManager, _S,
                                       MlirStringCallback, _V]),
    'flyhoistInferSpecParams': (_R, [
        MlirOperation, _IP, ctypes.POINTER(MlirOperation), _IP,
        ctypes.POINTER(MlirStringRef), ctypes.POINTER(ctypes.c_int64),
        MlirStringCallback, _V]),
    'flyhoistMatchSpecParams': (_R, [MlirOperation, MlirOperation,
                                     MlirStringCallback, _V]),
    'flyhoistPrintSpecParams': (_R, [MlirOperation, MlirStringCallback, _V]),
    'flyhoistPrintTraceSignature': (_R, [MlirOperation, MlirStringCallback,
                                         _V]),
    'flyhoistPrintGPUTargets': (_R, [MlirOperation, MlirStringCallback, _V]),
    'flyhoistPrintHoistOptions': (_R, [MlirContext, _S, MlirStringCallback,
                                       _V]),
    'flyhoistPrintPipelineOptions': (_R, [MlirContext, _S, _S,
                                          MlirStringCallback, _V]),
    # registration
    'mlirDialectRegistryCreate': (MlirDialectRegistry, []),
    'mlirDialectRegistryDestroy': (None, [MlirDialectRegistry]),
    'mlirRegisterAllDialects': (None, [MlirDialectRegistry]),
    'mlirRegisterAllPasses': (None, []),
    'mlirRegisterAllLLVMTranslations': (None, [MlirContext]),
    'mlirDialectHandleInsertDialect': (None, [MlirDialectHandle,
                                              MlirDialectRegistry]),
    # context and diagnostics
    'mlirContextCreateWithRegistry': (MlirContext, [MlirDialectRegistry, _B]),
    'mlirContextDestroy': (None, [MlirContext]),
    'mlirContextAttachDiagnosticHandler': (ctypes.c_uint64, [
        MlirContext, MlirDiagnosticHandler, _V, MlirDeleteUserData]),
    'mlirContextDetachDiagnosticHandler': (None, [MlirContext,
                                                  ctypes.c_uint64]),
    'mlirDiagnosticPrint': (None, [MlirDiagnostic, MlirStringCallback, _V]),
    'mlirDiagnosticGetLocation': (MlirLocation, [MlirDiagnostic]),
    'mlirDiagnosticGetSeverity': (_I, [MlirDiagnostic]),
    'mlirDiagnosticGetNumNotes': (_IP, [MlirDiagnostic]),
    'mlirDiagnosticGetNote': (MlirDiagnostic, [MlirDiagnostic, _IP]),
    # operations
    'mlirOperationCreateParse': (MlirOperation, [MlirContext, _S, _S]),
    'mlirOperationClone': (MlirOperation, [MlirOperation]),
    'mlirOperationDestroy': (None, [MlirOperation]),
    'mlirOperationPrint': (None, [MlirOperation, MlirStringCallback, _V]),
    'mlirOperationWriteBytecode': (None, [MlirOperation, MlirStringCallback,
                                          _V]),
    'mlirOperationGetLocation': (MlirLocation, [MlirOperation]),
    'mlirOperationGetName': (MlirIdentifier, [MlirOperation]),
    'mlirOperationGetNumRegions': (_IP, [MlirOperation]),
    'mlirOperationGetRegion': (MlirRegion, [MlirOperation, _IP]),
    'mlirOperationGetNextInBlock': (MlirOperation, [MlirOperation]),
    'mlirOperationGetAttributeByName': (MlirAttribute, [MlirOperation, _S]),
    'mlirRegionGetFirstBlock': (MlirBlock, [MlirRegion]),
    'mlirBlockGetFirstOperation': (MlirOperation, [MlirBlock]),
    'mlirIdentifierStr': (_S, [MlirIdentifier]),
    # attributes
    'mlirAttributeIsAArray': (_B, [MlirAttribute]),
    'mlirArrayAttrGetNumElements': (_IP, [MlirAttribute]),
    'mlirArrayAttrGetElement': (MlirAttribute, [MlirAttribute, _IP]),
    'mlirAttributeIsAString': (_B, [MlirAttribute]),
    'mlirStringAttrGetValue': (_S, [MlirAttribute]),
    'mlirAttributeIsAGPUObjectAttr': (_B, [MlirAttribute]),
    'mlirGPUObjectAttrGetObject': (_S, [MlirAttribute]),
    # passes
    'mlirPassManagerCreate': (MlirPassManager, [MlirContext]),
    'mlirPassManagerDestroy': (None, [MlirPassManager]),
    'mlirPassManagerGetAsOpPassManager': (MlirOpPassManager,
                                          [MlirPassManager]),
    'mlirParsePassPipeline': (_R, [MlirOpPassManager, _S, MlirStringCallback,
                                   _V]),
    'mlirPassManagerRunOnOp': (_R, [MlirPassManager, MlirOperation]),
}


class Library:
    """The loaded library, with every declared function typed."""

    def __init__(self, path):
        self.path = path
        lib = ctypes.CDLL(path)
        # The version first: a function an older library lacks would
        # otherwise fail to bind with a bare AttributeError.
        lib.flyhoistGetAPIVersion.restype = ctypes.c_uint32
        version = lib.flyhoistGetAPIVersion()
        major, minor = version >> 16, version & 0xffff
        if major != API_MAJOR or minor < API_MINOR:
            raise RuntimeError(
                f'{path} has the flyhoist C API {major}.{minor}; this '
                f'package needs {API_MAJOR}.{API_MINOR} or a later '
                f'{API_MAJOR}.x')
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        self.version = (major, minor)
        self.revision = lib.flyhoistGetRevision().decode()
        #: Which flyhoist built it (version, source revision, MLIR): part
        #: of every code-object key (keys.py).
        self.build_identity = lib.flyhoistGetBuildIdentity().decode()


_library = None


def load(path=None):
    """Loads the library once per process (MLIR's registries are global)."""
    global _library
    if _library is None:
        found, origin = find(path)
        try:
            library = Library(found)
        except OSError as error:  # dlopen's reason: a missing libMLIR.so...
            hint = ('; flyhoist needs LLVM 22 (scripts/setup.sh)'
                    if 'libMLIR' in str(error) or 'libLLVM' in str(error)
                    else '')
            raise LibraryError(f'{found} ({origin}) does not load: '
                               f'{error}{hint}') from None
        _discovery.check_identity(found, origin, library.build_identity)
        _library = library
        # Process-wide registrations, once, as a frontend does at start-up.
        _library.mlirRegisterAllPasses()
        _library.mlirRegisterFlyHoistPasses()
        _library.mlirRegisterFlyHoistPipelines()
    elif path and os.path.realpath(path) != os.path.realpath(_library.path):
        raise RuntimeError(f'{_library.path} is already loaded; one process '
                           f'holds one copy of MLIR')
    return _library

"""Shared helpers of the flyhoist benchmarks (standard library only).

The one module of bench/ that knows the tree's layout: a script in bench/
imports it as a sibling (`import common`), one in bench/gpu/ through
bench/gpu/common.py, which loads this file; the Python package comes from
`import_flyhoist()`.
"""

import hashlib
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
PYTHON = os.path.join(ROOT, 'python')


def sibling(name):
    """The module bench/<name>.py, whichever folder the script that asks
    runs from (bench/gpu/ scripts do not have bench/ on their path)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(BENCH, name + '.py'))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def import_flyhoist():
    """The flyhoist package: from PYTHONPATH when it is there, else from this
    tree's python/ (the one place the benchmarks add it to the path)."""
    try:
        return importlib.import_module('flyhoist')
    except ImportError:
        sys.path.insert(0, PYTHON)
        return importlib.import_module('flyhoist')


gpu_objects = sibling('gpu_objects')

KERNEL = os.path.join(ROOT, 'kernels', 'paged_fp4_mqa_logits.mlir')
GATHER_KERNEL = os.path.join(ROOT, 'kernels', 'paged_fp4_k_gather.mlir')
WIDTH_PARAM = 'max_blocks_per_seq'
_WIDTH_LINE = re.compile(r'(spec\.param\s+"' + WIDTH_PARAM + r'"\s*=\s*)(\d+)')


def find_fly_opt(explicit=None):
    """fly-opt from --fly-opt, $FLY_OPT, $FLYHOIST_BUILD_DIR/bin or build/bin."""
    candidates = [explicit, os.environ.get('FLY_OPT')]
    build = os.environ.get('FLYHOIST_BUILD_DIR')
    if build:
        candidates.append(os.path.join(build, 'bin', 'fly-opt'))
    candidates.append(os.path.join(ROOT, 'build', 'bin', 'fly-opt'))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    sys.exit('error: fly-opt not found; build it (scripts/build.sh) or pass --fly-opt')


def find_llvm_tool(name):
    """An LLVM 22 tool: name-22 on PATH or /usr/lib/llvm-22/bin/name."""
    for c in (shutil.which(name + '-22'), '/usr/lib/llvm-22/bin/' + name,
              shutil.which(name)):
        if c and os.path.exists(c):
            return c
    sys.exit(f'error: {name} (LLVM 22) not found')


def kernel_with_width(text, width, param=WIDTH_PARAM):
    """The kernel text with `param` (default `max_blocks_per_seq`) set to
    `width`."""
    line = _WIDTH_LINE if param == WIDTH_PARAM else re.compile(
        r'(spec\.param\s+"' + re.escape(param) + r'"\s*=\s*)(\d+)')
    new, count = line.subn(lambda m: m.group(1) + str(width), text)
    if count != 1:
        sys.exit(f'error: expected one `spec.param "{param}" = N` line, found {count}')
    return new


_TARGET = re.compile(r'gpu\.module\s+@\w+\s*\[#rocdl\.target<([^>]*)>')


def target_opt_level(text):
    """The O of the #rocdl.target a kernel's gpu.module already carries (as
    FlyDSL's do), or None. The attribute's own default is 2: the AMDGPU
    pipeline must attach an equal target, or the module gets two targets
    and two code objects."""
    m = _TARGET.search(text)
    if not m:
        return None
    o = re.search(r'\bO\s*=\s*(\d+)', m.group(1))
    return int(o.group(1)) if o else 2


def pipeline(mode, chip, fmt='bin', opt_level=None):
    """The --pass-pipeline of one compile: mode is materialized or hoisted;
    opt_level the device O (None: the pipeline's default)."""
    first = {'materialized': 'materialize-specialization',
             'hoisted': 'hoist-stride-specialization{remarks=false}'}[mode]
    o = '' if opt_level is None else f' O={opt_level}'
    return (f'builtin.module({first},'
            f'flyhoist-amdgpu-pipeline{{chip={chip}{o} format={fmt}}})')


def compile_module(fly_opt, text, pipe, workdir):
    """Runs fly-opt on `text` with `pipe`.

    Returns (output text, cpu seconds, wall seconds). CPU time is the child's
    own user + system time (os.wait4), so it does not grow when several
    compiles share the machine; wall time does.
    """
    fd, src = tempfile.mkstemp(suffix='.mlir', dir=workdir)
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    dst = src[:-5] + '.out.mlir'
    err = src[:-5] + '.err'
    start = time.monotonic()
    with open(dst, 'wb') as out, open(err, 'wb') as errf:
        proc = subprocess.Popen([fly_opt, f'--pass-pipeline={pipe}', src],
                                stdout=out, stderr=errf)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    if proc.returncode != 0:
        with open(err, encoding='utf-8', errors='replace') as f:
            sys.stderr.write(f.read())
        raise RuntimeError(f'fly-opt failed ({proc.returncode}): {pipe}')
    with open(dst, encoding='latin-1') as f:
        result = f.read()
    for path in (src, dst, err):
        os.unlink(path)
    return result, cpu, wall


def object_bytes(module_text):
    """The code objects of a compiled module: [(binary, chip, bytes)]."""
    return [(b, chip, data) for b, _, chip, _, data in gpu_objects.objects(module_text)]


def sha256(data):
    return hashlib.sha256(data).hexdigest()

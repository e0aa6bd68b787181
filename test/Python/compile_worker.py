# No compile ends the caller's process. A hoisted value that reaches an
# inline-asm operand LLVM requires to be an immediate (constraint "n"),
# through the user's own address-operands entry, makes LLVM exit the process
# with status 1 (no exception, no atexit): KernelCache lowers in a worker
# process (_compile_worker.py), turns its death into a located CompileError
# and falls back to the specialized compile, with one warning. Then: a worker
# killed mid-compile, a specialized compile that kills it too (a
# CompileError from get, never an exit), inference's route, the opt-outs,
# and options checked at construction.
# RUN: python3 %s gfx942 2>%t.gfx942.err | FileCheck %s --check-prefixes=CHECK,GFX942
# RUN: FileCheck %s --check-prefix=STDERR < %t.gfx942.err
# RUN: python3 %s sm_90 2>%t.sm_90.err | FileCheck %s --check-prefixes=CHECK,SM90
# RUN: FileCheck %s --check-prefix=STDERR < %t.sm_90.err

import atexit
import os
import signal
import subprocess
import sys

from flyhoist import CompileError, KernelCache

CHIP = sys.argv[1]
IN_PROCESS = len(sys.argv) > 2  # the child of the in-process section
ASM, CONSTRAINTS = (('mov.u32 $0, $1;', '=r,n') if CHIP.startswith('sm_')
                    else ('s_mov_b32 $0, $1', '=s,n'))
KERNEL = f'''module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @imm(%out: memref<?xi32>) kernel {{
      %k = K
      %c0 = arith.constant 0 : index
      %r = llvm.inline_asm "{ASM}", "{CONSTRAINTS}" %k : (i32) -> i32
      memref.store %r, %out[%c0] : memref<?xi32>
      gpu.return
    }}
  }}
}}
'''
OPTIONS = 'address-operands=llvm.inline_asm[0]'


def marked(values):
    return KERNEL.replace('K', f'spec.param "k" = {values["k"]} : i32')


def plain(values):
    return KERNEL.replace('K', f'arith.constant {values["k"]} : i32')


def say(*args):
    print(*args, flush=True)


atexit.register(lambda: say('atexit ran'))

if IN_PROCESS:
    # What the worker protects against: the same hoisted module lowered in
    # this process by the low-level Module.compile.
    from flyhoist import Context, Target
    with Context() as context, context.parse(marked({'k': 5}), 'imm.mlir') \
            as module:
        module.hoist(OPTIONS)
        module.compile(Target(CHIP))
    say('in-process compile returned')
    sys.exit(0)

# CHECK-LABEL: in process
say('in process')
child = subprocess.run([sys.executable, __file__, CHIP, 'in-process'],
                       capture_output=True, text=True)
say(f'exit status {child.returncode}; its output: {child.stdout!r}')
say('LLVM said:', child.stderr.strip().splitlines()[-1])
# CHECK-NEXT: exit status 1; its output: ''
# CHECK-NEXT: LLVM said: error: constraint 'n' expects an integer constant expression

# CHECK-LABEL: through KernelCache
say('through KernelCache')
log = []
cache = KernelCache(CHIP, options=OPTIONS, cache_dir=False, log=log.append)
launches = [cache.get('imm', {'k': k}, marked) for k in (5, 6, 5)]
say('in a worker:', cache.compile_in_worker)
say('specialized:', [launch.specialized for launch in launches])
say('arguments:', launches[1].arguments(['out']))
say(f'compiled {cache.compiled}, after a failed lowering '
    f'{cache.specialized_after_failure}, warnings {len(cache.warnings)}')
for message in log:
    say(message)
# CHECK-NEXT: in a worker: True
# CHECK-NEXT: specialized: [True, True, True]
# CHECK-NEXT: arguments: ['out']
# CHECK-NEXT: compiled 2, after a failed lowering 2, warnings 1
# CHECK-NEXT: warning: compiled @kernels::@imm fully specialized ('k' = 5): its hoisted form does not lower: imm.mlir:2:3: error: lowering @kernels ended the compile worker (exit status 1): error: constraint 'n' expects an integer constant expression; every new value of its hoisted parameters compiles again
# CHECK-NEXT: compiled imm again: 'k' 5 -> 6 (kept specialized: its hoisted form does not lower); compiled fully specialized
# CHECK-NOT: compiled

# Each launch's objects are those of its own value, compiled specialized
# (in this process, safely: the constant lowers).
from flyhoist import Context, Target  # noqa: E402


def specialized_objects(k):
    with Context() as context, context.parse(marked({'k': k}), 'imm.mlir') \
            as module:
        module.run_pipeline('builtin.module(materialize-specialization)')
        return module.compile(Target(CHIP))


expected = {k: specialized_objects(k) for k in (5, 6)}
say('objects of their value:', [launch.objects == expected[k]
                                for k, launch in zip((5, 6, 5), launches)],
    'distinct:', expected[5] != expected[6])
# CHECK-NEXT: objects of their value: [True, True, True] distinct: True
# GFX942-NEXT: ELF: True
# SM90-NEXT: PTX: True
if CHIP.startswith('gfx'):
    say('ELF:', launches[0].objects['kernels'][:4] == b'\x7fELF')
else:
    say('PTX:', b'.target sm_90' in launches[0].objects['kernels'])

# CHECK-LABEL: inference
# Inference's template hoists the inferred `k` into the asm operand: the
# worker dies, that value and every later one compile specialized.
say('inference')
log.clear()
inferred = KernelCache(CHIP, options=OPTIONS, cache_dir=False,
                       log=log.append, infer_params=True)
launches = [inferred.get('imm', {'k': k}, plain) for k in (5, 6, 7)]
say('specialized:', [launch.specialized for launch in launches],
    'warnings', len(inferred.warnings))
for message in log:
    say(message)
# (The first value's own compile is an object for that value alone.)
# CHECK-NEXT: specialized: [True, True, True] warnings 1
# CHECK-NEXT: warning: compiled @kernels::@imm fully specialized ('k' = 6): its hoisted form does not lower: imm.mlir:2:3: error: lowering @kernels ended the compile worker (exit status 1)
# CHECK-NEXT: compiled imm again for k=6 in group 1: kept specialized: its hoisted form does not lower
# CHECK-NEXT: compiled imm again for k=7 in group 2 (k=7): kept specialized: its hoisted form does not lower
# CHECK-NOT: compiled

# CHECK-LABEL: killed
# A worker killed mid-compile (SIGKILL as the reply is awaited) is a
# CompileError for that module; the fallback starts a new worker.
from flyhoist import _compile_worker  # noqa: E402

real_compile, real_read = _compile_worker.Worker.compile, \
    _compile_worker._read_frame
kill = {'next': 0, 'pid': None, 'killed': []}


def compile_and_kill(worker, *request):
    kill['pid'] = worker.pid if kill['next'] else None
    if kill['pid'] is not None:
        # Stopped before the request goes out, so that a loaded machine
        # cannot let it finish before the SIGKILL below: it dies with the
        # request unanswered, every time.
        os.kill(kill['pid'], signal.SIGSTOP)
    return real_compile(worker, *request)


def read_after_kill(stream):
    if kill['pid'] is not None:
        os.kill(kill['pid'], signal.SIGKILL)
        kill['killed'].append(kill['pid'])
        kill['pid'] = None
        kill['next'] -= 1
    return real_read(stream)


_compile_worker.Worker.compile = compile_and_kill
_compile_worker._read_frame = read_after_kill
say('killed')
GATHER = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%out: memref<?xi32>, %i: index) kernel {
      %w = spec.param "w" = W : index
      %j = arith.muli %i, %w : index
      %v = arith.index_cast %j : index to i32
      memref.store %v, %out[%j] : memref<?xi32>
      gpu.return
    }
  }
}
'''


def gather(values):
    return GATHER.replace('W', str(values['w']))


log.clear()
killed = KernelCache(CHIP, cache_dir=False, log=log.append)
started = _compile_worker.pool.started
kill['next'] = 1
launch = killed.get('copy', {'w': 4}, gather)
say('specialized:', launch.specialized, 'killed:', len(kill['killed']),
    'workers started:', _compile_worker.pool.started - started)
say(log[0])
# CHECK-NEXT: specialized: True killed: 1 workers started: 1
# CHECK-NEXT: warning: compiled @kernels::@copy fully specialized ('w' = 4): its hoisted form does not lower: copy.mlir:2:3: error: lowering @kernels ended the compile worker (killed by SIGKILL): it printed nothing; every new value
# The next compile runs in a new worker, which lives on.
other = KernelCache(CHIP, cache_dir=False)
launch = other.get('copy', {'w': 4}, gather)
pids = {w.pid for w in _compile_worker.pool.idle}
say('hoisted:', not launch.specialized, 'killed worker idle:',
    kill['killed'][0] in pids, 'workers started:',
    _compile_worker.pool.started - started)
# CHECK-NEXT: hoisted: True killed worker idle: False workers started: 1

# CHECK-LABEL: both die
# When the specialized compile kills the worker too, get raises a
# CompileError; the process goes on.
say('both die')
kill['next'] = 2
try:
    KernelCache(CHIP, cache_dir=False).get('copy', {'w': 8}, gather)
    say('no error')
except CompileError as error:
    say('CompileError:', str(error).splitlines()[0])
    say('status:', error.status)
# CHECK-NEXT: CompileError: the compile worker ended (killed by SIGKILL) lowering @kernels
# CHECK-NEXT: status: -9
_compile_worker.Worker.compile = real_compile
_compile_worker._read_frame = real_read

# CHECK-LABEL: opt-out
say('opt-out')
started = _compile_worker.pool.started
in_process = KernelCache(CHIP, cache_dir=False, compile_in_worker=False)
in_process.get('copy', {'w': 4}, gather)
os.environ['FLYHOIST_COMPILE_WORKER'] = '0'
by_env = KernelCache(CHIP, cache_dir=False)
del os.environ['FLYHOIST_COMPILE_WORKER']
say('in a worker:', in_process.compile_in_worker, by_env.compile_in_worker,
    'workers started:', _compile_worker.pool.started - started,
    'compiled:', in_process.compiled)
# CHECK-NEXT: in a worker: False False workers started: 0 compiled: 1

# CHECK-LABEL: settings
# Options are parsed by the library at construction: a ValueError that
# names the option, not a CompileError at the first get.
say('settings')
for options in ('divisibilty=16', 'divisibility=banana',
                'hoist-into-host=maybe', '} cse {'):
    try:
        KernelCache(CHIP, options=options, cache_dir=False)
        say(f'{options!r}: accepted')
    except ValueError as error:
        say(f'{options!r}: {error}')
try:
    KernelCache(Target(CHIP, options='O=banana'), cache_dir=False)
    say('target options: accepted')
except ValueError as error:
    say('target options:', error)
# CHECK-NEXT: 'divisibilty=16': invalid options 'divisibilty=16' for hoist-stride-specialization: <Pass-Options-Parser>: no such option divisibilty
# CHECK-NEXT: 'divisibility=banana': invalid options 'divisibility=banana' for hoist-stride-specialization: divisibility: 'banana' is not an unsigned 64-bit integer
# CHECK-NEXT: 'hoist-into-host=maybe': invalid options 'hoist-into-host=maybe' for hoist-stride-specialization: hoist-into-host: 'maybe' is not a boolean (true, false, 1 or 0)
# CHECK-NEXT: '} cse {': invalid options '} cse {' for hoist-stride-specialization: <Pass-Options-Parser>: no such option }
# CHECK-NEXT: target options: invalid pipeline {{.*}}: O: 'banana' is not an unsigned 32-bit integer; failed to add `{{.*}}-pipeline` with options
# CHECK-NEXT: atexit ran

# What the workers printed reached stderr only as the warnings say.
# STDERR: [flyhoist] warning: compiled @kernels::@imm fully specialized ('k' = 5)
# STDERR-NEXT: [flyhoist] warning: compiled @kernels::@imm fully specialized ('k' = 6)
# STDERR-NEXT: [flyhoist] warning: compiled @kernels::@copy fully specialized ('w' = 4)
# STDERR-NOT: warning

"""Compiles where a fatal error of LLVM cannot end the caller's process.

LLVM ends the process on some errors (report_fatal_error: exit status 1, no
exception, no atexit), e.g. a hoisted value that reaches an inline-asm
operand with the immediate constraint "n" through a user's own
`address-operands` entry. KernelCache therefore lowers in a worker: a child
process started with exec (`python -c` running main() below, never a fork
of this process, which may have threads), over the same library
(FLYHOIST_CAPI_LIB) and the same pipeline text, that lives across compiles.

The protocol, over the worker's stdin and a pipe of its own for the replies
(its file descriptor in FLYHOIST_WORKER_REPLIES; the worker's stdout goes
where its stderr goes, so that whatever writes to file descriptor 1, a
library's print, cannot corrupt a reply): frames of an 8-byte
big-endian length and the bytes. The worker says {"ready": true} once it has
loaded the library; a request is a frame of JSON {"source", "pipeline"} and
a frame holding the module as MLIR bytecode, which keeps every location, so
the worker's diagnostics are located as the caller's would be (the generic
text form does too, but printing it through the C API's callback costs
~100x more: bench/compile_worker.py). A reply is JSON {"symbols": [...]}
followed by one frame per object, or {"error", "diagnostics"} for a compile
that failed cleanly (a CompileError; the worker lives on).

A worker that dies mid-compile becomes a CompileError located at the
module's GPU modules, carrying what it printed to stderr (LLVM's message)
and its exit status; the next compile starts a new worker.
"""

import atexit
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading

from .ir import CompileError

_LENGTH = struct.Struct('>Q')
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# `python -m flyhoist._compile_worker` works too, but imports this module
# twice (the package's copy, then __main__) and says so on stderr.
_WORKER_MAIN = ('import sys; from flyhoist._compile_worker import main; '
                'sys.exit(main())')


def enabled_by_default():
    """FLYHOIST_COMPILE_WORKER=0 turns the worker off (default on)."""
    return os.environ.get('FLYHOIST_COMPILE_WORKER', '1').strip().lower() \
        not in ('0', 'false', 'no', 'off')


class WorkerUnavailable(RuntimeError):
    """No worker could be started (no interpreter, a library it cannot
    load): the caller decides whether to compile in its own process."""


def _write_frame(stream, payload):
    stream.write(_LENGTH.pack(len(payload)))
    stream.write(payload)


def _read_exactly(stream, n):
    data = bytearray()
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None  # the other side is gone
        data += chunk
    return bytes(data)


def _read_frame(stream):
    header = _read_exactly(stream, _LENGTH.size)
    if header is None:
        return None
    return _read_exactly(stream, _LENGTH.unpack(header)[0])


# --------------------------------------------------------------------------
# The caller's side
# --------------------------------------------------------------------------

class _Died(Exception):
    """The worker ended mid-request."""


def _exit_text(status):
    if status is not None and status < 0:
        try:
            return f'killed by {signal.Signals(-status).name}'
        except ValueError:
            return f'killed by signal {-status}'
    return f'exit status {status}'


class Worker:
    """One worker process over the library at `library`."""

    def __init__(self, library):
        if not sys.executable:
            raise WorkerUnavailable('no Python interpreter to run it '
                                    '(sys.executable is empty)')
        self.library = library
        # The worker's stderr, read back when it dies (LLVM's message).
        self.stderr = tempfile.TemporaryFile()
        path = os.environ.get('PYTHONPATH')
        env = dict(os.environ, FLYHOIST_CAPI_LIB=library,
                   PYTHONPATH=_PACKAGE_ROOT + (os.pathsep + path
                                               if path else ''))
        replies, child_end = os.pipe()
        env['FLYHOIST_WORKER_REPLIES'] = str(child_end)
        try:
            self.process = subprocess.Popen(
                [sys.executable, '-c', _WORKER_MAIN],
                stdin=subprocess.PIPE, stdout=self.stderr,
                stderr=self.stderr, env=env, close_fds=True,
                pass_fds=(child_end,))
        except OSError as error:
            os.close(replies)
            self.stderr.close()
            raise WorkerUnavailable(f'{sys.executable}: {error}') from None
        finally:
            os.close(child_end)
        self.replies = os.fdopen(replies, 'rb')
        self.pid = self.process.pid
        ready = _read_frame(self.replies)
        if ready is None:
            status = self.process.wait()
            printed = self._printed(0).strip()
            self.close()
            raise WorkerUnavailable(f'it ended at start ({_exit_text(status)})'
                                    + (f': {printed}' if printed else ''))

    def _printed(self, start):
        data = os.pread(self.stderr.fileno(), 1 << 20, start)
        return data.decode('utf-8', errors='replace')

    def alive(self):
        return self.process.poll() is None

    def compile(self, module, source, pipeline):
        """{symbol: bytes} of `module` (bytecode); raises CompileError (the
        worker lives on) or _Died(status, what it printed)."""
        start = os.lseek(self.stderr.fileno(), 0, os.SEEK_END)
        request = json.dumps({'source': source,
                              'pipeline': pipeline}).encode()
        try:
            _write_frame(self.process.stdin, request)
            _write_frame(self.process.stdin, module)
            self.process.stdin.flush()
            reply = _read_frame(self.replies)
        except (BrokenPipeError, ConnectionResetError):
            reply = None
        if reply is None:
            raise _Died(self.process.wait(), self._printed(start))
        reply = json.loads(reply)
        objects = {}
        for symbol in reply.get('symbols', ()):
            data = _read_frame(self.replies)
            if data is None:
                raise _Died(self.process.wait(), self._printed(start))
            objects[symbol] = data
        # What LLVM printed on the way (warnings) shows as it would have.
        printed = self._printed(start)
        os.ftruncate(self.stderr.fileno(), 0)
        os.lseek(self.stderr.fileno(), 0, os.SEEK_SET)
        if printed:
            sys.stderr.write(printed)
            sys.stderr.flush()
        if 'error' in reply:
            raise CompileError(reply['error'], reply['diagnostics'],
                               reply.get('records', ()))
        return objects

    def close(self):
        """Ends the worker (EOF on its stdin, then SIGKILL)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.replies.close()
        self.stderr.close()


class _Pool:
    """Idle workers of this process, by library; one per concurrent
    compile, started on demand."""

    def __init__(self):
        self.lock = threading.Lock()
        self.idle = []
        self.pid = os.getpid()
        self.started = 0  # workers started, for tests and the bench

    def take(self, library):
        with self.lock:
            if self.pid != os.getpid():
                # A forked child: the pipes belong to the parent's workers.
                self.idle, self.pid = [], os.getpid()
            while self.idle:
                worker = self.idle.pop()
                if worker.library == library and worker.alive():
                    return worker
                worker.close()
            self.started += 1
        return Worker(library)

    def give_back(self, worker):
        with self.lock:
            if self.pid == os.getpid() and \
                    len(self.idle) < (os.cpu_count() or 1):
                self.idle.append(worker)
                return
        worker.close()

    def close(self):
        with self.lock:
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.close()


pool = _Pool()
atexit.register(pool.close)


def _died_error(module, source, status, printed):
    """The CompileError of a worker that ended mid-compile: located at the
    module's GPU modules, with LLVM's message and the exit status."""
    gpu_modules = module.gpu_modules()
    where = (module.location(next(iter(gpu_modules.values())))
             if gpu_modules else module.location())
    lines = [line.strip() for line in printed.splitlines() if line.strip()]
    fatal = next((line for line in reversed(lines)
                  if line.startswith('LLVM ERROR')), lines[-1] if lines
                 else 'it printed nothing')
    names = ', '.join(f'@{s}' for s in gpu_modules) or source
    message = (f'lowering {names} ended the compile worker '
               f'({_exit_text(status)}): {fatal}')
    notes = [f'worker stderr: {line}' for line in lines[-20:]]
    error = CompileError(
        f'the compile worker ended ({_exit_text(status)}) lowering {names}',
        [f'{where}: error: {message}'] +
        [f'{where}: note: {note}' for note in notes],
        [{'severity': 'error', 'location': where, 'message': message,
          'notes': [{'severity': 'note', 'location': where, 'message': note,
                     'notes': []} for note in notes]}])
    error.status, error.stderr = status, printed
    return error


def compile_module(module, target, source='<module>'):
    """Module.compile(target) in a worker: {symbol: bytes}. Raises
    CompileError for a compile that fails or ends the worker, and
    WorkerUnavailable when no worker starts."""
    data = module.bytecode()
    library = os.path.abspath(module.lib.path)
    worker = pool.take(library)
    try:
        objects = worker.compile(data, source, target.pipeline())
    except _Died as died:
        worker.close()
        raise _died_error(module, source, *died.args) from None
    except CompileError:
        pool.give_back(worker)
        raise
    except BaseException:
        worker.close()  # mid-protocol (an interrupt): its state is unknown
        raise
    pool.give_back(worker)
    if not objects:
        raise CompileError(f'{target} produced no gpu.binary')
    return objects


# --------------------------------------------------------------------------
# The worker's side
# --------------------------------------------------------------------------

#: Compiles a worker's context serves before a fresh one: what a context
#: uniques (types, attributes, locations) is never freed while it lives.
CONTEXT_COMPILES = 64


def _serve(requests, replies):
    from .ir import Context, MLIRError
    context, served = Context(), 0
    _write_frame(replies, json.dumps({'ready': True}).encode())
    replies.flush()
    while True:
        request = _read_frame(requests)
        data = _read_frame(requests) if request is not None else None
        if data is None:
            return 0
        request = json.loads(request)
        if served == CONTEXT_COMPILES:
            context.close()
            context, served = Context(), 0
        served += 1
        try:
            with context.parse(data, request['source']) as module:
                objects = module.compile(request['pipeline'])
        except MLIRError as error:
            _write_frame(replies, json.dumps({
                'error': error.message,
                'diagnostics': error.diagnostics,
                'records': error.records}).encode())
        else:
            _write_frame(replies, json.dumps(
                {'symbols': list(objects)}).encode())
            for data in objects.values():
                _write_frame(replies, data)
        replies.flush()


def main():
    # Ctrl-C in a terminal reaches the whole process group: the caller
    # decides what it interrupts; a worker dies only with its stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The replies have a pipe of their own (the module's docstring).
    replies = os.fdopen(int(os.environ['FLYHOIST_WORKER_REPLIES']), 'wb')
    return _serve(sys.stdin.buffer, replies)


if __name__ == '__main__':
    sys.exit(main())

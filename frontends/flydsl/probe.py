"""Probe traces: a template for the first width of a kernel.

At the slot, a kernel with no template and no earlier trace has nothing to
pair with. FlyDSL's JIT cache key folds in the launcher's scalar closure
values, recursively through the callables it captures
(`_collect_closure_scalar_vals`): those ints are the kernel's
specialization values. So the trace can be paired with traces of the same
kernel at other values of them, made here and compiled nowhere:

- the JitFunction being compiled, and its bound arguments, are read from
  FlyDSL's frame of `JitFunction._trace_and_compile` on the stack;
- for each int closure value (bools and enums excluded) a copy of the
  launcher is built (`types.FunctionType` over the pre-rewrite code with
  the closure cell replaced, the callables on the way to it copied the same
  way and wrapped again in FlyDSL's KernelFunction / JitFunction) with the
  int at v + 1;
- the copy is traced by FlyDSL (`_trace_and_compile` in a fresh MLIR
  context, so neither FlyDSL's memory cache nor its disk cache or its locks
  are touched) up to the slot, where the flyhoist backend, seeing a probe
  under way, raises ProbeTrace with the module's text: no pipeline past
  the slot runs and no device binary is made;
- a probe that raises, whose trace does not align with the real one, or
  that changes no integer constant is dropped; the others go to
  flyhoist.infer_spec_params together.

One line per kernel is logged: which ints were probed, what each gave, and
the time. FLYHOIST_FLYDSL_PROBE=0 turns probing off.
"""

import enum
import os
import sys
import threading
import time
import types

_STATE = threading.local()
# How long one probe may take (its process is killed after that).
TIMEOUT_S = float(os.environ.get("FLYHOIST_FLYDSL_PROBE_TIMEOUT", "120"))


class ProbeTrace(Exception):
    """Raised at the slot during a probe: the probe's module as text."""

    def __init__(self, text):
        super().__init__("a probe reached the slot")
        self.text = text


def enabled():
    return os.environ.get("FLYHOIST_FLYDSL_PROBE", "1") != "0"


def probing():
    """True while a probe is traced on this thread."""
    return getattr(_STATE, "depth", 0) > 0


def _jit_call():
    """Locals of FlyDSL's `_trace_and_compile` frame on the stack, or None."""
    from flydsl.compiler.jit_function import JitFunction

    code = JitFunction._trace_and_compile.__code__
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is code:
            return frame.f_locals
        frame = frame.f_back
    return None


def _underlying(value):
    from flydsl.compiler.jit_function import _get_underlying_func

    return _get_underlying_func(value)


def scalar_ints(func, path=(), seen=None):
    """[(path, value)]: the int closure values FlyDSL's cache key folds in,
    walked as `_collect_closure_scalar_vals` walks them; a path is the
    closure names from the launcher down."""
    seen = set() if seen is None else seen
    if id(func) in seen or not (func.__code__.co_freevars and func.__closure__):
        return []
    seen.add(id(func))
    found = []
    for name, cell in zip(func.__code__.co_freevars, func.__closure__):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if isinstance(value, int):
            if not isinstance(value, (bool, enum.Enum)):
                found.append((path + (name,), value))
            continue
        under = None if isinstance(value, type) else _underlying(value)
        if under is not None and id(under) not in seen:
            found.extend(scalar_ints(under, path + (name,), seen))
    return found


def _copy_function(func, path, value):
    cells = []
    for name, cell in zip(func.__code__.co_freevars, func.__closure__):
        if name != path[0]:
            cells.append(cell)
        elif len(path) == 1:
            cells.append(types.CellType(value))
        else:
            inner = _rebuild(cell.cell_contents, path[1:], value)
            cells.append(types.CellType(inner))
    copy = types.FunctionType(
        func.__code__,
        func.__globals__,
        name=func.__name__,
        argdefs=func.__defaults__,
        closure=tuple(cells),
    )
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__qualname__ = func.__qualname__
    copy.__module__ = func.__module__
    return copy


def _rebuild(obj, path, value):
    """A copy of the callable `obj` with the closure value at `path` set to
    `value`, wrapped as FlyDSL wrapped the original."""
    from flydsl.compiler.jit_function import JitFunction
    from flydsl.compiler.kernel_function import KernelFunction

    copy = _copy_function(_underlying(obj), path, value)
    if isinstance(obj, KernelFunction):
        return KernelFunction(
            copy, name=obj._name, known_block_size=obj._known_block_size
        )
    if isinstance(obj, JitFunction):
        return JitFunction(copy, compile_hints=obj.compile_hints)
    if isinstance(obj, types.MethodType):
        return types.MethodType(copy, obj.__self__)
    return copy


def trace_at(call, path, value):
    """FlyDSL's module text at the slot for the launcher of `call` with the
    closure int at `path` set to `value`; raises what the probe raised."""
    from flydsl.compiler.jit_function import _create_mlir_context

    jit = _rebuild(call["self"], path, value)
    _STATE.depth = getattr(_STATE, "depth", 0) + 1
    try:
        with _create_mlir_context() as ctx:
            jit._trace_and_compile(
                ctx,
                call["sig"],
                call["bound"],
                call["bound_self"],
                execute=False,
            )
    except ProbeTrace as reached:
        return reached.text
    finally:
        _STATE.depth -= 1
    raise RuntimeError("the probe was not stopped at the slot")


def trace_isolated(call, path, value):
    """trace_at in a forked process: a probe that aborts (an assertion in
    FlyDSL's MLIR, at a value the kernel never meant) ends that process,
    not the user's. Its output goes to a file; the first line of it is the
    reason given when it dies."""
    import tempfile

    read, write = os.pipe()
    with tempfile.TemporaryFile() as output:
        pid = os.fork()
        if pid == 0:  # the probe's process: nothing of it may return
            try:
                os.close(read)
                os.dup2(output.fileno(), 1)
                os.dup2(output.fileno(), 2)
                try:
                    payload = b"T" + trace_at(call, path, value).encode()
                except BaseException as error:
                    payload = f"E{type(error).__name__}: {error}".encode()
                with os.fdopen(write, "wb") as out:
                    out.write(payload)
            finally:
                os._exit(0)
        os.close(write)
        data = _answer(read, pid)
        _, status = os.waitpid(pid, 0)
        output.seek(0)
        said = output.read().decode(errors="replace").strip()
    if not data:
        first = said.splitlines()[0] if said else "no output"
        raise ProbeDied(
            f"its process died ({_status(status)}): {first}"
        )
    if data[:1] == b"E":
        raise ProbeFailed(data[1:].decode(errors="replace"))
    return data[1:].decode()


def _answer(read, pid):
    """What the probe's process wrote before it closed the pipe; after
    TIMEOUT_S it is killed (by its pid) and the answer is empty."""
    import select
    import signal

    chunks, deadline = [], time.monotonic() + TIMEOUT_S
    with os.fdopen(read, "rb", buffering=0) as answer:
        while True:
            left = deadline - time.monotonic()
            ready = select.select([answer], [], [], max(left, 0))[0]
            if not ready:
                os.kill(pid, signal.SIGKILL)
                return b""
            chunk = answer.read(1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _status(status):
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"


class ProbeDied(Exception):
    """The probe's process ended without an answer."""


class ProbeFailed(Exception):
    """The probe raised (in its process); the text is its type and message."""


def _label(path, value):
    return f"{'.'.join(path)}={value}"


def _one(flyhoist, trace, probe):
    """How the probe pairs with the trace alone: (kept, what it gave)."""
    base = trace.clone()
    try:
        params = flyhoist.infer_spec_params(base, [probe])
    except flyhoist.TraceMismatch:
        return False, "does not align"
    finally:
        base.close()
    if not params:
        return False, "changes nothing"
    return True, f"{len(params)} param{'s' if len(params) != 1 else ''}"


def _joint(flyhoist, trace, probes):
    """(template, params) inferred from the trace and as many of the probes
    as align together (in order); None when none does."""
    kept = list(probes)
    while kept:
        base = trace.clone()
        try:
            return base, flyhoist.infer_spec_params(base, kept)
        except flyhoist.TraceMismatch:
            base.close()
            kept.pop()
    return None


def learn(flyhoist, context, trace, name, to_mlir22, stats):
    """(template, params, log line) from probes of the kernel whose trace
    is `trace`, or (None, None, log line) when no probe pairs with it; the
    line is None when the slot was not reached from FlyDSL's JIT."""
    call = _jit_call()
    if call is None or "self" not in call:
        return None, None, None  # not inside FlyDSL's JIT (a tool's use)
    root = _underlying(call["self"])
    started = time.perf_counter()
    outcomes, probes = [], []
    for path, value in scalar_ints(root):
        began = time.perf_counter()
        probe_value = value + 1
        try:
            text = trace_isolated(call, path, probe_value)
            probe = context.parse(to_mlir22(text), name)
        except Exception as error:  # a probe must never be the user's error
            message = str(error).splitlines()[0][:120] if str(error) else ""
            kind = "" if isinstance(error, (ProbeDied, ProbeFailed)) else (
                f"{type(error).__name__}: "
            )
            gave = f"raised {kind}{message}"
            probe = None
        if probe is not None:
            kept, gave = _one(flyhoist, trace, probe)
            if kept:
                probes.append(probe)
            else:
                probe.close()
        stats["probes"] += 1
        ms = (time.perf_counter() - began) * 1000
        outcomes.append(f"{_label(path, probe_value)} {gave} ({ms:.0f} ms)")
    joint = _joint(flyhoist, trace, probes) if probes else None
    for probe in probes:
        probe.close()
    seconds = time.perf_counter() - started
    stats["probe_s"] += seconds
    count = len(outcomes)
    head = (
        f"flyhoist: {name}: probed {count} ints in {seconds:.2f} s "
        f"({seconds / max(count, 1) * 1000:.0f} ms each): "
    )
    if joint is None:
        return None, None, head + "; ".join(outcomes) + "; no template"
    template, params = joint
    tail = f"; template of {len(params)} params"
    return template, params, head + "; ".join(outcomes) + tail

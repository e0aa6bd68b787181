"""Stream-aware module retirement: never unload code that queued work uses,
and never unload on the thread that launches.

A launch returns as soon as the work is queued. A cache that unloads a module
when it evicts it (an LRU over compiled kernels) can therefore unload code
that kernels still queued on some stream will run, and the GPU faults. The
fix: remember every stream a module launched on; when the cache drops the
module, record an event on each of those streams and unload only once every
event has completed.

The unload itself can be slow: on CUDA, `cuModuleUnload` waits for all the
device's queued work, other modules' kernels too (up to 722 ms on an H200,
bench/RESULTS.md section 8). So the retiring thread only records the events
(cheap, and it must be that thread: the events go after the work it queued)
and hands the module to a worker thread, which waits for the events and
unloads. A thread of its own is not enough on CUDA: while the unload waits,
the other threads' launches wait too. So the worker also waits, when the
backend can tell, until the streams it knows of are idle, when the unload
costs microseconds (`max_deferred` bounds how many modules it holds back
meanwhile).

The GPU is reached through a small backend (duck-typed):

  record_event(stream) -> event   enqueue an event after the stream's work
  event_done(event) -> bool       has the stream reached it
  wait_event(event)               block until it has
  unload(module)                  unload the module's code
  stream_idle(stream) -> bool     optional: no work queued on the stream
                                  (without it, unloads do not wait for idle)
  thread_start()                  optional, run first on the worker thread
                                  (make the device's context current there)

`CuPyBackend` is one.
"""

import atexit
import sys
import threading
import weakref
from collections import OrderedDict, deque


class ModuleRetirer:
    """Unloads dropped modules on a worker thread once their work is done.

    `launched(module, stream)` on every launch, `retire(module)` when the
    module is dropped. The worker starts on the first retirement. `drain()`
    waits until every retired module is unloaded; `close()` drains and joins
    the worker (call it before the device's context goes away; it also runs
    at interpreter exit). A retirement after `close()` is an error.

    When the backend can tell whether a stream is idle (`stream_idle`), a
    module whose work is done is unloaded only once every stream the live
    and retired modules launched on is idle, or once more than
    `max_deferred` such modules wait, or on `drain()` (it looks every
    `poll_s` seconds while modules wait for idle): CUDA's unload waits
    for all the device's work while holding a lock that every other
    thread's launches wait for, so an unload off the launching thread still
    stalls it unless the device is idle (bench/RESULTS.md section 8).
    """

    def __init__(self, backend, max_deferred=64, poll_s=0.001,
                 name='flyhoist-retire'):
        if max_deferred is not None and max_deferred < 0:
            raise ValueError('max_deferred must be at least 0')
        self.backend = backend
        self.max_deferred = max_deferred
        self.poll_s = poll_s
        self.name = name
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        # id(module) -> (module, {id(stream): stream}) for live modules
        self._streams = {}
        # (module, [events], [streams]) retired, not yet taken by the
        # worker, oldest first
        self._queue = deque()
        self._busy = 0      # taken by the worker, not unloaded yet
        self._draining = 0  # drain() calls waiting: unload without idling
        self._worker = None
        self._closed = False
        self._dead = False
        self.retired = 0
        self.unloaded = 0
        self.deferred = 0       # done, waiting for idle streams (now)
        self.most_deferred = 0
        self.forced = 0         # unloaded early: more than max_deferred
        self.errors = []  # what failed on the worker, as text

    def launched(self, module, stream):
        """Notes that `module` launched work on `stream` (every launch)."""
        entry = self._streams.get(id(module))
        if entry is None:
            with self._lock:
                entry = self._streams.setdefault(id(module), (module, {}))
        entry[1][id(stream)] = stream

    def retire(self, module):
        """Drops `module`: records an event on each stream it launched on
        and queues it for the worker, which unloads it once all events have
        completed. Does not wait for the GPU."""
        with self._lock:
            if self._closed:
                raise RuntimeError('retire() after the module retirer was '
                                   'closed')
            _, streams = self._streams.pop(id(module), (module, {}))
            streams = list(streams.values())
            events = [self.backend.record_event(s) for s in streams]
            self._queue.append((module, events, streams))
            self.retired += 1
            if self._worker is None:
                self._start_worker()
            self._changed.notify_all()

    def drain(self):
        """Unloads every module retired so far once its work is done (idle
        streams or not) and waits until all are unloaded."""
        if threading.current_thread() is self._worker:
            raise RuntimeError('drain() on the retirer\'s own thread')
        with self._lock:
            self._draining += 1
            self._changed.notify_all()
            try:
                while (self._queue or self._busy) and not self._dead:
                    self._changed.wait()
            finally:
                self._draining -= 1

    def close(self):
        """Drains, then stops and joins the worker. Idempotent."""
        self.drain()
        with self._lock:
            self._closed = True
            worker = self._worker
            self._changed.notify_all()
        if worker is not None and worker is not threading.current_thread():
            worker.join()
        _live.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def pending(self):
        """Modules retired but not unloaded yet."""
        return len(self._queue) + self._busy

    @property
    def worker(self):
        """The worker thread (None before the first retirement)."""
        return self._worker

    # -- the worker -----------------------------------------------------------

    def _start_worker(self):
        # Under self._lock.
        self._worker = threading.Thread(target=self._run, name=self.name,
                                        daemon=True)
        _live.add(self)
        _register_exit_hook()
        self._worker.start()

    def _run(self):
        try:
            self._loop()
        except BaseException as error:  # a bug: let drain() return
            self._failed('the retirer\'s thread stopped', error)
            with self._lock:
                self._dead = True
                self._changed.notify_all()

    def _loop(self):
        start = getattr(self.backend, 'thread_start', None)
        if start is not None:
            try:
                start()
            except Exception as error:  # the unloads report it again
                self._failed('starting the worker', error)
        gated = hasattr(self.backend, 'stream_idle')
        # [module, events or None once they have completed, streams] taken
        # from the queue, oldest first; and the streams they launched on.
        waiting, streams = [], {}
        while True:
            with self._lock:
                while not self._queue and not waiting and not self._closed:
                    self._changed.wait()
                if not self._queue and not waiting:
                    return
                while self._queue:
                    item = list(self._queue.popleft())
                    waiting.append(item)
                    streams.update((id(s), s) for s in item[2])
                self._busy = len(waiting)
                draining = self._draining > 0 or self._closed
            # The oldest module's streams first; then every module whose
            # streams are past it (each event is asked until it completes,
            # not after).
            head = waiting[0]
            if head[1] is not None:
                if not self._wait_for(head[1]):
                    waiting.pop(0)
                    streams = self._streams_of(waiting)
                    self._settle(len(waiting), 0)
                    continue
                head[1] = None
            for item in waiting:
                if item[1] is not None and self._done(item[1]):
                    item[1] = None
            ready = [item for item in waiting if item[1] is None]
            busy = gated and not self._idle(streams)
            if busy and not draining:
                excess = (len(ready) - self.max_deferred
                          if self.max_deferred is not None else 0)
                if excess <= 0:
                    with self._lock:
                        self.deferred = len(ready)
                        self.most_deferred = max(self.most_deferred,
                                                 len(ready))
                        self._changed.notify_all()
                    self._wait_for_idle()
                    continue
                ready = ready[:excess]
            taken = {id(item) for item in ready}
            waiting = [item for item in waiting if id(item) not in taken]
            streams = self._streams_of(waiting)
            unloaded = 0
            for item in ready:
                try:
                    self.backend.unload(item[0])
                    unloaded += 1
                except Exception as error:
                    self._failed('unloading a retired module', error)
            with self._lock:
                self.forced += unloaded if busy and not draining else 0
                self.deferred = 0
            self._settle(len(waiting), unloaded)

    @staticmethod
    def _streams_of(waiting):
        return {id(s): s for item in waiting for s in item[2]}

    def _settle(self, busy, unloaded):
        with self._lock:
            self._busy = busy
            self.unloaded += unloaded
            self._changed.notify_all()

    def _wait_for(self, events):
        try:
            for event in events:
                self.backend.wait_event(event)
            return True
        except Exception as error:
            # The stream cannot be shown to be past the module's work (a
            # faulted context, say): keep the module loaded.
            self._failed('waiting for a retired module\'s streams', error)
            return False

    def _done(self, events):
        try:
            return all(self.backend.event_done(e) for e in events)
        except Exception:
            return False  # _wait_for reports it when this one is oldest

    def _idle(self, waiting_streams):
        """No work on any stream a live or waiting module launched on."""
        watched = dict(waiting_streams)
        for _, used in list(self._streams.values()):
            watched.update(used)
        try:
            return all(self.backend.stream_idle(s) for s in watched.values())
        except Exception as error:
            self._failed('asking whether a stream is idle', error)
            return True

    def _wait_for_idle(self):
        # Looks again after poll_s, or at once on a retirement or a drain.
        # (A blocking wait on events at the streams' ends would miss both,
        # and idle moments shorter than the queue.)
        with self._lock:
            if not self._queue and not self._draining and not self._closed:
                self._changed.wait(self.poll_s)

    def _failed(self, what, error):
        text = f'{what}: {type(error).__name__}: {error}'
        with self._lock:
            first = not self.errors
            self.errors.append(text)
        if first:
            print(f'[flyhoist] module retirement: {text} (the module stays '
                  f'loaded; later failures are in ModuleRetirer.errors)',
                  file=sys.stderr, flush=True)


# Retirers whose worker runs; closed at interpreter exit, before
# finalization stops daemon threads mid-call. The hook is registered when
# the first worker starts, so it runs before the exit hooks of a GPU library
# imported earlier.
_live = weakref.WeakSet()
_exit_hook = []


def _register_exit_hook():
    if not _exit_hook:
        _exit_hook.append(True)
        atexit.register(_close_all)


def _close_all():
    for retirer in list(_live):
        try:
            retirer.close()
        except Exception:  # exiting anyway
            pass


class ResidentModules:
    """A bounded LRU of loaded GPU modules whose evictions are retired.

    `load(key, payload)` returns a loaded module; at most `capacity` stay
    loaded. An evicted module goes to the retirer, and `on_evict(key)` lets
    the owner forget what referred to it.
    """

    def __init__(self, capacity, load, retirer, on_evict=None):
        if capacity is not None and capacity < 1:
            raise ValueError('capacity must be at least 1')
        self.capacity, self.load, self.retirer = capacity, load, retirer
        self.on_evict = on_evict
        self._modules = OrderedDict()
        self._lock = threading.Lock()
        self.loads = 0
        self.evictions = 0

    def get(self, key, payload):
        """The loaded module for `key`, loading `payload` on a miss."""
        with self._lock:
            module = self._modules.get(key)
            if module is not None:
                self._modules.move_to_end(key)
                return module
        module = self.load(key, payload)
        evicted = []
        with self._lock:
            self._modules[key] = module
            self.loads += 1
            while self.capacity is not None and \
                    len(self._modules) > self.capacity:
                evicted.append(self._modules.popitem(last=False))
                self.evictions += 1
        for old_key, old_module in evicted:
            if self.on_evict:
                self.on_evict(old_key)
            self.retirer.retire(old_module)
        return module

    def __contains__(self, key):
        return key in self._modules

    def __len__(self):
        return len(self._modules)

    def clear(self):
        """Retires every module and waits until all are unloaded."""
        with self._lock:
            modules, self._modules = list(self._modules.items()), OrderedDict()
        for key, module in modules:
            if self.on_evict:
                self.on_evict(key)
            self.retirer.retire(module)
        self.retirer.drain()


class CuPyBackend:
    """Streams and events of CuPy; modules have an unload() (CuPyModule).

    The events are made with blocking synchronization, so the worker sleeps
    instead of spinning while it waits for them."""

    def __init__(self, cupy, device=None):
        self.cp = cupy
        self.device = cupy.cuda.Device(device).id

    def record_event(self, stream):
        event = self.cp.cuda.Event(block=True, disable_timing=True)
        event.record(stream)
        return event

    def event_done(self, event):
        return event.done

    def wait_event(self, event):
        event.synchronize()

    def stream_idle(self, stream):
        return stream.done

    def unload(self, module):
        module.unload()

    def thread_start(self):
        # The runtime makes the device's primary context current on this
        # thread, which the driver's unload needs.
        self.cp.cuda.Device(self.device).use()


class CuPyModule:
    """A code object loaded with cupy.cuda.function.Module; unload() drops
    the only references to it, which unloads it (cuModuleUnload) at once
    in CPython. (cupy.RawModule would not do: it memoizes modules loaded
    from a path for the life of the process.)"""

    def __init__(self, path, names):
        from cupy.cuda.function import Module
        self.module = Module()
        self.module.load_file(path)
        self.functions = {name: self.module.get_function(name)
                          for name in names}

    def function(self, name):
        if self.module is None:
            raise RuntimeError('launch through an unloaded module')
        return self.functions[name]

    def unload(self):
        self.functions = {}
        self.module = None

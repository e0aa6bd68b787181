"""Stream-aware module retirement: never unload code that queued work uses.

A launch returns as soon as the work is queued. A cache that unloads a module
when it evicts it (an LRU over compiled kernels) can therefore unload code
that kernels still queued on some stream will run, and the GPU faults. The
fix: remember every stream a module launched on; when the cache drops the
module, record an event on each of those streams and unload only once every
event has completed.

The GPU is reached through a small backend (duck-typed):

  record_event(stream) -> event   enqueue an event after the stream's work
  event_done(event) -> bool       has the stream reached it
  wait_event(event)               block until it has
  unload(module)                  unload the module's code

`CuPyBackend` is one; tests use a fake GPU (FakeGPU).
"""

import threading
from collections import OrderedDict


class ModuleRetirer:
    """Defers unloading of dropped modules until their work is done."""

    def __init__(self, backend):
        self.backend = backend
        self._lock = threading.Lock()
        # id(module) -> (module, {id(stream): stream}) for live modules
        self._streams = {}
        # [(module, [events])] dropped but not yet unloaded, oldest first
        self._pending = []
        self.retired = 0
        self.unloaded = 0

    def launched(self, module, stream):
        """Notes that `module` launched work on `stream` (every launch)."""
        entry = self._streams.get(id(module))
        if entry is None:
            with self._lock:
                entry = self._streams.setdefault(id(module), (module, {}))
        entry[1][id(stream)] = stream

    def retire(self, module):
        """Drops `module`: an event on each stream it launched on, unloaded
        when all have completed (now, if it never launched)."""
        with self._lock:
            _, streams = self._streams.pop(id(module), (module, {}))
            events = [self.backend.record_event(s) for s in streams.values()]
            self._pending.append((module, events))
            self.retired += 1
        self.collect()

    def collect(self):
        """Unloads every dropped module whose events have all completed;
        returns how many. Called on every retire and by the cache on each
        miss, so unloads happen without a thread of their own."""
        with self._lock:
            ready, waiting = [], []
            for module, events in self._pending:
                done = all(self.backend.event_done(e) for e in events)
                (ready if done else waiting).append((module, events))
            self._pending = waiting
        for module, _ in ready:
            self.backend.unload(module)
        with self._lock:
            self.unloaded += len(ready)
        return len(ready)

    def drain(self):
        """Waits for every dropped module's events and unloads them all."""
        with self._lock:
            pending, self._pending = self._pending, []
        for module, events in pending:
            for event in events:
                self.backend.wait_event(event)
            self.backend.unload(module)
        with self._lock:
            self.unloaded += len(pending)

    @property
    def pending(self):
        """Modules dropped but still waiting for their streams."""
        return len(self._pending)


class NaiveRetirer(ModuleRetirer):
    """Unloads at once: what a launcher cache without this module does. For
    comparison only (it unloads code that queued work still uses)."""

    def retire(self, module):
        with self._lock:
            self._streams.pop(id(module), None)
            self.retired += 1
        self.backend.unload(module)
        with self._lock:
            self.unloaded += 1


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
        self.retirer.collect()
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
        """Retires every module (e.g. at shutdown) and waits for them."""
        with self._lock:
            modules, self._modules = list(self._modules.items()), OrderedDict()
        for key, module in modules:
            if self.on_evict:
                self.on_evict(key)
            self.retirer.retire(module)
        self.retirer.drain()


class CuPyBackend:
    """Streams and events of CuPy; modules are CuPyModule."""

    def __init__(self, cupy):
        self.cp = cupy

    def record_event(self, stream):
        event = self.cp.cuda.Event(block=False, disable_timing=True)
        event.record(stream)
        return event

    def event_done(self, event):
        return event.done

    def wait_event(self, event):
        event.synchronize()

    def unload(self, module):
        module.unload()


class CuPyModule:
    """A code object loaded with cupy.RawModule; unload() drops every
    reference to it, which unloads it (cuModuleUnload) at once in CPython."""

    def __init__(self, cupy, path, names):
        self.raw = cupy.RawModule(path=path)
        self.functions = {name: self.raw.get_function(name) for name in names}

    def function(self, name):
        if self.raw is None:
            raise RuntimeError('launch through an unloaded module')
        return self.functions[name]

    def unload(self):
        self.functions = {}
        self.raw = None


class FakeGPU:
    """A GPU for tests on the CPU: streams run queued work in order, one
    unit of time per tick; events complete when their stream reaches them.
    Unloading a module while work that uses it is queued or running is
    recorded as a fault, which is what the real GPU does with it."""

    class Stream:
        def __init__(self, name):
            self.name = name
            self.queue = []  # [[module, ticks left] | ['event', event]]

    class Event:
        def __init__(self):
            self.done = False

    def __init__(self):
        self.streams = []
        self.loaded = set()
        self.faults = []
        self.completed = 0

    def stream(self, name):
        s = FakeGPU.Stream(name)
        self.streams.append(s)
        return s

    def load(self, name):
        module = ('module', name, len(self.loaded) + len(self.faults))
        self.loaded.add(module)
        return module

    def launch(self, module, stream, ticks):
        if module not in self.loaded:
            self.faults.append(f'launch of unloaded {module[1]}')
            return
        stream.queue.append([module, ticks])

    def tick(self, n=1):
        for _ in range(n):
            for s in self.streams:
                while s.queue and s.queue[0][0] == 'event':
                    s.queue.pop(0)[1].done = True
                if s.queue:
                    s.queue[0][1] -= 1
                    if s.queue[0][1] <= 0:
                        s.queue.pop(0)
                        self.completed += 1
                while s.queue and s.queue[0][0] == 'event':
                    s.queue.pop(0)[1].done = True

    def idle(self):
        return not any(s.queue for s in self.streams)

    def run_until_idle(self):
        while not self.idle():
            self.tick()

    # the backend protocol
    def record_event(self, stream):
        event = FakeGPU.Event()
        if stream.queue:
            stream.queue.append(['event', event])
        else:
            event.done = True
        return event

    def event_done(self, event):
        return event.done

    def wait_event(self, event):
        while not event.done:
            self.tick()

    def unload(self, module):
        users = [s.name for s in self.streams
                 if any(item[0] == module for item in s.queue)]
        if users:
            self.faults.append(f'{module[1]} unloaded while queued on '
                               f'{", ".join(users)}')
        self.loaded.discard(module)

"""retire_demo.py's retirers (naive, synchronous) and the backend that
tracks what the cache loads and frees."""

import threading
import time
import common  # bench/gpu/common.py: bench/common.py

common.import_flyhoist()
from flyhoist.retire import (CuPyBackend, ModuleRetirer)


class NaiveRetirer:
    """Unloads at once, on the launching thread: what a launcher cache
    without retirement does (it unloads code that queued work uses)."""

    def __init__(self, backend):
        self.backend = backend
        self.retired = self.unloaded = self.pending = 0

    def launched(self, module, stream):
        pass

    def retire(self, module):
        self.retired += 1
        self.backend.unload(module)
        self.unloaded += 1

    def collect(self):
        return 0

    def drain(self):
        pass

    close = drain


class SyncRetirer:
    """The package's retirer before it had a thread (up to commit aa8fc95):
    events on the module's streams, then unloads on the launching thread,
    at each retirement and each miss, of every module whose events have
    completed. Kept for comparison."""

    def __init__(self, backend):
        self.backend = backend
        self._streams = {}
        self._pending = []
        self.retired = self.unloaded = 0

    def launched(self, module, stream):
        self._streams.setdefault(id(module), (module, {}))[1][id(stream)] = \
            stream

    def retire(self, module):
        _, streams = self._streams.pop(id(module), (module, {}))
        events = [self.backend.record_event(s) for s in streams.values()]
        self._pending.append((module, events))
        self.retired += 1
        self.collect()

    def collect(self):
        ready, waiting = [], []
        for module, events in self._pending:
            done = all(self.backend.event_done(e) for e in events)
            (ready if done else waiting).append((module, events))
        self._pending = waiting
        for module, _ in ready:
            self.backend.unload(module)
        self.unloaded += len(ready)
        return len(ready)

    def drain(self):
        pending, self._pending = self._pending, []
        for module, events in pending:
            for event in events:
                self.backend.wait_event(event)
            self.backend.unload(module)
        self.unloaded += len(pending)

    close = drain

    @property
    def pending(self):
        return len(self._pending)


RETIRERS = {
    'retire': ModuleRetirer,
    # The worker thread alone: unload as soon as the module's events have
    # completed, idle device or not.
    'thread': lambda backend: ModuleRetirer(backend, max_deferred=0),
    'sync': SyncRetirer, 'naive': NaiveRetirer}


class TrackingBackend(CuPyBackend):
    """The package's CuPy backend; at each unload it also looks at the
    harness's own sentinel events of the module's launches, times the
    unload and notes whether it ran on the launching thread."""

    def __init__(self, cp):
        super().__init__(cp)
        self.launch_thread = threading.current_thread()
        self.sentinels = {}
        self.unloads = 0
        self.unloaded_while_queued = 0
        self.queued_at_unload = 0
        self.unload_seconds = []
        self.launch_thread_unload_seconds = []

    def event_done(self, event):  # for SyncRetirer
        return event.done

    def unload(self, module):
        pending = sum(not e.done for e in self.sentinels.pop(id(module), ()))
        if pending:
            self.unloaded_while_queued += 1
            self.queued_at_unload += pending
        start = time.perf_counter()
        module.unload()
        took = time.perf_counter() - start
        self.unload_seconds.append(took)
        if threading.current_thread() is self.launch_thread:
            self.launch_thread_unload_seconds.append(took)
        self.unloads += 1

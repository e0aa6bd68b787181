"""A GPU on the CPU for the retirement tests, and the naive retirer they
compare against (neither ships in python/flyhoist).

FakeGPU: streams run queued work in order, one unit of time per tick;
events complete when their stream reaches them. Time passes only through
tick(), or on a thread of its own inside `with gpu.running():`. It is the
retirer's backend and may be called from its worker thread, so every call
takes one lock. What a real driver would do wrong or slowly is recorded:

  faults                  an unload while work that uses the module is
                          queued or running, a launch of an unloaded module,
                          an unload after destroy() (the context is gone)
  launch_thread_unloads   unloads called on the thread that made the GPU
                          (the launching thread), which CUDA's
                          cuModuleUnload can block for hundreds of ms
  gate                    when set to a threading.Event, an unload on any
                          other thread blocks until it is set, as
                          cuModuleUnload does while other kernels run
                          (`in_unload` is set once one is blocked there)
"""

import contextlib
import threading
import time


class FakeGPU:
    class Stream:
        def __init__(self, name):
            self.name = name
            self.queue = []  # [[module, ticks left] | ['event', event]]

    class Event:
        def __init__(self):
            self.done = False

    WAIT_LIMIT_S = 60  # only so that a broken retirer fails instead of hanging

    def __init__(self):
        self._cond = threading.Condition()
        self.streams = []
        self.loaded = set()
        self.made = 0
        self.faults = []
        self.completed = 0
        self.launch_thread = threading.current_thread()
        self.launch_thread_unloads = 0
        self.unload_threads = set()
        self.unloads = 0
        self.destroyed = False
        self.gate = None
        self.in_unload = threading.Event()
        self._stop = False

    def stream(self, name):
        with self._cond:
            s = FakeGPU.Stream(name)
            self.streams.append(s)
            return s

    def load(self, name):
        with self._cond:
            self.made += 1
            module = ('module', name, self.made)
            self.loaded.add(module)
            return module

    def launch(self, module, stream, ticks):
        with self._cond:
            if module not in self.loaded:
                self.faults.append(f'launch of unloaded {module[1]}')
                return
            stream.queue.append([module, ticks])
            self._cond.notify_all()

    def _tick(self):
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

    def tick(self, n=1):
        with self._cond:
            for _ in range(n):
                self._tick()
            self._cond.notify_all()

    def _idle(self):
        return not any(s.queue for s in self.streams)

    def idle(self):
        with self._cond:
            return self._idle()

    def run_until_idle(self):
        with self._cond:
            while not self._idle():
                self._tick()
            self._cond.notify_all()

    @contextlib.contextmanager
    def running(self):
        """The GPU runs on a thread of its own while the body waits for it
        (a drain or close at shutdown)."""
        self._stop = False
        device = threading.Thread(target=self._device, name='fake-gpu')
        device.start()
        try:
            yield self
        finally:
            with self._cond:
                self._stop = True
                self._cond.notify_all()
            device.join()

    def _device(self):
        while True:
            with self._cond:
                if self._stop:
                    return
                if self._idle():
                    self._cond.wait()
                    continue
                self._tick()
                self._cond.notify_all()
            time.sleep(0)  # let the host threads in between ticks

    def destroy(self):
        """The context goes away: any later unload is a fault."""
        with self._cond:
            self.destroyed = True

    # the backend protocol
    def record_event(self, stream):
        with self._cond:
            event = FakeGPU.Event()
            if stream.queue:
                stream.queue.append(['event', event])
            else:
                event.done = True
            return event

    def event_done(self, event):
        with self._cond:
            return event.done

    def stream_idle(self, stream):
        with self._cond:
            return not stream.queue

    def wait_event(self, event):
        with self._cond:
            if not self._cond.wait_for(lambda: event.done,
                                       timeout=self.WAIT_LIMIT_S):
                self.faults.append('an event never completed')

    def unload(self, module):
        on_launch_thread = threading.current_thread() is self.launch_thread
        with self._cond:
            self.unload_threads.add(threading.current_thread().name)
            if on_launch_thread:
                self.launch_thread_unloads += 1
            gate = self.gate
        if gate is not None and not on_launch_thread:
            self.in_unload.set()
            if not gate.wait(timeout=self.WAIT_LIMIT_S):
                self.faults.append('an unload was never let through')
        with self._cond:
            users = [s.name for s in self.streams
                     if any(item[0] == module for item in s.queue)]
            if users:
                self.faults.append(f'{module[1]} unloaded while queued on '
                                   f'{", ".join(users)}')
            if self.destroyed:
                self.faults.append(f'{module[1]} unloaded after the context '
                                   f'was destroyed')
            self.loaded.discard(module)
            self.unloads += 1


class NaiveRetirer:
    """Unloads at once, on the caller's thread: what a launcher cache
    without retirement does. For comparison only (it unloads code that
    queued work still uses)."""

    def __init__(self, backend):
        self.backend = backend
        self.retired = self.unloaded = self.pending = 0

    def launched(self, module, stream):
        pass

    def retire(self, module):
        self.retired += 1
        self.backend.unload(module)
        self.unloaded += 1

    def drain(self):
        pass

    def close(self):
        pass

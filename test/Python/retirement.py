# Stream-aware module retirement on a fake GPU (Inputs/fake_gpu.py): streams
# run queued work in order; unloading a module while work that uses it is
# queued, or after the context is destroyed, is recorded as a fault, and so
# is every unload called on the launching thread (where CUDA's
# cuModuleUnload blocked launches for up to 722 ms). A bounded module cache
# is filled past its size while long kernels are queued on several streams.
# RUN: python3 %s 2>&1 | FileCheck %s

import os
import sys
import threading

from flyhoist.retire import ModuleRetirer, ResidentModules

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from fake_gpu import FakeGPU, NaiveRetirer  # noqa: E402


def fill(retirer_type, capacity=2, modules=6, streams=3, ticks=50,
         rounds=2):
    gpu = FakeGPU()
    retirer = retirer_type(gpu)
    cache = ResidentModules(capacity, lambda key, _: gpu.load(key), retirer)
    queues = [gpu.stream(f's{i}') for i in range(streams)]
    most_pending = 0
    for _ in range(rounds):
        for m in range(modules):
            module = cache.get(f'k{m}', None)
            for stream in queues:
                gpu.launch(module, stream, ticks)
                retirer.launched(module, stream)
            gpu.tick()  # the host outruns the GPU: work stays queued
            most_pending = max(most_pending, retirer.pending)
    # Shutdown with work still queued: the GPU runs while the host waits.
    with gpu.running():
        cache.clear()
        retirer.close()
    gpu.destroy()
    gpu.run_until_idle()
    return gpu, retirer, cache, most_pending


# CHECK-LABEL: naive
print('naive')
gpu, retirer, cache, _ = fill(NaiveRetirer)
print(f'evictions {cache.evictions}, faults {len(gpu.faults)}, on the '
      f'launch thread {gpu.launch_thread_unloads}')
print(gpu.faults[0])
# The comparison that shows the test can fail: every eviction met queued
# work, and every unload ran on the launching thread.
# CHECK-NEXT: evictions 10, faults {{1[0-9]}}, on the launch thread 12
# CHECK-NEXT: k0 unloaded while queued on s0, s1, s2

# CHECK-LABEL: retire
print('retire')
gpu, retirer, cache, most_pending = fill(ModuleRetirer)
print(f'evictions {cache.evictions}, faults {gpu.faults}, retired '
      f'{retirer.retired}, unloaded {retirer.unloaded}, pending '
      f'{retirer.pending}, loaded at the end {len(gpu.loaded)}, most '
      f'pending {most_pending}, kernels completed {gpu.completed}')
print(f'unloads on the launch thread {gpu.launch_thread_unloads}, on '
      f'{sorted(gpu.unload_threads)}; worker alive after close '
      f'{retirer.worker.is_alive()}; errors {retirer.errors}')
# CHECK-NEXT: evictions 10, faults [], retired 12, unloaded 12, pending 0, loaded at the end 0, most pending {{[1-9][0-9]*}}, kernels completed 36
# CHECK-NEXT: unloads on the launch thread 0, on ['flyhoist-retire']; worker alive after close False; errors []
try:
    retirer.retire(gpu.load('late'))
except RuntimeError as error:
    print(error)
# CHECK-NEXT: retire() after the module retirer was closed

# CHECK-LABEL: details
print('details')
gpu = FakeGPU()
retirer = ModuleRetirer(gpu)
a, b = gpu.stream('a'), gpu.stream('b')
print('no thread before the first retirement:', retirer.worker)
# CHECK-NEXT: no thread before the first retirement: None
idle = gpu.load('never-launched')
retirer.retire(idle)
retirer.drain()
print('never launched: unloaded', idle not in gpu.loaded, retirer.pending,
      gpu.launch_thread_unloads)
# CHECK-NEXT: never launched: unloaded True 0 0
busy = gpu.load('busy')
gpu.launch(busy, a, 3)
retirer.launched(busy, a)
retirer.launched(busy, a)  # the same stream twice: one event
gpu.launch(busy, b, 5)
retirer.launched(busy, b)
retirer.retire(busy)
events = [item for s in (a, b) for item in s.queue if item[0] == 'event']
print('events recorded', len(events), 'still loaded', busy in gpu.loaded)
# CHECK-NEXT: events recorded 2 still loaded True
gpu.tick(3)
# The worker waits for the event on b, two ticks away: nothing to unload.
print('after 3 ticks: loaded', busy in gpu.loaded, 'pending',
      retirer.pending)
# CHECK-NEXT: after 3 ticks: loaded True pending 1
gpu.tick(2)
retirer.drain()
print('after 5 ticks: loaded', busy in gpu.loaded, 'faults', gpu.faults)
# CHECK-NEXT: after 5 ticks: loaded False faults []
# Work queued on a stream after the retirement does not hold the module
# (the drain below returns with `other` still queued).
late = gpu.load('late')
gpu.launch(late, a, 2)
retirer.launched(late, a)
other = gpu.load('other')
retirer.retire(late)
gpu.launch(other, a, 100)
gpu.tick(2)
retirer.drain()
print('later work does not delay it:', late in gpu.loaded, gpu.idle())
# CHECK-NEXT: later work does not delay it: False False
gpu.run_until_idle()

# CHECK-LABEL: off-thread
# An unload that blocks (as cuModuleUnload does while other kernels run)
# blocks the retirer's thread, not the one that launches and retires.
print('off-thread')
gpu.gate = threading.Event()
x = gpu.load('x')
gpu.launch(x, a, 1)
retirer.launched(x, a)
gpu.tick()
retirer.retire(x)
print('an unload is blocked:', gpu.in_unload.wait(timeout=10))
# CHECK-NEXT: an unload is blocked: True
y = gpu.load('y')
gpu.launch(y, b, 4)
retirer.launched(y, b)
retirer.retire(y)
z = gpu.load('z')
gpu.launch(z, a, 1)
print('the launching thread went on: retired', retirer.retired,
      'pending', retirer.pending, 'x loaded', x in gpu.loaded)
# CHECK-NEXT: the launching thread went on: retired 5 pending 2 x loaded True
gpu.gate.set()
gpu.gate = None
with gpu.running():
    retirer.drain()
print('let through:', x in gpu.loaded, y in gpu.loaded, gpu.faults,
      'on the launch thread', gpu.launch_thread_unloads)
# CHECK-NEXT: let through: False False [] on the launch thread 0

# CHECK-LABEL: shutdown
# close() waits for work still queued, unloads, joins the worker; nothing is
# unloaded after the context is destroyed.
print('shutdown')
slow = gpu.load('slow')
gpu.launch(slow, b, 40)
retirer.launched(slow, b)
retirer.retire(slow)
print('queued at close:', not gpu.idle(), slow in gpu.loaded)
# CHECK-NEXT: queued at close: True True
with gpu.running():
    retirer.close()
gpu.destroy()
print('closed:', slow in gpu.loaded, retirer.pending,
      retirer.worker.is_alive(), gpu.faults)
# CHECK-NEXT: closed: False 0 False []
retirer.close()  # again: nothing to do
with ModuleRetirer(gpu) as scoped:
    pass
print('a retirer that never retired closes:', scoped.worker)
# CHECK-NEXT: a retirer that never retired closes: None


# CHECK-LABEL: idle
# A module whose work is done waits until every watched stream is idle (an
# unload then waits for nothing), unless more than max_deferred wait.
print('idle')


def settled(retirer, test):
    with retirer._changed:
        return retirer._changed.wait_for(lambda: test(retirer), timeout=30)


gpu = FakeGPU()
retirer = ModuleRetirer(gpu, max_deferred=1)
a, b = gpu.stream('a'), gpu.stream('b')
first, busy = gpu.load('first'), gpu.load('busy')
gpu.launch(first, a, 2)
retirer.launched(first, a)
gpu.launch(busy, b, 100)
retirer.launched(busy, b)  # live: its stream is watched
retirer.retire(first)
gpu.tick(2)
print('done, b busy: deferred', settled(retirer, lambda r: r.deferred == 1),
      'loaded', first in gpu.loaded)
# CHECK-NEXT: done, b busy: deferred True loaded True
second = gpu.load('second')
gpu.launch(second, a, 1)
retirer.launched(second, a)
retirer.retire(second)
gpu.tick()
print('two done, one allowed: forced',
      settled(retirer, lambda r: r.forced == 1),
      'first loaded', first in gpu.loaded, 'second loaded',
      second in gpu.loaded)
# CHECK-NEXT: two done, one allowed: forced True first loaded False second loaded True
gpu.tick(100)
print('idle: unloaded', settled(retirer, lambda r: r.unloaded == 2),
      'forced', retirer.forced, 'most deferred', retirer.most_deferred,
      'faults', gpu.faults, 'on the launch thread',
      gpu.launch_thread_unloads)
# CHECK-NEXT: idle: unloaded True forced 1 most deferred 1 faults [] on the launch thread 0
retirer.close()
try:
    ModuleRetirer(gpu, max_deferred=-1)
except ValueError as error:
    print(error)


# CHECK-NEXT: max_deferred must be at least 0

# CHECK-LABEL: errors
# A failing unload (or wait) is reported once on stderr, kept in `errors`,
# and the worker goes on.
class Failing(FakeGPU):
    def unload(self, module):
        if module[1] == 'bad':
            raise OSError('device lost')
        super().unload(module)


print('errors', flush=True)
gpu = Failing()
retirer = ModuleRetirer(gpu)
for name in ('bad', 'good'):
    retirer.retire(gpu.load(name))
retirer.close()
print('unloaded', retirer.unloaded, 'errors', retirer.errors,
      sorted(m[1] for m in gpu.loaded))
# CHECK-NEXT: [flyhoist] module retirement: unloading a retired module: OSError: device lost (the module stays loaded; later failures are in ModuleRetirer.errors)
# CHECK-NEXT: unloaded 1 errors ['unloading a retired module: OSError: device lost'] ['bad']

# CHECK-LABEL: lru
print('lru')
gpu = FakeGPU()
evicted = []
retirer = ModuleRetirer(gpu)
cache = ResidentModules(2, lambda key, _: gpu.load(key), retirer,
                        on_evict=evicted.append)
for key in ('x', 'y', 'x', 'z', 'y'):
    cache.get(key, None)
print(evicted, cache.loads, len(cache))
# CHECK-NEXT: ['y', 'x'] 4 2
cache.clear()
retirer.close()
try:
    ResidentModules(0, None, None)
except ValueError as error:
    print(error)
# CHECK-NEXT: capacity must be at least 1

# CHECK-LABEL: kernel-cache
# A KernelCache that made its retirer (backend=) stops its thread on close();
# one given a retirer leaves it to its owner.
print('kernel-cache')
from flyhoist import KernelCache, Target  # noqa: E402
gpu = FakeGPU()
made = KernelCache(Target('sm_90'), cache_dir=False, capacity=1,
                   loader=lambda objects: gpu.load(objects), backend=gpu)
for objects in ('o1', 'o2', 'o3'):
    made._resident.get(objects, objects)
worker = made.retirer.worker
made.close()
print('own retirer: unloaded', made.retirer.unloaded, 'worker alive',
      worker.is_alive(), 'loaded', len(gpu.loaded))
# CHECK-NEXT: own retirer: unloaded 3 worker alive False loaded 0
shared = ModuleRetirer(gpu)
given = KernelCache(Target('sm_90'), cache_dir=False, capacity=1,
                    loader=lambda objects: gpu.load(objects), retirer=shared)
for objects in ('o1', 'o2'):
    given._resident.get(objects, objects)
given.close()
print('given retirer: worker alive', shared.worker.is_alive(), 'loaded',
      len(gpu.loaded))
shared.close()
print('closed by its owner:', shared.worker.is_alive(), gpu.faults)
# CHECK-NEXT: given retirer: worker alive True loaded 0
# CHECK-NEXT: closed by its owner: False []

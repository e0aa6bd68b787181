# Stream-aware module retirement on a fake GPU (flyhoist.retire.FakeGPU):
# streams run queued work in order; unloading a module while work that uses
# it is queued is recorded as a fault. A bounded module cache is filled past
# its size while long kernels are queued on several streams.
# RUN: python3 %s 2>&1 | FileCheck %s

from flyhoist.retire import (FakeGPU, ModuleRetirer, NaiveRetirer,
                             ResidentModules)


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
    cache.clear()
    gpu.run_until_idle()
    return gpu, retirer, cache, most_pending


# CHECK-LABEL: naive
print('naive')
gpu, retirer, cache, _ = fill(NaiveRetirer)
print(f'evictions {cache.evictions}, faults {len(gpu.faults)}')
print(gpu.faults[0])
# The comparison that shows the test can fail: every eviction met queued
# work.
# CHECK-NEXT: evictions 10, faults {{1[0-9]}}
# CHECK-NEXT: k0 unloaded while queued on s0, s1, s2

# CHECK-LABEL: retire
print('retire')
gpu, retirer, cache, most_pending = fill(ModuleRetirer)
print(f'evictions {cache.evictions}, faults {len(gpu.faults)}, retired '
      f'{retirer.retired}, unloaded {retirer.unloaded}, pending '
      f'{retirer.pending}, loaded at the end {len(gpu.loaded)}, most '
      f'pending {most_pending}, kernels completed {gpu.completed}')
# CHECK-NEXT: evictions 10, faults 0, retired 12, unloaded 12, pending 0, loaded at the end 0, most pending {{[1-9][0-9]*}}, kernels completed 36

# CHECK-LABEL: details
print('details')
gpu = FakeGPU()
retirer = ModuleRetirer(gpu)
a, b = gpu.stream('a'), gpu.stream('b')
idle = gpu.load('never-launched')
retirer.retire(idle)
print('never launched: unloaded at once', idle not in gpu.loaded,
      retirer.pending)
# CHECK-NEXT: never launched: unloaded at once True 0
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
print('after 3 ticks: unloaded', retirer.collect(), busy in gpu.loaded)
# CHECK-NEXT: after 3 ticks: unloaded 0 True
gpu.tick(2)
print('after 5 ticks: unloaded', retirer.collect(), busy in gpu.loaded,
      'faults', gpu.faults)
# CHECK-NEXT: after 5 ticks: unloaded 1 False faults []
# Work queued on a stream after the retirement does not hold the module.
late = gpu.load('late')
gpu.launch(late, a, 2)
retirer.launched(late, a)
other = gpu.load('other')
retirer.retire(late)
gpu.launch(other, a, 100)
gpu.tick(2)
print('later work does not delay it:', retirer.collect(), late in gpu.loaded)
# CHECK-NEXT: later work does not delay it: 1 False
# drain waits.
slow = gpu.load('slow')
gpu.launch(slow, b, 40)
retirer.launched(slow, b)
retirer.retire(slow)
retirer.drain()
print('drained:', slow in gpu.loaded, retirer.pending, gpu.faults)
# CHECK-NEXT: drained: False 0 []

# CHECK-LABEL: lru
print('lru')
gpu = FakeGPU()
evicted = []
cache = ResidentModules(2, lambda key, _: gpu.load(key), ModuleRetirer(gpu),
                        on_evict=evicted.append)
for key in ('x', 'y', 'x', 'z', 'y'):
    cache.get(key, None)
print(evicted, cache.loads, len(cache))
# CHECK-NEXT: ['y', 'x'] 4 2
try:
    ResidentModules(0, None, None)
except ValueError as error:
    print(error)
# CHECK-NEXT: capacity must be at least 1

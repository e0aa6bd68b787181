# KernelCache over what the manifest records: the recompile log names the
# reason and location of the kept value (FLYHOIST_LOG=recompiles), and the
# launch preconditions decide (divisibility: a value that breaks the
# recorded fact gets a compile whose facts hold; every launch is checked
# against the kernel's own IR, never a wrong encoding).
# RUN: python3 %s 2>&1 | FileCheck %s
# RUN: env FLYHOIST_LOG=recompiles python3 %s log 2>&1 | FileCheck %s --check-prefix=LOG

import os
import re
import sys

from flyhoist import KernelCache, Target

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'Inputs'))
from gather_trace import trace, traces  # noqa: E402


if sys.argv[1:] == ['log']:
    # LOG: [flyhoist] compiled @kernels::@gather again: 'pages' 4 -> 8 (kept specialized: loop bound or step at gather.mlir:9:7)
    cache = KernelCache(Target('sm_90'), cache_dir=False)
    cache.get('gather', {'max_blocks_per_seq': 7, 'pages': 4}, trace)
    cache.get('gather', {'max_blocks_per_seq': 9, 'pages': 8}, trace)
    sys.exit(0)

messages = []
cache = KernelCache(Target('sm_90'), cache_dir=False, log=messages.append)

# CHECK-LABEL: kept values
print('kept values')
cache.get('gather', {'max_blocks_per_seq': 7, 'pages': 4}, trace)
cache.get('gather', {'max_blocks_per_seq': 3, 'pages': 8}, trace)
print('\n'.join(messages))
# CHECK-NEXT: compiled @kernels::@gather again: 'pages' 4 -> 8 (kept specialized: loop bound or step at gather.mlir:9:7)

# CHECK-LABEL: divisibility
print('divisibility')
messages.clear()
facts = KernelCache(Target('sm_90'), 'divisibility=16', cache_dir=False,
                    log=messages.append)
wrong = 0
for width in (128, 96, 32, 100, 132, 4, 7, 1, 0, 64, 101):
    launch = facts.get('gather', {'max_blocks_per_seq': width, 'pages': 4},
                       trace)
    (entry,) = launch.variant.manifest['kernels'][0]['hoisted']
    passed = launch.arguments(['bt', 'out', 'seq'])[3]
    divisor = launch.variant.kernels['@kernels::@gather'][0].divisor
    # What the kernel itself does with the argument, read from its IR (not
    # from the manifest): `v = arg << k` rebuilds a divided value.
    with facts.context.parse(trace({'max_blocks_per_seq': width,
                                    'pages': 4}), 'oracle.mlir') as oracle:
        oracle.hoist('divisibility=16 remarks=false')
        shift = re.search(r'arith\.shli %arg3, %c([0-9]+)', oracle.text())
    traces.pop()
    rebuilt = passed << int(shift[1]) if shift else passed
    wrong += rebuilt != width
    print(f'{width}: passes {passed}, divisor {divisor}, '
          f'{[fact["text"] for fact in entry["preconditions"][1:]]}')
print(f'traced {facts.traced}, compiled {facts.compiled}, wrong {wrong}')
print('\n'.join(messages))
# CHECK-NEXT: 128: passes 128, divisor 16, ['value % 16 == 0']
# CHECK-NEXT: 96: passes 96, divisor 16, ['value % 16 == 0']
# CHECK-NEXT: 32: passes 32, divisor 16, ['value % 16 == 0']
# CHECK-NEXT: 100: passes 100, divisor 4, ['value % 4 == 0']
# CHECK-NEXT: 132: passes 132, divisor 4, ['value % 4 == 0']
# CHECK-NEXT: 4: passes 4, divisor 4, ['value % 4 == 0']
# CHECK-NEXT: 7: passes 7, divisor 1, []
# CHECK-NEXT: 1: passes 1, divisor 1, []
# CHECK-NEXT: 0: passes 0, divisor 16, ['value % 16 == 0']
# CHECK-NEXT: 64: passes 64, divisor 16, ['value % 16 == 0']
# CHECK-NEXT: 101: passes 101, divisor 1, []
# CHECK-NEXT: traced 3, compiled 3, wrong 0
# CHECK-NEXT: compiled @kernels::@gather again: 'max_blocks_per_seq' 128 -> 100 (precondition value % 16 == 0 does not hold)
# CHECK-NEXT: compiled @kernels::@gather again: 'max_blocks_per_seq' 100 -> 7 (precondition value % 4 == 0 does not hold)


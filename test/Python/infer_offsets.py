# Offset tails under inference: a value the traces vary that folds into an
# instruction's immediate offset (bench/tails/lds_tail.mlir, its `tail`
# emitted as a plain constant) is hoisted, so new values are matched, not
# compiled; with hoist-immediate-offsets=false in the options the frontend
# keeps it, and each value compiles, logged with the kept reason.
# RUN: python3 %s %flyhoist_src_root/bench/tails/lds_tail.mlir 2>&1 | FileCheck %s

import re
import sys

from flyhoist import KernelCache

with open(sys.argv[1]) as f:
    SOURCE = f.read()


def trace(values):
    return re.sub(r'spec\.param "tail" = \d+ : i32',
                  f'arith.constant {values["tail"]} : i32', SOURCE)


for options in ('', 'hoist-immediate-offsets=false'):
    log = []
    cache = KernelCache('gfx942', options=options, cache_dir=False,
                        infer_params=True, log=log.append)
    launches = [cache.get('lds_tail', {'tail': t}, trace)
                for t in (64, 32, 16, 8)]
    print(f'options {options!r}: compiled {cache.compiled}, arguments',
          [tuple(launch.arguments(['in', 'out', 'x']))
           for launch in launches[1:]])
    for line in log[:2]:
        print(line)
    cache.close()
# CHECK: options '': compiled 2, arguments [('in', 'out', 'x', 32), ('in', 'out', 'x', 16), ('in', 'out', 'x', 8)]
# The log names the tail that inference hoisted where the cache's own
# options would have kept it as an immediate offset, with what it costs: the
# manifest's immediate_offsets, the two LDS reads whose offset field would
# have held it (one add each).
# CHECK-NEXT: compiled lds_tail template for tail=32 in group 1: learned from 2 traces: hoists 'tail'; offset tails hoisted (an add per access instead of an immediate offset): 'tail' (2 accesses){{$}}
# CHECK-NEXT: options 'hoist-immediate-offsets=false': compiled 4, arguments [('in', 'out', 'x'), ('in', 'out', 'x'), ('in', 'out', 'x')]
# CHECK-NEXT: compiled lds_tail again for tail=32 in group 2 (tail=32): 'tail' kept specialized: folds into an instruction's immediate offset at

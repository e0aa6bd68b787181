#!/usr/bin/env python3
"""Generators of the defect classes of issue 26, each with its expectation.

gen_kernels.py draws kernels from one shape (memref buffers, address chains,
a few blocking uses). The classes below are shapes it never draws, each a
way the pass once misread an operand role. Every generator returns a Case:
the module text, the pass options, and what the generator knows because it
planted it: the parameters that must stay specialized (a bound, an
immediate, a size whose stride is compared ...), whether a located error is
an acceptable answer, how to run the program (host kernels), and the
invariants of the output a checker must see. fuzz/differential.py
(`--classes N`) runs the oracles over them: crash, invalid IR (the printed
output parsed and verified again), missed keep, output that no
longer lowers to a code object (gfx942) while the materialized one does,
and a different printed result (mlir-runner, -O0 and -O3) for host kernels.

Classes (CLASSES, in issue order):
  aggregate   a buffer bound, or the buffer resource carrying it, through an
              !llvm.array / llvm vector / vector.from_elements / nested
              aggregate before the access
  fatptr      an !llvm.ptr<7> from rocdl.make.buffer.rsrc (or a memref from
              amdgpu.fat_raw_buffer_cast) accessed by load/store/atomicrmw/
              cmpxchg/memcpy/select, num_records from the parameter
  two_roles   one SSA value as byte shift and size of memref.view, or offset
              and size of memref.subview, the size read back
  strides     identity-layout views sized by the parameter whose derived
              strides (extract_strided_metadata of the view, a subview, a
              cast, a collapse/expand) reach a comparison / loop bound / store
  immediate   the offset/size/aux immediates of rocdl.raw.ptr.buffer.load.lds,
              an intrinsic immarg through llvm.call_intrinsic, a static
              position of a multi-dimensional vector.extract/insert
  equals_cast `equals` through index_cast/extsi/extui/trunci with a
              known-different value at the parameter or at the launch site
  variadic    a variadic llvm.func kernel called with variadic arguments
  host_types  hoist-into-host, one name launched as i32 into one kernel and
              as index into another
  divisor     divisibility bounds 2^62, 2^63, above 2^63, with values that
              are multiples of large powers of two

Usage: gen_classes.py --class NAME --seed N [--count K] [--out DIR]
"""

import argparse
import os
import random
from gen_case import (  # noqa: E402,F401
    Case,
    _i,
    gpu_module,
    param_bytes,
    RSRC_HEAD,
    HOST_MAIN,
    host_module,
    param_index,
    view_type)
from gen_memory_classes import (  # noqa: E402,F401
    gen_aggregate,
    gen_fatptr,
    gen_two_roles)
from gen_value_classes import (  # noqa: E402,F401
    gen_strides,
    gen_immediate,
    gen_equals_cast,
    gen_variadic,
    gen_host_types,
    gen_divisor)

CLASSES = ["aggregate", "fatptr", "two_roles", "strides", "immediate",
           "equals_cast", "variadic", "host_types", "divisor"]


# -- GPU kernel scaffolding ---------------------------------------------------


# -- Host kernels (runnable) ----------------------------------------------------


GENERATORS = {
    "aggregate": gen_aggregate, "fatptr": gen_fatptr, "two_roles": gen_two_roles,
    "strides": gen_strides, "immediate": gen_immediate,
    "equals_cast": gen_equals_cast, "variadic": gen_variadic,
    "host_types": gen_host_types, "divisor": gen_divisor,
}


def generate(cls, rng):
    return GENERATORS[cls](rng)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--class", dest="cls", choices=CLASSES + ["all"],
                        default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--out", help="directory for corpus files")
    args = parser.parse_args()
    classes = CLASSES if args.cls == "all" else [args.cls]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for cls in classes:
        rng = random.Random("%s-%d" % (cls, args.seed))
        for n in range(args.count):
            case = generate(cls, rng)
            text = case.text
            if case.options:
                text = "// hoist-options: %s\n%s" % (case.options, text)
            if args.out:
                with open(os.path.join(args.out, "class-%s-%d-%d.mlir"
                                       % (cls, args.seed, n)), "w") as f:
                    f.write(text)
            else:
                print("// class %s: %s" % (cls, case.note))
                print(text)


if __name__ == "__main__":
    main()

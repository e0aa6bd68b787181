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
(`--classes N`) runs the oracles over them: crash, invalid IR (the pass's
verifier, and the printed output parsed again), missed keep, output that no
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

CLASSES = ["aggregate", "fatptr", "two_roles", "strides", "immediate",
           "equals_cast", "variadic", "host_types", "divisor"]


class Case:
    """One generated input and what its generator knows about it."""

    def __init__(self, cls, text, options="", kept=(), error_ok=False,
                 must_accept=True, lower=False, runnable=False,
                 host_new_types=None, divisor_value=None,
                 main_value=None, note=""):
        self.cls = cls
        self.text = text
        self.options = options
        # Names a planted blocking role must keep.
        self.kept = set(kept)
        # A located error from the pass is a right answer.
        self.error_ok = error_ok
        # The input is valid and within the pass's contract: an error is a
        # defect (unless error_ok).
        self.must_accept = must_accept
        # Has a gpu.module: the hoisted module must lower to a code object
        # wherever the materialized one does.
        self.lower = lower
        # A host program with @main: the hoisted program must print what the
        # materialized one prints.
        self.runnable = runnable
        # hoist-into-host: the types the host must gain (one per name, type).
        self.host_new_types = host_new_types
        # divisibility: the marked value the recorded divisor must divide.
        self.divisor_value = divisor_value
        # hoist-into-host may give @main arguments: the value to run it with.
        self.main_value = main_value
        self.note = note


def _i(rng, lo, hi):
    return rng.randint(lo, hi)


# -- GPU kernel scaffolding ---------------------------------------------------

def gpu_module(body, args="%p: !llvm.ptr<1>, %out: !llvm.ptr<1>, %i: i32",
               globals_=""):
    return ("module attributes {gpu.container_module} {\n"
            "  gpu.module @m {\n" + globals_ +
            "    gpu.func @k(%s) kernel {\n" % args + body +
            "      gpu.return\n    }\n  }\n}\n")


def param_bytes(rng, name, value, extra_address):
    """A spec.param scaled to a byte count (i64 %n), via a random cast
    chain; optionally the parameter also feeds an address (so that a missed
    bound reads as 'hoisted')."""
    ty = rng.choice(["i32", "i64"])
    lines = ['      %%w = spec.param "%s" = %d : %s\n' % (name, value, ty)]
    lines.append("      %%c4w = arith.constant 4 : %s\n" % ty)
    lines.append("      %%bytes = arith.muli %%w, %%c4w : %s\n" % ty)
    if ty == "i32":
        lines.append("      %%n = arith.%s %%bytes : i32 to i64\n"
                     % rng.choice(["extui", "extsi"]))
    else:
        lines.append("      %n = arith.addi %bytes, %bytes : i64\n")
    if extra_address:
        lines.append("      %%wa = %s\n" % (
            "arith.extsi %w : i32 to i64" if ty == "i32" else
            "arith.addi %w, %w : i64"))
        lines.append("      %ga = llvm.getelementptr %out[%wa] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32\n")
        lines.append("      %z32a = arith.constant 0 : i32\n")
        lines.append("      llvm.store %z32a, %ga : i32, !llvm.ptr<1>\n")
    return "".join(lines)


RSRC_HEAD = ("      %z16 = arith.constant 0 : i16\n"
             "      %z = arith.constant 0 : i32\n"
             "      %c4 = arith.constant 4 : i32\n"
             "      %flags = arith.constant 159744 : i32\n")


def gen_aggregate(rng):
    """num_records, or the resource made from it, through an aggregate."""
    name = "w"
    body = param_bytes(rng, name, _i(rng, 3, 200), rng.random() < 0.5) + RSRC_HEAD
    what = rng.choice(["bound", "resource"])
    kind = rng.choice(["array", "nested_array", "struct_array", "llvm_vector",
                       "vector_from_elements", "vector_insert"])
    if what == "bound":
        src, ty = "%n", "i64"
    else:
        body += "      %rsrc0 = rocdl.make.buffer.rsrc %p, %z16, %n, %flags : !llvm.ptr<1> to !llvm.ptr<8>\n"
        src, ty = "%rsrc0", "!llvm.ptr<8>"
    llty = "ptr<8>" if ty != "i64" else "i64"
    vty = "vector<2x!llvm.ptr<8>>" if ty != "i64" else "vector<2xi64>"
    k = _i(rng, 0, 1)
    if kind == "array":
        body += ("      %%u = llvm.mlir.undef : !llvm.array<2 x %s>\n"
                 "      %%a = llvm.insertvalue %s, %%u[%d] : !llvm.array<2 x %s>\n"
                 "      %%x = llvm.extractvalue %%a[%d] : !llvm.array<2 x %s>\n"
                 % (llty, src, k, llty, k, llty))
    elif kind == "nested_array":
        t = "!llvm.array<2 x array<1 x %s>>" % llty
        body += ("      %%u = llvm.mlir.undef : %s\n"
                 "      %%a = llvm.insertvalue %s, %%u[%d, 0] : %s\n"
                 "      %%a1 = llvm.extractvalue %%a[%d] : %s\n"
                 "      %%x = llvm.extractvalue %%a1[0] : !llvm.array<1 x %s>\n"
                 % (t, src, k, t, k, t, llty))
    elif kind == "struct_array":
        t = "!llvm.struct<(i32, array<2 x %s>)>" % llty
        body += ("      %%u = llvm.mlir.undef : %s\n"
                 "      %%a = llvm.insertvalue %s, %%u[1, %d] : %s\n"
                 "      %%a1 = llvm.extractvalue %%a[1] : %s\n"
                 "      %%x = llvm.extractvalue %%a1[%d] : !llvm.array<2 x %s>\n"
                 % (t, src, k, t, t, k, llty))
    elif kind == "llvm_vector":
        body += ("      %%u = llvm.mlir.undef : %s\n"
                 "      %%ix = llvm.mlir.constant(%d : i32) : i32\n"
                 "      %%a = llvm.insertelement %s, %%u[%%ix : i32] : %s\n"
                 "      %%x = llvm.extractelement %%a[%%ix : i32] : %s\n"
                 % (vty, k, src, vty, vty))
    elif kind == "vector_from_elements":
        body += ("      %%a = vector.from_elements %s, %s : %s\n"
                 "      %%x = vector.extract %%a[%d] : %s from %s\n"
                 % (src, src, vty, k, ty, vty))
    else:
        body += ("      %%u = llvm.mlir.undef : %s\n"
                 "      %%a = vector.insert %s, %%u[%d] : %s into %s\n"
                 "      %%x = vector.extract %%a[%d] : %s from %s\n"
                 % (vty, src, k, ty, vty, k, ty, vty))
    if what == "bound":
        body += "      %rsrc = rocdl.make.buffer.rsrc %p, %z16, %x, %flags : !llvm.ptr<1> to !llvm.ptr<8>\n"
    # With the resource through the aggregate, the access takes it back out.
    rs = "%rsrc" if what == "bound" else "%x"
    body += ("      %%off = arith.muli %%i, %%c4 : i32\n"
             "      %%v = rocdl.raw.ptr.buffer.load %s, %%off, %%z, %%z : i32\n"
             "      llvm.store %%v, %%out : i32, !llvm.ptr<1>\n" % rs)
    return Case("aggregate", gpu_module(body), kept=[name], lower=True,
                note="%s via %s" % (what, kind))


def gen_fatptr(rng):
    """Accesses through a buffer fat pointer whose bound is the parameter."""
    name = "w"
    form = rng.choice(["rsrc7"] * 4 + ["fat_raw_buffer_cast"])
    if form == "fat_raw_buffer_cast":
        ty = rng.choice(["i32", "i64"])
        body = ('      %%w = spec.param "%s" = %d : %s\n' % (name, _i(rng, 3, 200), ty))
        if ty == "i64":
            body += "      %vb = arith.muli %w, %w : i64\n"
        else:
            body += "      %vb = arith.extui %w : i32 to i64\n"
        acc = rng.choice(["load", "store", "vector_load"])
        space = "#amdgpu.address_space<fat_raw_buffer>"
        body += ("      %%fat = amdgpu.fat_raw_buffer_cast %%buf validBytes(%%vb) : "
                 "memref<?xi32, #gpu.address_space<global>> to memref<?xi32, %s>\n" % space)
        if acc == "load":
            body += ("      %%v = memref.load %%fat[%%i] : memref<?xi32, %s>\n"
                     "      memref.store %%v, %%o[%%i] : memref<?xi32, #gpu.address_space<global>>\n" % space)
        elif acc == "store":
            body += ("      %%c7 = arith.constant 7 : i32\n"
                     "      memref.store %%c7, %%fat[%%i] : memref<?xi32, %s>\n" % space)
        else:
            body += ("      %%v = vector.load %%fat[%%i] : memref<?xi32, %s>, vector<4xi32>\n"
                     "      vector.store %%v, %%o[%%i] : memref<?xi32, #gpu.address_space<global>>, vector<4xi32>\n" % space)
        args = ("%buf: memref<?xi32, #gpu.address_space<global>>, "
                "%o: memref<?xi32, #gpu.address_space<global>>, %i: index")
        return Case("fatptr", gpu_module(body, args), kept=[name], lower=True,
                    note="fat_raw_buffer_cast %s" % acc)
    body = param_bytes(rng, name, _i(rng, 3, 200), rng.random() < 0.5) + RSRC_HEAD
    body += "      %fp = rocdl.make.buffer.rsrc %p, %z16, %n, %flags : !llvm.ptr<1> to !llvm.ptr<7>\n"
    ptr = "%fp"
    via = rng.choice(["direct", "direct", "gep", "select", "addrspacecast"])
    if via == "gep":
        body += "      %q = llvm.getelementptr %fp[%i] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, i32\n"
        ptr = "%q"
    elif via == "select":
        body += ("      %cz = arith.cmpi eq, %i, %z : i32\n"
                 "      %q = llvm.select %cz, %fp, %fp : i1, !llvm.ptr<7>\n")
        ptr = "%q"
    elif via == "addrspacecast":
        body += "      %q = llvm.addrspacecast %fp : !llvm.ptr<7> to !llvm.ptr\n"
        ptr = "%q"
    pty = "!llvm.ptr" if via == "addrspacecast" else "!llvm.ptr<7>"
    acc = rng.choice(["load", "store", "atomicrmw", "cmpxchg", "memcpy_src",
                      "memcpy_dst", "memset"])
    if acc == "load":
        body += ("      %%v = llvm.load %s : %s -> i32\n"
                 "      llvm.store %%v, %%out : i32, !llvm.ptr<1>\n" % (ptr, pty))
    elif acc == "store":
        body += "      llvm.store %%i, %s : i32, %s\n" % (ptr, pty)
    elif acc == "atomicrmw":
        body += ("      %%v = llvm.atomicrmw %s %s, %%i monotonic : %s, i32\n"
                 "      llvm.store %%v, %%out : i32, !llvm.ptr<1>\n"
                 % (rng.choice(["add", "max", "xchg"]), ptr, pty))
    elif acc == "cmpxchg":
        body += ("      %%v = llvm.cmpxchg %s, %%i, %%z acq_rel monotonic : %s, i32\n"
                 "      %%v0 = llvm.extractvalue %%v[0] : !llvm.struct<(i32, i1)>\n"
                 "      llvm.store %%v0, %%out : i32, !llvm.ptr<1>\n" % (ptr, pty))
    elif acc.startswith("memcpy"):
        dst, src = ((ptr, "%out") if acc == "memcpy_dst" else ("%out", ptr))
        tys = ((pty, "!llvm.ptr<1>") if acc == "memcpy_dst" else ("!llvm.ptr<1>", pty))
        body += ("      %%len = arith.constant 16 : i64\n"
                 '      "llvm.intr.memcpy"(%s, %s, %%len) <{isVolatile = false}> : (%s, %s, i64) -> ()\n'
                 % (dst, src, tys[0], tys[1]))
    else:
        body += ("      %%len = arith.constant 16 : i64\n"
                 "      %%b8 = arith.constant 0 : i8\n"
                 '      "llvm.intr.memset"(%s, %%b8, %%len) <{isVolatile = false}> : (%s, i8, i64) -> ()\n'
                 % (ptr, pty))
    return Case("fatptr", gpu_module(body), kept=[name], lower=True,
                note="ptr<7> %s %s" % (via, acc))


# -- Host kernels (runnable) ----------------------------------------------------

HOST_MAIN = """  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %nin = arith.constant 4096 : index
    %seven = arith.constant 7 : i64
    %in = memref.alloc(%nin) : memref<?xi64>
    %out = memref.alloc() : memref<8xi64>
    scf.for %i = %c0 to %nin step %c1 {
      %ii = arith.index_cast %i : index to i64
      %m = arith.muli %ii, %seven : i64
      memref.store %m, %in[%i] : memref<?xi64>
    }
    %z = arith.constant 0 : i64
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %z, %out[%i] : memref<8xi64>
    }
@CALL@
    %u = memref.cast %out : memref<8xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    memref.dealloc %in : memref<?xi64>
    memref.dealloc %out : memref<8xi64>
    return
  }
  func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
"""


def host_module(kernel, call, extra_funcs=""):
    return ("module {\n" + kernel + extra_funcs +
            HOST_MAIN.replace("@CALL@", call) + "}\n")


def param_index(rng, name, value):
    """A spec.param of a random type, cast to index (%s)."""
    ty = rng.choice(["index", "i32", "i64"])
    text = '    %%w = spec.param "%s" = %d : %s\n' % (name, value, ty)
    if ty == "index":
        text += "    %s = arith.addi %w, %czero : index\n"
    else:
        text += "    %%s = arith.index_cast %%w : %s to index\n" % ty
    return "    %czero = arith.constant 0 : index\n" + text


def gen_two_roles(rng):
    """The same value in an address role and a size role of one op."""
    name = "w"
    value = _i(rng, 1, 12)
    form = rng.choice(["view", "view", "subview", "subview_stride"])
    readback = rng.choice(["dim", "loop", "compare"])
    seed = rng.random()
    # View: the byte shift and the size both s * 8, or both s.
    rng_shape = rng.randrange(2)

    def kernel(v):
        body = param_index(random.Random(seed), name, v)
        if form == "view":
            body += ("    %c8 = arith.constant 8 : index\n"
                     "    %sh = arith.muli %s, %c8 : index\n"
                     "    %raw = memref.alloc() : memref<1024xi8>\n"
                     "    %vw = memref.view %raw[%sh][%sh] : memref<1024xi8> to memref<?xi64>\n"
                     if rng_shape == 0 else
                     "    %raw = memref.alloc() : memref<1024xi8>\n"
                     "    %vw = memref.view %raw[%s][%s] : memref<1024xi8> to memref<?xi64>\n")
            view = "%vw"
        elif form == "subview":
            body += ("    %vw = memref.subview %in[%s] [%s] [1] : memref<?xi64> to "
                     "memref<?xi64, strided<[1], offset: ?>>\n")
            view = "%vw"
        else:
            body += ("    %vw = memref.subview %in[%s] [%s] [%s] : memref<?xi64> to "
                     "memref<?xi64, strided<[?], offset: ?>>\n")
            view = "%vw"
        body += "    %cz = arith.constant 0 : index\n"
        body += "    %%d = memref.dim %s, %%cz : %s\n" % (view, view_type(form))
        if readback == "dim":
            body += "    %d64 = arith.index_cast %d : index to i64\n"
        elif readback == "loop":
            body += ("    %c1l = arith.constant 1 : index\n"
                     "    %zl = arith.constant 0 : i64\n"
                     "    %d64 = scf.for %k = %cz to %d step %c1l iter_args(%acc = %zl) -> (i64) {\n"
                     "      %kk = arith.index_cast %k : index to i64\n"
                     "      %a2 = arith.addi %acc, %kk : i64\n"
                     "      scf.yield %a2 : i64\n"
                     "    }\n")
        else:
            body += ("    %c5 = arith.constant 5 : index\n"
                     "    %lt = arith.cmpi ult, %d, %c5 : index\n"
                     "    %d64 = arith.extui %lt : i1 to i64\n")
        body += "    memref.store %d64, %out[%cz] : memref<8xi64>\n"
        if form != "view":
            body += ("    %%e = memref.load %%vw[%%cz] : %s\n"
                     "    %%c1s = arith.constant 1 : index\n"
                     "    memref.store %%e, %%out[%%c1s] : memref<8xi64>\n" % view_type(form))
        return ("  func.func @kernel(%in: memref<?xi64>, %out: memref<8xi64>) {\n"
                + body + "    return\n  }\n")

    call = "    call @kernel(%in, %out) : (memref<?xi64>, memref<8xi64>) -> ()"
    return Case("two_roles", host_module(kernel(value), call), kept=[name],
                runnable=True, note="%s %s" % (form, readback))


def view_type(form):
    return {"view": "memref<?xi64>", "subview": "memref<?xi64, strided<[1], offset: ?>>",
            "subview_stride": "memref<?xi64, strided<[?], offset: ?>>"}[form]


def gen_strides(rng):
    """A size of an identity-layout view from the parameter; a derived stride
    reaches a blocking use."""
    name = "w"
    value = _i(rng, 1, 16)
    make = rng.choice(["view", "alloc", "reinterpret_identity"])
    derive = rng.choice(["metadata", "subview", "cast", "collapse", "expand"])
    block = rng.choice(["compare", "loop", "store"])
    seed = rng.random()

    def kernel(v):
        r = random.Random(seed)
        body = param_index(r, name, v)
        if make == "view":
            body += ("    %cz = arith.constant 0 : index\n"
                     "    %raw = memref.alloc() : memref<8192xi8>\n"
                     "    %vw = memref.view %raw[%cz][%s] : memref<8192xi8> to memref<4x?xi64>\n")
        elif make == "alloc":
            body += ("    %cz = arith.constant 0 : index\n"
                     "    %vw = memref.alloc(%s) : memref<4x?xi64>\n")
        else:
            body += ("    %cz = arith.constant 0 : index\n"
                     "    %vw = memref.alloc(%s) : memref<4x?xi64>\n")
        ty = "memref<4x?xi64>"
        if derive == "subview":
            body += ("    %c1v = arith.constant 1 : index\n"
                     "    %sv = memref.subview %vw[1, 0] [2, 1] [1, 1] : memref<4x?xi64> to "
                     "memref<2x1xi64, strided<[?, 1], offset: ?>>\n")
            src, sty = "%sv", "memref<2x1xi64, strided<[?, 1], offset: ?>>"
        elif derive == "cast":
            body += ("    %sv = memref.cast %vw : memref<4x?xi64> to "
                     "memref<4x?xi64, strided<[?, 1], offset: ?>>\n")
            src, sty = "%sv", "memref<4x?xi64, strided<[?, 1], offset: ?>>"
        elif derive == "collapse":
            body += ("    %sv = memref.collapse_shape %vw [[0, 1]] : memref<4x?xi64> into memref<?xi64>\n")
            src, sty = "%sv", "memref<?xi64>"
        elif derive == "expand":
            body += ("    %c2e = arith.constant 2 : index\n"
                     "    %sv = memref.expand_shape %vw [[0, 1], [2]] output_shape [2, 2, %s] : "
                     "memref<4x?xi64> into memref<2x2x?xi64>\n")
            src, sty = "%sv", "memref<2x2x?xi64>"
        else:
            src, sty = "%vw", ty
        rank = sty.split("<")[1].count("x")
        outs = ", ".join(["%%sz%d" % n for n in range(rank)])
        body += ("    %%base, %%off, %s, %s = memref.extract_strided_metadata %s : %s -> "
                 "memref<i64>, index, %s, %s\n"
                 % (outs, ", ".join("%%st%d" % n for n in range(rank)), src, sty,
                    ", ".join(["index"] * rank), ", ".join(["index"] * rank)))
        stride = "%st0"
        if block == "compare":
            body += ("    %%c6 = arith.constant 6 : index\n"
                     "    %%lt = arith.cmpi ult, %s, %%c6 : index\n"
                     "    %%r = arith.extui %%lt : i1 to i64\n" % stride)
        elif block == "loop":
            body += ("    %%c1l = arith.constant 1 : index\n"
                     "    %%zl = arith.constant 0 : i64\n"
                     "    %%r = scf.for %%k = %%cz to %s step %%c1l iter_args(%%acc = %%zl) -> (i64) {\n"
                     "      %%kk = arith.index_cast %%k : index to i64\n"
                     "      %%a2 = arith.addi %%acc, %%kk : i64\n"
                     "      scf.yield %%a2 : i64\n"
                     "    }\n" % stride)
        else:
            body += "    %%r = arith.index_cast %s : index to i64\n" % stride
        body += "    memref.store %r, %out[%cz] : memref<8xi64>\n"
        if make != "view":
            body += "    memref.dealloc %vw : memref<4x?xi64>\n"
        return ("  func.func @kernel(%in: memref<?xi64>, %out: memref<8xi64>) {\n"
                + body + "    return\n  }\n")
    call = "    call @kernel(%in, %out) : (memref<?xi64>, memref<8xi64>) -> ()"
    return Case("strides", host_module(kernel(value), call), kept=[name],
                runnable=True,
                note="%s %s %s" % (make, derive, block))


def gen_immediate(rng):
    """The parameter as an operand that must stay an immediate."""
    name = "w"
    form = rng.choice(["lds_offset", "lds_size", "lds_aux", "call_intrinsic",
                       "vector_extract", "vector_insert"])
    ty = "i32"
    if form.startswith("lds"):
        value = {"lds_offset": rng.choice([0, 4, 16, 64]), "lds_size": 4,
                 "lds_aux": 0}[form]
        ops = {"lds_offset": "%c4, %voff, %z, %w, %z",
               "lds_size": "%w, %voff, %z, %z, %z",
               "lds_aux": "%c4, %voff, %z, %z, %w"}[form]
        body = ('      %%w = spec.param "%s" = %d : i32\n' % (name, value) + RSRC_HEAD +
                "      %max = arith.constant 4294967295 : i64\n"
                "      %rsrc = rocdl.make.buffer.rsrc %p, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>\n"
                "      %lds = llvm.mlir.addressof @row : !llvm.ptr<3>\n"
                "      %voff = arith.muli %i, %c4 : i32\n")
        if rng.random() < 0.5:
            # The parameter also offsets the address: a missed immediate
            # reads as 'hoisted'.
            body += ("      %wo = arith.muli %w, %c4 : i32\n"
                     "      %voff2 = arith.addi %voff, %wo : i32\n")
            ops = ops.replace("%voff", "%voff2")
        body += "      rocdl.raw.ptr.buffer.load.lds %%rsrc, %%lds, %s\n" % ops
        glob = ("    llvm.mlir.global internal @row() {addr_space = 3 : i32, "
                "alignment = 16 : i64} : !llvm.array<256 x i8>\n")
        return Case("immediate", gpu_module(body, globals_=glob), kept=[name],
                    lower=True, note=form)
    if form == "call_intrinsic":
        intr, ity, value = rng.choice([("llvm.amdgcn.s.setprio", "i16", 1),
                                       ("llvm.amdgcn.s.sleep", "i32", 2),
                                       ("llvm.amdgcn.sched.barrier", "i32", 0)])
        body = ('      %%w = spec.param "%s" = %d : %s\n' % (name, value, ity) +
                '      llvm.call_intrinsic "%s"(%%w) : (%s) -> ()\n' % (intr, ity))
        if rng.random() < 0.5:
            body += ("      %%wx = arith.extui %%w : %s to i64\n"
                     "      %%g = llvm.getelementptr %%out[%%wx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32\n"
                     "      llvm.store %%i, %%g : i32, !llvm.ptr<1>\n" % ity)
        return Case("immediate", gpu_module(body), kept=[name], lower=True,
                    note="%s immarg" % intr)
    value = _i(rng, 0, 3)
    body = ('      %%w = spec.param "%s" = %d : index\n' % (name, value) +
            "      %vec = arith.constant dense<3> : vector<4x4xi32>\n")
    pos = rng.choice(["[%w, 0]", "[0, %w]", "[%w]"])
    if form == "vector_extract":
        rty = "vector<4xi32>" if pos == "[%w]" else "i32"
        body += "      %%e = vector.extract %%vec%s : %s from vector<4x4xi32>\n" % (pos, rty)
        if rty == "i32":
            body += "      llvm.store %e, %out : i32, !llvm.ptr<1>\n"
        else:
            body += "      llvm.store %e, %out : vector<4xi32>, !llvm.ptr<1>\n"
    else:
        if pos == "[%w]":
            body += ("      %r = arith.constant dense<5> : vector<4xi32>\n"
                     "      %e = vector.insert %r, %vec[%w] : vector<4xi32> into vector<4x4xi32>\n")
        else:
            body += "      %%e = vector.insert %%i, %%vec%s : i32 into vector<4x4xi32>\n" % pos
        body += ("      %row = vector.extract %e[1] : vector<4xi32> from vector<4x4xi32>\n"
                 "      llvm.store %row, %out : vector<4xi32>, !llvm.ptr<1>\n")
    return Case("immediate", gpu_module(body), kept=[name], lower=True,
                note="%s %s" % (form, pos))


def gen_equals_cast(rng):
    """`equals` through a cast, and a value known to differ from the marked
    one, at the parameter or at the launch site."""
    name = "b"
    marked = _i(rng, 2, 20)
    other = marked + _i(rng, 1, 5)
    where = rng.choice(["launch", "param"])
    ty, src_ty = rng.choice([("i32", "index"), ("index", "i32"), ("i64", "i32"),
                             ("i32", "i64"), ("index", "i64")])
    cast = {("i32", "index"): "arith.index_cast %a : index to i32",
            ("index", "i32"): "arith.index_cast %a : i32 to index",
            ("i64", "i32"): "arith.%s %%a : i32 to i64" % rng.choice(["extsi", "extui"]),
            ("i32", "i64"): "arith.trunci %a : i64 to i32",
            ("index", "i64"): "arith.index_cast %a : i64 to index"}[(ty, src_ty)]
    to_index = ("arith.addi %p, %pz : index" if ty == "index" else
                "arith.index_cast %%p : %s to index" % ty)

    def kernel(v, launch_value):
        if where == "param":
            head = "    %%a = arith.constant %d : %s\n" % (other, src_ty)
            sig = "%in: memref<?xi64>, %out: memref<8xi64>"
        else:
            head = ""
            sig = "%%in: memref<?xi64>, %%out: memref<8xi64>, %%a: %s" % src_ty
        body = (head + "    %%c = %s\n" % cast +
                '    %%p = spec.param "%s" = %d equals %%c : %s\n' % (name, v, ty) +
                "    %pz = arith.constant 0 : index\n" +
                "    %%pi = %s\n" % to_index +
                "    %ld = memref.load %in[%pi] : memref<?xi64>\n"
                "    memref.store %ld, %out[%pz] : memref<8xi64>\n")
        return "  func.func @kernel(%s) {\n%s    return\n  }\n" % (sig, body)
    if where == "param":
        call = "    call @kernel(%in, %out) : (memref<?xi64>, memref<8xi64>) -> ()"
    else:
        call = ("    %%av = arith.constant %d : %s\n"
                "    call @kernel(%%in, %%out, %%av) : (memref<?xi64>, memref<8xi64>, %s) -> ()"
                % (other, src_ty, src_ty))
    text = host_module(kernel(marked, other), call)
    # The contract "value == argument/parameter" is false for a value the
    # pass sees: a located error or kept. Hoisting it through `equals` is the
    # defect (the runnable check shows the wrong result).
    return Case("equals_cast", text, kept=[name], error_ok=True, runnable=True,
                note="%s %s<-%s" % (where, ty, src_ty))


def gen_variadic(rng):
    """A variadic llvm.func kernel, called with variadic arguments."""
    name = "s"
    value = _i(rng, 1, 30)
    nvar = _i(rng, 1, 3)
    vtypes = [rng.choice(["i32", "i64", "f64"]) for _ in range(nvar)]
    use = rng.choice(["gep", "gep_cast"])
    body = ('    %%s = spec.param "%s" = %d : i64\n' % (name, value))
    if use == "gep_cast":
        body += "    %s2 = arith.muli %s, %s : i64\n"
        idx = "%s2"
    else:
        idx = "%s"
    body += ("    %%g = llvm.getelementptr %%p[%s] : (!llvm.ptr, i64) -> !llvm.ptr, i64\n"
             "    %%v = llvm.load %%g : !llvm.ptr -> i64\n"
             "    llvm.store %%v, %%p : i64, !llvm.ptr\n" % idx)
    kernel = ("  llvm.func @kernel(%%p: !llvm.ptr, ...) attributes {spec.kernel} {\n%s"
              "    llvm.return\n  }\n" % body)
    consts = "".join("    %%x%d = llvm.mlir.constant(%s) : %s\n"
                     % (n, "1.5 : f64" if t == "f64" else "%d : %s" % (n + 3, t), t)
                     for n, t in enumerate(vtypes))
    call = ("  llvm.func @host(%%p: !llvm.ptr) {\n%s"
            "    llvm.call @kernel(%%p, %s) vararg(!llvm.func<void (ptr, ...)>) : (!llvm.ptr, %s) -> ()\n"
            "    llvm.return\n  }\n"
            % (consts, ", ".join("%%x%d" % n for n in range(nvar)), ", ".join(vtypes)))
    options = rng.choice(["", "hoist-into-host"])
    # No argument may be added to a variadic kernel: the parameter is kept
    # (with a remark), and the call is no arity mismatch.
    return Case("variadic", "module {\n" + kernel + call + "}\n", options=options,
                kept=[name], note="%d varargs %s" % (nvar, options or "defaults"))


def gen_host_types(rng):
    """hoist-into-host: one name as i32 into one kernel and as index into
    another."""
    name = "w"
    value = _i(rng, 1, 20)
    types = rng.sample(["i32", "index", "i64"], 2)

    def kernel(kname, ty):
        to_index = ("arith.addi %p, %z0 : index" if ty == "index" else
                    "arith.index_cast %%p : %s to index" % ty)
        return ("  func.func private @%s(%%in: memref<?xi64>, %%out: memref<8xi64>, %%slot: index) {\n"
                "    %%z0 = arith.constant 0 : index\n"
                '    %%p = spec.param "%s" = %d : %s\n'
                "    %%pi = %s\n"
                "    %%c2 = arith.constant 2 : index\n"
                "    %%pj = arith.muli %%pi, %%c2 : index\n"
                "    %%v = memref.load %%in[%%pj] : memref<?xi64>\n"
                "    memref.store %%v, %%out[%%slot] : memref<8xi64>\n"
                "    return\n  }\n" % (kname, name, value, ty, to_index))
    ka, kb = kernel("ka", types[0]), kernel("kb", types[1])
    order = rng.random() < 0.5
    host = ("  func.func @host(%%in: memref<?xi64>, %%out: memref<8xi64>) {\n"
            "    %%s0 = arith.constant 0 : index\n"
            "    %%s1 = arith.constant 1 : index\n"
            "    call @%s(%%in, %%out, %%s0) : (memref<?xi64>, memref<8xi64>, index) -> ()\n"
            "    call @%s(%%in, %%out, %%s1) : (memref<?xi64>, memref<8xi64>, index) -> ()\n"
            "    return\n  }\n" % (("ka", "kb") if order else ("kb", "ka")))
    call = "    call @host(%in, %out) : (memref<?xi64>, memref<8xi64>) -> ()"
    text = host_module(ka + kb, call, host)
    return Case("host_types", text, options="hoist-into-host", runnable=True,
                main_value=value,
                host_new_types=sorted(types),
                note="%s and %s" % tuple(types))


def gen_divisor(rng):
    """Extreme divisibility bounds and values that are multiples of large
    powers of two."""
    # 2^63 is the bound a signed 64-bit field cannot hold: half the draws.
    bound = 2 ** 63 if rng.random() < 0.5 else rng.choice(
        [2 ** 62, 2 ** 63 + 2 ** 62, 2 ** 64 - 1, 2 ** 64, 2 ** 61, 2 ** 63 - 1,
         2 ** 65])
    ty = rng.choice(["i64", "index"])
    value = rng.choice([2 ** 62, 2 ** 61, 2 ** 62 + 2 ** 61, -(2 ** 63),
                        -(2 ** 63), 0, 2 ** 60 * 3, 2 ** 62 * -1])
    if rng.random() < 0.5:
        # Multiples of 2^63.
        value = rng.choice([0, -(2 ** 63)])
    narrow = rng.random() < 0.3
    options = "divisibility=%d%s" % (bound, " narrow-range=true" if narrow else "")
    to_index = ("arith.addi %p, %z0 : index" if ty == "index" else
                "arith.index_cast %p : i64 to index")
    text = ("module {\n"
            "  func.func @kernel(%%in: memref<?xi64>, %%out: memref<8xi64>, %%i: index)"
            " attributes {spec.kernel} {\n"
            "    %%z0 = arith.constant 0 : index\n"
            '    %%p = spec.param "d" = %d : %s\n'
            "    %%pi = %s\n"
            "    %%a = arith.addi %%pi, %%i : index\n"
            "    %%v = memref.load %%in[%%a] : memref<?xi64>\n"
            "    memref.store %%v, %%out[%%z0] : memref<8xi64>\n"
            "    return\n  }\n}\n" % (value, ty, to_index))
    # Either an option error or a record that re-parses with a positive
    # power-of-two divisor that divides the value.
    return Case("divisor", text, options=options, error_ok=True,
                divisor_value=value,
                note="bound %d value %d %s" % (bound, value, ty))


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

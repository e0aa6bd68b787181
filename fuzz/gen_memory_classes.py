"""gen_classes.py's classes of memory access: aggregates, fat pointers and
one value in two roles."""

import random
from gen_case import Case, RSRC_HEAD, _i, gpu_module, host_module, param_bytes, param_index, view_type  # noqa: F401


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

"""gen_classes.py's classes of values: strides, immediates, equals through
casts, variadic ops, host types and divisors."""

import random
from gen_case import Case, RSRC_HEAD, _i, gpu_module, host_module, param_index  # noqa: F401


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

#!/usr/bin/env python3
"""Structure-aware generator of random kernels holding `spec.param`s.

Each kernel is a host-level `func.func @kernel` over `memref<?xi64>` buffers,
called by `@main`. Its parameters flow through random address chains (add,
sub, mul, shift-left by a constant, index casts and sign/zero extensions,
affine.apply, scf.for iter_args) into load/store indices, and some of them
also reach a random blocking use (loop bound, comparison + select, clamp,
division, remainder, stored as data, call operand).

Every address is kept inside its buffer for every parameter value in
[1, PMAX] by interval arithmetic over the loop ranges, so the same kernel can
be run for many values (fuzz/differential.py does).

Usage:
  gen_kernels.py --seed N --count K --out DIR      # corpus files for the fuzzer
  gen_kernels.py --seed N [--gpu]                  # one kernel on stdout
  gen_kernels.py --mixed ...                       # host-level and gpu.module kernels

As a module, `generate(rng)` returns a Kernel whose `module_text(values)`
prints the module for one assignment of parameter values.
"""

import argparse
import os
import random

PMAX = 48
MAX_BUFFER = 1 << 15
TYPES = ["index", "i32", "i64"]
BLOCKING = ["loop_bound", "compare_select", "clamp", "divide", "remainder",
            "stored_data", "call_operand"]


class Expr:
    """An SSA value of index type with its range over every value tried."""

    def __init__(self, name, lo, hi):
        self.name, self.lo, self.hi = name, lo, hi


class Param:
    def __init__(self, name, type_, equals):
        self.name, self.type, self.equals = name, type_, equals
        self.ssa = None


class Kernel:
    """A random kernel; `lines` holds the body with `@VALUE_<param>@` holes."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.counter = 0
        self.params = []
        self.in_size = 1
        self.out_size = 1
        self.needs_callee = False
        self.affine_maps = []

    # -- SSA helpers ---------------------------------------------------------
    def fresh(self, hint="v"):
        self.counter += 1
        return "%%%s%d" % (hint, self.counter)

    def emit(self, indent, text):
        self.lines.append("  " * indent + text)

    def const(self, indent, value, type_="index"):
        name = self.fresh("c")
        self.emit(indent, "%s = arith.constant %d : %s" % (name, value, type_))
        return name

    # -- Address chains --------------------------------------------------------
    def param_as_index(self, indent, param):
        """Casts a parameter to index along a random chain of casts."""
        rng = self.rng
        v = param.ssa
        if param.type == "index":
            if rng.random() < 0.3:
                t = self.fresh()
                self.emit(indent, "%s = arith.index_cast %s : index to i64" % (t, v))
                u = self.fresh()
                self.emit(indent, "%s = arith.index_cast %s : i64 to index" % (u, t))
                return u
            return v
        if param.type == "i32":
            choice = rng.randrange(3)
            if choice == 0:
                t = self.fresh()
                self.emit(indent, "%s = arith.extsi %s : i32 to i64" % (t, v))
                u = self.fresh()
                self.emit(indent, "%s = arith.index_cast %s : i64 to index" % (u, t))
                return u
            if choice == 1:
                t = self.fresh()
                self.emit(indent, "%s = arith.extui %s : i32 to i64" % (t, v))
                u = self.fresh()
                self.emit(indent, "%s = arith.index_castui %s : i64 to index" % (u, t))
                return u
            u = self.fresh()
            self.emit(indent, "%s = arith.index_cast %s : i32 to index" % (u, v))
            return u
        u = self.fresh()
        self.emit(indent, "%s = arith.index_cast %s : i64 to index" % (u, v))
        return u

    def leaf(self, indent, env):
        rng = self.rng
        choice = rng.random()
        if choice < 0.45 and self.params:
            param = rng.choice(self.params)
            return Expr(self.param_as_index(indent, param), 1, PMAX)
        if choice < 0.8 and env:
            return rng.choice(env)
        c = rng.randrange(0, 8)
        return Expr(self.const(indent, c), c, c)

    def chain(self, indent, env, depth):
        """A random nonnegative index expression."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.25:
            return self.leaf(indent, env)
        a = self.chain(indent, env, depth - 1)
        op = rng.choice(["add", "mul", "sub", "shl", "affine", "add", "mul"])
        if op == "shl":
            c = rng.randrange(0, 3)
            k = self.const(indent, c)
            r = self.fresh()
            self.emit(indent, "%s = arith.shli %s, %s : index" % (r, a.name, k))
            return Expr(r, a.lo << c, a.hi << c)
        b = self.chain(indent, env, depth - 1)
        r = self.fresh()
        if op == "add":
            self.emit(indent, "%s = arith.addi %s, %s : index" % (r, a.name, b.name))
            return Expr(r, a.lo + b.lo, a.hi + b.hi)
        if op == "mul":
            self.emit(indent, "%s = arith.muli %s, %s : index" % (r, a.name, b.name))
            return Expr(r, a.lo * b.lo, a.hi * b.hi)
        if op == "affine":
            c0, c1 = rng.randrange(1, 4), rng.randrange(0, 4)
            self.emit(indent, "%s = affine.apply affine_map<(d0, d1) -> (d0 * %d + d1 + %d)>(%s, %s)"
                      % (r, c0, c1, a.name, b.name))
            return Expr(r, a.lo * c0 + b.lo + c1, a.hi * c0 + b.hi + c1)
        # sub, shifted back into the nonnegative range.
        self.emit(indent, "%s = arith.subi %s, %s : index" % (r, a.name, b.name))
        lo, hi = a.lo - b.hi, a.hi - b.lo
        if lo >= 0:
            return Expr(r, lo, hi)
        k = self.const(indent, -lo)
        s = self.fresh()
        self.emit(indent, "%s = arith.addi %s, %s : index" % (s, r, k))
        return Expr(s, 0, hi - lo)

    def address(self, indent, env, limit):
        for _ in range(20):
            mark = len(self.lines)
            e = self.chain(indent, env, self.rng.randrange(1, 4))
            if e.hi < limit:
                return e
            del self.lines[mark:]
        return Expr(self.const(indent, 0), 0, 0)

    # -- Blocking uses -----------------------------------------------------------
    def blocking_use(self, indent, param, acc, env):
        """Makes `param` needed as a constant; returns the new data value."""
        rng = self.rng
        kind = rng.choice(BLOCKING)
        p = self.param_as_index(indent, param)
        pi = self.fresh()
        self.emit(indent, "%s = arith.index_cast %s : index to i64" % (pi, p))
        r = self.fresh()
        if kind == "loop_bound":
            # A loop of `param` trips that accumulates into the data.
            c0, c1 = self.const(indent, 0), self.const(indent, 1)
            k = self.fresh("k")
            self.emit(indent, "%s = scf.for %s = %s to %s step %s iter_args(%%acc%d = %s) -> (i64) {"
                      % (r, k, c0, p, c1, self.counter, acc))
            accname = "%%acc%d" % self.counter
            kk = self.fresh()
            self.emit(indent + 1, "%s = arith.index_cast %s : index to i64" % (kk, k))
            s = self.fresh()
            self.emit(indent + 1, "%s = arith.addi %s, %s : i64" % (s, accname, kk))
            self.emit(indent + 1, "scf.yield %s : i64" % s)
            self.emit(indent, "}")
        elif kind == "compare_select":
            c = self.fresh()
            self.emit(indent, "%s = arith.cmpi slt, %s, %s : i64" % (c, acc, pi))
            self.emit(indent, "%s = arith.select %s, %s, %s : i64" % (r, c, pi, acc))
        elif kind == "clamp":
            self.emit(indent, "%s = arith.minsi %s, %s : i64" % (r, acc, pi))
        elif kind == "divide":
            self.emit(indent, "%s = arith.divui %s, %s : i64" % (r, acc, pi))
        elif kind == "remainder":
            self.emit(indent, "%s = arith.remsi %s, %s : i64" % (r, acc, pi))
        elif kind == "stored_data":
            self.emit(indent, "%s = arith.xori %s, %s : i64" % (r, acc, pi))
        else:
            self.needs_callee = True
            self.emit(indent, "%s = func.call @mix(%s, %s) : (i64, i64) -> i64" % (r, acc, pi))
        return r

    # -- Module text -------------------------------------------------------------
    def module_text(self, values, main_extra=None, host_functions=(),
                    callee="kernel"):
        """The module for `values` (name -> int). `main_extra` lists trailing
        call operands (type, value) for @main to pass, for a kernel whose
        signature the hoisting pass already extended. `host_functions` are
        lines of more host functions (launchers between @main and @kernel),
        and `callee` the one @main calls."""
        body = "\n".join(self.lines)
        for param in self.params:
            body = body.replace("@VALUE_%s@" % param.name, str(values[param.name]))
        equals = [p for p in self.params if p.equals]
        kernel_args = "%in: memref<?xi64>, %out: memref<?xi64>"
        if equals:
            kernel_args += ", %ld: index"
        text = ["module {"]
        if self.needs_callee:
            text += ["  func.func private @mix(%a: i64, %b: i64) -> i64 {",
                     "    %r = arith.addi %a, %b : i64",
                     "    return %r : i64",
                     "  }"]
        text.append("  func.func @kernel(%s) {" % kernel_args)
        text.append(body)
        text.append("    return")
        text.append("  }")
        text += list(host_functions)
        text += self.main_lines(values, equals, main_extra, callee)
        text.append("  func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}")
        text.append("}")
        return "\n".join(text) + "\n"

    def gpu_module_text(self, values):
        """The same kernel as a `gpu.func` in a `gpu.module`, launched by a
        host function (for fuzzing and determinism; not run). Drawn at
        random: the host is itself a kernel (`spec.kernel`) with a parameter
        of its own as the launch's grid size (kept: launch dimensions), and
        it takes its own symbol with `func.constant` (so it cannot take
        arguments and passes the kernel's hoisted values on as constants,
        which its record lists as kept)."""
        body = "\n".join("  " + l for l in self.lines)
        for param in self.params:
            body = body.replace("@VALUE_%s@" % param.name, str(values[param.name]))
        args = ["%in", "%out"]
        types = ["memref<?xi64>", "memref<?xi64>"]
        if any(p.equals for p in self.params):
            args.append("%ld")
            types.append("index")
        decl = ", ".join("%s: %s" % a for a in zip(args, types))
        passed = ", ".join("%s : %s" % a for a in zip(args, types))
        own_param = self.rng.random() < 0.5
        takes_own_symbol = self.rng.random() < 0.5
        text = ["module attributes {gpu.container_module} {",
                "  gpu.module @kernels {"]
        if self.needs_callee:
            text += ["    func.func @mix(%a: i64, %b: i64) -> i64 {",
                     "      %r = arith.addi %a, %b : i64",
                     "      return %r : i64",
                     "    }"]
        text += ["    gpu.func @kernel(%s) kernel {" % decl, body,
                 "      gpu.return", "    }", "  }",
                 "  func.func @host(%s)%s {"
                 % (decl, " attributes {spec.kernel}" if own_param else "")]
        if takes_own_symbol:
            text.append("    %%self = constant @host : (%s) -> ()" % ", ".join(types))
        text.append("    %c1 = arith.constant 1 : index")
        grid = "%c1"
        if own_param:
            grid = "%nb"
            # Named to sort before or after the kernel's p0, p1, ...: a
            # record lists kept names in order, the host's own and those it
            # passes on.
            text.append('    %%nb = spec.param "%s" = %d : index'
                        % (self.rng.choice(["blocks", "x_blocks"]),
                           self.rng.randrange(1, 5)))
        text += ["    gpu.launch_func @kernels::@kernel blocks in (%s, %%c1, %%c1)"
                 " threads in (%%c1, %%c1, %%c1) args(%s)" % (grid, passed),
                 "    return", "  }", "}"]
        return "\n".join(text) + "\n"

    def kernel_arg_types(self):
        """The types of @kernel's arguments (before hoisting)."""
        types = ["memref<?xi64>", "memref<?xi64>"]
        if any(p.equals for p in self.params):
            types.append("index")
        return types

    def main_lines(self, values, equals, main_extra, callee="kernel"):
        args = ["%in", "%out"]
        types = ["memref<?xi64>", "memref<?xi64>"]
        pre = []
        if equals:
            pre.append("    %%ld = arith.constant %d : index" % values[equals[0].name])
            args.append("%ld")
            types.append("index")
        for n, (type_, value) in enumerate(main_extra or []):
            pre.append("    %%x%d = arith.constant %d : %s" % (n, value, type_))
            args.append("%%x%d" % n)
            types.append(type_)
        return [
            "  func.func @main() {",
            "    %c0 = arith.constant 0 : index",
            "    %c1 = arith.constant 1 : index",
            "    %%nin = arith.constant %d : index" % self.in_size,
            "    %%nout = arith.constant %d : index" % self.out_size,
            "    %z = arith.constant 0 : i64",
            "    %seven = arith.constant 7 : i64",
            "    %three = arith.constant 3 : i64",
            "    %in = memref.alloc(%nin) : memref<?xi64>",
            "    %out = memref.alloc(%nout) : memref<?xi64>",
            "    scf.for %i = %c0 to %nin step %c1 {",
            "      %ii = arith.index_cast %i : index to i64",
            "      %m = arith.muli %ii, %seven : i64",
            "      %v = arith.addi %m, %three : i64",
            "      memref.store %v, %in[%i] : memref<?xi64>",
            "    }",
            "    scf.for %i = %c0 to %nout step %c1 {",
            "      memref.store %z, %out[%i] : memref<?xi64>",
            "    }",
        ] + pre + [
            "    call @%s(%s) : (%s) -> ()" % (callee, ", ".join(args),
                                           ", ".join(types)),
            "    %u = memref.cast %out : memref<?xi64> to memref<*xi64>",
            "    call @printMemrefI64(%u) : (memref<*xi64>) -> ()",
            "    memref.dealloc %in : memref<?xi64>",
            "    memref.dealloc %out : memref<?xi64>",
            "    return",
            "  }",
        ]


def generate(rng):
    """Builds one random kernel."""
    k = Kernel(rng)
    nparams = rng.randrange(1, 4)
    equals_used = False
    for n in range(nparams):
        type_ = rng.choice(TYPES)
        equals = type_ == "index" and not equals_used and rng.random() < 0.25
        equals_used |= equals
        k.params.append(Param("p%d" % n, type_, equals))
    ind = 2
    for p in k.params:
        p.ssa = "%%%s" % p.name
        eq = " equals %ld" if p.equals else ""
        k.emit(ind, '%s = spec.param "%s" = @VALUE_%s@%s : %s' % (p.ssa, p.name, p.name, eq, p.type))
    c0, c1 = k.const(ind, 0), k.const(ind, 1)
    ni, nj = rng.randrange(1, 6), rng.randrange(1, 6)
    ci, cj = k.const(ind, ni), k.const(ind, nj)
    blocked = {p.name for p in k.params if rng.random() < 0.3}
    in_limit, out_limit = MAX_BUFFER, 4096
    k.emit(ind, "scf.for %%i = %s to %s step %s {" % (c0, ci, c1))
    k.emit(ind + 1, "scf.for %%j = %s to %s step %s {" % (c0, cj, c1))
    ind += 2
    env = [Expr("%i", 0, ni - 1), Expr("%j", 0, nj - 1)]
    acc = k.fresh("d")
    k.emit(ind, "%s = arith.constant 1 : i64" % acc)
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.3 and k.params:
            # A pointer advanced by a stride each iteration (iter_args).
            base = k.address(ind, env, in_limit // 8)
            stride = k.param_as_index(ind, rng.choice(k.params))
            trips = rng.randrange(1, 5)
            ct = k.const(ind, trips)
            r, q = k.fresh(), k.fresh("q")
            k.emit(ind, "%s:2 = scf.for %s = %s to %s step %s iter_args(%%ptr%d = %s, %%sum%d = %s) -> (index, i64) {"
                   % (r, q, c0, ct, c1, k.counter, base.name, k.counter, acc))
            ptr, total = "%%ptr%d" % k.counter, "%%sum%d" % k.counter
            v, s, n = k.fresh(), k.fresh(), k.fresh()
            k.emit(ind + 1, "%s = memref.load %%in[%s] : memref<?xi64>" % (v, ptr))
            k.emit(ind + 1, "%s = arith.addi %s, %s : i64" % (s, total, v))
            k.emit(ind + 1, "%s = arith.addi %s, %s : index" % (n, ptr, stride))
            k.emit(ind + 1, "scf.yield %s, %s : index, i64" % (n, s))
            k.emit(ind, "}")
            k.in_size = max(k.in_size, base.hi + PMAX * trips + 1)
            acc = "%s#1" % r
            continue
        a = k.address(ind, env, in_limit)
        k.in_size = max(k.in_size, a.hi + 1)
        v, m = k.fresh(), k.fresh()
        k.emit(ind, "%s = memref.load %%in[%s] : memref<?xi64>" % (v, a.name))
        op = rng.choice(["addi", "muli", "xori"])
        k.emit(ind, "%s = arith.%s %s, %s : i64" % (m, op, acc, v))
        acc = m
    for p in k.params:
        if p.name in blocked:
            acc = k.blocking_use(ind, p, acc, env)
    o = k.address(ind, env, out_limit)
    k.out_size = max(k.out_size, o.hi + 1)
    k.emit(ind, "memref.store %s, %%out[%s] : memref<?xi64>" % (acc, o.name))
    k.emit(ind - 1, "}")
    k.emit(ind - 2, "}")
    k.blocked = blocked
    return k


def random_values(rng, kernel):
    return {p.name: rng.randrange(1, PMAX + 1) for p in kernel.params}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--out", help="directory for corpus files")
    parser.add_argument("--gpu", action="store_true",
                        help="emit gpu.module kernels launched by gpu.launch_func")
    parser.add_argument("--mixed", action="store_true",
                        help="emit either form at random")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for n in range(args.count):
        kernel = generate(rng)
        values = random_values(rng, kernel)
        if args.gpu or (args.mixed and rng.random() < 0.5):
            text = kernel.gpu_module_text(values)
        else:
            text = kernel.module_text(values)
        if args.out:
            with open(os.path.join(args.out, "gen-%d-%d.mlir" % (args.seed, n)), "w") as f:
                f.write(text)
        else:
            print(text)


if __name__ == "__main__":
    main()

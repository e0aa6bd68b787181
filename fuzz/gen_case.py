"""gen_classes.py's building blocks: a generated case and the module, parameter
and host text every class generator assembles."""


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


def view_type(form):
    return {"view": "memref<?xi64>", "subview": "memref<?xi64, strided<[1], offset: ?>>",
            "subview_stride": "memref<?xi64, strided<[?], offset: ?>>"}[form]

"""encoding_exhaustive.py's driver: the host code that runs every kernel for
every value and compares hoisted with specialized."""

from enc_values import PART_LINES, PRINT_LIMIT, SENTINEL, TABLE, WORDS  # noqa: F401


def driver(batch, spec_rows, spec_text):
    """A module running one batch: the specialized programs of its types,
    its distinct hoisted programs, and a main comparing them.

    batch: [(group id, (kind, ty, text, preconditions), [row, ...])]."""
    types = sorted({(key[0], key[1]) for _, key, _ in batch})
    rows = [r for kt in types for r in spec_rows[kt]]
    slot_of = {row: i for i, (row, _) in enumerate(rows)}
    out = ["module {"]
    for row, _ in rows:
        out += [spec_text["ks%d" % row], spec_text["hs%d" % row]]
    for gid, key, _ in batch:
        out.append(key[2].replace("@kG", "@kg%d" % gid)
                   .replace("@hG", "@hg%d" % gid))
    out.append('  memref.global "private" constant @values : memref<%dxi64> = '
               "dense<[%s]>" % (len(rows), ", ".join(str(v) for _, v in rows)))
    for gid, _, admitted in batch:
        out.append('  memref.global "private" constant @admitted%d : '
                   "memref<%dxi64> = dense<[%s]>" % (
                       gid, len(admitted),
                       ", ".join(str(slot_of[r]) for r in admitted)))
    out.append(RUNTIME.replace("SENTINEL", str(SENTINEL)).replace("WORDS", str(WORDS))
               .replace("PRINT_LIMIT", str(PRINT_LIMIT)))
    value_count = len(rows)
    # The calls go into functions of at most PART_LINES lines each, that main
    # calls in turn: LLVM's optimizer takes much longer on one huge function.
    parts = [[]]
    counter = [0]

    def emit(lines):
        if len(parts[-1]) >= PART_LINES:
            parts.append([])
        parts[-1].extend(lines)

    def fresh():
        counter[0] += 1
        return "%%x%d" % counter[0]

    def constant(ty, value):
        name = fresh()
        return name, "    %s = arith.constant %d : %s" % (name, value, ty)

    def call(kind, ty, fn, value, extra=""):
        """Clears out, then calls host `fn` with e = value (and value again
        for a hoisted host)."""
        args = "%%%s, %%%s, %s%s" % (
            "tabp" if kind == "llvm" else "tab", "outp" if kind == "llvm" else "out",
            value, extra)
        types_ = ("!llvm.ptr, !llvm.ptr" if kind == "llvm"
                  else "memref<?xi64>, memref<?xi64>") + ", " + ty + (
                      ", " + ty if extra else "")
        op = "llvm.call" if kind == "llvm" else "func.call"
        return ["    func.call @clear(%out) : (memref<?xi64>) -> ()",
                "    %s @%s(%s) : (%s) -> ()" % (op, fn, args, types_)]

    # Expected outputs: each specialized program on its value.
    type_of = {row: kt for kt in types for row, _ in spec_rows[kt]}
    value_of = dict(rows)
    for i, (row, value) in enumerate(rows):
        kind, ty = type_of[row]
        v, define_v = constant(ty, value)
        slot, define_slot = constant("index", i)
        emit([define_v, define_slot] + call(kind, ty, "hs%d" % row, v) + [
            "    func.call @save(%%out, %%expected, %s) : "
            "(memref<?xi64>, memref<?xi64>, index) -> ()" % slot])
    # Each hoisted program on each admitted value, from memory in a loop and
    # as a constant.
    check = ("func.call @check(%%out, %%expected, %s, %s, %%counts) : "
             "(memref<?xi64>, memref<?xi64>, index, i64, memref<2xi64>) -> ()")
    for gid, (kind, ty, _, _), admitted in batch:
        g, define_g = constant("i64", gid)
        n, define_n = constant("index", len(admitted))
        p = fresh()
        if ty == "index":
            convert = "      %v = arith.index_cast %v64 : i64 to index"
        elif ty == "i64":
            convert = "      %v = arith.addi %v64, %z64 : i64"
        else:
            convert = "      %%v = arith.trunci %%v64 : i64 to %s" % ty
        adm = fresh()
        emit([define_g, define_n,
              "    %s = memref.get_global @admitted%d : memref<%dxi64>"
              % (adm, gid, len(admitted)),
              "    scf.for %s = %%c0 to %s step %%c1 {" % (p, n),
              "      %%sl = memref.load %s[%s] : memref<%dxi64>"
              % (adm, p, len(admitted)),
              "      %sli = arith.index_cast %sl : i64 to index",
              "      %%v64 = memref.load %%values[%%sli] : memref<%dxi64>"
              % value_count,
              convert]
             + ["  " + line for line in call(kind, ty, "hg%d" % gid, "%v", ", %v")]
             + ["      " + check % ("%sli", g), "    }"])
        for row in admitted:
            g, define_g = constant("i64", gid)
            v, define_v = constant(ty, value_of[row])
            slot, define_slot = constant("index", slot_of[row])
            emit([define_g, define_v, define_slot]
                 + call(kind, ty, "hg%d" % gid, v, ", " + v)
                 + ["    " + check % (slot, g)])
    signature = ("%%tab: memref<?xi64>, %%out: memref<?xi64>, "
                 "%%expected: memref<?xi64>, %%counts: memref<2xi64>, "
                 "%%values: memref<%dxi64>, %%tabp: !llvm.ptr, %%outp: !llvm.ptr"
                 % value_count)
    arguments = "%tab, %out, %expected, %counts, %values, %tabp, %outp"
    types_ = ("memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<2xi64>, "
              "memref<%dxi64>, !llvm.ptr, !llvm.ptr" % value_count)
    for i, lines in enumerate(parts):
        out += ["  func.func private @part%d(%s) attributes "
                '{passthrough = ["noinline"]} {' % (i, signature),
                "    %c0 = arith.constant 0 : index",
                "    %c1 = arith.constant 1 : index",
                "    %z64 = arith.constant 0 : i64"] + lines + ["    return", "  }"]
    out.append(MAIN_PROLOGUE % {"table": TABLE, "expected": value_count * WORDS,
                                "values": value_count, "words": WORDS})
    out += ["    func.call @part%d(%s) : (%s) -> ()" % (i, arguments, types_)
            for i in range(len(parts))]
    out.append(MAIN_EPILOGUE)
    out.append("}")
    return "\n".join(out) + "\n"


RUNTIME = """\
  func.func @clear(%out: memref<?xi64>) attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %s = arith.constant SENTINEL : i64
    scf.for %k = %c0 to %words step %c1 {
      memref.store %s, %out[%k] : memref<?xi64>
    }
    return
  }
  func.func @save(%out: memref<?xi64>, %expected: memref<?xi64>, %slot: index)
      attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %at = arith.muli %slot, %words : index
    scf.for %k = %c0 to %words step %c1 {
      %v = memref.load %out[%k] : memref<?xi64>
      %i = arith.addi %at, %k : index
      memref.store %v, %expected[%i] : memref<?xi64>
    }
    return
  }
  // Compares out with the expected row `slot`; counts the run and any
  // mismatch, printing FAIL <group> <slot> <word> <got> <want>.
  func.func @check(%out: memref<?xi64>, %expected: memref<?xi64>, %slot: index,
                   %group: i64, %counts: memref<2xi64>)
      attributes {passthrough = ["noinline"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %words = arith.constant WORDS : index
    %one = arith.constant 1 : i64
    %at = arith.muli %slot, %words : index
    %runs = memref.load %counts[%c0] : memref<2xi64>
    %runs1 = arith.addi %runs, %one : i64
    memref.store %runs1, %counts[%c0] : memref<2xi64>
    scf.for %k = %c0 to %words step %c1 {
      %got = memref.load %out[%k] : memref<?xi64>
      %i = arith.addi %at, %k : index
      %want = memref.load %expected[%i] : memref<?xi64>
      %bad = arith.cmpi ne, %got, %want : i64
      scf.if %bad {
        %f = memref.load %counts[%c1] : memref<2xi64>
        %f1 = arith.addi %f, %one : i64
        memref.store %f1, %counts[%c1] : memref<2xi64>
        %limit = arith.constant PRINT_LIMIT : i64
        %print = arith.cmpi slt, %f, %limit : i64
        scf.if %print {
        %s64 = arith.index_cast %slot : index to i64
        %k64 = arith.index_cast %k : index to i64
        vector.print str "FAIL "
        vector.print %group : i64 punctuation <comma>
        vector.print %s64 : i64 punctuation <comma>
        vector.print %k64 : i64 punctuation <comma>
        vector.print %got : i64 punctuation <comma>
        vector.print %want : i64
        }
      }
    }
    return
  }"""


MAIN_PROLOGUE = """\
  func.func @main() {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%words = arith.constant %(words)d : index
    %%z64 = arith.constant 0 : i64
    %%n = arith.constant %(table)d : index
    %%tab = memref.alloc(%%n) : memref<?xi64>
    %%mul = arith.constant -7046029254386353131 : i64
    %%add = arith.constant 12345 : i64
    scf.for %%i = %%c0 to %%n step %%c1 {
      %%i64 = arith.index_cast %%i : index to i64
      %%m = arith.muli %%i64, %%mul : i64
      %%t = arith.addi %%m, %%add : i64
      memref.store %%t, %%tab[%%i] : memref<?xi64>
    }
    %%out = memref.alloc(%%words) : memref<?xi64>
    %%ne = arith.constant %(expected)d : index
    %%expected = memref.alloc(%%ne) : memref<?xi64>
    %%counts = memref.alloc() : memref<2xi64>
    memref.store %%z64, %%counts[%%c0] : memref<2xi64>
    memref.store %%z64, %%counts[%%c1] : memref<2xi64>
    %%values = memref.get_global @values : memref<%(values)sxi64>
    %%tabi = memref.extract_aligned_pointer_as_index %%tab : memref<?xi64> -> index
    %%tab64 = arith.index_cast %%tabi : index to i64
    %%tabp = llvm.inttoptr %%tab64 : i64 to !llvm.ptr
    %%outi = memref.extract_aligned_pointer_as_index %%out : memref<?xi64> -> index
    %%out64 = arith.index_cast %%outi : index to i64
    %%outp = llvm.inttoptr %%out64 : i64 to !llvm.ptr"""


MAIN_EPILOGUE = """\
    %runs = memref.load %counts[%c0] : memref<2xi64>
    %fails = memref.load %counts[%c1] : memref<2xi64>
    vector.print str "RUNS "
    vector.print %runs : i64
    vector.print str "FAILS "
    vector.print %fails : i64
    return
  }"""

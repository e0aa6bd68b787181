"""One-mutation variants of a trace, at every level the compile reads.

Works on the generic form (`--mlir-print-op-generic --mlir-print-local-scope`):
one op per line, or a header line ending in `({` and a closing line `})`
that holds the attribute dictionary and the type. `mutants(text)` yields
(level, description, text) with exactly one change each; many do not verify
and are discarded by the caller. The levels:

  attribute   a discardable attribute added or removed; an inherent one
              changed, removed or added (not the value of a constant)
  property    overflow flags (arith and LLVM), GEP no-wrap flags, fastmath
  root        attributes of the root module (a DLTI index width, a data
              layout, a target triple, a discardable one)
  type        an integer result retyped, with its uses
  region      an op duplicated, an op removed, an extra block in a function
  constant    one use of an integer constant given another value (per use),
              or the constant itself changed (every use)
  equals      the value of a `spec.param ... equals %x`
"""

import re

LEVELS = ["attribute", "property", "root", "type", "region", "constant",
          "equals"]
OP_RE = re.compile(r'^(\s*)(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\(([^)]*)\)')
LEAVES = {"arith.constant", "llvm.mlir.constant"}
FLAG_KEYS = {"overflowFlags", "noWrapFlags", "fastmathFlags", "fastmath"}
TERMINATORS = ("return", "yield", "br", "cond_br", "unreachable")
INT_VALUE_RE = re.compile(r"^(-?\d+) : (i\d+|index)$")
OVERFLOW = ["none", "nsw", "nuw", "nsw, nuw"]
ADD_PROPS = {
    "llvm.load": ["nontemporal", "volatile_", "invariant", "alignment = 4 : i64"],
    "llvm.store": ["nontemporal", "volatile_", "alignment = 4 : i64"],
    "memref.load": ["nontemporal = true"],
    "memref.store": ["nontemporal = true"],
    "llvm.func": ["no_inline", "no_unwind", "will_return"],
    "func.func": ['sym_visibility = "private"'],
}
ROOT_ATTRS = ["dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>",
              "dlti.dl_spec = #dlti.dl_spec<index = 64 : i64>",
              'llvm.data_layout = "e-m:e-p:32:32-i64:64-n32:64-S128"',
              'llvm.target_triple = "x86_64-unknown-linux-gnu"',
              "jit.mutant = 1 : i64"]


def split_top(text):
    """`text` split at commas outside brackets, quotes and `->`."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == '"' and text[i - 1:i] != "\\":
            quoted = not quoted
        elif quoted:
            continue
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and text[i - 1:i] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


class Op:
    def __init__(self, line, match):
        self.line, self.tail = line, line
        self.indent, result, count, self.name, operands = match.groups()
        self.results = ([] if not result else [result] if not count else
                        ["%s#%d" % (result, n) for n in range(int(count))])
        self.operands = [o.strip() for o in operands.split(",") if o.strip()]
        self.parent = None


def parse(lines):
    """The ops of the generic form `lines`, with their closing lines."""
    ops, stack = [], []
    for i, line in enumerate(lines):
        match = OP_RE.match(line)
        if match:
            op = Op(i, match)
            op.parent = stack[-1] if stack else None
            ops.append(op)
            if line.rstrip().endswith("({"):
                stack.append(op)
        elif line.strip().startswith("})") and stack:
            stack.pop().tail = i
    return ops


def props_span(line):
    """(start, end) of the inside of the op's `<{...}>`, or None."""
    start = line.find("<{", OP_RE.match(line).end())
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(line)):
        if line.startswith("<{", i):
            depth += 1
        elif line.startswith("}>", i):
            depth -= 1
            if depth == 0:
                return start + 2, i
    return None


def type_pos(line):
    """Where the op's ` : (inputs) -> results` starts on its tail line."""
    return line.rfind(" : (")


def with_line(lines, i, text):
    out = list(lines)
    out[i] = text
    return out


def add_discardable(line, entry):
    pos = type_pos(line)
    before = line[:pos]
    if before.endswith("}") and not before.endswith(("})", "}>")):
        return before[:-1] + ", " + entry + "}" + line[pos:]
    return before + " {" + entry + "}" + line[pos:]


def flag_values(value):
    """Other values of a flags property."""
    m = re.match(r"#(arith|llvm)\.overflow<(.*)>$", value)
    if m:
        return ["#%s.overflow<%s>" % (m.group(1), o) for o in OVERFLOW
                if o != m.group(2)]
    m = re.match(r"#(arith|llvm)\.fastmath<(.*)>$", value)
    if m:
        return ["#%s.fastmath<%s>" % (m.group(1), f) for f in
                ("none", "fast", "nnan") if f != m.group(2)]
    m = INT_VALUE_RE.match(value)
    if m:
        n = int(m.group(1))
        return ["%d : %s" % (n ^ bit, m.group(2)) for bit in (1, 2, 4)]
    return []


def attribute_mutants(lines, op):
    """Discardable and inherent attributes and properties of `op`."""
    tail = lines[op.tail]
    yield "attribute", "add a discardable attribute", with_line(
        lines, op.tail, add_discardable(tail, "jit.mutant = 1 : i64"))
    pos = type_pos(tail)
    before = tail[:pos]
    if before.endswith("}") and not before.endswith(("})", "}>")):
        yield "attribute", "remove the discardable attributes", with_line(
            lines, op.tail, before[:before.rindex(" {")] + tail[pos:])
    header = lines[op.line]
    span = props_span(header)
    entries = split_top(header[span[0]:span[1]]) if span else []
    for n, entry in enumerate(entries):
        key, _, value = entry.partition(" = ")
        level = "property" if key in FLAG_KEYS else "attribute"

        def rebuilt(new_entries):
            return with_line(lines, op.line, header[:span[0]] +
                             ", ".join(new_entries) + header[span[1]:])
        yield level, "remove inherent %s" % key, rebuilt(
            entries[:n] + entries[n + 1:])
        if level == "property":
            changed = flag_values(value)
        elif op.name in LEAVES and key == "value":
            changed = []
        elif INT_VALUE_RE.match(value):
            m = INT_VALUE_RE.match(value)
            changed = ["%d : %s" % (int(m.group(1)) + 1, m.group(2))]
        elif value.startswith('"'):
            changed = [value[:-1] + '_jit"']
        else:
            changed = []
        for new in changed:
            yield level, "change %s to %s" % (key, new), rebuilt(
                entries[:n] + ["%s = %s" % (key, new)] + entries[n + 1:])
    for extra in ADD_PROPS.get(op.name, []):
        if any(e.split(" = ")[0] == extra.split(" = ")[0] for e in entries):
            continue
        if span:
            new = header[:span[1]] + ", " + extra + header[span[1]:]
        else:
            end = OP_RE.match(header).end()
            new = header[:end] + " <{" + extra + "}>" + header[end:]
        yield "attribute", "add inherent %s" % extra, with_line(
            lines, op.line, new)


def root_mutants(lines):
    last = len(lines) - 1
    while not lines[last].startswith("})"):
        last -= 1
    for entry in ROOT_ATTRS:
        yield "root", "root module gets %s" % entry, with_line(
            lines, last, add_discardable(lines[last], entry))


def signature(line):
    """(inputs, results) of the functional type on a tail line."""
    text = line[type_pos(line) + 3:]
    ins, _, outs = text.partition(" -> ")
    outs = outs.strip()
    if outs.startswith("("):
        outs = outs[1:-1]
    return split_top(ins.strip()[1:-1]), split_top(outs)


def set_signature(line, ins, outs):
    out = outs[0] if len(outs) == 1 else "(%s)" % ", ".join(outs)
    return line[:type_pos(line)] + " : (%s) -> %s" % (", ".join(ins), out)


def type_mutants(lines, ops, op):
    """Each integer result of `op` retyped, with every use (single-result,
    single-line definitions)."""
    if len(op.results) != 1 or op.line != op.tail:
        return
    ins, outs = signature(lines[op.line])
    old = outs[0] if outs else None
    for new in ("i32", "i64", "index"):
        if old not in ("i32", "i64", "index") or new == old:
            continue
        out = list(lines)
        header = set_signature(out[op.line], ins, [new])
        header = re.sub(r"(value = -?\d+ : )%s\b" % old, r"\g<1>" + new, header)
        out[op.line] = header
        for user in ops:
            positions = [n for n, o in enumerate(user.operands)
                         if o == op.results[0]]
            if not positions:
                continue
            uins, uouts = signature(out[user.tail])
            for n in positions:
                if n < len(uins):
                    uins[n] = new
            out[user.tail] = set_signature(out[user.tail], uins, uouts)
        yield "type", "result of %s %s -> %s" % (op.name, old, new), out


def region_mutants(lines, op, function):
    if op.line == op.tail and not op.name.endswith(TERMINATORS):
        line = lines[op.line]
        dup = line
        if op.results:
            dup = re.sub(r"^(\s*)%[\w]+", r"\1%jitdup", line, count=1)
        yield "region", "duplicate %s" % op.name, (
            lines[:op.line + 1] + [dup] + lines[op.line + 1:])
        yield "region", "remove %s" % op.name, (
            lines[:op.line] + lines[op.line + 1:])
    if op is function:
        term = ('"llvm.unreachable"() : () -> ()' if op.name == "llvm.func"
                else '"func.return"() : () -> ()')
        indent = op.indent + "  "
        yield "region", "extra block in %s" % op.name, (
            lines[:op.tail] + [indent + "^jit0:", indent + "  " + term] +
            lines[op.tail:])


def constant_mutants(lines, ops, op):
    """Each use of the constant `op` given another value, one at a time,
    and the constant itself changed."""
    header = lines[op.line]
    value = re.search(r"value = (-?\d+) : (i\d+|index)", header)
    if not value or len(op.results) != 1 or value.group(2) == "i1":
        return
    new_value = "value = %d : %s" % (int(value.group(1)) + 1, value.group(2))
    yield "constant", "constant changed (every use)", with_line(
        lines, op.line, header.replace(value.group(0), new_value, 1))
    for user in ops:
        for n, operand in enumerate(user.operands):
            if operand != op.results[0]:
                continue
            copy = header.replace(value.group(0), new_value, 1)
            copy = re.sub(r"^\s*%[\w]+", user.indent + "%jituse", copy, count=1)
            operands = list(user.operands)
            operands[n] = "%jituse"
            line = lines[user.line]
            start = line.index('"%s"(' % user.name) + len(user.name) + 3
            line = line[:start] + ", ".join(operands) + line[line.index(")", start):]
            out = with_line(lines, user.line, line)
            yield "constant", "use %d of a constant by %s" % (n, user.name), (
                out[:user.line] + [copy] + out[user.line:])


def equals_mutants(lines, op):
    header = lines[op.line]
    value = re.search(r"value = (-?\d+) : (i\d+)", header)
    if op.name != "spec.param" or not op.operands or not value:
        return
    for new in (int(value.group(1)) + 1, int(value.group(1)) * 2):
        yield "equals", "equals value %s -> %d" % (value.group(1), new), \
            with_line(lines, op.line, header.replace(
                value.group(0), "value = %d : %s" % (new, value.group(2)), 1))


def mutants(generic):
    """(level, description, text) for every one-mutation variant."""
    lines = generic.rstrip("\n").splitlines()
    ops = parse(lines)
    for level, what, out in root_mutants(lines):
        yield level, what, "\n".join(out) + "\n"
    for op in ops:
        if op.name == "builtin.module":
            continue
        function = op
        while function.parent and function.parent.name != "builtin.module":
            function = function.parent
        producers = [
            attribute_mutants(lines, op), type_mutants(lines, ops, op),
            region_mutants(lines, op, function if op is function else None)]
        if op.name in LEAVES:
            producers.append(constant_mutants(lines, ops, op))
        producers.append(equals_mutants(lines, op))
        for producer in producers:
            for level, what, out in producer:
                yield level, "%s (line %d): %s" % (op.name, op.line + 1, what), \
                    "\n".join(out) + "\n"

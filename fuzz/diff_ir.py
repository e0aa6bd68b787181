"""differential.py's readers of the IR it generates and hoists: functions,
signatures, the address-only check, and its self test."""

import re


def _functions(manifest):
    return manifest.get("kernels", []) + manifest.get("device_functions", [])


def hoisted_entries(manifest, symbol="@kernel"):
    """(name, argument index or None, type, divisor, narrow) for each hoisted
    entry of `symbol` in the manifest: the argument's type, the divisor of
    its `divisible-by` precondition (1 if none) and whether the narrow range
    [0, 2^31) is among its preconditions; None when the manifest has no
    entry for `symbol`."""
    function = next((f for f in _functions(manifest)
                     if f["symbol"].split("::")[-1] == symbol), None)
    if function is None:
        return None
    entries = []
    for entry in function["hoisted"]:
        pre = entry["preconditions"]
        divisor = next((p["divisor"] for p in pre
                        if p["kind"] == "divisible-by"), 1)
        narrow = any(p["kind"] == "range" and p["min"] == 0
                     and p["max"] == 2147483647 for p in pre)
        entries.append((entry["name"], entry["argument"], entry["type"],
                        divisor, narrow))
    return entries


def kept_values(manifest):
    """{(name, value)} of every kept parameter the manifest names."""
    return {(entry["name"], entry["value"])
            for function in _functions(manifest)
            for entry in function["kept"]}


def function_text(text, name):
    """The printed lines of func.func @name (custom form)."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("  func.func @%s(" % name))
    end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
    return lines, start, end


def signature_types(text, name):
    """The argument types of func.func @name as printed (custom form)."""
    line = next(l for l in text.splitlines()
                if re.match(r"\s*func\.func (?:private )?@%s\(" % name, l))
    inner = line[line.index("(") + 1:line.index(")")]
    return [a.split(": ", 1)[1] for a in inner.split(", ") if a]


def replace_main(text, new_main):
    lines, start, end = function_text(text, "main")
    return "\n".join(lines[:start] + new_main + lines[end + 1:]) + "\n"


OP_RE = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)')


BLOCK_RE = re.compile(r"^\s*\^bb\d+\((.*)\):")


PASS_THROUGH = {"arith.addi", "arith.subi", "arith.muli", "arith.index_cast",
                "arith.index_castui", "arith.extsi", "arith.extui",
                "arith.trunci", "affine.apply"}


def check_address_only(generic, arg_index):
    """Returns a list of violations: uses of @kernel's argument `arg_index`
    (followed forward) that are not load/store indices."""
    lines = generic.splitlines()
    # Locate @kernel's body: from its opening line to the matching "})".
    start = next(i for i, l in enumerate(lines)
                 if '"func.func"()' in l and 'sym_name = "kernel"' in l)
    depth, end = 0, start
    for i in range(start, len(lines)):
        depth += lines[i].count("({") - lines[i].count("})")
        if depth == 0:
            end = i
            break
    ops, stack = [], []
    entry_args = None
    for line in lines[start + 1:end + 1]:
        block = BLOCK_RE.match(line)
        if block:
            names = [a.split(":")[0].strip() for a in block.group(1).split(", ")]
            if entry_args is None:
                entry_args = names
            elif stack:
                stack[-1]["blocks"].append(names)
            continue
        m = OP_RE.match(line)
        if m:
            result, count, name, operands = m.groups()
            results = ([result] if result and not count else
                       ["%s#%d" % (result, n) for n in range(int(count))] if result else [])
            op = {"name": name, "operands": [o.strip() for o in operands.split(",") if o.strip()],
                  "results": results, "blocks": [], "parent": stack[-1] if stack else None}
            ops.append(op)
            if line.rstrip().endswith("({"):
                stack.append(op)
        if line.strip().startswith("})") and stack:
            stack.pop()
    tainted = {entry_args[arg_index]}
    # The divisibility fact the pass may add (andi with d - 1, cmpi eq 0,
    # llvm.intr.assume) reads the argument but computes nothing the kernel
    # uses: values on that chain may reach only the chain.
    facts = set()
    violations = []
    changed = True
    while changed:
        changed = False

        def taint(value):
            nonlocal changed
            if value not in tainted:
                tainted.add(value)
                changed = True

        for op in ops:
            for pos, operand in enumerate(op["operands"]):
                name = op["name"]
                if operand in facts:
                    if name == "arith.cmpi":
                        for r in op["results"]:
                            if r not in facts:
                                facts.add(r)
                                changed = True
                    elif name != "llvm.intr.assume":
                        violation = "fact reaches %s operand %d" % (name, pos)
                        if violation not in violations:
                            violations.append(violation)
                    continue
                if operand not in tainted:
                    continue
                if name == "arith.andi":
                    for r in op["results"]:
                        if r not in facts:
                            facts.add(r)
                            changed = True
                elif name in PASS_THROUGH or (name == "arith.shli" and pos == 0):
                    for r in op["results"]:
                        taint(r)
                elif name == "memref.load" and pos >= 1:
                    pass
                elif name == "memref.store" and pos >= 2:
                    pass
                elif name == "scf.for" and pos >= 3:
                    taint(op["blocks"][0][pos - 2])
                    taint(op["results"][pos - 3])
                elif name == "scf.yield" and op["parent"] and op["parent"]["name"] == "scf.for":
                    parent = op["parent"]
                    taint(parent["blocks"][0][pos + 1])
                    taint(parent["results"][pos])
                else:
                    violation = "%s operand %d" % (name, pos)
                    if violation not in violations:
                        violations.append(violation)
    return violations


SELF_TEST_IR = """\
"builtin.module"() ({
  "func.func"() <{function_type = (memref<?xi64>, index, index) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<?xi64>, %arg1: index, %arg2: index):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.muli"(%arg1, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %2:2 = "scf.for"(%0, %0, %0, %1, %0) ({
    ^bb0(%arg3: index, %arg4: index, %arg5: index):
      %3 = "memref.load"(%arg0, %arg4) : (memref<?xi64>, index) -> i64
      %4 = "arith.addi"(%arg4, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %5 = "arith.cmpi"(%arg5, %arg2) <{predicate = 2 : i64}> : (index, index) -> i1
      "scf.yield"(%4, %0) : (index, index) -> ()
    }) : (index, index, index, index, index) -> (index, index)
    "memref.store"(%3, %arg0, %2#0) : (i64, memref<?xi64>, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""


def self_test():
    """The checker must accept argument 1 (products, iter_args, indices) and
    reject argument 2 (a comparison)."""
    ok = check_address_only(SELF_TEST_IR, 1)
    bad = check_address_only(SELF_TEST_IR, 2)
    if ok or bad != ["arith.cmpi operand 1"]:
        print("checker self-test FAILED: %s / %s" % (ok, bad))
        return False
    return True

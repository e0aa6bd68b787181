"""The version wall between FlyDSL's MLIR and MLIR 22, measured on real dumps.

Run under the FlyDSL venv (its MLIR bindings read FlyDSL's IR):

  version_wall.py --mlir-opt /usr/lib/llvm-22/bin/mlir-opt \
      --mlir-opt build/bin/fly-opt \
      --tblgen /usr/lib/llvm-22/bin/mlir-tblgen \
      --include /usr/lib/llvm-22/include \
      DUMP.mlir [DUMP.mlir ...]

For each dump (FlyDSL's IR at one pipeline slot, e.g. FLYDSL_DUMP_IR's
10_canonicalize.mlir, the slot after convert-fly-to-rocdl and canonicalize):

1. every op kind without regions is cut out into a one-op function (its
   operands become arguments), printed by FlyDSL in its custom form and in the
   generic form, and parsed by each MLIR 22 tool: each failure is listed with
   the tool's first error;
2. the whole module, printed generic with the failing kinds renamed to
   unregistered ops, is parsed by each tool: what is left (region ops,
   terminators, types, attributes) parses or is listed;
3. the op definitions of both versions are compared for every op kind used:
   FlyDSL's own Python op classes (flydsl._mlir.dialects._*_ops_gen) against
   the ones mlir-tblgen of MLIR 22 generates from Debian's .td files. Names
   that are an operand in one and an attribute in the other are the
   immediates that moved.
"""

import argparse
import ast
import collections
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

# dialect -> (.td under the include dir, FlyDSL's generated module)
DIALECTS = {
    "rocdl": ("mlir/Dialect/LLVMIR/ROCDLOps.td", "_rocdl_ops_gen"),
    "llvm": ("mlir/Dialect/LLVMIR/LLVMOps.td", "_llvm_ops_gen"),
    "gpu": ("mlir/Dialect/GPU/IR/GPUOps.td", "_gpu_ops_gen"),
    "arith": ("mlir/Dialect/Arith/IR/ArithOps.td", "_arith_ops_gen"),
    "vector": ("mlir/Dialect/Vector/IR/VectorOps.td", "_vector_ops_gen"),
    "scf": ("mlir/Dialect/SCF/IR/SCFOps.td", "_scf_ops_gen"),
    "func": ("mlir/Dialect/Func/IR/FuncOps.td", "_func_ops_gen"),
    "math": ("mlir/Dialect/Math/IR/MathOps.td", "_math_ops_gen"),
}
TERMINATORS = {"gpu.return", "scf.yield", "func.return"}
# Checked in the whole module only: they need their module around them.
WHOLE_ONLY = {"gpu.launch_func"}


def ods_signatures(source):
    """{op name: (operands, attributes, params)} from generated Python op
    classes; params: __init__'s parameters in order (the op's own order),
    a variadic operand group marked with a leading '*'."""
    result = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        name, operands, attributes = None, [], []
        for stmt in node.body:
            if (
                isinstance(stmt, ast.Assign)
                and getattr(stmt.targets[0], "id", "") == "OPERATION_NAME"
            ):
                name = stmt.value.value
        init = next(
            (
                s
                for s in node.body
                if isinstance(s, ast.FunctionDef) and s.name == "__init__"
            ),
            None,
        )
        if name is None or init is None:
            continue
        for sub in ast.walk(init):
            if isinstance(sub, ast.Call) and getattr(sub.func, "attr", "") in (
                "append",
                "extend",
            ):
                if getattr(sub.func.value, "id", "") == "operands" and sub.args:
                    arg = sub.args[0]
                    while isinstance(arg, ast.Call) and arg.args:
                        arg = arg.args[0]
                    if isinstance(arg, ast.Name):
                        star = "*" if sub.func.attr == "extend" else ""
                        operands.append(star + arg.id)
            if (
                isinstance(sub, ast.Subscript)
                and getattr(sub.value, "id", "") == "attributes"
            ):
                key = sub.slice
                if (
                    isinstance(key, ast.Constant)
                    and key.value not in attributes
                ):
                    attributes.append(key.value)
        params = [
            a.arg
            for a in init.args.args + init.args.kwonlyargs
            if a.arg not in ("self", "loc", "ip")
        ]
        result[name] = (operands, attributes, params)
    return result


def mlir22_signatures(tblgen, include, dialect, workdir):
    td, _ = DIALECTS[dialect]
    out = os.path.join(workdir, f"{dialect}22.py")
    subprocess.run(
        [
            tblgen,
            "-gen-python-op-bindings",
            f"-bind-dialect={dialect}",
            "-I",
            include,
            os.path.join(include, td),
            "-o",
            out,
        ],
        check=True,
        capture_output=True,
    )
    with open(out) as f:
        return ods_signatures(f.read())


def flydsl_signatures(dialect):
    spec = importlib.util.find_spec(
        f"flydsl._mlir.dialects.{DIALECTS[dialect][1]}"
    )
    with open(spec.origin) as f:
        return ods_signatures(f.read())


def _rename(text, names):
    """Replaces whole SSA names (%x) in `text` by their new names."""
    for old, new in names.items():
        text = re.sub(re.escape(old) + r"(?![\w.$-])", new, text)
    return text


def _generic_names(text, count):
    """Operand and result names of a generic-form op, to probe names."""
    head, _, rest = (
        text.partition(" = ") if text.startswith("%") else ("", "", text)
    )
    results = head.split(", ") if head else []
    match = re.search(r"\"\(([^)]*)\)", rest or text)
    operand_list = match.group(1) if match else ""
    names = {}
    for index, name in enumerate(
        n.strip() for n in operand_list.split(",") if n.strip()
    ):
        names.setdefault(name, f"%a{index}")
    for index, name in enumerate(results):
        names[name.split(":")[0]] = f"%r{index}"
    return names


def probes(module_text):
    """{op name: (custom-form function, generic-form function)}, one
    instance of each op kind, and the module's generic form."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _create_mlir_context

    found = {}
    with _create_mlir_context():
        module = ir.Module.parse(module_text)

        def visit(op):
            name = op.name
            if (
                name in found
                or name in TERMINATORS
                or name in WHOLE_ONLY
                or len(op.regions)
                or name == "builtin.module"
            ):
                return ir.WalkResult.ADVANCE
            names, args = {}, []
            for index, value in enumerate(op.operands):
                names.setdefault(
                    value.get_name(use_local_scope=True), f"%a{index}"
                )
                args.append(f"%a{index}: {value.type}")
            for index, value in enumerate(op.results):
                names[value.get_name(use_local_scope=True)] = f"%r{index}"
            forms = []
            for generic in (False, True):
                text = op.get_asm(
                    print_generic_op_form=generic,
                    use_local_scope=True,
                    enable_debug_info=False,
                ).strip()
                body = _rename(
                    text,
                    _generic_names(text, len(op.operands))
                    if generic
                    else names,
                )
                forms.append(
                    f"func.func @probe({', '.join(args)}) {{\n"
                    f"  {body}\n  return\n}}\n"
                )
            found[name] = tuple(forms)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        generic = module.operation.get_asm(
            print_generic_op_form=True, enable_debug_info=False
        )
    return found, generic


def without(module_text, names):
    """The module in FlyDSL's custom form, each op named in `names` replaced
    by an unregistered `wall.<name>` op with the same operands and results."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _create_mlir_context

    with _create_mlir_context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(module_text)
        doomed = []

        def visit(op):
            if op.name in names:
                doomed.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        for op in doomed:
            with ir.InsertionPoint(op), op.location:
                stand_in = ir.Operation.create(
                    "wall." + op.name,
                    results=[r.type for r in op.results],
                    operands=list(op.operands),
                )
            for old, new in zip(op.results, stand_in.results):
                old.replace_all_uses_with(new)
            op.erase()
        return [
            module.operation.get_asm(
                print_generic_op_form=g, enable_debug_info=False
            )
            for g in (False, True)
        ]


def parse_error(tool, text, extra=()):
    run = subprocess.run(
        [tool, *extra, "-o", "/dev/null", "-"],
        input=text,
        capture_output=True,
        text=True,
    )
    if run.returncode == 0:
        return None
    for line in run.stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return (
        run.stderr.strip().splitlines()[-1]
        if run.stderr.strip()
        else f"exit {run.returncode}"
    )


def measure(dumps, tools):
    """{op: {tool: (custom error, generic error)}}, the op kinds, and the
    whole module's errors."""
    failures = collections.defaultdict(dict)
    kinds = set()
    whole = {}
    for path in dumps:
        with open(path) as f:
            text = f.read()
        found, generic = probes(text)
        kinds.update(found)
        kinds.update(re.findall(r'"([a-z_]+\.[\w.]+)"\(', generic))
        for name, (custom, generic_form) in sorted(found.items()):
            for tool in tools:
                errors = (
                    parse_error(tool, custom),
                    parse_error(tool, generic_form),
                )
                if any(errors):
                    failures[name][tool] = errors
        custom, generic_rest = without(text, set(failures))
        for tool in tools:
            errors = [
                parse_error(tool, t, ["--allow-unregistered-dialect"])
                for t in (custom, generic_rest)
            ]
            whole[(os.path.basename(os.path.dirname(path)) or path, tool)] = (
                errors
            )
    return failures, kinds, whole


def bridge_rule(flydsl_sig, mlir22_sig):
    """How MLIR 22's operands come from FlyDSL's op, derived from both
    definitions: None when nothing moved, else (22's operands, each a FlyDSL
    operand, `name=attr` for an immediate that FlyDSL keeps as an attribute
    and 22 takes as an i32 operand, or a variadic group filled with FlyDSL's
    parameters in their order), FlyDSL names 22 does not know."""
    f_ops, f_attrs, f_params = flydsl_sig
    m_ops, m_attrs, _ = mlir22_sig
    if [o.lstrip("*") for o in f_ops] == [
        o.lstrip("*") for o in m_ops
    ] and not set(f_attrs) - set(m_attrs):
        return None
    plain = [o.lstrip("*") for o in f_ops]
    rule, used = [], set()
    for operand in m_ops:
        name = operand.lstrip("*")
        if operand.startswith("*") and name not in plain:
            group = [
                p
                for p in f_params
                if (p in plain or p in f_attrs)
                and p not in used
                and p not in m_ops
            ]
            group = [p for p in group if p not in m_attrs]
            used.update(group)
            rule.append(
                name
                + "=["
                + ", ".join(
                    p + ("=attr" if p in f_attrs else "") for p in group
                )
                + "]"
            )
        elif name in plain:
            rule.append(name)
            used.add(name)
        elif name in f_attrs:
            rule.append(name + "=attr")
            used.add(name)
        else:
            rule.append(name + "=?")
    unknown = [n for n in plain + f_attrs if n not in used and n not in m_attrs]
    return rule, unknown


def print_parses(failures, kinds, whole):
    print(f"op kinds in the dumps: {len(kinds)}")
    print("\n## Ops whose text MLIR 22 does not parse (one-op probes)\n")
    print("| op | tool | custom form | generic form |")
    print("| --- | --- | --- | --- |")
    for name in sorted(failures):
        for tool, (custom, generic) in failures[name].items():
            print(
                f"| `{name}` | {os.path.basename(tool)} | "
                f"{custom or 'parses'} | {generic or 'parses'} |"
            )
    print("\n## The whole module, those ops replaced by unregistered ones\n")
    for (dump, tool), (custom, generic) in sorted(whole.items()):
        print(
            f"- {dump}, {os.path.basename(tool)}: "
            f"custom form {custom or 'parses'}; "
            f"generic form {generic or 'parses'}"
        )


def print_definitions(kinds, tblgen, include):
    print(
        "\n## Op definitions: FlyDSL's against MLIR 22's, "
        "for the op kinds used\n"
    )
    print(
        "Operands of the op in MLIR 22, from FlyDSL's op "
        "(`x=attr`: FlyDSL's attribute"
    )
    print(
        "becomes an operand; `args=[...]`: 22's variadic operand, "
        "filled in FlyDSL's"
    )
    print("parameter order), and the names FlyDSL has that 22 lacks.\n")
    print("| op | MLIR 22 operands from FlyDSL's op | FlyDSL only |")
    print("| --- | --- | --- |")
    with tempfile.TemporaryDirectory() as workdir:
        for dialect in sorted(
            {k.split(".", 1)[0] for k in kinds} & set(DIALECTS)
        ):
            theirs = flydsl_signatures(dialect)
            ours = mlir22_signatures(tblgen, include, dialect, workdir)
            for name in sorted(k for k in kinds if k.startswith(dialect + ".")):
                if name not in theirs or name not in ours:
                    print(
                        f"| `{name}` | definition missing in "
                        f"{'FlyDSL' if name not in theirs else 'MLIR 22'} | |"
                    )
                    continue
                rule = bridge_rule(theirs[name], ours[name])
                if rule:
                    print(
                        f"| `{name}` | `{', '.join(rule[0])}` | "
                        f"{', '.join(rule[1]) or '-'} |"
                    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+")
    parser.add_argument(
        "--mlir-opt",
        action="append",
        required=True,
        help="an MLIR 22 tool that parses (repeat)",
    )
    parser.add_argument("--tblgen", required=True)
    parser.add_argument("--include", required=True)
    options = parser.parse_args(argv)

    failures, kinds, whole = measure(options.dumps, options.mlir_opt)
    print_parses(failures, kinds, whole)
    print_definitions(kinds, options.tblgen, options.include)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""FlyDSL's IR to MLIR 22's and back, derived from both versions' op
definitions.

FlyDSL (0.4.2) links its own MLIR; at the slot after convert-fly-to-rocdl and
its canonicalize, its custom form parses in MLIR 22 except for the ops whose
immediates moved between operands and attributes (docs/FLYDSL.md). The rules
for those ops are not written here: `rules()` derives them from FlyDSL's
generated op classes (flydsl._mlir.dialects._*_ops_gen) and the ones that
mlir-tblgen of MLIR 22 generates from its .td files:

- an op attribute in FlyDSL that is an operand in 22 (`aux` of buffer
  accesses) becomes an i32 `arith.constant` operand at 22's position;
- a 22 op whose operands are one variadic group (MLIR 22's MFMA ops: `args`)
  takes FlyDSL's parameters in FlyDSL's order, attributes as constants.

To 22 (`to_mlir22`): each such op becomes, in FlyDSL's own IR, an unregistered
stand-in with 22's operands, printed generic inside the custom-form module,
then renamed to the real op: MLIR 22 parses the real op. Back (`from_mlir22`):
MLIR 22 prints the module generic; the bridged ops are renamed to stand-ins
again, FlyDSL parses it, and each stand-in becomes FlyDSL's op again, the
constant operands folded back into attributes. A generic form also differs for
`gpu.func`: FlyDSL's inherent `kernel` is MLIR 22's discardable `gpu.kernel`.
The rule is derived too: an inherent attribute of FlyDSL's op that MLIR 22's
lacks comes back from the dialect-prefixed discardable one (MLIR's
convention for dialect attributes).

Anything the rules cannot carry raises `Uncarried` with one reason; the caller
(the backend in backend.py) then leaves the kernel to FlyDSL's own compile.
"""

import ast
import functools
import os
import re
import subprocess
import tempfile

from version_wall import DIALECTS, ods_signatures

STAND_IN = "flyhoist_bridge."


class Uncarried(Exception):
    """The bridge cannot carry this module; the message is the one reason."""


@functools.lru_cache(maxsize=None)
def _attribute_builders(dialect):
    """{op: {attribute: AttrBuilder name}} from FlyDSL's generated classes."""
    import importlib.util

    spec = importlib.util.find_spec(
        f"flydsl._mlir.dialects.{DIALECTS[dialect][1]}"
    )
    with open(spec.origin) as f:
        tree = ast.parse(f.read())
    builders = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        name = next(
            (
                s.value.value
                for s in node.body
                if isinstance(s, ast.Assign)
                and getattr(s.targets[0], "id", "") == "OPERATION_NAME"
            ),
            None,
        )
        per_op = {}
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assign) and isinstance(
                sub.targets[0], ast.Subscript
            ):
                target = sub.targets[0]
                if getattr(
                    target.value, "id", ""
                ) != "attributes" or not isinstance(target.slice, ast.Constant):
                    continue
                for call in ast.walk(sub.value):
                    if (
                        isinstance(call, ast.Call)
                        and getattr(call.func, "attr", "") == "get"
                        and call.args
                    ):
                        if isinstance(call.args[0], ast.Constant):
                            per_op[target.slice.value] = call.args[0].value
        if name and (per_op or name not in builders):  # not its Adaptor
            builders[name] = per_op
    return builders


@functools.lru_cache(maxsize=None)
def _signatures(dialect, tblgen, include):
    import importlib.util

    spec = importlib.util.find_spec(
        f"flydsl._mlir.dialects.{DIALECTS[dialect][1]}"
    )
    with open(spec.origin) as f:
        theirs = ods_signatures(f.read())
    td = os.path.join(include, DIALECTS[dialect][0])
    out = _cache_path(dialect, include, ".py")
    cache = os.path.dirname(out)
    if not os.path.exists(out):
        os.makedirs(cache, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=cache, suffix=".tmp", delete=False
        ) as tmp:
            pass
        subprocess.run(
            [
                tblgen,
                "-gen-python-op-bindings",
                f"-bind-dialect={dialect}",
                "-I",
                include,
                td,
                "-o",
                tmp.name,
            ],
            check=True,
            capture_output=True,
        )
        os.replace(tmp.name, out)
    with open(out) as f:
        ours = ods_signatures(f.read())
    return theirs, ours


def _cache_path(dialect, include, suffix):
    import sys

    import flydsl

    td = os.path.join(include, DIALECTS[dialect][0])
    size, mtime = os.path.getsize(td), int(os.path.getmtime(td))
    stamp = f"{flydsl.__version__}-{size}-{mtime}"
    return os.path.join(
        sys.prefix, "flyhoist-mlir22-ods", f"{dialect}-{stamp}{suffix}"
    )


@functools.lru_cache(maxsize=None)
def rules(dialect, tblgen, include):
    """The bridge's table for one dialect, derived once per FlyDSL and .td
    version and then read from the venv:

    - "moved": {op: [(source, kind, builder)]}: MLIR 22's operands of each op
      whose immediates moved, each from FlyDSL's operand `source` (kind
      "operand") or attribute `source` (kind "attr", built back with FlyDSL's
      attribute builder `builder`);
    - "inherent": {op: [name]}: FlyDSL's inherent attributes that MLIR 22's
      op lacks (MLIR 22 holds them as the discardable `<dialect>.<name>`)."""
    import json

    path = _cache_path(dialect, include, ".bridge.json")
    if os.path.exists(path):
        with open(path) as f:
            table = json.load(f)
        table["moved"] = {
            op: [tuple(p) for p in order]
            for op, order in table["moved"].items()
        }
        return table
    table = _derive_rules(dialect, tblgen, include)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", dir=os.path.dirname(path), suffix=".tmp", delete=False
    ) as tmp:
        json.dump(table, tmp)
    os.replace(tmp.name, path)
    return table


def _derive_rules(dialect, tblgen, include):
    theirs, ours = _signatures(dialect, tblgen, include)
    builders = _attribute_builders(dialect)
    moved_ops, inherent = {}, {}
    for name, (f_ops, f_attrs, f_params) in theirs.items():
        if name not in ours:
            continue
        m_ops, m_attrs, _ = ours[name]
        plain = [o.lstrip("*") for o in f_ops]
        m_plain = [o.lstrip("*") for o in m_ops]
        lacking = [a for a in f_attrs if a not in m_attrs + m_plain]
        moved = [a for a in f_attrs if a in m_plain]
        group = (
            len(m_ops) == 1
            and m_ops[0].startswith("*")
            and m_ops[0][1:] not in plain
        )
        if group:
            order = [
                p
                for p in f_params
                if (p in plain or p in f_attrs) and p not in m_attrs
            ]
            moved = [p for p in order if p in f_attrs]
        else:
            order = m_plain
        if not moved or any(o.startswith("*") for o in f_ops):
            # Nothing moved; or a variadic FlyDSL operand, whose positions
            # are not fixed (not carried: such an op fails MLIR 22's parse).
            if lacking and not moved:
                inherent[name] = lacking
            continue
        moved_ops[name] = [
            (p, "attr", builders.get(name, {}).get(p))
            if p in f_attrs
            else (p, "operand", None)
            for p in order
        ]
    return {"moved": moved_ops, "inherent": inherent}


def _enum_values():
    """{enum mnemonic: {keyword: value}} FlyDSL's Python knows."""
    from flydsl.expr import rocdl

    tables = {}
    for mnemonic, table in (
        ("matrix_format", getattr(rocdl, "_WMMA_FMT_INT_TO_KW", None)),
        ("wmma_c_modifier", getattr(rocdl, "_WMMA_MODC_INT_TO_KW", None)),
        ("wmma_scale_type", getattr(rocdl, "_WMMA_SCALE_TYPE_INT_TO_KW", None)),
    ):
        if table:
            tables[mnemonic] = {kw: value for value, kw in table.items()}
    return tables


def _attr_to_int(attr):
    from flydsl._mlir import ir

    try:
        return ir.IntegerAttr(attr).value
    except (TypeError, ValueError):
        pass
    match = re.fullmatch(r"#(\w+)<(\w+) (\w+)>", str(attr))
    if match:
        values = _enum_values().get(match.group(2), {})
        if match.group(3) in values:
            return values[match.group(3)]
    raise Uncarried(f"attribute {attr} has no integer form")


def _int_to_attr(value, builder):
    """`value` as the attribute FlyDSL's builder `builder` makes: an enum
    (`rocdl.ROCDL_MatrixFormatAttr` is `#rocdl<matrix_format ...>`), what
    FlyDSL's registered builder of that name makes, or an i32 (checked by
    the verifier afterwards)."""
    from flydsl._mlir import ir

    match = re.fullmatch(r"(\w+)\.[A-Z]+_(\w+)Attr", builder or "")
    if match:
        dialect, camel = match.groups()
        mnemonic = re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()
        if mnemonic in _enum_values():
            names = {v: k for k, v in _enum_values()[mnemonic].items()}
            if value not in names:
                raise Uncarried(f"{value} is no {mnemonic}")
            return ir.Attribute.parse(f"#{dialect}<{mnemonic} {names[value]}>")
    if builder and ir.AttrBuilder.contains(builder):
        return ir.AttrBuilder.get(builder)(value, context=ir.Context.current)
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), value)


def _walk(module, names):
    from flydsl._mlir import ir

    found = []

    def visit(op):
        if op.name in names:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _table(module_text, tblgen, include, part="moved"):
    dialects = {
        d
        for d in re.findall(r"\b([a-z_]+)\.[a-z_]", module_text)
        if d in DIALECTS
    }
    table = {}
    for dialect in dialects:
        table.update(rules(dialect, tblgen, include)[part])
    return table


def to_mlir22(module_text, tblgen, include):
    """FlyDSL's module text -> text MLIR 22 parses (custom form, debug info)."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _create_mlir_context

    table = _table(module_text, tblgen, include)
    with _create_mlir_context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(module_text)
        i32 = ir.IntegerType.get_signless(32)
        for op in _walk(module, set(table)):
            operands = list(op.operands)
            attrs = {key: op.attributes[key] for key in op.attributes}
            position = 0
            new_operands = []
            with ir.InsertionPoint(op), op.location:
                for source, kind, _ in table[op.name]:
                    if kind == "operand":
                        new_operands.append(operands[position])
                        position += 1
                    else:
                        value = _attr_to_int(attrs.pop(source))
                        const = ir.Operation.create(
                            "arith.constant",
                            results=[i32],
                            attributes={
                                "value": ir.IntegerAttr.get(i32, value)
                            },
                        )
                        new_operands.append(const.result)
                stand_in = ir.Operation.create(
                    STAND_IN + op.name,
                    results=[r.type for r in op.results],
                    operands=new_operands,
                    attributes=attrs,
                )
            if position != len(operands):
                raise Uncarried(
                    f"{op.name}: {len(operands)} operands, "
                    f"the rule uses {position}"
                )
            for old, new in zip(op.results, stand_in.results):
                old.replace_all_uses_with(new)
            op.erase()
        text = module.operation.get_asm(enable_debug_info=True)
    return text.replace('"' + STAND_IN, '"')


def from_mlir22(generic_text, tblgen, include):
    """MLIR 22's generic module text -> FlyDSL's module text."""
    from flydsl._mlir import ir
    from flydsl.compiler.jit_function import _create_mlir_context

    table = _table(generic_text, tblgen, include)
    for name in table:
        generic_text = generic_text.replace(
            f'"{name}"(', f'"{STAND_IN}{name}"('
        )
    with _create_mlir_context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(generic_text)
        inherent = _table(generic_text, tblgen, include, "inherent")
        for op in _walk(module, set(inherent)):
            for name in inherent[op.name]:
                prefixed = op.name.split(".", 1)[0] + "." + name
                if prefixed in op.attributes:
                    value = op.attributes[prefixed]
                    del op.attributes[prefixed]
                    op.attributes[name] = value
        for op in _walk(module, {STAND_IN + n for n in table}):
            name = op.name[len(STAND_IN) :]
            attrs = {key: op.attributes[key] for key in op.attributes}
            operands = []
            for value, (source, kind, builder) in zip(op.operands, table[name]):
                if kind == "operand":
                    operands.append(value)
                    continue
                owner = value.owner
                if not hasattr(owner, "name") or owner.name not in (
                    "arith.constant",
                    "llvm.mlir.constant",
                ):
                    raise Uncarried(f"{name}: {source} is no longer a constant")
                number = ir.IntegerAttr(owner.attributes["value"]).value
                attrs[source] = _int_to_attr(number, builder)
            with ir.InsertionPoint(op), op.location:
                real = ir.Operation.create(
                    name,
                    results=[r.type for r in op.results],
                    operands=operands,
                    attributes=attrs,
                )
            for old, new in zip(op.results, real.results):
                old.replace_all_uses_with(new)
            dead = [v.owner for v in op.operands]
            op.erase()
            for owner in dead:
                if (
                    hasattr(owner, "name")
                    and owner.name == "arith.constant"
                    and not list(owner.result.uses)
                ):
                    owner.erase()
        module.operation.verify()
        return module.operation.get_asm(enable_debug_info=True)

"""flydsl_cpu.py's per-thread operation semantics: memory, constants and
one handler per scalar or vector operation (HANDLERS)."""

import math
import re
import refcore
from flydsl_ir import f32, from_bytes, parse_type, prop, prop_ints, signed, size_of, to_bytes  # noqa: F401


class KernelError(Exception):
    pass


class Memory:
    """Global tensors by name; LDS allocations per workgroup, each at an
    address of the workgroup's LDS (`lds_bases`: name -> (base, size)), so
    that pointer <-> integer casts round-trip."""

    def __init__(self, tensors, lds_bases=None):
        self.tensors = tensors
        self.lds_bases = lds_bases or {}

    def to_int(self, ptr):
        space, key, off = ptr
        if space != 'l':
            raise KernelError(f'ptrtoint of a non-LDS pointer {ptr}')
        return self.lds_bases[key][0] + off

    def to_ptr(self, addr):
        for key, (base, size) in self.lds_bases.items():
            if base <= addr <= base + size:
                return ('l', key, addr - base)
        raise KernelError(f'inttoptr of LDS address {addr} outside every allocation')

    def access(self, ptr, size, write, thread):
        space, key, off = ptr
        if space == 'g':
            buf = self.tensors[key]
            if off < 0 or off + size > len(buf):
                raise KernelError(f'thread {thread.tid}: global access {key}[{off}:{off + size}] '
                                  f'outside the tensor ({len(buf)} bytes)')
            return buf
        if space == 'l':
            buf = thread.group.lds[key]
            if off < 0 or off + size > len(buf):
                raise KernelError(f'thread {thread.tid}: LDS access {key}[{off}:{off + size}] '
                                  f'outside the allocation ({len(buf)} bytes)')
            thread.group.track(key, off, size, write, thread.tid)
            return buf
        raise KernelError(f'access through {ptr}')

    def load(self, ptr, ty, thread):
        n = size_of(ty)
        buf = self.access(ptr, n, False, thread)
        return from_bytes(bytes(buf[ptr[2]:ptr[2] + n]), ty)

    def store(self, ptr, value, ty, thread):
        data = to_bytes(value, ty)
        buf = self.access(ptr, len(data), True, thread)
        buf[ptr[2]:ptr[2] + len(data)] = data


ICMP = {0: lambda a, b, w: a == b, 1: lambda a, b, w: a != b,
        2: lambda a, b, w: signed(a, w) < signed(b, w),
        3: lambda a, b, w: signed(a, w) <= signed(b, w),
        4: lambda a, b, w: signed(a, w) > signed(b, w),
        5: lambda a, b, w: signed(a, w) >= signed(b, w),
        6: lambda a, b, w: a < b, 7: lambda a, b, w: a <= b,
        8: lambda a, b, w: a > b, 9: lambda a, b, w: a >= b}


def elementwise(fn, ty, *args):
    if ty[0] == 'v':
        return [fn(*xs) for xs in zip(*args)]
    return fn(*args)


def scalar_type(ty):
    return ty[2] if ty[0] == 'v' else ty


def parse_constant(text, ty):
    m = re.fullmatch(r'dense<(.+)>\s*:.*', text)
    if m:
        v = parse_constant(m.group(1) + ' : x', scalar_type(ty))
        return [v] * ty[1]
    lit = text.rsplit(':', 1)[0].strip()
    if lit in ('true', 'false'):
        return int(lit == 'true')
    if ty[0] == 'i':
        return int(lit) & ((1 << ty[1]) - 1)
    return f32(float(lit))


def fp4_value(nibble, scale):
    return refcore.fp4_units(nibble) * 0.5 * math.ldexp(1.0, scale - 127)


def h_binary(fn):
    def handler(th, op, a):
        ty = op.result_types[0]
        w = scalar_type(ty)[1]
        mask = (1 << w) - 1
        return [elementwise(lambda x, y: fn(x, y, w) & mask, ty, a[0], a[1])]
    return handler


def h_float(fn):
    def handler(th, op, a):
        return [elementwise(lambda *xs: f32(fn(*xs)), op.result_types[0], *a)]
    return handler


def h_divui(x, y, w):
    if y == 0:
        raise KernelError('division by zero')
    return x // y


def h_remui(x, y, w):
    if y == 0:
        raise KernelError('remainder by zero')
    return x % y


def h_cast(th, op, a):
    src, dst = scalar_type(op.operand_types[0]), scalar_type(op.result_types[0])

    def cast(x):
        if op.name in ('arith.extui', 'arith.index_castui'):
            return x
        if op.name in ('arith.extsi', 'arith.index_cast') and dst[1] > src[1]:
            return signed(x, src[1]) & ((1 << dst[1]) - 1)
        return x & ((1 << dst[1]) - 1)
    return [elementwise(cast, op.result_types[0], a[0])]


def h_constant(th, op, a):
    return [parse_constant(prop(op, 'value') if 'dense' not in op.props else
                           re.search(r'value = (dense<[^>]*> : [^}]*)', op.props).group(1),
                           op.result_types[0])]


def h_cmpi(th, op, a):
    pred = ICMP[int(prop(op, 'predicate').split(':')[0])]
    w = scalar_type(op.operand_types[0])[1]
    return [elementwise(lambda x, y: int(pred(x, y, w)), op.result_types[0], a[0], a[1])]


def h_select(th, op, a):
    if op.operand_types[0][0] == 'v':
        return [[x if c else y for c, x, y in zip(*a)]]
    return [a[1] if a[0] else a[2]]


def h_bitcast(th, op, a):
    return [from_bytes(to_bytes(a[0], op.operand_types[0]), op.result_types[0])]


def h_sitofp(th, op, a):
    w = scalar_type(op.operand_types[0])[1]
    return [elementwise(lambda x: f32(float(signed(x, w))), op.result_types[0], a[0])]


def h_maximumf(th, op, a):
    def mx(x, y):
        if math.isnan(x) or math.isnan(y):
            return math.nan
        return max(x, y)
    return [elementwise(mx, op.result_types[0], a[0], a[1])]


def h_fma(th, op, a):
    return [elementwise(lambda x, y, z: f32(x * y + z), op.result_types[0], *a)]


def h_reduction(th, op, a):
    if '#vector.kind<add>' not in op.props:
        raise KernelError(f'reduction kind not modelled: {op.props}')
    total = 0.0
    for x in a[0]:
        total = f32(total + x)
    return [total]


def h_shuffle(th, op, a):
    both = list(a[0]) + list(a[1])
    return [[both[i] for i in prop_ints(op, 'mask')]]


def h_interleave(th, op, a):
    return [[x for pair in zip(a[0], a[1]) for x in pair]]


def h_vextract(th, op, a):
    pos = prop_ints(op, 'static_position')
    return [a[0][pos[0]]]


def h_broadcast(th, op, a):
    return [[a[0]] * op.result_types[0][1]]


def h_gep(th, op, a):
    space, key, off = a[0]
    elem = parse_type(prop(op, 'elem_type'))
    dynamic = iter(zip(a[1:], op.operand_types[1:]))
    for raw in prop_ints(op, 'rawConstantIndices'):
        if raw == -2147483648:
            value, ty = next(dynamic)
            raw = signed(value, ty[1])
        off += raw * size_of(elem)
    return [(space, key, off)]


def h_load(th, op, a):
    return [th.memory.load(a[0], op.result_types[0], th)]


def h_store(th, op, a):
    th.memory.store(a[1], a[0], op.operand_types[0], th)
    return []


def h_undef(th, op, a):
    return [h_undef_of(op.result_types[0])]


def _insert(container, path, value):
    fields = list(container)
    if len(path) == 1:
        fields[path[0]] = value
    else:
        if fields[path[0]] is None:
            raise KernelError(f'insertvalue into an undefined field {path[0]}')
        fields[path[0]] = _insert(fields[path[0]], path[1:], value)
    return tuple(fields)


def h_insertvalue(th, op, a):
    return [_insert(a[0], prop_ints(op, 'position'), a[1])]


def h_extractvalue(th, op, a):
    value = a[0]
    for pos in prop_ints(op, 'position'):
        value = None if value is None else value[pos]
    if value is None:
        raise KernelError(f'extractvalue of an undefined field {prop_ints(op, "position")}')
    return [value]


def h_undef_of(ty):
    if ty[0] == 's':
        return tuple(h_undef_of(f) if f[0] == 's' else None for f in ty[1])
    return None


def h_ptrtoint(th, op, a):
    return [th.memory.to_int(a[0]) & ((1 << op.result_types[0][1]) - 1)]


def h_inttoptr(th, op, a):
    return [th.memory.to_ptr(a[0])]


def h_from_elements(th, op, a):
    return [list(a)]


def h_addressof(th, op, a):
    return [('l', prop(op, 'global_name').lstrip('@'), 0)]


def h_thread_id(th, op, a):
    return [th.tid if 'dim x' in op.props else 0]


def h_block_id(th, op, a):
    return [th.group.bid if 'dim x' in op.props else 0]


def h_make_rsrc(th, op, a):
    base, stride, num_records, flags = a
    if stride != 0:
        raise KernelError('strided buffer resources are not modelled')
    return [('r', base, num_records)]


def buffer_address(rsrc, offset, soffset, size):
    if rsrc[0] != 'r':
        raise KernelError(f'buffer access through {rsrc}')
    _, (space, key, base), num_records = rsrc
    end = offset + soffset + size
    return (space, key, base + offset + soffset), end <= num_records


def h_buffer_load(th, op, a):
    ptr, inside = buffer_address(a[0], a[1], a[2], size_of(op.result_types[0]))
    if not inside:   # a raw buffer reads 0 past num_records
        return [from_bytes(bytes(size_of(op.result_types[0])), op.result_types[0])]
    return [th.memory.load(ptr, op.result_types[0], th)]


def h_buffer_store(th, op, a):
    ptr, inside = buffer_address(a[1], a[2], a[3], size_of(op.operand_types[0]))
    if inside:
        th.memory.store(ptr, a[0], op.operand_types[0], th)
    return []


def h_buffer_load_lds(th, op, a):
    rsrc, lds, size, voffset, soffset, offset, aux = a
    ptr, inside = buffer_address(rsrc, voffset + offset, soffset, size)
    ty = ('i', 8 * size)
    value = th.memory.load(ptr, ty, th) if inside else 0
    dst = (lds[0], lds[1], lds[2] + offset + size * th.lane)
    th.memory.store(dst, value, ty, th)
    return []


def h_global_load_lds(th, op, a):
    size = int(prop(op, 'size').split(':')[0])
    offset = int(prop(op, 'offset').split(':')[0])
    src, lds = a
    ty = ('i', 8 * size)
    value = th.memory.load((src[0], src[1], src[2] + offset), ty, th)
    th.memory.store((lds[0], lds[1], lds[2] + offset + size * th.lane), value, ty, th)
    return []


HANDLERS = {
    'arith.constant': h_constant,
    'arith.addi': h_binary(lambda x, y, w: x + y),
    'arith.subi': h_binary(lambda x, y, w: x - y),
    'arith.muli': h_binary(lambda x, y, w: x * y),
    'arith.andi': h_binary(lambda x, y, w: x & y),
    'arith.ori': h_binary(lambda x, y, w: x | y),
    'arith.xori': h_binary(lambda x, y, w: x ^ y),
    'arith.shli': h_binary(lambda x, y, w: x << y if y < w else 0),
    'arith.shrui': h_binary(lambda x, y, w: x >> y if y < w else 0),
    'arith.divui': h_binary(h_divui),
    'arith.minui': h_binary(lambda x, y, w: min(x, y)),
    'arith.minsi': h_binary(lambda x, y, w: x if signed(x, w) <= signed(y, w) else y),
    'arith.maxsi': h_binary(lambda x, y, w: x if signed(x, w) >= signed(y, w) else y),
    'arith.remui': h_binary(h_remui),
    'arith.index_cast': h_cast, 'arith.extui': h_cast, 'arith.extsi': h_cast,
    'arith.trunci': h_cast,
    'arith.cmpi': h_cmpi,
    'arith.select': h_select,
    'arith.bitcast': h_bitcast, 'llvm.bitcast': h_bitcast,
    'arith.sitofp': h_sitofp,
    'arith.extf': lambda th, op, a: [a[0]],
    'arith.addf': h_float(lambda x, y: x + y),
    'arith.mulf': h_float(lambda x, y: x * y),
    'arith.maximumf': h_maximumf,
    'math.fma': h_fma, 'vector.fma': h_fma,
    'vector.reduction': h_reduction,
    'vector.shuffle': h_shuffle,
    'vector.interleave': h_interleave,
    'vector.extract': h_vextract,
    'vector.broadcast': h_broadcast,
    'vector.from_elements': h_from_elements,
    'llvm.ptrtoint': h_ptrtoint,
    'llvm.inttoptr': h_inttoptr,
    'llvm.getelementptr': h_gep,
    'llvm.load': h_load,
    'llvm.store': h_store,
    'llvm.mlir.undef': h_undef,
    'llvm.insertvalue': h_insertvalue,
    'llvm.extractvalue': h_extractvalue,
    'llvm.mlir.addressof': h_addressof,
    'gpu.thread_id': h_thread_id,
    'gpu.block_id': h_block_id,
    'rocdl.make.buffer.rsrc': h_make_rsrc,
    'rocdl.raw.ptr.buffer.load': h_buffer_load,
    'rocdl.raw.ptr.buffer.store': h_buffer_store,
    'rocdl.raw.ptr.buffer.load.lds': h_buffer_load_lds,
    'rocdl.global.load.lds': h_global_load_lds,
    'rocdl.s.waitcnt': lambda th, op, a: [],
}

#!/usr/bin/env python3
"""Runs the FlyDSL-shaped MQA-logits kernels on the CPU for a small instance.

There is no AMD GPU here, so this is how the kernels of
kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir and ..._gfx950.mlir are
checked: a small SIMT interpreter executes the device IR that fly-opt hands
to the backend (after the hoisting pass or materialize-specialization, then
inlining: `--mlir-print-op-generic`) for every thread of every workgroup
that has work, and the logits are compared

  - with the float64 reference of bench/gpu/refcore.py (every element inside
    the windows within float32 rounding, the sentinel everywhere else), and
  - hoisted against materialized, bit for bit.

What it models: workgroups of 256 threads in waves of 64, fewer of them
than tokens (the kernels' persistent grid strides; its size is their
num_workgroups argument); each tensor argument as a pointer and its packed
layout struct (shape and stride leaves, nested tuples through
insertvalue/extractvalue); gpu.barrier as a workgroup rendezvous; wave-wide
operations (rocdl.readfirstlane, gpu.shuffle, rocdl.ds_bpermute, the MFMAs)
as a rendezvous of the wave's 64 lanes at one operation; LDS per workgroup,
its allocations at addresses of their alignment so that the swizzle's
ptrtoint/inttoptr round-trip; buffer resources (base, num_records: a raw
buffer's accesses past num_records read 0 and write nothing); the LDS-DMA
forms (each lane's bytes land at the uniform LDS operand + size * lane, plus
the immediate offset). What it checks beyond the values: every global
access lies inside its tensor (a read past it would fault or read another
tensor on the GPU); LDS accesses stay inside their allocation; readfirstlane
sees a uniform value; no two threads touch the same LDS byte between two
barriers unless both only read it; every wave-wide operation is reached by
all 64 lanes. The MFMAs are modelled from the documented operand layouts
with exact sums, rounded once to f32: the scaled FP4 one (lane l: row
l % 16, 32-value block l / 16; results rows 4 (l / 16) + i, column l % 16)
and the FP8 one (e4m3fnuz; lane l: row l % 16, values 8 (l / 16) .. + 8).

Floats are f32 (rounded after each operation); FMAs round once from float64,
which can differ from a fused f32 FMA in the last bit in rare ties.

  bench/gpu/flydsl_cpu.py [--fly-opt PATH] [--seed 7] [--kernels gfx942,gfx950]

Standard library only; about 20 s of CPU time for the gfx942 kernel and 12 s
for the gfx950 kernel.
"""

import argparse
import math
import os
import random
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
import refcore
import common  # bench/gpu/common.py: bench/common.py

WAVE = 64

# ---------------------------------------------------------------------------
# Types and values
# ---------------------------------------------------------------------------


def split_top(text, sep=','):
    """Splits at top-level `sep` (outside <>, (), [], {})."""
    parts, depth, cur = [], 0, ''
    i = 0
    while i < len(text):
        c = text[i]
        if text.startswith('->', i):
            cur += '->'
            i += 2
            continue
        if c in '<([{':
            depth += 1
        elif c in '>)]}':
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_type(t):
    t = t.strip()
    if t == 'index':
        return ('i', 64)
    m = re.fullmatch(r'i(\d+)', t)
    if m:
        return ('i', int(m.group(1)))
    if t in ('f32', 'bf16'):
        return (t,)
    if t == '!gpu.async.token':   # the host's stream; never executed here
        return ('token',)
    m = re.fullmatch(r'vector<(\d+)x(.+)>', t)
    if m:
        return ('v', int(m.group(1)), parse_type(m.group(2)))
    m = re.fullmatch(r'(?:!llvm\.)?ptr(?:<(\d+)>)?', t)
    if m:
        return ('p', int(m.group(1) or 0))
    m = re.fullmatch(r'(?:!llvm\.)?struct<(?:packed )?\((.*)\)>', t)
    if m:
        return ('s', [parse_type(x) for x in split_top(m.group(1))])
    raise ValueError(f'type not modelled: {t}')


def size_of(ty):
    if ty[0] == 'i':
        return ty[1] // 8
    if ty[0] == 'f32':
        return 4
    if ty[0] == 'bf16':
        return 2
    if ty[0] == 'v':
        return ty[1] * size_of(ty[2])
    raise ValueError(f'no size for {ty}')


def f32(x):
    """Rounds a Python float to float32."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def to_bytes(value, ty):
    if ty[0] == 'i':
        return (value & ((1 << ty[1]) - 1)).to_bytes(ty[1] // 8, 'little')
    if ty[0] == 'f32':
        return struct.pack('<f', value)
    if ty[0] == 'bf16':
        return (refcore.f32_bits(value) >> 16).to_bytes(2, 'little')
    if ty[0] == 'v':
        return b''.join(to_bytes(x, ty[2]) for x in value)
    raise ValueError(f'cannot store {ty}')


def from_bytes(data, ty):
    if ty[0] == 'i':
        return int.from_bytes(data, 'little')
    if ty[0] == 'f32':
        return struct.unpack('<f', data)[0]
    if ty[0] == 'bf16':
        return refcore.bf16_value(int.from_bytes(data, 'little'))
    if ty[0] == 'v':
        n = size_of(ty[2])
        return [from_bytes(data[i * n:(i + 1) * n], ty[2]) for i in range(ty[1])]
    raise ValueError(f'cannot load {ty}')


# ---------------------------------------------------------------------------
# Generic-form IR
# ---------------------------------------------------------------------------


class Op:
    __slots__ = ('name', 'results', 'operands', 'props', 'attrs', 'regions',
                 'operand_types', 'result_types', 'uid')


class Block:
    __slots__ = ('args', 'ops')


RESULT = re.compile(r'\s*(%[\w$.-]+)(?::(\d+))?\s*(,|=)')


class Parser:
    """Reads `--mlir-print-op-generic` output (what fly-opt prints)."""

    def __init__(self, text):
        self.s = text
        self.i = 0
        self.count = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in ' \t\r\n':
            self.i += 1

    def peek(self, tok):
        self.ws()
        return self.s.startswith(tok, self.i)

    def expect(self, tok):
        self.ws()
        if not self.s.startswith(tok, self.i):
            raise ValueError(f'expected {tok!r} at {self.s[self.i:self.i + 60]!r}')
        self.i += len(tok)

    def balanced(self, open_, close):
        """The text between a balanced `open_` .. `close` pair (brackets of
        one kind counted; strings skipped)."""
        self.expect(open_)
        start, depth = self.i, 1
        while depth:
            c = self.s[self.i]
            if c == '"':
                self.i = self.s.index('"', self.i + 1)
            elif c == open_[-1]:
                depth += 1
            elif c == close[0]:
                depth -= 1
            self.i += 1
        body = self.s[start:self.i - 1]
        self.i += len(close) - 1
        return body

    def op(self):
        op = Op()
        op.uid = self.count
        self.count += 1
        op.results = []
        if self.peek('%'):
            # `%a, %b:2 =`: a result group of two is used as %b#0, %b#1.
            while True:
                m = RESULT.match(self.s, self.i)
                name, n = m.group(1), m.group(2)
                op.results += [f'{name}#{k}' for k in range(int(n))] if n else [name]
                self.i = m.end()
                if m.group(3) == '=':
                    break
        self.expect('"')
        end = self.s.index('"', self.i)
        op.name = self.s[self.i:end]
        self.i = end + 1
        op.operands = [x.strip() for x in self.balanced('(', ')').split(',') if x.strip()]
        if self.peek('['):
            self.balanced('[', ']')
        op.props = self.balanced('<{', '}>') if self.peek('<{') else ''
        op.regions = []
        if self.peek('({'):
            self.expect('(')
            while True:
                op.regions.append(self.region())
                if self.peek(','):
                    self.expect(',')
                    continue
                self.expect(')')
                break
        op.attrs = self.balanced('{', '}') if self.peek('{') else ''
        self.expect(':')
        eol = self.s.find('\n', self.i)
        eol = len(self.s) if eol < 0 else eol
        sig = self.s[self.i:eol].strip()
        self.i = eol
        # Strip a trailing location, if any.
        sig = re.sub(r'\s+loc\(.*\)$', '', sig)
        args, results = sig.split(' -> ', 1)
        op.operand_types = [parse_type(t) for t in split_top(args.strip()[1:-1])]
        results = results.strip()
        if results.startswith('('):
            results = results[1:-1]
        op.result_types = [parse_type(t) for t in split_top(results)] if results else []
        return op

    def region(self):
        self.expect('{')
        blocks = []
        block = None
        while not self.peek('}'):
            if self.peek('^'):
                block = Block()
                block.ops = []
                m = re.compile(r'\s*\^\w+').match(self.s, self.i)
                self.i = m.end()
                block.args = []
                if self.peek('('):
                    for a in split_top(self.balanced('(', ')')):
                        name, ty = a.split(':', 1)
                        block.args.append((name.strip(), parse_type(ty)))
                self.expect(':')
                blocks.append(block)
                continue
            if block is None:
                block = Block()
                block.ops, block.args = [], []
                blocks.append(block)
            block.ops.append(self.op())
        self.expect('}')
        return blocks


def find_ops(blocks, name):
    for block in blocks:
        for op in block.ops:
            if op.name == name:
                yield op
            for region in op.regions:
                yield from find_ops(region, name)


def prop(op, key):
    m = re.search(re.escape(key) + r' = ([^,}]+(?:<[^>]*>)?)', op.props)
    if not m:
        raise ValueError(f'{op.name}: no {key} in {op.props!r}')
    return m.group(1).strip()


def prop_ints(op, key):
    m = re.search(re.escape(key) + r' = array<i\d+: ([^>]*)>', op.props)
    return [int(x) for x in m.group(1).split(',')] if m and m.group(1).strip() else []


# ---------------------------------------------------------------------------
# Execution
# ---------------------------------------------------------------------------


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


class Group:
    """One workgroup: its LDS and the per-interval LDS race check."""

    def __init__(self, bid, lds_sizes):
        self.bid = bid
        self.lds = {k: bytearray(n) for k, n in lds_sizes.items()}
        self.epoch = 0
        self.touch = {}   # (alloc, byte) -> (epoch, tid or -1 for several, written)

    def track(self, key, off, size, write, tid):
        for b in range(off, off + size):
            k = (key, b)
            old = self.touch.get(k)
            if old is None or old[0] != self.epoch:
                self.touch[k] = (self.epoch, tid, write)
                continue
            _, who, written = old
            if who != tid and (written or write):
                raise KernelError(f'workgroup {self.bid}: LDS {key} byte {b} touched by '
                                  f'threads {who} and {tid} between two barriers, one writing')
            self.touch[k] = (self.epoch, who if who == tid else -1, written or write)


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


class Thread:
    def __init__(self, tid, group, memory):
        self.tid = tid
        self.lane = tid % WAVE
        self.group = group
        self.memory = memory
        self.env = {}

    def get(self, name):
        return self.env[name]

    def run_block(self, block, args):
        for (name, _), value in zip(block.args, args):
            self.env[name] = value
        for op in block.ops:
            if op.name in ('scf.yield', 'gpu.return', 'func.return'):
                return [self.env[x] for x in op.operands]
            if op.name in WAVE_OPS or op.name == 'gpu.barrier':
                results = yield (op, [self.env[x] for x in op.operands])
            elif op.name == 'scf.for':
                results = yield from self.scf_for(op)
            elif op.name == 'scf.if':
                results = yield from self.scf_if(op)
            else:
                handler = HANDLERS.get(op.name)
                if handler is None:
                    raise KernelError(f'operation not modelled: {op.name}')
                results = handler(self, op, [self.env[x] for x in op.operands])
            for name, value in zip(op.results, results or []):
                self.env[name] = value
        return []

    def scf_for(self, op):
        lb, ub, step, *inits = [self.env[x] for x in op.operands]
        w = op.operand_types[0][1]
        lb, ub, step = signed(lb, w), signed(ub, w), signed(step, w)
        values = inits
        body = op.regions[0][0]
        iv = lb
        while iv < ub:
            values = yield from self.run_block(body, [iv & ((1 << w) - 1)] + values)
            iv += step
        return values

    def scf_if(self, op):
        cond = self.env[op.operands[0]]
        region = op.regions[0] if cond else (op.regions[1] if len(op.regions) > 1 else None)
        if not region or not region[0].ops:
            return []
        return (yield from self.run_block(region[0], []))


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


def wave_readfirstlane(op, lanes):
    values = {repr(v[0]) for v in lanes}
    if len(values) != 1:
        raise KernelError(f'readfirstlane of a value that is not uniform: {sorted(values)[:4]}')
    return [[lanes[0][0]] for _ in lanes]


def wave_shuffle(op, lanes):
    if 'xor' not in op.props:
        raise KernelError(f'shuffle mode not modelled: {op.props}')
    out = []
    for lane, (value, offset, width) in enumerate(lanes):
        if width != WAVE:
            raise KernelError('shuffle width other than the wave')
        out.append([lanes[lane ^ offset][0], 1])
    return out


def wave_mfma_scale_16x16x128(op, lanes):
    def operand(lane, which):
        words, scale_word, opsel, fmt = which
        if fmt != 4:
            raise KernelError('only FP4 (format 4) operands are modelled')
        data = b''.join(w.to_bytes(4, 'little') for w in words[:4])
        scale = (scale_word >> (8 * opsel)) & 0xFF
        vals = []
        for byte in data:
            vals.append(fp4_value(byte & 15, scale))
            vals.append(fp4_value(byte >> 4, scale))
        return vals
    a = [operand(l, (x[0], x[6], x[5], x[3])) for l, x in enumerate(lanes)]
    b = [operand(l, (x[1], x[8], x[7], x[4])) for l, x in enumerate(lanes)]
    # A[i][k] is lane i + 16 (k / 32), value k % 32; B[k][j] alike with j.

    def a_at(i, k):
        return a[i + 16 * (k // 32)][k % 32]

    def b_at(k, j):
        return b[j + 16 * (k // 32)][k % 32]
    d = [[math.fsum(a_at(i, k) * b_at(k, j) for k in range(128)) for j in range(16)]
         for i in range(16)]
    out = []
    for lane, x in enumerate(lanes):
        c = x[2]
        out.append([[f32(d[4 * (lane // 16) + r][lane % 16] + c[r]) for r in range(4)]])
    return out


def fp8_e4m3fnuz(byte):
    """The value of an FP8 e4m3fnuz byte (exponent bias 8, 0x80 NaN)."""
    if byte == 0x80:
        return math.nan
    e, f = (byte >> 3) & 15, byte & 7
    v = math.ldexp(f, -10) if e == 0 else math.ldexp(8 + f, e - 11)
    return -v if byte & 0x80 else v


def wave_mfma_fp8_16x16x32(op, lanes):
    """v_mfma_f32_16x16x32_fp8_fp8: lane l supplies A row l % 16 and B
    column l % 16, values k = 8 (l / 16) .. + 8 (one byte each, low byte
    first); it receives D rows 4 (l / 16) + i of column l % 16. Exact sums,
    rounded once to f32 with C added."""
    for x in lanes:
        if x[3] or x[4] or x[5]:
            raise KernelError('cbsz/abid/blgp other than 0 are not modelled')

    def vals(word):
        return [fp8_e4m3fnuz((word >> (8 * i)) & 0xFF) for i in range(8)]
    a = [vals(x[0]) for x in lanes]
    b = [vals(x[1]) for x in lanes]
    d = [[math.fsum(a[i + 16 * (k // 8)][k % 8] * b[j + 16 * (k // 8)][k % 8]
                    for k in range(32)) for j in range(16)] for i in range(16)]
    return [[[f32(d[4 * (lane // 16) + r][lane % 16] + x[2][r]) for r in range(4)]]
            for lane, x in enumerate(lanes)]


def wave_ds_bpermute(op, lanes):
    """ds_bpermute: lane l reads the value of lane (address / 4) % 64."""
    return [[lanes[(addr >> 2) & (WAVE - 1)][1]] for addr, _ in lanes]


WAVE_OPS = {
    'rocdl.readfirstlane': wave_readfirstlane,
    'gpu.shuffle': wave_shuffle,
    'rocdl.ds_bpermute': wave_ds_bpermute,
    'rocdl.mfma.scale.f32.16x16x128.f8f6f4': wave_mfma_scale_16x16x128,
    'rocdl.mfma.f32.16x16x32.fp8.fp8': wave_mfma_fp8_16x16x32,
}


def run_kernel(func, lds_sizes, memory, args, grid, block):
    """Runs every workgroup whose id is below `grid` to completion."""
    body = func.regions[0][0]
    for bid in range(grid):
        group = Group(bid, lds_sizes)
        threads = [Thread(t, group, memory) for t in range(block)]
        gens = {t.tid: t.run_block(body, args) for t in threads}
        waiting = {}
        ready = {tid: None for tid in gens}
        while gens:
            for tid in list(ready):
                value = ready.pop(tid)
                try:
                    waiting[tid] = gens[tid].send(value)
                except StopIteration:
                    del gens[tid]
            if not gens:
                break
            progressed = False
            for w in range(block // WAVE):
                lanes = range(w * WAVE, (w + 1) * WAVE)
                if not all(t in waiting and waiting[t][0].name in WAVE_OPS for t in lanes):
                    continue
                op = waiting[lanes[0]][0]
                if any(waiting[t][0] is not op for t in lanes):
                    raise KernelError(f'wave {w} lanes at different wave operations')
                results = WAVE_OPS[op.name](op, [waiting[t][1] for t in lanes])
                for t, r in zip(lanes, results):
                    del waiting[t]
                    ready[t] = r
                progressed = True
            if progressed:
                continue
            if gens and len(waiting) == len(gens) and \
                    all(req[0].name == 'gpu.barrier' for req in waiting.values()):
                ops = {req[0].uid for req in waiting.values()}
                if len(ops) != 1:
                    raise KernelError(f'workgroup {bid}: threads wait at different barriers')
                group.epoch += 1
                for tid in list(waiting):
                    del waiting[tid]
                    ready[tid] = []
                continue
            raise KernelError(f'workgroup {bid}: no thread can go on (a wave operation '
                              f'not reached by the whole wave, or a barrier not by all)')


# ---------------------------------------------------------------------------
# The instance
# ---------------------------------------------------------------------------


def make_instance(rng, width):
    """A small instance: 2 sequences, a shuffled page pool, windows of one
    position, ending inside a second page, on the first position of a second
    tile and on the last position of the table (each at most the table's
    64 * width positions); E8M0 scales in [118, 136]."""
    seqs = 2
    pages = seqs * width
    lens = [min(n, 64 * width) for n in (1, 70, 257, 64 * width)]
    tokens = len(lens)
    inp = {
        'q': [rng.randrange(256) for _ in range(tokens * refcore.HEADS * refcore.ROW_BYTES)],
        'q_scale': [rng.randint(118, 136) for _ in range(tokens * refcore.HEADS * refcore.ROW_SCALES)],
        'kv': [rng.randrange(256) for _ in range(pages * refcore.PAGE * refcore.ROW_BYTES)],
        'kv_scale': [rng.randint(118, 136) for _ in range(pages * refcore.PAGE * refcore.ROW_SCALES)],
        'block_table': rng.sample(range(pages), pages),
        'weights': [refcore.bf16_bits(rng.uniform(-1.0, 1.0)) for _ in range(tokens * refcore.HEADS)],
        'tok_seq': [0, 1, 0, 1],
        'kv_len': lens,
    }
    return inp


def tensors_of(inp, logits_stride):
    tokens = len(inp['kv_len'])
    sentinel = struct.pack('<I', refcore.SENTINEL_BITS)
    return {
        'q': bytearray(inp['q']), 'q_scale': bytearray(inp['q_scale']),
        'kv': bytearray(inp['kv']), 'kv_scale': bytearray(inp['kv_scale']),
        'block_table': bytearray(b''.join(struct.pack('<i', x) for x in inp['block_table'])),
        'weights': bytearray(b''.join(struct.pack('<H', x) for x in inp['weights'])),
        'tok_seq': bytearray(b''.join(struct.pack('<i', x) for x in inp['tok_seq'])),
        'kv_len': bytearray(b''.join(struct.pack('<i', x) for x in inp['kv_len'])),
        'logits': bytearray(sentinel * (tokens * logits_stride)),
    }


def device_ir(fly_opt, kernel_text, mode):
    """The module's top-level op after the mode's pass and inlining."""
    first = {'hoisted': 'hoist-stride-specialization{remarks=false}',
             'materialized': 'materialize-specialization'}[mode]
    out = subprocess.run(
        [fly_opt, f'--pass-pipeline=builtin.module({first},gpu.module(inline,symbol-dce))',
         '--mlir-print-op-generic', '-mlir-print-local-scope', '-'],
        input=kernel_text, capture_output=True, text=True, check=True).stdout
    return Parser(out).op()


# The kernels' tensors in argument order, each a pointer and its layout
# struct: (shape leaves, stride leaves) as FlyDSL's signature rewrite packs
# them (only dynamic leaves: torch's default layout makes every shape and
# every non-unit stride dynamic; the block table's row stride is the
# compile-time width).
TENSOR_ARGS = ['q', 'q_scale', 'kv', 'kv_scale', 'block_table', 'weights', 'tok_seq',
               'kv_len', 'logits']


def layouts(inp, width, logits_stride):
    tokens = len(inp['kv_len'])
    pages = len(inp['kv']) // (refcore.PAGE * refcore.ROW_BYTES)
    seqs = len(inp['block_table']) // width
    rb, rs = refcore.ROW_BYTES, refcore.ROW_SCALES
    return {
        'q': ((tokens, refcore.HEADS, rb), (refcore.HEADS * rb, rb)),
        'q_scale': ((tokens, refcore.HEADS, rs), (refcore.HEADS * rs, rs)),
        'kv': ((pages, refcore.PAGE, rb), (refcore.PAGE * rb, rb)),
        'kv_scale': ((pages, refcore.PAGE, rs), (refcore.PAGE * rs, rs)),
        'block_table': ((seqs,),),
        'weights': ((tokens, refcore.HEADS), (refcore.HEADS,)),
        'tok_seq': ((tokens,),),
        'kv_len': ((tokens,),),
        'logits': ((tokens, logits_stride), (logits_stride,)),
    }


def lds_layout(top):
    """Each LDS global's (base, size): laid out in order at its alignment."""
    bases, addr = {}, 0
    for g in find_ops(top, 'llvm.mlir.global'):
        if not prop(g, 'addr_space').startswith('3'):
            continue
        n = int(re.search(r'!llvm.array<(\d+) x i8>', g.props).group(1))
        m = re.search(r'alignment = (\d+)', g.props)
        align = int(m.group(1)) if m else 1
        addr = (addr + align - 1) // align * align
        bases[prop(g, 'sym_name').strip('"')] = (addr, n)
        addr += n
    return bases


def run_mode(fly_opt, kernel_text, mode, inp, width, logits_stride, grid):
    top = device_ir(fly_opt, kernel_text, mode).regions[0]
    funcs = list(find_ops(top, 'gpu.func'))
    if len(funcs) != 1:
        raise KernelError(f'expected one gpu.func, found {len(funcs)}')
    func = funcs[0]
    if any(True for _ in find_ops(func.regions[0], 'func.call')):
        raise KernelError('a call is left after inlining')
    bases = lds_layout(top)
    lds = {k: n for k, (_, n) in bases.items()}
    nargs = len(func.regions[0][0].args)
    tensors = tensors_of(inp, logits_stride)
    memory = Memory(tensors, bases)
    lay = layouts(inp, width, logits_stride)
    args = []
    for name in TENSOR_ARGS:
        args += [('g', name, 0), lay[name]]
    args.append(grid)   # num_workgroups: the persistent grid's size
    if mode == 'hoisted':
        if nargs != len(args) + 1:
            raise KernelError(f'hoisted kernel takes {nargs} arguments, expected {len(args) + 1}')
        args.append(width)
    elif nargs != len(args):
        raise KernelError(f'materialized kernel takes {nargs} arguments, expected {len(args)}')
    run_kernel(func, lds, memory, args, grid, 256)
    return tensors['logits']


def check(fly_opt, path, seed, width):
    with open(path) as f:
        text = common.kernel_with_width(f.read(), width)
    rng = random.Random(seed)
    inp = make_instance(rng, width)
    logits_stride = 64 * width + 4
    out = {}
    # Fewer workgroups than tokens: the persistent grid strides.
    grid = 2
    for mode in ('hoisted', 'materialized'):
        out[mode] = run_mode(fly_opt, text, mode, inp, width, logits_stride, grid)
    identical = out['hoisted'] == out['materialized']
    worst, written, outside, count = 0.0, True, True, 0
    for t, length in enumerate(inp['kv_len']):
        for j in range(logits_stride):
            bits = struct.unpack_from('<I', out['hoisted'], 4 * (t * logits_stride + j))[0]
            if j >= length:
                outside &= bits == refcore.SENTINEL_BITS
                continue
            written &= bits != refcore.SENTINEL_BITS
            got = refcore.bits_f32(bits)
            ref = reference_and_scale(inp, width, t, j)
            worst = max(worst, abs(got - ref[0]) / ref[1] if ref[1] else abs(got))
            count += 1
    ok = identical and written and outside and worst < 1e-5
    print(f'{os.path.relpath(path, common.ROOT)}: width {width}, {len(inp["kv_len"])} tokens '
          f'(windows {inp["kv_len"]}) on {grid} workgroups, {count} logits; '
          f'hoisted == materialized: '
          f'{"yes" if identical else "NO"}; every window element written: '
          f'{"yes" if written else "NO"}; nothing outside: {"yes" if outside else "NO"}; '
          f'max err {worst:.1e} (|out - ref| / sum_h |w| |q.k|): {"ok" if ok else "FAILED"}')
    return ok


def reference_and_scale(inp, width, t, j):
    """refcore's float64 logit and the magnitude the error is measured against."""
    seq = inp['tok_seq'][t]
    page = inp['block_table'][seq * width + j // refcore.PAGE]
    row = page * refcore.PAGE + j % refcore.PAGE
    rb, rs = refcore.ROW_BYTES, refcore.ROW_SCALES
    k = refcore.decode_row(inp['kv'][row * rb:(row + 1) * rb], inp['kv_scale'][row * rs:(row + 1) * rs])
    scale = 0.0
    for h in range(refcore.HEADS):
        r = t * refcore.HEADS + h
        q = refcore.decode_row(inp['q'][r * rb:(r + 1) * rb], inp['q_scale'][r * rs:(r + 1) * rs])
        scale += abs(refcore.bf16_value(inp['weights'][r])) * math.fsum(abs(a * b) for a, b in zip(q, k))
    return refcore.reference_logit(inp, width, t, j), scale


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--fly-opt')
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--width', type=int, default=5,
                        help='page-table width of the instance (default 5)')
    parser.add_argument('--kernels', default='gfx942,gfx950',
                        help='chips whose kernels/paged_fp4_mqa_logits_flydsl_<chip>.mlir to run')
    parser.add_argument('--kernel', action='append',
                        help='run this kernel file instead (repeatable)')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    ok = True
    paths = args.kernel or [
        os.path.join(common.ROOT, 'kernels', f'paged_fp4_mqa_logits_flydsl_{chip}.mlir')
        for chip in args.kernels.split(',')]
    for path in paths:
        try:
            ok &= check(fly_opt, path, args.seed, args.width)
        except KernelError as e:
            print(f'{os.path.relpath(path, common.ROOT)}: FAILED: {e}')
            ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

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
from flydsl_ir import (  # noqa: E402,F401
    split_top,
    parse_type,
    size_of,
    f32,
    signed,
    to_bytes,
    from_bytes,
    Op,
    Block,
    RESULT,
    Parser,
    find_ops,
    prop,
    prop_ints)
from flydsl_handlers import (  # noqa: E402,F401
    KernelError,
    Memory,
    ICMP,
    elementwise,
    scalar_type,
    parse_constant,
    fp4_value,
    h_binary,
    h_float,
    h_divui,
    h_remui,
    h_cast,
    h_constant,
    h_cmpi,
    h_select,
    h_bitcast,
    h_sitofp,
    h_maximumf,
    h_fma,
    h_reduction,
    h_shuffle,
    h_interleave,
    h_vextract,
    h_broadcast,
    h_gep,
    h_load,
    h_store,
    h_undef,
    _insert,
    h_insertvalue,
    h_extractvalue,
    h_undef_of,
    h_ptrtoint,
    h_inttoptr,
    h_from_elements,
    h_addressof,
    h_thread_id,
    h_block_id,
    h_make_rsrc,
    buffer_address,
    h_buffer_load,
    h_buffer_store,
    h_buffer_load_lds,
    h_global_load_lds,
    HANDLERS)
from flydsl_wave import (  # noqa: E402,F401
    WAVE,
    Group,
    Thread,
    wave_readfirstlane,
    wave_shuffle,
    wave_mfma_scale_16x16x128,
    fp8_e4m3fnuz,
    wave_mfma_fp8_16x16x32,
    wave_ds_bpermute,
    WAVE_OPS,
    run_kernel)


# ---------------------------------------------------------------------------
# Types and values
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Generic-form IR
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Execution
# ---------------------------------------------------------------------------


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

"""Pure-Python core of the GPU runner: formats, kernel ABI, scalar references.

Standard library only, so it can be checked on a machine without NumPy or a
GPU (`python3 bench/gpu/refcore.py` runs the self-checks). run_reference.py
uses these definitions and checks its vectorized NumPy versions against them.

Prefill kernel (kernels/paged_fp4_mqa_logits.mlir), geometry fixed by its
spec.params: heads 64, head_dim 128, page_size 64 tokens, block_k 256, grid
512 x 256.
  logits[t, j] = sum_h w[t, h] * relu(q[t, h, :] . k[row(t, j), :]),  j < kv_len[t]
  row(t, j) = block_table[tok_seq[t] * W + j // 64] * 64 + j % 64

Gather kernel (kernels/paged_fp4_k_gather.mlir): grid (B, splits) x 256.
  out[out_start[b] + j, :] = bf16(k[row(b, j), :]),  j < seq_len[b]
  row(b, j) = block_table[b * W + j // 64] * 64 + j % 64
"""

import math
import re
import struct

HEADS = 64
HEAD_DIM = 128
PAGE = 64
BLOCK_K = 256
GRID = 512
BLOCK = 256
ROW_BYTES = HEAD_DIM // 2          # FP4 bytes of one head row / one K row
ROW_SCALES = HEAD_DIM // 32        # E8M0 scales of one row
ENTRY = 'paged_fp4_mqa_logits'

# Memref arguments of the kernel, in order, with their element size in bytes.
MEMREFS = [('q', 1), ('q_scale', 1), ('kv', 1), ('kv_scale', 1),
           ('block_table', 4), ('weights', 2), ('tok_seq', 4), ('kv_len', 4),
           ('logits', 4)]
SENTINEL_BITS = 0x7FBADBAD           # a NaN the kernel never produces

GATHER_ENTRY = 'paged_fp4_k_gather'
GATHER_MEMREFS = [('kv', 1), ('kv_scale', 1), ('block_table', 4),
                  ('seq_len', 4), ('out_start', 4), ('out', 2)]
GATHER_BLOCK = 256
GATHER_SENTINEL_BITS = 0x7FBB       # a bf16 NaN the gather never writes


def fp4_units(nibble):
    """e2m1 nibble -> signed value in units of 0.5 (0, 1, 2, 3, 4, 6, 8, 12)."""
    mag = nibble & 7
    units = mag if mag < 4 else (2 | (mag & 1)) << ((mag >> 1) - 1)
    return -units if nibble & 8 else units


def e8m0_half(s):
    """0.5 * 2^(s - 127): the factor applied to the units of a block."""
    if not 1 < s < 255:
        # The kernel builds the f32 with exponent field s - 1: s = 1 gives
        # zero, s = 0 -inf; 255 is NaN in E8M0. Inputs stay inside.
        raise ValueError('E8M0 scales 0, 1 and 255 are outside what the kernel decodes')
    return math.ldexp(1.0, s - 128)


def decode_row(row_bytes, scales):
    """ROW_BYTES FP4 bytes (low nibble first) and ROW_SCALES scales -> HEAD_DIM floats."""
    out = []
    for i, b in enumerate(row_bytes):
        f = e8m0_half(scales[(2 * i) // 32])
        out.append(fp4_units(b & 15) * f)
        out.append(fp4_units(b >> 4) * f)
    return out


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits_f32(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def bf16_bits(x):
    """Round-to-nearest-even float32 -> bfloat16 bits (finite inputs)."""
    b = f32_bits(x)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(bits):
    return bits_f32((bits & 0xFFFF) << 16)


def reference_logit(inp, width, t, j):
    """logits[t, j] in Python floats (float64), from flat byte/int lists.

    inp: dict with q, q_scale, kv, kv_scale (ints 0..255), block_table,
    tok_seq, kv_len (ints) and weights (bf16 bits)."""
    seq = inp['tok_seq'][t]
    page = inp['block_table'][seq * width + j // PAGE]
    row = page * PAGE + j % PAGE
    k = decode_row(inp['kv'][row * ROW_BYTES:(row + 1) * ROW_BYTES],
                   inp['kv_scale'][row * ROW_SCALES:(row + 1) * ROW_SCALES])
    total = 0.0
    for h in range(HEADS):
        r = t * HEADS + h
        q = decode_row(inp['q'][r * ROW_BYTES:(r + 1) * ROW_BYTES],
                       inp['q_scale'][r * ROW_SCALES:(r + 1) * ROW_SCALES])
        dot = math.fsum(a * b for a, b in zip(q, k))
        total += bf16_value(inp['weights'][t * HEADS + h]) * max(dot, 0.0)
    return total


def gather_reference_row(inp, width, b, j):
    """out[out_start[b] + j, :] of the gather kernel in Python floats: the
    decoded K row (exact in bf16). inp: kv, kv_scale, block_table lists."""
    page = inp['block_table'][b * width + j // PAGE]
    row = page * PAGE + j % PAGE
    return decode_row(inp['kv'][row * ROW_BYTES:(row + 1) * ROW_BYTES],
                      inp['kv_scale'][row * ROW_SCALES:(row + 1) * ROW_SCALES])


def gather_kernel_args(ptrs, sizes, splits, width=None):
    """The gather kernel's parameters: 6 memrefs (5 words each), `splits`,
    and the hoisted kernel's trailing width."""
    args = []
    for name, _ in GATHER_MEMREFS:
        args += [ptrs[name], ptrs[name], 0, sizes[name], 1]
    args.append(splits)
    if width is not None:
        args.append(width)
    return args


def gather_splits(width):
    """Blocks per sequence the launcher picks: at most 16 pages each."""
    return max(1, -(-width // 16))


def kernel_args(ptrs, sizes, num_tokens, logits_stride, width=None):
    """The kernel's parameter list as unsigned 64-bit integers.

    The NVVM lowering expands each memref<?xT> into (allocated pointer,
    aligned pointer, offset, size, stride); the two index arguments follow;
    the hoisted kernel takes the page-table width as one more (trailing)
    index argument. ptrs/sizes: dicts keyed by the names of MEMREFS."""
    args = []
    for name, _ in MEMREFS:
        args += [ptrs[name], ptrs[name], 0, sizes[name], 1]
    args += [num_tokens, logits_stride]
    if width is not None:
        args.append(width)
    return args


def ptx_entry_params(ptx, entry=ENTRY):
    """[(type, name)] of `.entry entry(...)` in PTX text."""
    m = re.search(r'\.entry\s+' + re.escape(entry) + r'\s*\((.*?)\)', ptx, re.S)
    if not m:
        raise ValueError(f'no .entry {entry}')
    out = []
    for decl in m.group(1).split(','):
        words = decl.split()
        if words:
            out.append((words[1], words[-1]))
    return out


def check_abi(ptx, hoisted, entry=ENTRY, memrefs=MEMREFS, scalars=2):
    """Raises unless the PTX entry takes what kernel_args (or
    gather_kernel_args) passes: 8-byte params."""
    params = ptx_entry_params(ptx, entry)
    want = 5 * len(memrefs) + scalars + (1 if hoisted else 0)
    if len(params) != want:
        raise ValueError(f'PTX entry has {len(params)} params, expected {want}')
    bad = [p for p in params if p[0] not in ('.u64', '.b64', '.s64')]
    if bad:
        raise ValueError(f'non-64-bit params: {bad}')
    return len(params)


def table(rows, headers):
    """Fixed-width text table."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    line = lambda r: '  '.join(c.rjust(w) for c, w in zip(r, widths))
    out = [line(cells[0]), '-' * len(line(cells[0]))]
    out += [line(r) for r in cells[1:]]
    return '\n'.join(out)


def _self_test():
    # e2m1 table and sign.
    assert [fp4_units(n) for n in range(8)] == [0, 1, 2, 3, 4, 6, 8, 12]
    assert [fp4_units(n) for n in range(8, 16)] == [0, -1, -2, -3, -4, -6, -8, -12]
    # E8M0 127 is 1.0, so a unit is 0.5.
    assert e8m0_half(127) == 0.5 and e8m0_half(128) == 1.0
    # The kernel's scale bit trick: f32 with exponent field s - 1 is 2^(s-128).
    for s in (2, 100, 127, 128, 200, 254):
        assert bits_f32((s - 1) << 23) == e8m0_half(s)
    # Low nibble first.
    row = decode_row([0x21] + [0] * 63, [127, 127, 127, 127])
    assert row[:3] == [0.5, 1.0, 0.0] and len(row) == HEAD_DIM
    row = decode_row([0] * 16 + [0x0F] + [0] * 47, [127, 129, 127, 127])
    assert row[32] == -12 * 2.0 and row[33] == 0.0
    # bf16 rounding: ties to even, exact values kept.
    assert bf16_bits(1.0) == 0x3F80 and bf16_value(0x3F80) == 1.0
    assert bf16_bits(bits_f32(0x3F808000)) == 0x3F80      # tie, even stays
    assert bf16_bits(bits_f32(0x3F818000)) == 0x3F82      # tie, odd rounds up
    assert bf16_bits(bits_f32(0x3F808001)) == 0x3F81
    assert bf16_bits(-2.5) == 0xC020
    # ABI: 9 memrefs x 5 + 2 (+1 hoisted).
    ptrs = {n: 0x1000 * (i + 1) for i, (n, _) in enumerate(MEMREFS)}
    sizes = {n: 10 + i for i, (n, _) in enumerate(MEMREFS)}
    a = kernel_args(ptrs, sizes, 7, 99)
    assert len(a) == 47 and a[:5] == [0x1000, 0x1000, 0, 10, 1] and a[-2:] == [7, 99]
    a = kernel_args(ptrs, sizes, 7, 99, width=333)
    assert len(a) == 48 and a[-1] == 333 and a[40:45] == [0x9000, 0x9000, 0, 18, 1]
    ptx = ('.visible .entry paged_fp4_mqa_logits(\n'
           + ',\n'.join(f'\t.param .u64 .ptr .align 1 p_{i}' if i % 5 == 1 else
                        f'\t.param .u64 p_{i}' for i in range(48)) + '\n)\n{')
    assert check_abi(ptx, hoisted=True) == 48
    try:
        check_abi(ptx, hoisted=False)
        raise AssertionError('param count not checked')
    except ValueError:
        pass
    # Scalar reference on a hand-made case: one token, width 2, j = 65 lies in
    # the second page of sequence 0, which is physical page 1 -> row 65.
    inp = {'q': [0] * (HEADS * ROW_BYTES), 'q_scale': [127] * (HEADS * ROW_SCALES),
           'kv': [0] * (2 * PAGE * ROW_BYTES), 'kv_scale': [127] * (2 * PAGE * ROW_SCALES),
           'block_table': [0, 1], 'tok_seq': [0], 'kv_len': [66],
           'weights': [bf16_bits(0.0)] * HEADS}
    inp['q'][0] = 0x02            # q[0, 0, 0] = 1.0
    inp['q'][ROW_BYTES] = 0x0A    # q[0, 1, 0] = -1.0
    inp['kv'][65 * ROW_BYTES] = 0x04  # k[row 65, 0] = 2.0
    inp['weights'][0] = bf16_bits(3.0)
    inp['weights'][1] = bf16_bits(5.0)
    # head 0: relu(1 * 2) * 3 = 6; head 1: relu(-2) * 5 = 0.
    assert reference_logit(inp, 2, 0, 65) == 6.0
    assert reference_logit(inp, 2, 0, 1) == 0.0
    # Gather: sequence 1 of a width-2 table, token 70 is in its second page
    # (physical page 0), slot 6 -> row 6.
    g = {'kv': [0] * (2 * PAGE * ROW_BYTES), 'kv_scale': [127] * (2 * PAGE * ROW_SCALES),
         'block_table': [1, 1, 1, 0]}
    g['kv'][6 * ROW_BYTES + 1] = 0xF9           # values 2, 3: -0.5, -6.0
    g['kv_scale'][6 * ROW_SCALES] = 128         # block 0 scaled by 2
    r = gather_reference_row(g, 2, 1, 70)
    assert r[:4] == [0.0, 0.0, -1.0, -12.0] and r[32:] == [0.0] * 96
    gp = {n: 0x100 * (i + 1) for i, (n, _) in enumerate(GATHER_MEMREFS)}
    gs = {n: 5 + i for i, (n, _) in enumerate(GATHER_MEMREFS)}
    a = gather_kernel_args(gp, gs, 3)
    assert len(a) == 31 and a[-1] == 3 and a[25:30] == [0x600, 0x600, 0, 10, 1]
    assert gather_kernel_args(gp, gs, 3, width=7)[-2:] == [3, 7]
    assert [gather_splits(w) for w in (1, 16, 17, 1023)] == [1, 1, 2, 64]
    gptx = ('.visible .entry paged_fp4_k_gather(\n'
            + ',\n'.join(f'\t.param .u64 p_{i}' for i in range(32)) + '\n)\n{')
    assert check_abi(gptx, True, GATHER_ENTRY, GATHER_MEMREFS, 1) == 32
    print(table([[1, 2.5, 'yes']], ['width', 'err', 'ok']))
    print('refcore self-test: ok')


if __name__ == '__main__':
    _self_test()

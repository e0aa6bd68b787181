# Paged KV gather written in FlyDSL.
#
# out[s, t, :] = kv_cache[block_tables[s, t >> log2(block_size)],
#                         t & (block_size - 1), :]
#
# One workgroup per (token, sequence); each thread moves 16 bytes. The
# block-table row stride is `max_blocks_per_seq`, a plain Python int folded
# into the kernel at trace time, the way FlyDSL kernels take their shapes.

import flydsl.compiler as flyc
import flydsl.expr as fx
from flydsl.expr import gpu
from flydsl.expr.typing import T

VEC_I32 = 4  # one 128-bit buffer access per thread


def _i32_view(tensor, width):
    """A buffer tensor over `tensor` read as rows of `width` i32 words."""
    src = fx.get_iter(tensor)
    words = fx.recast_iter(fx.PointerType.get(T.i32, src.memspace, 4), src)
    if width == 1:
        layout = fx.make_layout((1 << 30,), (1,))
    else:
        layout = fx.make_layout((1 << 28, width), (width, 1))
    return fx.rocdl.make_buffer_tensor(fx.make_view(words, layout))


def _vec4_row(view, row):
    """Row `row` of a width-4 buffer tensor as a copy source/destination."""
    cols = fx.logical_divide(
        fx.slice(view, (row, None)), fx.make_layout(VEC_I32, 1)
    )
    return fx.slice(cols, (None, fx.Int32(0)))


def build_paged_gather(
    max_blocks_per_seq=256, block_size=16, head_dim=128, max_tokens=None
):
    """Returns (kernel, threads per block) for one block-table width."""
    assert (
        block_size & (block_size - 1) == 0
    ), "block_size must be a power of two"
    assert (
        head_dim % (4 * VEC_I32) == 0
    ), "head_dim (bytes) must be a multiple of 16"
    if max_tokens is None:
        max_tokens = max_blocks_per_seq * block_size
    threads = head_dim // (4 * VEC_I32)
    row_words = head_dim // 4
    stride_bt = max_blocks_per_seq
    log2_bs = block_size.bit_length() - 1

    @flyc.kernel
    def paged_gather_kernel(
        out: fx.Tensor,
        kv_cache: fx.Tensor,
        block_tables: fx.Tensor,
    ):
        tid = gpu.thread_idx.x
        token = gpu.block_idx.x
        seq = gpu.block_idx.y

        bt = _i32_view(block_tables, 1)
        kv = _i32_view(kv_cache, VEC_I32)
        dst = _i32_view(out, VEC_I32)

        page = bt[seq * stride_bt + (token >> fx.Int32(log2_bs))]
        slot = token & fx.Int32(block_size - 1)

        src_row = (page * block_size + slot) * (row_words // VEC_I32) + tid
        dst_row = (seq * max_tokens + token) * (row_words // VEC_I32) + tid

        atom = fx.make_copy_atom(fx.rocdl.BufferCopy128b(), 4)
        reg_ty = fx.MemRefType.get(
            T.i32, fx.LayoutType.get(VEC_I32, 1), fx.AddressSpace.Register
        )
        reg = fx.memref_alloca(reg_ty, fx.make_layout(VEC_I32, 1))
        fx.copy(atom, _vec4_row(kv, src_row), reg)
        fx.copy(atom, reg, _vec4_row(dst, dst_row))

    return paged_gather_kernel, threads


def build_launcher(
    max_blocks_per_seq=256, block_size=16, head_dim=128, num_seqs=2
):
    """A `flyc.jit` host function that launches the gather over every token."""
    max_tokens = max_blocks_per_seq * block_size
    kernel, threads = build_paged_gather(
        max_blocks_per_seq, block_size, head_dim, max_tokens
    )

    @flyc.jit
    def launch_paged_gather(
        out: fx.Tensor,
        kv_cache: fx.Tensor,
        block_tables: fx.Tensor,
        stream: fx.Stream = fx.Stream(None),
    ):
        kernel(out, kv_cache, block_tables).launch(
            grid=(max_tokens, num_seqs, 1), block=(threads, 1, 1), stream=stream
        )

    return launch_paged_gather

# Ragged-prefill paged MQA logits with FP4 (e2m1) Q and KV, written in FlyDSL
# for gfx950 (scaled FP4 MFMA 16x16x128).
#
#   logits[row, t] = sum_h relu(q[row, h, :] . k[t, :]) * w[row, h] * scale
#
# for every token t of the row's window [local_start, local_end); the rest of
# the row keeps the caller's fill. The structure follows the kernel of that
# name in aiter: a persistent grid whose work comes from a host-made schedule
# (one record per CTA: row, batch, first chunk, chunk count, window), Q, its
# scales and the head weights loaded once into registers, KV and its scales
# loaded into registers at offsets folded in Python, one chunk prefetched
# while the previous one is computed, page arithmetic by signed shift and
# mask, and the block-table row stride a plain Python int whose default
# (256) equals block_k.

import flydsl.compiler as flyc
import flydsl.expr as fx
from flydsl.expr import gpu, rocdl
from flydsl.expr.primitive import range_constexpr
from flydsl.expr.typing import Float4E2M1FN, Int32, T

WARP = 64
MFMA_M = 16
MFMA_N = 16
MFMA_K = 128
SCHEDULE_FIELDS = 6  # row, batch, first chunk, chunk count, window start, end


def _words(tensor, width):
    """`tensor` as a buffer tensor of i32 words, in rows of `width`."""
    src = fx.get_iter(tensor)
    words = fx.recast_iter(fx.PointerType.get(T.i32, src.memspace, 4), src)
    rows = (1 << 30) // width
    layout = (
        fx.make_layout((rows,), (1,))
        if width == 1
        else fx.make_layout((rows, width), (width, 1))
    )
    return fx.rocdl.make_buffer_tensor(fx.make_view(words, layout))


def _load_x4(view, word):
    """Four i32 words at `word` (a multiple of four) of a width-4 view."""
    cols = fx.logical_divide(
        fx.slice(view, (word // fx.Int32(4), None)), fx.make_layout(4, 1)
    )
    reg = fx.memref_alloca(
        fx.MemRefType.get(
            T.i32, fx.LayoutType.get(4, 1), fx.AddressSpace.Register
        ),
        fx.make_layout(4, 1),
    )
    fx.copy(
        fx.make_copy_atom(fx.rocdl.BufferCopy128b(), 4),
        fx.slice(cols, (None, fx.Int32(0))),
        reg,
    )
    return fx.memref_load_vec(reg).ir_value()


def _load_bytes(coord, count, dtype=None, bits=8):
    """`count` elements at `coord` of a byte/half view, into registers."""
    dtype = T.i8 if dtype is None else dtype
    copies = {
        32: fx.rocdl.BufferCopy32b,
        64: fx.rocdl.BufferCopy64b,
        128: fx.rocdl.BufferCopy128b,
    }
    reg = fx.memref_alloca(
        fx.MemRefType.get(
            dtype, fx.LayoutType.get(count, 1), fx.AddressSpace.Register
        ),
        fx.make_layout(count, 1),
    )
    fx.copy(fx.make_copy_atom(copies[count * bits](), bits), coord, reg)
    return fx.memref_load_vec(reg)


def build_kernel(
    block_k=256,
    kv_block_size=64,
    max_blocks_per_seq=256,
    num_warps=4,
    heads=64,
    head_dim=128,
):
    """The kernel for one configuration; every argument is a Python int."""
    m_tiles = heads // MFMA_M
    k_tiles = head_dim // MFMA_K
    tiles_per_warp = block_k // MFMA_N // num_warps
    assert heads % MFMA_M == 0 and head_dim % MFMA_K == 0 and m_tiles <= 4
    assert (
        tiles_per_warp * MFMA_N == kv_block_size
    ), "each warp covers one page per chunk"
    assert kv_block_size & (kv_block_size - 1) == 0
    page_shift = kv_block_size.bit_length() - 1
    page_mask = kv_block_size - 1
    bt_stride = max_blocks_per_seq
    # KV cache, preshuffled:
    # [page, k_tile, k_quarter (4), kv_block_size, 16] bytes.
    kv_ktile = 4 * kv_block_size * 16
    kv_page = k_tiles * kv_ktile
    kv_ntile = MFMA_N * 16
    # KV scales: [page, k_tile, k_quarter, kv_block_size] bytes, the scales of
    # a lane's tiles_per_warp tokens packed into one word.
    kvs_ktile = 4 * kv_block_size
    kvs_page = k_tiles * kvs_ktile

    @flyc.kernel
    def mqa_logits_fp4_prefill_kernel(
        logits: fx.Tensor,
        q: fx.Tensor,
        q_scale: fx.Tensor,
        kv_cache: fx.Tensor,
        kv_scale: fx.Tensor,
        block_tables: fx.Tensor,
        weights: fx.Tensor,
        schedule: fx.Tensor,
        logits_stride: Int32,
        weight_scale: fx.Float32,
    ):
        tid = gpu.thread_idx.x
        cta = gpu.block_idx.x
        warp = tid >> 6
        lane = tid % WARP
        col = lane & 15  # token (B) / head (A) row within a 16-wide tile
        quarter = (lane >> 4) & 3  # which quarter of K (and of C's rows)

        # This CTA's record: four fields as one dwordx4, the window as scalars.
        src = fx.get_iter(schedule)
        record = fx.add_offset(
            fx.recast_iter(fx.PointerType.get(T.i32, src.memspace, 4), src),
            fx.Int64(cta) * fx.Int64(SCHEDULE_FIELDS),
        )
        rec = fx.rocdl.make_buffer_tensor(
            fx.make_view(record, fx.make_layout((1 << 28, 4), (4, 1)))
        )
        head = fx.Vector(_load_x4(rec, fx.Int32(0)))
        row, batch, first_chunk, chunk_count = (
            head[0],
            head[1],
            head[2],
            head[3],
        )
        window_start = rec[(fx.Int32(1), fx.Int32(0))]
        window_end = rec[(fx.Int32(1), fx.Int32(1))]

        kv_words = _words(kv_cache, 4)
        kvs_words = _words(kv_scale, 1)
        bt_words = _words(block_tables, 1)
        out_row = fx.add_offset(
            fx.get_iter(logits), fx.Int64(row) * fx.Int64(logits_stride)
        )

        # Q, once: per (k_tile, m_tile) the lane's 16 bytes of head m*16+col.
        q_view = fx.rocdl.make_buffer_tensor(q)
        q_frags = []
        for kt in range_constexpr(k_tiles):
            per_m = []
            for mt in range_constexpr(m_tiles):
                q_bytes = fx.logical_divide(
                    fx.slice(q_view, (row, fx.Int32(mt * MFMA_M) + col, None)),
                    fx.make_layout(16, 1),
                )
                raw = _load_bytes(
                    fx.slice(q_bytes, (None, fx.Int32(kt * 4) + quarter)), 16
                )
                frag = fx.make_rmem_tensor(4, fx.Int32)
                frag.store(fx.Vector(raw).bitcast(fx.Int32))
                per_m.append(frag)
            q_frags.append(per_m)

        # Q scales, preshuffled [row, k_tile, quarter, col, 4]: byte m of
        # the word.
        qs_view = fx.rocdl.make_buffer_tensor(q_scale)
        q_scales = []
        for kt in range_constexpr(k_tiles):
            word = fx.Vector(
                _load_bytes(
                    fx.slice(qs_view, (row, fx.Int32(kt), quarter, col, None)),
                    4,
                )
            ).bitcast(fx.Int32)[0]
            q_scales.append([word >> fx.Int32(8 * mt) for mt in range(m_tiles)])

        # Head weights [row, heads] f32: C's rows 4*quarter..+3 of each m tile.
        w_view = fx.rocdl.make_buffer_tensor(weights)
        w_tiles = fx.logical_divide(
            fx.slice(w_view, (row, None)), fx.make_layout(4, 1)
        )
        scale4 = fx.Vector.from_elements([weight_scale] * 4, dtype=fx.Float32)
        w_lane = []
        for mt in range_constexpr(m_tiles):
            w4 = _load_bytes(
                fx.slice(w_tiles, (None, fx.Int32(mt * 4) + quarter)),
                4,
                T.f32,
                32,
            )
            w_lane.append(fx.Vector(w4) * scale4)

        atoms = [
            fx.make_mma_atom(
                fx.rocdl.cdna4.MFMA_Scale(
                    MFMA_M,
                    MFMA_N,
                    MFMA_K,
                    Float4E2M1FN,
                    Float4E2M1FN,
                    opsel_a=0,
                    opsel_b=nt,
                )
            )
            for nt in range(tiles_per_warp)
        ]

        def first_token(chunk):
            return (first_chunk + chunk) * fx.Int32(block_k) + warp * fx.Int32(
                kv_block_size
            )

        def page_of(chunk):
            # Signed shift for the page, the block table's row stride folded in.
            index = (first_token(chunk) + col) >> fx.Int32(page_shift)
            return bt_words[batch * bt_stride + index]

        def load_chunk(chunk, page):
            """The lane's KV and scale words of one chunk, into registers."""
            in_page = (first_token(chunk) + col) & fx.Int32(page_mask)
            kv_base = (
                page * kv_page + quarter * (kv_block_size * 16) + in_page * 16
            ) >> fx.Int32(2)
            kvs_base = (
                page * kvs_page + quarter * kv_block_size + col * tiles_per_warp
            ) >> fx.Int32(2)
            kv = []
            for nt in range_constexpr(tiles_per_warp):
                for kt in range_constexpr(k_tiles):
                    kv.append(
                        _load_x4(
                            kv_words,
                            kv_base
                            + fx.Int32((kt * kv_ktile + nt * kv_ntile) // 4),
                        )
                    )
            kvs = [
                kvs_words[kvs_base + fx.Int32(kt * kvs_ktile // 4)]
                for kt in range(k_tiles)
            ]
            return kv, kvs

        def reduce_heads(total):
            # Lanes 16 and 32 apart hold the other quarters of the heads.
            for distance in (16, 32):
                peer = (fx.Int32(lane) ^ fx.Int32(distance)) * fx.Int32(4)
                other = fx.Int32(
                    rocdl.ds_bpermute(T.i32, peer, total.bitcast(fx.Int32))
                )
                total = total + other.bitcast(fx.Float32)
            return total

        def compute_chunk(chunk, kv, kvs):
            zero = fx.Vector.filled(4, 0.0, fx.Float32)
            for nt in range_constexpr(tiles_per_warp):
                accs = [zero] * m_tiles
                for kt in range_constexpr(k_tiles):
                    b = fx.make_rmem_tensor(4, fx.Int32)
                    b.store(fx.Vector(kv[nt * k_tiles + kt]))
                    for mt in range_constexpr(m_tiles):
                        c = fx.make_rmem_tensor(4, fx.Float32)
                        c.store(fx.Vector(accs[mt]))
                        fx.gemm(
                            atoms[nt],
                            c,
                            q_frags[kt][mt],
                            b,
                            c,
                            scale_a=q_scales[kt][mt],
                            scale_b=kvs[kt],
                        )
                        accs[mt] = c.load()
                total = fx.Float32(0.0)
                for mt in range_constexpr(m_tiles):
                    relu = fx.Vector(accs[mt]).maximumf(zero)
                    for i in [0, 1, 2, 3]:
                        total = fx.fma(relu[i], fx.Vector(w_lane[mt])[i], total)
                total = reduce_heads(total)
                token = first_token(chunk) + fx.Int32(nt * MFMA_N) + col
                if (
                    (quarter < fx.Int32(1))
                    & (token >= window_start)
                    & (token < window_end)
                ):
                    fx.ptr_store(total, fx.add_offset(out_row, token))

        # Prologue: chunk 0 in registers. Loop: compute chunk c, prefetch c+1.
        kv0, kvs0 = load_chunk(fx.Int32(0), page_of(fx.Int32(0)))
        carried = len(kv0) + len(kvs0)
        steps = fx.Int64(chunk_count - fx.Int32(1))
        for c, state in range(0, steps, 1, init=list(kv0) + list(kvs0)):
            chunk = fx.Int32(c)
            compute_chunk(
                chunk,
                [state[i] for i in range(len(kv0))],
                [state[len(kv0) + i] for i in range(len(kvs0))],
            )
            following = chunk + fx.Int32(1)
            kv_next, kvs_next = load_chunk(following, page_of(following))
            results = yield list(kv_next) + list(kvs_next)
        # Epilogue: the last chunk.
        compute_chunk(
            chunk_count - fx.Int32(1),
            [results[i] for i in range(len(kv0))],
            [results[len(kv0) + i] for i in range(carried - len(kv0))],
        )

    return mqa_logits_fp4_prefill_kernel, num_warps * WARP


def build_launcher(block_k=256, max_blocks_per_seq=256, **config):
    """A `flyc.jit` host function: (tensors..., stride, scale, ctas, stream)."""
    kernel, threads = build_kernel(
        block_k=block_k, max_blocks_per_seq=max_blocks_per_seq, **config
    )

    @flyc.jit
    def launch_mqa_logits_fp4_prefill(
        logits,
        q,
        q_scale,
        kv_cache,
        kv_scale,
        block_tables,
        weights,
        schedule,
        logits_stride: fx.Int32,
        weight_scale: fx.Float32,
        ctas: fx.Int32,
        stream: fx.Stream,
    ):
        kernel(
            logits,
            q,
            q_scale,
            kv_cache,
            kv_scale,
            block_tables,
            weights,
            schedule,
            logits_stride,
            weight_scale,
        ).launch(grid=(fx.Int64(ctas),), block=(threads, 1, 1), stream=stream)

    return launch_mqa_logits_fp4_prefill


def make_schedule(row_to_batch, window_starts, window_ends, block_k, ctas):
    """One record per CTA: the rows' chunks split evenly over at most `ctas`."""
    import torch

    chunks = [
        max(0, (int(end) + block_k - 1) // block_k) for end in window_ends
    ]
    per_cta = 1
    while sum((n + per_cta - 1) // per_cta for n in chunks) > ctas:
        per_cta += 1
    records = []
    for row, n in enumerate(chunks):
        for first in range(0, n, per_cta):
            records.append(
                [
                    row,
                    int(row_to_batch[row]),
                    first,
                    min(per_cta, n - first),
                    int(window_starts[row]),
                    int(window_ends[row]),
                ]
            )
    return torch.tensor(records or [[0, 0, 0, 1, 0, 0]], dtype=torch.int32)


def example_launch(
    max_blocks_per_seq=256,
    rows=2,
    block_k=256,
    kv_block_size=64,
    heads=64,
    head_dim=128,
):
    """The launcher and CPU arguments of a small problem (for COMPILE_ONLY)."""
    import torch

    launch = build_launcher(
        block_k=block_k,
        max_blocks_per_seq=max_blocks_per_seq,
        kv_block_size=kv_block_size,
        heads=heads,
        head_dim=head_dim,
    )
    seq_len = 2 * block_k
    pages = rows * max_blocks_per_seq
    schedule = make_schedule(
        [0] * rows, [0] * rows, [seq_len] * rows, block_k, 64
    )
    args = (
        torch.full((rows, seq_len), float("-inf"), dtype=torch.float32),
        torch.zeros((rows, heads, head_dim // 2), dtype=torch.uint8),
        torch.zeros((rows, head_dim // MFMA_K, 4, 16, 4), dtype=torch.uint8),
        torch.zeros(
            (pages, head_dim // MFMA_K, 4, kv_block_size, 16), dtype=torch.uint8
        ),
        torch.zeros(
            (pages, head_dim // MFMA_K, 4, kv_block_size), dtype=torch.uint8
        ),
        torch.zeros((1, max_blocks_per_seq), dtype=torch.int32),
        torch.ones((rows, heads), dtype=torch.float32),
        schedule,
        seq_len,
        1.0,
        schedule.shape[0],
        fx.Stream(None),
    )
    return launch, args

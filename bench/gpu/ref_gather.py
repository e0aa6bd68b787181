"""run_reference.py's gather kernel: inputs, checks, one width's run and
its table."""

import statistics
import time
import refcore as rc
from ref_mqa import bf16_to_f64, decode_rows, nibble_lut  # noqa: F401
from ref_timing import log, noise_of, pct, time_kernels  # noqa: F401

np = None  # numpy and cupy, set by run_reference.main()
cp = None


GATHER_IN = rc.ROW_BYTES + rc.ROW_SCALES      # bytes read per token


GATHER_OUT = 2 * rc.HEAD_DIM                  # bf16 bytes written per token


def make_gather_inputs(rng, width, pages_target, scale_lo=2, scale_hi=250):
    """Random inputs of one gather problem (host arrays), about
    `pages_target` pages in use. One sentinel row separates the outputs of
    consecutive sequences."""
    B = max(1, round(2 * pages_target / width))
    pages = B * width
    max_len = width * rc.PAGE
    lens = rng.integers(1, max_len + 1, B, dtype=np.int64)
    edge = [max_len, 1, 64, 65, 63, max_len - 1, 128, 129]
    for i, e in enumerate(edge[:B]):
        if 1 <= e <= max_len:
            lens[(i * 7919) % B] = e
    start = np.zeros(B, dtype=np.int64)
    start[1:] = np.cumsum(lens + 1)[:-1]
    rows = int(start[-1] + lens[-1] + 1)
    inp = {
        'kv': np.frombuffer(rng.bytes(pages * rc.PAGE * rc.ROW_BYTES), dtype=np.uint8),
        'kv_scale': rng.integers(scale_lo, scale_hi + 1, pages * rc.PAGE * rc.ROW_SCALES,
                                 dtype=np.uint8),
        'block_table': rng.permutation(pages).astype(np.int32),
        'seq_len': lens.astype(np.int32),
        'out_start': start.astype(np.int32),
    }
    return inp, B, rows


def gather_upload(inp, rows):
    dev = {k: cp.asarray(v) for k, v in inp.items()}
    dev['out'] = cp.empty(rows * rc.HEAD_DIM, dtype=cp.uint16)
    return dev


def gather_run_once(kern, dev, args):
    """Runs on an output filled with the sentinel; returns the device array."""
    dev['out'].fill(rc.GATHER_SENTINEL_BITS)
    kern.launch(args)
    cp.cuda.runtime.deviceSynchronize()
    return dev['out'].copy()


def gather_rows(B, lens, start, first, count):
    """For output tokens first..first+count-1 (in sequence order): sequence,
    position and output row, as device arrays."""
    cum = cp.cumsum(cp.asarray(lens.astype(np.int64)))
    tok = cp.arange(first, first + count, dtype=cp.int64)
    seq = cp.searchsorted(cum, tok, side='right')
    j = tok - (cum[seq] - cp.asarray(lens.astype(np.int64))[seq])
    row = cp.asarray(start.astype(np.int64))[seq] + j
    return seq, j, row


def gather_check(dev, inp, width, B, out, chunk=1 << 20):
    """Every written element against the float64 decode (on the GPU), the
    sentinel rows untouched. Returns a dict of counts and errors."""
    lut = cp.asarray(nibble_lut())
    lens = inp['seq_len'].astype(np.int64)
    start = inp['out_start'].astype(np.int64)
    total = int(lens.sum())
    kv = dev['kv'].reshape(-1, rc.ROW_BYTES)
    ks = dev['kv_scale'].reshape(-1, rc.ROW_SCALES)
    bt = dev['block_table'].astype(cp.int64)
    got_all = out.reshape(-1, rc.HEAD_DIM)
    acc = {'mismatch': 0, 'max_abs_err': 0.0, 'err2': 0.0, 'ref2': 0.0, 'count': total}
    for first in range(0, total, chunk):
        n = min(chunk, total - first)
        seq, j, row = gather_rows(B, lens, start, first, n)
        krow = bt[seq * width + j // rc.PAGE] * rc.PAGE + j % rc.PAGE
        by = kv[krow]
        ref = cp.empty((n, rc.HEAD_DIM), dtype=cp.float64)
        ref[:, 0::2] = lut[by & 15]
        ref[:, 1::2] = lut[by >> 4]
        ref *= cp.repeat(cp.ldexp(1.0, ks[krow].astype(cp.int32) - 128), 32, axis=1)
        got = (got_all[row].astype(cp.uint32) << 16).view(cp.float32).astype(cp.float64)
        err = cp.abs(got - ref)
        acc['mismatch'] += int((~(got == ref)).sum())
        err = cp.where(cp.isnan(err), cp.inf, err)
        acc['max_abs_err'] = max(acc['max_abs_err'], float(err.max()))
        acc['err2'] += float((err * err).sum())
        acc['ref2'] += float((ref * ref).sum())
    gap = cp.asarray(start + lens)
    acc['outside_written'] = int((got_all[gap] != rc.GATHER_SENTINEL_BITS).sum())
    acc['rel_l2'] = (acc['err2'] / acc['ref2']) ** 0.5 if acc['ref2'] else 0.0
    return acc


def gather_sample_check(inp, width, B, out, rng, count=2048):
    """The CPU float64 decode (decode_rows) of a sample of output tokens, the
    first and last token of a few sequences included. Returns mismatches."""
    lens = inp['seq_len'].astype(np.int64)
    start = inp['out_start'].astype(np.int64)
    total = int(lens.sum())
    cum = np.cumsum(lens)
    toks = set(int(x) for x in rng.integers(0, total, count))
    for b in range(min(B, 16)):
        toks.update({int(cum[b] - lens[b]), int(cum[b] - 1)})
    toks = np.array(sorted(toks), dtype=np.int64)
    seq = np.searchsorted(cum, toks, side='right')
    j = toks - (cum[seq] - lens[seq])
    krow = (inp['block_table'].astype(np.int64)[seq * width + j // rc.PAGE] * rc.PAGE
            + j % rc.PAGE)
    ref = decode_rows(inp['kv'].reshape(-1, rc.ROW_BYTES)[krow],
                      inp['kv_scale'].reshape(-1, rc.ROW_SCALES)[krow])
    rows = cp.asnumpy(out.reshape(-1, rc.HEAD_DIM)[cp.asarray(start[seq] + j)])
    got = bf16_to_f64(rows)
    return int((~(got == ref)).sum()), len(toks)


def gather_min_bytes(inp, B):
    lens = inp['seq_len'].astype(np.int64)
    pages = int((-(-lens // rc.PAGE)).sum())
    return int(lens.sum()) * (GATHER_IN + GATHER_OUT) + pages * 4 + B * 8


def gather_self_check(kh, width, rng_seed=54321):
    """Both gather kernels on a tiny problem against refcore's scalar
    reference, element by element."""
    rng = np.random.default_rng(rng_seed)
    B = 4
    lens = np.array([min(x, width * rc.PAGE) for x in (130, 1, 64, 37)], dtype=np.int64)
    pages = B * width
    start = np.zeros(B, dtype=np.int64)
    start[1:] = np.cumsum(lens + 1)[:-1]
    rows = int(start[-1] + lens[-1] + 1)
    inp = {'kv': rng.integers(0, 256, pages * rc.PAGE * rc.ROW_BYTES, dtype=np.uint8),
           'kv_scale': rng.integers(2, 251, pages * rc.PAGE * rc.ROW_SCALES, dtype=np.uint8),
           'block_table': rng.permutation(pages).astype(np.int32),
           'seq_len': lens.astype(np.int32), 'out_start': start.astype(np.int32)}
    dev = gather_upload(inp, rows)
    splits = rc.gather_splits(width)
    outs = {}
    for name, k in kh:
        outs[name] = cp.asnumpy(gather_run_once(k, dev, k.gather_args(dev, B, splits, width)))
    lists = {k: [int(x) for x in v] for k, v in inp.items()}
    bad = 0
    for b in range(B):
        for j in range(int(lens[b])):
            want = rc.gather_reference_row(lists, width, b, j)
            r = int(start[b] + j)
            for name, o in outs.items():
                got = [rc.bf16_value(int(v)) for v in o[r * rc.HEAD_DIM:(r + 1) * rc.HEAD_DIM]]
                bad += sum(1 for x, y in zip(got, want) if x != y)
        gap = int(start[b] + lens[b])
        for o in outs.values():
            bad += int((o[gap * rc.HEAD_DIM:(gap + 1) * rc.HEAD_DIM]
                        != rc.GATHER_SENTINEL_BITS).sum())
    same = all(np.array_equal(outs[kh[0][0]], o) for o in outs.values())
    log(f'self-check (gather): tiny problem B={B} W={width} lens {list(lens)}: '
        f'{bad} elements off the scalar reference or written outside, '
        f'hoisted/specialized bit-identical {same}')
    assert bad == 0 and same, 'gather self-check failed'


def run_gather_width(args, w, kh, ks, results):
    rng = np.random.default_rng(args.seed * 1000 + 500 + w)
    tg = time.perf_counter()
    inp, B, rows = make_gather_inputs(rng, w, args.gather_pages)
    dev = gather_upload(inp, rows)
    gen_s = time.perf_counter() - tg
    splits = rc.gather_splits(w)
    kerns = [kh, ks]
    argss = [k.gather_args(dev, B, splits, w) for k in kerns]
    out_h = gather_run_once(kh, dev, argss[0])
    out_s = gather_run_once(ks, dev, argss[1])
    identical = bool(cp.array_equal(out_h, out_s))
    tr = time.perf_counter()
    acc = gather_check(dev, inp, w, B, out_h)
    acc_s = acc if identical else gather_check(dev, inp, w, B, out_s)
    sample_bad, sample_n = gather_sample_check(inp, w, B, out_h, rng)
    ref_s = time.perf_counter() - tr
    del out_h, out_s
    cp.get_default_memory_pool().free_all_blocks()
    times = time_kernels(kerns, argss, args.warmup, args.gather_reps)
    ms = [statistics.median(t) for t in times]
    noise = noise_of(times)
    nbytes = gather_min_bytes(inp, B)
    lens = inp['seq_len'].astype(np.int64)
    r = {'width': w, 'seqs': B, 'splits': splits, 'tokens': int(lens.sum()),
         'pool_pages': B * w, 'min_bytes': nbytes, 'identical': identical,
         'check_h': acc, 'check_s': acc_s, 'sample_mismatch': sample_bad,
         'sample_tokens': sample_n, 'ms_h': ms[0], 'ms_s': ms[1],
         'ratio': ms[0] / ms[1], 'noise': noise, 'times_h': times[0],
         'times_s': times[1], 'gen_s': gen_s, 'ref_s': ref_s}
    r['ok'] = (identical and acc['mismatch'] == 0 and acc_s['mismatch'] == 0
               and acc['outside_written'] == 0 and acc_s['outside_written'] == 0
               and sample_bad == 0)
    results['gather'].append(r)
    log(f'gather W={w}: B={B} splits={splits} tokens={r["tokens"]} min bytes '
        f'{nbytes / 1e6:.0f} MB; mismatches {acc["mismatch"]}/{acc_s["mismatch"]}, '
        f'outside {acc["outside_written"]}/{acc_s["outside_written"]}, CPU sample '
        f'{sample_bad}/{sample_n}; identical {identical}; {ms[0]:.4f} / {ms[1]:.4f} ms '
        f'= {ms[0] / ms[1]:.4f} (noise {noise:.4f}); gen {gen_s:.1f} s check {ref_s:.1f} s')
    del dev
    cp.get_default_memory_pool().free_all_blocks()


def gather_table(results, bw):
    rows = []
    for r in results:
        gbs_h = r['min_bytes'] / (r['ms_h'] / 1e3)
        gbs_s = r['min_bytes'] / (r['ms_s'] / 1e3)
        rows.append([r['width'], r['seqs'], r['splits'], f'{r["tokens"] / 1e6:.2f}M',
                     f'{r["min_bytes"] / 1e6:.0f}',
                     'yes' if r['check_h']['mismatch'] == r['check_s']['mismatch'] == 0
                     and r['sample_mismatch'] == 0 else 'NO',
                     'yes' if r['identical'] else 'NO',
                     'yes' if r['check_h']['outside_written'] == 0 else 'NO',
                     f'{r["ms_h"]:.4f}', f'{r["ms_s"]:.4f}', f'{r["ratio"]:.4f}',
                     f'{r["noise"]:.4f}',
                     f'{gbs_h / 1e9:.0f}' + pct(gbs_h, bw),
                     f'{gbs_s / 1e9:.0f}' + pct(gbs_s, bw)])
    return rc.table(rows, ['width', 'B', 'splits', 'tokens', 'MB', 'exact',
                           'bit-ident', 'writes', 'ms hoist', 'ms spec', 'h/s',
                           'noise', 'GB/s hoist (of copy)', 'GB/s spec (of copy)'])

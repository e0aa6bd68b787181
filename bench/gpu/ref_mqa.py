"""run_reference.py's prefill (MQA) kernel: inputs, the float64 reference,
the self check, one width's run, candidate screening and its table."""

import os
import statistics
import time
import refcore as rc
from ref_timing import Kernel, log, noise_of, pct, run_once, time_kernels  # noqa: F401

np = None  # numpy and cupy, set by run_reference.main()
cp = None


def nibble_lut():
    return np.array([rc.fp4_units(n) for n in range(16)], dtype=np.float64)


def decode_rows(bytes_, scales):
    """(..., 64) uint8 FP4 and (..., 4) uint8 E8M0 -> (..., 128) float64."""
    lut = nibble_lut()
    out = np.empty(bytes_.shape[:-1] + (rc.HEAD_DIM,), dtype=np.float64)
    out[..., 0::2] = lut[bytes_ & 15]
    out[..., 1::2] = lut[bytes_ >> 4]
    f = np.ldexp(1.0, scales.astype(np.int64) - 128)           # (..., 4)
    out *= np.repeat(f, 32, axis=-1)
    return out


def to_bf16_bits(x):
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f64(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def make_inputs(rng, width, tokens, per_seq=4, scale_lo=118, scale_hi=136,
                max_len=None):
    """Random inputs of one problem; numpy arrays (host)."""
    B = -(-tokens // per_seq)
    T = B * per_seq
    pages = B * width
    max_len = max_len or width * rc.PAGE
    inp = {
        'q': rng.integers(0, 256, T * rc.HEADS * rc.ROW_BYTES, dtype=np.uint8),
        'q_scale': rng.integers(scale_lo, scale_hi + 1, T * rc.HEADS * rc.ROW_SCALES,
                                dtype=np.uint8),
        'kv': rng.integers(0, 256, pages * rc.PAGE * rc.ROW_BYTES, dtype=np.uint8),
        'kv_scale': rng.integers(scale_lo, scale_hi + 1, pages * rc.PAGE * rc.ROW_SCALES,
                                 dtype=np.uint8),
        'block_table': rng.permutation(pages).astype(np.int32),
        'weights': to_bf16_bits(rng.standard_normal(T * rc.HEADS)),
        'tok_seq': rng.permutation(np.repeat(np.arange(B, dtype=np.int32), per_seq)),
        'kv_len': rng.integers(1, max_len + 1, T, dtype=np.int64).astype(np.int32),
    }
    # Edges: a full table, one position, page and tile boundaries.
    edge = [max_len, 1, 64, 65, 256, 257, 255, max_len - 1]
    for i, e in enumerate(edge[:T]):
        if 1 <= e <= max_len:
            inp['kv_len'][(i * 7919) % T] = e
    return inp, T, B


def reference_numpy(inp, width, T, B, out, stride, chunk_bytes=1 << 29):
    """Compares out (T, stride) float32 against the float64 reference.

    Returns dict: max_abs_err, max_abs_ref, rel_l2, max_rel_elem (max over
    elements of |err| / (sum_h |w| |dot|), the scale of the terms)."""
    per_seq = T // B
    order = np.argsort(inp['tok_seq'], kind='stable').reshape(B, per_seq)
    bt = inp['block_table'].reshape(B, width)
    q = inp['q'].reshape(T, rc.HEADS, rc.ROW_BYTES)
    qs = inp['q_scale'].reshape(T, rc.HEADS, rc.ROW_SCALES)
    kv = inp['kv'].reshape(-1, rc.PAGE, rc.ROW_BYTES)
    ks = inp['kv_scale'].reshape(-1, rc.PAGE, rc.ROW_SCALES)
    w = bf16_to_f64(inp['weights']).reshape(T, rc.HEADS)
    lens = inp['kv_len'].astype(np.int64)
    J = width * rc.PAGE
    cb = max(1, chunk_bytes // (per_seq * rc.HEADS * J * 8))
    acc = {'max_abs_err': 0.0, 'max_abs_ref': 0.0, 'err2': 0.0, 'ref2': 0.0,
           'max_rel_elem': 0.0, 'count': 0}
    jj = np.arange(J)
    for b0 in range(0, B, cb):
        b1 = min(B, b0 + cb)
        toks = order[b0:b1]                                    # (c, k)
        c = b1 - b0
        Qd = decode_rows(q[toks], qs[toks]).reshape(c, per_seq * rc.HEADS, rc.HEAD_DIM)
        pg = bt[b0:b1]                                         # (c, W)
        Kd = decode_rows(kv[pg], ks[pg]).reshape(c, J, rc.HEAD_DIM)
        S = np.matmul(Qd, Kd.transpose(0, 2, 1))               # (c, k*64, J)
        S = S.reshape(c, per_seq, rc.HEADS, J)
        wt = w[toks]                                           # (c, k, 64)
        scale = np.matmul(np.abs(wt)[:, :, None, :], np.abs(S)).reshape(c, per_seq, J)
        np.maximum(S, 0.0, out=S)
        ref = np.matmul(wt[:, :, None, :], S).reshape(c, per_seq, J)
        del S
        with np.errstate(invalid='ignore'):      # sentinel NaNs outside windows
            got = out[toks][..., :J].astype(np.float64)        # (c, k, J)
        mask = jj[None, None, :] < lens[toks][..., None]
        err = np.where(mask, np.abs(got - ref), 0.0)
        refm = np.where(mask, ref, 0.0)
        acc['max_abs_err'] = max(acc['max_abs_err'], float(err.max()))
        acc['max_abs_ref'] = max(acc['max_abs_ref'], float(np.abs(refm).max()))
        acc['err2'] += float((err * err).sum())
        acc['ref2'] += float((refm * refm).sum())
        rel = np.where(mask, err / np.maximum(scale, 1e-300), 0.0)
        acc['max_rel_elem'] = max(acc['max_rel_elem'], float(rel.max()))
        acc['count'] += int(mask.sum())
        if not np.isfinite(err).all():
            acc['max_abs_err'] = float('inf')
    acc['rel_l2'] = (acc['err2'] / acc['ref2']) ** 0.5 if acc['ref2'] else 0.0
    return acc


def min_bytes(inp, width, T, B):
    """Fewest bytes the kernel must move: each input it needs read once,
    each output written once."""
    lens = inp['kv_len'].astype(np.int64)
    seq_max = np.zeros(B, dtype=np.int64)
    np.maximum.at(seq_max, inp['tok_seq'].astype(np.int64), lens)
    kv_rows = int(seq_max.sum())
    pages = int((-(-seq_max // rc.PAGE)).sum())
    return (kv_rows * (rc.ROW_BYTES + rc.ROW_SCALES) + pages * 4
            + T * rc.HEADS * (rc.ROW_BYTES + rc.ROW_SCALES + 2) + T * 8
            + int(lens.sum()) * 4)


def upload(inp, T, stride):
    dev = {k: cp.asarray(v) for k, v in inp.items()}
    dev['logits'] = cp.empty(T * stride, dtype=np.float32)
    return dev


def write_check(out, lens, T, stride):
    """(unwritten inside windows, written outside) counts."""
    bits = out.view(np.uint32).reshape(T, stride)
    jj = np.arange(stride)[None, :]
    inside = jj < lens.astype(np.int64)[:, None]
    sent = bits == rc.SENTINEL_BITS
    return int((sent & inside).sum()), int((~sent & ~inside).sum())


def self_check(kh, width, rng_seed=12345):
    """NumPy decode/bf16/reference against refcore, and the prefill kernels on
    a tiny problem against the scalar reference. Raises on a mismatch."""
    rng = np.random.default_rng(rng_seed)
    # Decode of every byte value at a few scales.
    b = np.arange(256, dtype=np.uint8).reshape(4, 64)
    s = np.array([[2, 127, 128, 254], [118, 119, 135, 136],
                  [127, 127, 127, 127], [200, 50, 60, 70]], dtype=np.uint8)
    got = decode_rows(b, s)
    for i in range(4):
        want = rc.decode_row([int(v) for v in b[i]], [int(v) for v in s[i]])
        assert list(got[i]) == want, f'decode row {i}'
    x = rng.standard_normal(1000).astype(np.float32)
    bb = to_bf16_bits(x)
    assert all(int(bb[i]) == rc.bf16_bits(float(x[i])) for i in range(1000)), 'bf16'
    assert all(float(bf16_to_f64(bb[i:i + 1])[0]) == rc.bf16_value(int(bb[i]))
               for i in range(50)), 'bf16 value'
    # A tiny problem at the smallest width (the specialized kernel bakes its
    # width in), 2 tokens per sequence, short windows.
    inp, T, B = make_inputs(rng, width, tokens=4, per_seq=2,
                            max_len=min(130, width * rc.PAGE))
    lens = [min(x, width * rc.PAGE) for x in (130, 1, 64, 97)]
    inp['kv_len'][:] = np.array(lens, dtype=np.int32)
    stride = width * rc.PAGE + 5
    dev = upload(inp, T, stride)
    outs = {}
    for name, k in kh:
        outs[name] = run_once(k, dev, k.args(dev, T, stride, width))
    lists = {k: [int(x) for x in v] for k, v in inp.items()}
    worst_abs = max_ref = 0.0
    for t in range(T):
        for j in range(int(inp['kv_len'][t])):
            r = rc.reference_logit(lists, width, t, j)
            max_ref = max(max_ref, abs(r))
            for name in outs:
                g = float(outs[name][t * stride + j])
                worst_abs = max(worst_abs, abs(g - r))
    worst = worst_abs / max(max_ref, 1e-300)
    first = kh[0][0]
    un, ov = write_check(outs[first], inp['kv_len'], T, stride)
    acc = reference_numpy(inp, width, T, B, outs[first].reshape(T, stride), stride)
    same = all(np.array_equal(outs[first].view(np.uint32), o.view(np.uint32))
               for o in outs.values())
    log(f'self-check (mqa): decode/bf16 ok; tiny problem T={T} W={width}: scalar-ref '
        f'worst rel err {worst:.2e}, numpy-ref rel_l2 {acc["rel_l2"]:.2e}, '
        f'unwritten {un}, written outside {ov}, hoisted/specialized bit-identical {same}')
    assert worst < 1e-5 and acc['rel_l2'] < 1e-5 and un == 0 and ov == 0 and same, \
        'self-check failed'


def run_mqa_width(args, w, kh, ks, kold, results):
    """One width of the prefill kernel: inputs, checks, reference, timings
    (the earlier version `kold` too, when given); appends to results."""
    rng = np.random.default_rng(args.seed * 1000 + w)
    tokens = int(min(args.max_tokens, max(args.min_tokens,
                                          round(args.logits / (w * rc.PAGE / 2)))))
    tg = time.perf_counter()
    inp, T, B = make_inputs(rng, w, tokens)
    stride = w * rc.PAGE + 4           # runtime row stride, not the width
    dev = upload(inp, T, stride)
    gen_s = time.perf_counter() - tg
    kerns = [kh, ks] + ([kold] if kold else [])
    argss = [k.args(dev, T, stride, w) for k in kerns]
    outs = [run_once(k, dev, a) for k, a in zip(kerns, argss)]
    writes = [write_check(o, inp['kv_len'], T, stride) for o in outs]
    identical = bool(np.array_equal(outs[0].view(np.uint32), outs[1].view(np.uint32)))
    tr = time.perf_counter()
    errs = [reference_numpy(inp, w, T, B, outs[0].reshape(T, stride), stride)]
    errs.append(errs[0] if identical else
                reference_numpy(inp, w, T, B, outs[1].reshape(T, stride), stride))
    if kold and not args.baseline_unchecked:
        errs.append(reference_numpy(inp, w, T, B, outs[2].reshape(T, stride), stride))
    ref_s = time.perf_counter() - tr
    del outs
    times = time_kernels(kerns, argss, args.warmup, args.reps)
    ms = [statistics.median(t) for t in times]
    noise = noise_of(times)
    nbytes = min_bytes(inp, w, T, B)
    in_bytes = sum(v.nbytes for v in inp.values())
    logits_n = int(inp['kv_len'].astype(np.int64).sum())
    flops = 2 * rc.HEADS * rc.HEAD_DIM * logits_n
    r = {'width': w, 'tokens': T, 'seqs': B, 'logits': logits_n,
         'input_bytes': in_bytes, 'min_bytes': nbytes, 'flops': flops,
         'unwritten': [x[0] for x in writes], 'written_outside': [x[1] for x in writes],
         'identical': identical, 'err_h': errs[0], 'err_s': errs[1],
         'ms_h': ms[0], 'ms_s': ms[1], 'ratio': ms[0] / ms[1], 'noise': noise,
         'times_h': times[0], 'times_s': times[1], 'gen_s': gen_s, 'ref_s': ref_s}
    if kold:
        r.update({'err_old': errs[2] if len(errs) > 2 else None, 'ms_old': ms[2],
                  'times_old': times[2], 'speedup': ms[2] / ms[0]})
    results['mqa'].append(r)
    ok = (all(x == (0, 0) for x in writes) and identical
          and all(e['rel_l2'] < 1e-5 for e in errs))
    r['ok'] = ok
    log(f'mqa W={w}: T={T} B={B} logits={logits_n} inputs {in_bytes / 1e6:.0f} MB, '
        f'min bytes {nbytes / 1e6:.0f} MB; writes (unwritten, outside) {writes}; '
        f'identical {identical}; rel_l2 {["%.2e" % e["rel_l2"] for e in errs]}; '
        f'ms {["%.3f" % m for m in ms]} h/s {ms[0] / ms[1]:.4f} (noise {noise:.4f})'
        + (f' old/new {ms[2] / ms[0]:.2f}x' if kold else '')
        + f'; gen {gen_s:.1f} s ref {ref_s:.1f} s')
    del dev
    cp.get_default_memory_pool().free_all_blocks()


def screen_candidates(args, dirs, old, widths, results):
    """Tuning: the hoisted kernels of several versions of the prefill kernel
    (one make_ptx.py directory each) on the same inputs. Each must write
    exactly what the first one writes, bit for bit (they differ in schedule,
    not in arithmetic order); their times are taken interleaved. Returns the
    directory of the fastest (geometric mean over `widths`)."""
    kerns = [Kernel(os.path.join(d, 'hoisted.ptx'), True) for d in dirs]
    names = [os.path.basename(os.path.normpath(d)) for d in dirs]
    scores = {n: [] for n in names}
    valid = {n: True for n in names}
    for w in widths:
        rng = np.random.default_rng(args.seed * 1000 + 700 + w)
        tokens = int(min(args.max_tokens, max(args.min_tokens,
                                              round(args.logits / (w * rc.PAGE / 2)))))
        inp, T, B = make_inputs(rng, w, tokens)
        stride = w * rc.PAGE + 4
        dev = upload(inp, T, stride)
        allk = kerns + ([old] if old else [])
        argss = [k.args(dev, T, stride, w) for k in allk]
        outs = [run_once(k, dev, a) for k, a in zip(kerns, argss)]
        un, ov = write_check(outs[0], inp['kv_len'], T, stride)
        same = [bool(np.array_equal(outs[0].view(np.uint32), o.view(np.uint32)))
                for o in outs]
        times = time_kernels(allk, argss, args.warmup, args.screen_reps)
        ms = [statistics.median(t) for t in times]
        row = {'width': w, 'ms': dict(zip(names + (['old'] if old else []), ms)),
               'identical_to_first': dict(zip(names, same)), 'first_writes': [un, ov],
               'noise': noise_of(times)}
        results['screen'].append(row)
        for n, m, ok in zip(names, ms, same):
            scores[n].append(m)
            valid[n] &= ok and un == 0 and ov == 0
        log(f'screen W={w}: ' + ', '.join(f'{n} {m:.3f}' + ('' if ok else ' (DIFFERS)')
                                           for n, m, ok in zip(names, ms, same))
            + (f', old {ms[-1]:.3f}' if old else '') + f' ms; noise {row["noise"]:.4f}')
        del dev, outs
        cp.get_default_memory_pool().free_all_blocks()
    gm = {n: statistics.geometric_mean(v) for n, v in scores.items() if valid[n]}
    best = min(gm, key=gm.get) if gm else names[0]
    log('screen: geometric mean ms ' + ', '.join(f'{n} {v:.3f}' for n, v in gm.items())
        + f'; chosen {best}')
    results['screen_choice'] = best
    return dirs[names.index(best)]


def mqa_table(results, bw, fl):
    rows = []
    for r in results:
        e = r['err_h']
        gbs = r['min_bytes'] / (r['ms_h'] / 1e3)
        tfl = r['flops'] / (r['ms_h'] / 1e3)
        tfs = r['flops'] / (r['ms_s'] / 1e3)
        row = [r['width'], r['tokens'], f'{r["logits"] / 1e6:.2f}M',
               f'{r["input_bytes"] / 1e6:.0f}',
               f'{e["rel_l2"]:.1e}', f'{e["max_rel_elem"]:.1e}',
               'yes' if r['identical'] else 'NO',
               'yes' if all(x == 0 for x in r['unwritten'] + r['written_outside']) else 'NO',
               f'{r["ms_h"]:.3f}', f'{r["ms_s"]:.3f}', f'{r["ratio"]:.4f}',
               f'{r["noise"]:.4f}',
               f'{tfl / 1e12:.1f}' + pct(tfl, fl), f'{tfs / 1e12:.1f}' + pct(tfs, fl),
               f'{gbs / 1e9:.0f}' + pct(gbs, bw)]
        if 'ms_old' in r:
            tfo = r['flops'] / (r['ms_old'] / 1e3)
            row += [f'{r["ms_old"]:.3f}', f'{tfo / 1e12:.1f}' + pct(tfo, fl),
                    f'{r["err_old"]["rel_l2"]:.1e}' if r['err_old'] else '-',
                    f'{r["speedup"]:.2f}x']
        rows.append(row)
    head = ['width', 'T', 'logits', 'in MB', 'rel l2', 'max err', 'bit-ident',
            'writes', 'ms hoist', 'ms spec', 'h/s', 'noise', 'TFLOP/s hoist (of sgemm)',
            'TFLOP/s spec (of sgemm)', 'GB/s hoist (of copy)']
    if results and 'ms_old' in results[0]:
        head += ['ms old', 'TFLOP/s old (of sgemm)', 'old rel l2', 'old/new']
    return rc.table(rows, head)

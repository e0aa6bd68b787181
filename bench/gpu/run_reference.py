#!/usr/bin/env python3
"""Runs the reference kernel's PTX on an NVIDIA GPU: hoisted against specialized.

Needs NumPy and CuPy (the device machine has both) and the PTX files of
bench/gpu/make_ptx.py (bench/gpu/ptx: hoisted.ptx, specialized_w<W>.ptx).

For each width W:
  - fresh random inputs: FP4 bytes, E8M0 scales, bf16 weights, a block table
    [B, W] mapping each sequence to a random set of pages in random order
    (one random permutation of the whole page pool), tokens spread over the
    sequences in random order, windows kv_len[t] of random length in
    [1, 64 W] (the full table and a single position included);
  - runs the hoisted kernel (width passed as its trailing argument) and the
    specialized one on logits pre-filled with a NaN sentinel, checks every
    element inside the windows was written and none outside, compares the
    two bit for bit and both against a float64 reference on the CPU;
  - times both with CUDA events, interleaved, after warm-up; median of --reps.
Also measures device-to-device copy bandwidth and the FP32 SGEMM rate, the
ceilings the kernel is compared against, and ptxas's resource report.

  python3 bench/gpu/run_reference.py [--widths 1,7,...] [--reps 30] [--out DIR]

Before anything else it checks its own NumPy decoding/reference against the
pure-Python definitions of refcore.py and runs both kernels on a tiny
problem against the scalar reference.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import refcore as rc  # noqa: E402

np = None
cp = None


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------- inputs ---

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


# ---------------------------------------------------------------- device ---

class Kernel:
    def __init__(self, path, hoisted):
        with open(path) as f:
            self.nparams = rc.check_abi(f.read(), hoisted)
        self.path = path
        self.hoisted = hoisted
        t0 = time.perf_counter()
        self.module = cp.RawModule(path=path)
        self.fn = self.module.get_function(rc.ENTRY)
        self.load_s = time.perf_counter() - t0

    def args(self, dev, T, stride, width):
        ptrs = {n: dev[n].data.ptr for n, _ in rc.MEMREFS}
        sizes = {n: dev[n].size for n, _ in rc.MEMREFS}
        a = rc.kernel_args(ptrs, sizes, T, stride, width if self.hoisted else None)
        assert len(a) == self.nparams
        return tuple(np.uint64(x) for x in a)

    def launch(self, args):
        self.fn((rc.GRID, 1, 1), (rc.BLOCK, 1, 1), args)


def upload(inp, T, stride):
    dev = {k: cp.asarray(v) for k, v in inp.items()}
    dev['logits'] = cp.empty(T * stride, dtype=np.float32)
    return dev


def fill_sentinel(arr):
    arr.view(cp.uint32).fill(rc.SENTINEL_BITS)


def run_once(kern, dev, args):
    fill_sentinel(dev['logits'])
    kern.launch(args)
    cp.cuda.runtime.deviceSynchronize()
    return cp.asnumpy(dev['logits'])


def write_check(out, lens, T, stride):
    """(unwritten inside windows, written outside) counts."""
    bits = out.view(np.uint32).reshape(T, stride)
    jj = np.arange(stride)[None, :]
    inside = jj < lens.astype(np.int64)[:, None]
    sent = bits == rc.SENTINEL_BITS
    return int((sent & inside).sum()), int((~sent & ~inside).sum())


def time_pair(kerns, argss, warmup, reps, inner=3):
    """Interleaved event timings (ms per launch) of each kernel, order
    alternating; each sample is `inner` back-to-back launches between two
    events, so only the first launch's enqueue gap is inside."""
    stream = cp.cuda.get_current_stream()
    for _ in range(warmup):
        for k, a in zip(kerns, argss):
            k.launch(a)
    stream.synchronize()
    times = [[] for _ in kerns]
    evs = [(cp.cuda.Event(), cp.cuda.Event()) for _ in kerns]
    for r in range(reps):
        idx = list(range(len(kerns)))
        if r % 2:
            idx.reverse()
        for i in idx:
            s, e = evs[i]
            s.record(stream)
            for _ in range(inner):
                kerns[i].launch(argss[i])
            e.record(stream)
            e.synchronize()
            times[i].append(cp.cuda.get_elapsed_time(s, e) / inner)
    return times


def copy_bandwidth(nbytes=2 << 30, reps=10):
    src = cp.empty(nbytes, dtype=cp.uint8)
    src.view(cp.uint32).fill(0x01020304)
    dst = cp.empty_like(src)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for r in range(reps + 2):
        s.record()
        cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes,
                                    cp.cuda.runtime.memcpyDeviceToDevice,
                                    cp.cuda.get_current_stream().ptr)
        e.record()
        e.synchronize()
        if r >= 2:
            ts.append(cp.cuda.get_elapsed_time(s, e))
    ok = bool((dst[::4097] == src[::4097]).all())
    del src, dst
    t = statistics.median(ts) / 1e3
    return 2 * nbytes / t, ok


def sgemm_rate(n=8192, reps=5):
    rng = cp.random.default_rng(1)
    a = rng.standard_normal((n, n), dtype=cp.float32)
    b = rng.standard_normal((n, n), dtype=cp.float32)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for r in range(reps + 2):
        s.record()
        c = a @ b
        e.record()
        e.synchronize()
        if r >= 2:
            ts.append(cp.cuda.get_elapsed_time(s, e))
    del a, b, c
    return 2 * n ** 3 / (statistics.median(ts) / 1e3)


def ptxas_report(paths, outdir):
    """Registers/spills from ptxas -v, SASS instruction count from cuobjdump."""
    ptxas = shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas'
    cuobjdump = shutil.which('cuobjdump') or '/usr/local/cuda/bin/cuobjdump'
    rep = {}
    if not os.path.exists(ptxas):
        return rep
    for name, path in paths:
        cubin = os.path.join(outdir, name + '.cubin')
        p = subprocess.run([ptxas, '-arch=sm_90', '-O3', '-v', path, '-o', cubin],
                           capture_output=True, text=True)
        info = ' '.join(l.strip() for l in (p.stdout + p.stderr).splitlines()
                        if 'registers' in l or 'spill' in l or 'error' in l)
        sass = None
        if p.returncode == 0 and os.path.exists(cuobjdump):
            d = subprocess.run([cuobjdump, '--dump-sass', cubin],
                               capture_output=True, text=True)
            sass = sum(1 for l in d.stdout.splitlines()
                       if l.strip().startswith('/*') and '*/' in l and ';' in l)
        rep[name] = {'ptxas': info, 'sass_instrs': sass}
        try:
            os.unlink(cubin)
        except OSError:
            pass
    return rep


# ------------------------------------------------------------ self-check ---

def self_check(kh, width, rng_seed=12345):
    """NumPy decode/bf16/reference against refcore, and both kernels on a tiny
    problem against the scalar reference. Raises on a mismatch."""
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
    un, ov = write_check(outs[kh[0][0]], inp['kv_len'], T, stride)
    acc = reference_numpy(inp, width, T, B, outs[kh[0][0]].reshape(T, stride), stride)
    same = all(np.array_equal(outs[kh[0][0]].view(np.uint32), o.view(np.uint32))
               for o in outs.values())
    log(f'self-check: decode/bf16 ok; tiny problem T={T} W={width}: scalar-ref '
        f'worst rel err {worst:.2e}, numpy-ref rel_l2 {acc["rel_l2"]:.2e}, '
        f'unwritten {un}, written outside {ov}, kernels bit-identical {same}')
    assert worst < 1e-5 and acc['rel_l2'] < 1e-5 and un == 0 and ov == 0 and same, \
        'self-check failed'


def run_width(args, w, kh, ks, results):
    """One width: inputs, checks, reference, timings; appends to results."""
    rng = np.random.default_rng(args.seed * 1000 + w)
    tokens = int(min(args.max_tokens, max(args.min_tokens,
                                          round(args.logits / (w * rc.PAGE / 2)))))
    tg = time.perf_counter()
    inp, T, B = make_inputs(rng, w, tokens)
    stride = w * rc.PAGE + 4           # runtime row stride, not the width
    dev = upload(inp, T, stride)
    gen_s = time.perf_counter() - tg
    ah, as_ = kh.args(dev, T, stride, w), ks.args(dev, T, stride, w)
    out_h = run_once(kh, dev, ah)
    out_s = run_once(ks, dev, as_)
    un_h, ov_h = write_check(out_h, inp['kv_len'], T, stride)
    un_s, ov_s = write_check(out_s, inp['kv_len'], T, stride)
    identical = bool(np.array_equal(out_h.view(np.uint32), out_s.view(np.uint32)))
    tr = time.perf_counter()
    acc = reference_numpy(inp, w, T, B, out_h.reshape(T, stride), stride)
    if not identical:
        acc_s = reference_numpy(inp, w, T, B, out_s.reshape(T, stride), stride)
    else:
        acc_s = acc
    ref_s = time.perf_counter() - tr
    del out_h, out_s
    times = time_pair([kh, ks], [ah, as_], args.warmup, args.reps)
    th, ts = statistics.median(times[0]), statistics.median(times[1])
    half = args.reps // 2
    noise = max(abs(statistics.median(t[:half]) - statistics.median(t[half:]))
                / statistics.median(t) for t in times)
    nbytes = min_bytes(inp, w, T, B)
    in_bytes = sum(v.nbytes for v in inp.values())
    logits_n = int(inp['kv_len'].astype(np.int64).sum())
    flops = 2 * rc.HEADS * rc.HEAD_DIM * logits_n
    r = {'width': w, 'tokens': T, 'seqs': B, 'logits': logits_n,
         'input_bytes': in_bytes, 'min_bytes': nbytes, 'flops': flops,
         'unwritten': [un_h, un_s], 'written_outside': [ov_h, ov_s],
         'identical': identical, 'err_h': acc, 'err_s': acc_s,
         'ms_h': th, 'ms_s': ts, 'ratio': th / ts, 'noise': noise,
         'times_h': times[0], 'times_s': times[1],
         'gen_s': gen_s, 'ref_s': ref_s}
    results['widths'].append(r)
    ok = (un_h == un_s == ov_h == ov_s == 0 and identical
          and acc['rel_l2'] < 1e-5 and acc_s['rel_l2'] < 1e-5)
    r['ok'] = ok
    log(f'W={w}: T={T} B={B} logits={logits_n} inputs {in_bytes / 1e6:.0f} MB, '
        f'min bytes {nbytes / 1e6:.0f} MB; unwritten {un_h}/{un_s}, outside '
        f'{ov_h}/{ov_s}; identical {identical}; rel_l2 {acc["rel_l2"]:.2e}, max '
        f'|err|/max|ref| {acc["max_abs_err"] / max(acc["max_abs_ref"], 1e-300):.2e}; '
        f'{th:.3f} / {ts:.3f} ms = {th / ts:.4f} (noise {noise:.4f}); '
        f'gen {gen_s:.1f} s ref {ref_s:.1f} s')
    del dev
    cp.get_default_memory_pool().free_all_blocks()


# ------------------------------------------------------------------ main ---

def main():
    global np, cp
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ptx-dir', default=os.path.join(HERE, 'ptx'))
    parser.add_argument('--widths', help='default: those of ptx/manifest.json')
    parser.add_argument('--logits', type=float, default=3e6,
                        help='target number of logits per width (sets the token count)')
    parser.add_argument('--min-tokens', type=int, default=512)
    parser.add_argument('--max-tokens', type=int, default=32768)
    parser.add_argument('--reps', type=int, default=30)
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--seed', type=int, default=2026)
    parser.add_argument('--skip-ceilings', action='store_true')
    parser.add_argument('--out', default=os.environ.get('OUT', '.'))
    args = parser.parse_args()

    import numpy
    import cupy
    np, cp = numpy, cupy

    with open(os.path.join(args.ptx_dir, 'manifest.json')) as f:
        manifest = json.load(f)
    widths = ([int(w) for w in args.widths.split(',')] if args.widths
              else manifest['widths'])
    dev_props = cp.cuda.runtime.getDeviceProperties(0)
    gpu = dev_props['name'].decode() if isinstance(dev_props['name'], bytes) else dev_props['name']
    l2 = dev_props.get('l2CacheSize', 0)
    info = {'date': time.strftime('%Y-%m-%d %H:%M:%S %Z'), 'gpu': gpu,
            'sms': dev_props.get('multiProcessorCount'), 'l2_bytes': l2,
            'driver': cp.cuda.runtime.driverGetVersion(),
            'runtime': cp.cuda.runtime.runtimeGetVersion(),
            'cupy': cp.__version__, 'numpy': np.__version__,
            'python': platform.python_version(), 'argv': sys.argv[1:]}
    log(f'GPU: {gpu}, {info["sms"]} SMs, L2 {l2 / 2**20:.0f} MiB, driver {info["driver"]}, '
        f'CuPy {cp.__version__}, NumPy {np.__version__}')
    log(f'PTX: {args.ptx_dir} (hoisted sha256 '
        f'{next(iter(manifest["hoisted"].values()))["sha256"][:16]}, one file for all widths)')

    t0 = time.perf_counter()
    hoisted = Kernel(os.path.join(args.ptx_dir, 'hoisted.ptx'), True)
    log(f'hoisted module loaded in {hoisted.load_s:.2f} s ({hoisted.nparams} params)')

    results = {'info': info, 'widths': [], 'ceilings': {}, 'resources': {}}
    specs = {}
    for w in widths:
        specs[w] = Kernel(os.path.join(args.ptx_dir, f'specialized_w{w}.ptx'), False)
    wmin = min(widths)
    self_check([('hoisted', hoisted), ('specialized', specs[wmin])], wmin)

    if not args.skip_ceilings:
        bw, ok = copy_bandwidth()
        results['ceilings']['copy_bytes_per_s'] = bw
        results['ceilings']['copy_ok'] = ok
        log(f'device-to-device copy: {bw / 1e12:.2f} TB/s (bytes read + written), ok={ok}')
        fl = sgemm_rate()
        results['ceilings']['sgemm_flops'] = fl
        log(f'FP32 SGEMM (CuPy/cuBLAS 8192^3): {fl / 1e12:.1f} TFLOP/s')

    for w in widths:
        try:
            run_width(args, w, hoisted, specs[w], results)
        except Exception:
            import traceback
            traceback.print_exc()
            results['widths'].append({'width': w, 'ok': False, 'failed': True})
        with open(os.path.join(args.out, 'gpu_results.json'), 'w') as f:
            json.dump(results, f, indent=1)
    results['widths'] = [r for r in results['widths'] if not r.get('failed')] or []
    if not results['widths']:
        return 1

    paths = [('hoisted', hoisted.path)] + [(f'specialized_w{w}', specs[w].path) for w in widths]
    results['resources'] = ptxas_report(paths, args.out)
    for name, rep in results['resources'].items():
        log(f'{name}: {rep["ptxas"]} sass_instrs={rep["sass_instrs"]}')

    bw = results['ceilings'].get('copy_bytes_per_s')
    fl = results['ceilings'].get('sgemm_flops')
    rows = []
    for r in results['widths']:
        e = r['err_h']
        gbs = r['min_bytes'] / (r['ms_h'] / 1e3)
        tfl = r['flops'] / (r['ms_h'] / 1e3)
        rows.append([r['width'], r['tokens'], f'{r["logits"] / 1e6:.2f}M',
                     f'{r["input_bytes"] / 1e6:.0f}',
                     f'{e["rel_l2"]:.1e}', f'{e["max_rel_elem"]:.1e}',
                     'yes' if r['identical'] else 'NO',
                     'yes' if r['unwritten'] == [0, 0] and r['written_outside'] == [0, 0] else 'NO',
                     f'{r["ms_h"]:.3f}', f'{r["ms_s"]:.3f}', f'{r["ratio"]:.4f}',
                     f'{r["noise"]:.4f}',
                     f'{gbs / 1e9:.0f}' + (f' ({100 * gbs / bw:.1f}%)' if bw else ''),
                     f'{tfl / 1e12:.1f}' + (f' ({100 * tfl / fl:.0f}%)' if fl else '')])
    text = rc.table(rows, ['width', 'T', 'logits', 'in MB', 'rel l2', 'max err',
                           'bit-ident', 'writes', 'ms hoist', 'ms spec', 'h/s',
                           'noise', 'GB/s (of copy)', 'TFLOP/s (of sgemm)'])
    log('')
    if bw:
        log(f'copy bandwidth {bw / 1e12:.2f} TB/s; FP32 SGEMM {fl / 1e12:.1f} TFLOP/s')
    log(text)
    worst = max(r['ratio'] for r in results['widths'])
    best = min(r['ratio'] for r in results['widths'])
    allok = all(r['ok'] for r in results['widths'])
    log(f'time ratio hoisted/specialized: {best:.4f} .. {worst:.4f} (target <= 1.01); '
        f'correct and bit-identical everywhere: {allok}; total {time.perf_counter() - t0:.0f} s')
    with open(os.path.join(args.out, 'gpu_results.json'), 'w') as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(args.out, 'gpu_table.txt'), 'w') as f:
        f.write(text + '\n')
    return 0 if allok and worst <= 1.01 else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the paged kernels' PTX on an NVIDIA GPU: hoisted against specialized.

Needs NumPy and CuPy (the device machine has both) and the PTX files of
bench/gpu/make_ptx.py (hoisted.ptx, specialized_w<W>.ptx, manifest.json).
Two kernels (--kernels, default both):

mqa: kernels/paged_fp4_mqa_logits.mlir (--ptx-dir, default bench/gpu/ptx).
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
  - with --baseline-ptx-dir (the hoisted PTX of an earlier version of the
    kernel), runs and checks that one too and times all three;
  - times them with CUDA events, interleaved, after warm-up; median of --reps.

gather: kernels/paged_fp4_k_gather.mlir (--gather-ptx-dir).
  For each width W: B sequences of random length in [1, 64 W] (edges
  included) over a page pool of B * W pages in random order; each
  sequence's output rows start one sentinel row after the previous
  sequence's. Checks: every output element equals the float64 decode of its
  K element exactly (on the GPU, in float64, all rows; and on the CPU for a
  sample of rows), the sentinel rows between sequences are untouched, the
  hoisted and specialized outputs are bit-identical; then the same
  interleaved timing.

placement: the prefill kernel moved in memory (--variants-dir, the output of
  make_variants.py: the specialized and hoisted PTX with 1..8 nanosleeps at
  entry, so all code after them sits 16 bytes per nanosleep later). Each
  PTX is compiled here by ptxas -O3 and loaded as that cubin; cuobjdump
  says what differs from its base (S of the width, or H) and where the
  first FFMA of the tile loop sits. Also: S and H loaded a second time (an
  A/A pair each) and, with --placement-jit (default), S and H from PTX
  through the driver's JIT. Per width and input seed (the inputs mqa draws
  for that seed): every kernel must write what S writes, bit for bit, and
  nothing outside the windows; S against float64 for the first
  --placement-ref-seeds seeds; then all timed interleaved, in a random
  order each round; each kernel's median over S's with a 95% bootstrap
  interval, H against the S variant whose loop sits where H's does, and
  H's A/A pair.

Also measures device-to-device copy bandwidth and the FP32 SGEMM rate, the
ceilings the kernels are compared against, and ptxas's resource report.

  python3 bench/gpu/run_reference.py [--kernels mqa,gather] [--widths 1,7,...]
      [--gather-widths ...] [--reps 50] [--out DIR]
  python3 bench/gpu/run_reference.py --kernels placement --variants-dir DIR
      --skip-ceilings [--placement-widths 512,1023] [--placement-seeds 17,18]
      [--placement-reps 50] [--no-placement-jit] [--out DIR]

Before anything else it checks its own NumPy decoding/reference against the
pure-Python definitions of refcore.py and runs each pair of kernels on a tiny
problem against the scalar reference.
"""

import argparse
import difflib
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
import refcore as rc

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
    """One PTX module loaded with the driver JIT (or, with `image`, the cubin
    ptxas made of that PTX); `abi` is (entry, memrefs, scalar arguments
    before the width)."""

    def __init__(self, path, hoisted, abi=(rc.ENTRY, rc.MEMREFS, 2), image=None):
        entry, memrefs, scalars = abi
        with open(path) as f:
            self.nparams = rc.check_abi(f.read(), hoisted, entry, memrefs, scalars)
        self.path = path
        self.hoisted = hoisted
        t0 = time.perf_counter()
        self.module = cp.RawModule(path=image or path)
        self.fn = self.module.get_function(entry)
        self.load_s = time.perf_counter() - t0

    def args(self, dev, T, stride, width):
        """Prefill kernel arguments."""
        ptrs = {n: dev[n].data.ptr for n, _ in rc.MEMREFS}
        sizes = {n: dev[n].size for n, _ in rc.MEMREFS}
        a = rc.kernel_args(ptrs, sizes, T, stride, width if self.hoisted else None)
        assert len(a) == self.nparams
        return ((rc.GRID, 1, 1), tuple(np.uint64(x) for x in a))

    def gather_args(self, dev, B, splits, width):
        ptrs = {n: dev[n].data.ptr for n, _ in rc.GATHER_MEMREFS}
        sizes = {n: dev[n].size for n, _ in rc.GATHER_MEMREFS}
        a = rc.gather_kernel_args(ptrs, sizes, splits, width if self.hoisted else None)
        assert len(a) == self.nparams
        return ((B, splits, 1), tuple(np.uint64(x) for x in a))

    def launch(self, args):
        grid, params = args
        self.fn(grid, (rc.BLOCK, 1, 1), params)


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


def time_kernels(kerns, argss, warmup, reps, inner=3, order_rng=None):
    """Interleaved event timings (ms per launch) of each kernel; the order
    rotates from one sample to the next (two kernels: alternates), or is
    drawn at random for each sample with `order_rng`; each sample is
    `inner` back-to-back launches between two events, so only the first
    launch's enqueue gap is inside."""
    stream = cp.cuda.get_current_stream()
    for _ in range(warmup):
        for k, a in zip(kerns, argss):
            k.launch(a)
    stream.synchronize()
    times = [[] for _ in kerns]
    evs = [(cp.cuda.Event(), cp.cuda.Event()) for _ in kerns]
    n = len(kerns)
    for r in range(reps):
        idx = [(i + r) % n for i in range(n)]
        if n == 2 and r % 2:
            idx = [1, 0]
        if order_rng is not None:
            idx = [int(i) for i in order_rng.permutation(n)]
        for i in idx:
            s, e = evs[i]
            s.record(stream)
            for _ in range(inner):
                kerns[i].launch(argss[i])
            e.record(stream)
            e.synchronize()
            times[i].append(cp.cuda.get_elapsed_time(s, e) / inner)
    return times


def noise_of(times):
    """Largest relative difference between the medians of the first and the
    second half of one kernel's samples."""
    half = len(times[0]) // 2
    return max(abs(statistics.median(t[:half]) - statistics.median(t[half:]))
               / statistics.median(t) for t in times)


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
    cp.get_default_memory_pool().free_all_blocks()
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
    cp.get_default_memory_pool().free_all_blocks()
    return 2 * n ** 3 / (statistics.median(ts) / 1e3)


def cuda_tool(name):
    """Path of a CUDA tool (ptxas, cuobjdump): on PATH, else CUDA's default."""
    return shutil.which(name) or f'/usr/local/cuda/bin/{name}'


def run_ptxas(ptx, cubin, *flags):
    """ptxas -arch=sm_90 -O3 [flags] PTX -o CUBIN, the one way every mode
    compiles; returns the finished process."""
    return subprocess.run([cuda_tool('ptxas'), '-arch=sm_90', '-O3', *flags, ptx,
                           '-o', cubin], capture_output=True, text=True)


def ptxas_report(paths, outdir):
    """Registers/spills from ptxas -v, SASS instruction count from cuobjdump."""
    cuobjdump = cuda_tool('cuobjdump')
    rep = {}
    if not os.path.exists(cuda_tool('ptxas')):
        return rep
    for name, path in paths:
        cubin = os.path.join(outdir, name + '.cubin')
        p = run_ptxas(path, cubin, '-v')
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


# ------------------------------------------------------------------ mqa ---

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


# --------------------------------------------------------------- gather ---

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


# ------------------------------------------------------------- placement ---

BRANCHES = ('BRA', 'BRX', 'BSSY', 'CALL', 'JMP', 'JMX', 'RET', 'WARPSYNC')


def ptxas_cubin(ptx, cubin):
    """The cubin ptxas makes of `ptx` (run_ptxas); fails loudly."""
    p = run_ptxas(ptx, cubin)
    if p.returncode:
        raise RuntimeError(f'ptxas {ptx}: {p.stderr}')
    return cubin


def sass_of(cubin):
    """[(byte offset, instruction)] of the cubin's kernel (cuobjdump -sass);
    trailing NOP padding dropped; None without cuobjdump."""
    cuobjdump = cuda_tool('cuobjdump')
    if not os.path.exists(cuobjdump):
        return None
    d = subprocess.run([cuobjdump, '-sass', cubin], capture_output=True, text=True)
    out = [(int(m.group(1), 16), ' '.join(m.group(2).split()))
           for m in (re.match(r'\s*/\*([0-9a-f]+)\*/\s+([^;]*);', l)
                     for l in d.stdout.splitlines()) if m]
    while out and out[-1][1] == 'NOP':
        out.pop()
    return out


def sass_key(ins):
    """An instruction with branch targets (absolute) blanked."""
    op = ins.split()[1] if ins.startswith('@') else ins.split()[0]
    if op.split('.')[0] in BRANCHES:
        ins = re.sub(r'0x[0-9a-f]+|`?\(?\.L_x_\d+\)?', 'TARGET', ins)
    return ins


def sass_compare(base, other):
    """What differs between two SASS listings: instructions identical in
    order (branch targets aside), and the differing opcodes."""
    a = [sass_key(i) for _, i in base]
    b = [sass_key(i) for _, i in other]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    same = sum(m.size for m in sm.get_matching_blocks())
    diff = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == 'equal':
            continue
        ops = lambda xs: ','.join(x.split()[0] if not x.startswith('@') else x.split()[1]
                                  for x in xs)
        diff.append(f'{ops(a[i1:i2]) or "-"}>{ops(b[j1:j2]) or "-"}')
    return same, diff


def sass_summary(sass):
    ffma = [off for off, i in sass if i.split()[0].startswith('FFMA')]
    return {'instrs': len(sass), 'ffma': len(ffma), 'first_ffma': ffma[0] if ffma else None,
            'listing': sass}


def bootstrap_ratios(times, ref, n=2000, seed=0):
    """Ratio of each kernel's median to kernel `ref`'s median, with a 95%
    interval from resampling the samples (the rows of one interleaved round
    together, so the pairing is kept)."""
    t = np.asarray(times)                                  # (kernels, samples)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, t.shape[1], (n, t.shape[1]))
    med = np.median(t[:, idx], axis=2)                     # (kernels, n)
    r = med / med[ref]
    point = np.median(t, axis=1) / np.median(t[ref])
    return point, np.percentile(r, 2.5, axis=1), np.percentile(r, 97.5, axis=1)


def load_placement(args, work):
    """Kernels of variants.json (make_variants.py): each compiled by ptxas
    here and loaded as a cubin; 'S 2nd'/'H 2nd': the same cubin as a second
    module (A/A); 'S jit'/'H jit': the PTX through the driver's JIT, as the
    mqa runs load it. Returns ({width: [(name, Kernel, meta)]}, sass info)."""
    vdir = args.variants_dir
    with open(os.path.join(vdir, 'variants.json')) as f:
        man = json.load(f)
    widths = ([int(w) for w in args.placement_widths.split(',')]
              if args.placement_widths else man['widths'])
    sass, cubins, loaded = {}, {}, {}
    for v in man['variants']:
        if v['width'] not in (None, *widths):
            continue
        ptx = os.path.join(vdir, v['ptx'])
        cubin = ptxas_cubin(ptx, os.path.join(work, v['ptx'][:-4] + '.cubin'))
        with open(cubin, 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        listing = sass_of(cubin)
        key = (v['name'], v['width'])
        cubins[key] = (ptx, cubin)
        sass[key] = dict(sass_summary(listing) if listing else {}, sha256=digest,
                         shift=v['shift_bytes'], ptx=v['ptx'])
    per_width = {}
    hoisted = [v for v in man['variants'] if v['width'] is None]
    for w in widths:
        spec = [v for v in man['variants'] if v['width'] == w]
        names = ([('S', spec[0], 'cubin'), ('S 2nd', spec[0], 'cubin'),
                  ('H', hoisted[0], 'cubin'), ('H 2nd', hoisted[0], 'cubin')]
                 + [(v['name'], v, 'cubin') for v in spec[1:] + hoisted[1:]]
                 + ([('S jit', spec[0], 'jit'), ('H jit', hoisted[0], 'jit')]
                    if args.placement_jit else []))
        kl = []
        for name, v, how in names:
            ptx, cubin = cubins[(v['name'], v['width'])]
            lk = (name, v['width'])
            if lk not in loaded:
                loaded[lk] = Kernel(ptx, v['hoisted'],
                                    image=cubin if how == 'cubin' else None)
            kl.append((name, loaded[lk], {
                'variant': v['name'], 'how': how, 'shift': v['shift_bytes'],
                'width': v['width'],
                'first_ffma': sass[(v['name'], v['width'])].get('first_ffma')}))
        per_width[w] = kl
    # What differs in SASS: each specialized variant against S of its width,
    # each hoisted variant against H, and H against S of each width.
    pairs = [((n, w), ('S', w) if w is not None else ('H', None))
             for (n, w) in sass if n not in ('S', 'H')]
    pairs += [(('H', None), ('S', w)) for w in widths]
    for key, base in pairs:
        a, b = sass.get(base, {}).get('listing'), sass[key].get('listing')
        if a and b:
            same, diff = sass_compare(a, b)
            sass[key].setdefault('vs', []).append(
                {'base': f'{base[0]}@{base[1] or "all"}', 'same_in_order': same,
                 'of': (len(a), len(b)), 'diff': diff})
    return per_width, sass, widths


def placement_width_seed(args, w, seed, kl, results, with_ref):
    """One problem (the inputs run_mqa_width draws for this seed and width):
    every kernel of `kl` once on the sentinel-filled output (each must write
    exactly what S writes, bit for bit, inside the windows and nothing
    outside), S against the float64 reference when `with_ref`, then all
    timed interleaved in a random order per round."""
    rng = np.random.default_rng(seed * 1000 + w)
    tokens = int(min(args.max_tokens, max(args.min_tokens,
                                          round(args.logits / (w * rc.PAGE / 2)))))
    inp, T, B = make_inputs(rng, w, tokens)
    stride = w * rc.PAGE + 4
    dev = upload(inp, T, stride)
    kerns = [k for _, k, _ in kl]
    argss = [k.args(dev, T, stride, w) for k in kerns]
    outs = [run_once(k, dev, a) for k, a in zip(kerns, argss)]
    writes = [write_check(o, inp['kv_len'], T, stride) for o in outs]
    same = [bool(np.array_equal(outs[0].view(np.uint32), o.view(np.uint32))) for o in outs]
    err = (reference_numpy(inp, w, T, B, outs[0].reshape(T, stride), stride)
           if with_ref else None)
    del outs
    times = time_kernels(kerns, argss, args.warmup, args.placement_reps,
                         order_rng=np.random.default_rng(seed * 7919 + w))
    point, lo, hi = bootstrap_ratios(times, 0, seed=seed + w)
    names = [n for n, _, _ in kl]
    # Two more comparisons: H against the S variant whose tile loop sits
    # where H's does (the same first FFMA offset), and the A/A pair of H.
    extra = {}
    ff = {n: m.get('first_ffma') for n, _, m in kl}
    same_place = [n for n in names if n.startswith('S+') and ff['H'] is not None
                  and ff[n] == ff['H']]
    for a, b in [('H', n) for n in same_place[:1]] + [('H 2nd', 'H')]:
        if a in names and b in names:
            pe, le, he = bootstrap_ratios(times, names.index(b), seed=seed + w)
            i = names.index(a)
            extra[f'{a} / {b}'] = [float(pe[i]), float(le[i]), float(he[i])]
    ok = all(x == (0, 0) for x in writes) and all(same) and (
        err is None or err['rel_l2'] < 1e-5)
    r = {'width': w, 'seed': seed, 'tokens': T, 'names': names,
         'meta': [m for _, _, m in kl], 'writes': writes, 'identical_to_S': same,
         'rel_l2_S': err['rel_l2'] if err else None,
         'ms': [statistics.median(t) for t in times], 'ratio_to_S': point.tolist(),
         'ci_lo': lo.tolist(), 'ci_hi': hi.tolist(), 'extra': extra,
         'noise': noise_of(times),
         'times': times, 'ok': ok}
    results['placement'].append(r)
    log(f'placement W={w} seed={seed}: T={T}, identical to S {all(same)}, writes ok '
        f'{all(x == (0, 0) for x in writes)}, rel_l2(S) '
        f'{"%.1e" % err["rel_l2"] if err else "-"}, noise {r["noise"]:.4f}; '
        + ', '.join(f'{n} {p:.4f} [{a:.4f},{b:.4f}]'
                    for n, p, a, b in zip(names, point, lo, hi)))
    del dev
    cp.get_default_memory_pool().free_all_blocks()
    return r


def run_placement(args, results, work, save=lambda: None):
    per_width, sass, widths = load_placement(args, work)
    results['placement_sass'] = {f'{n}@{w}': {k: v for k, v in i.items() if k != 'listing'}
                                 for (n, w), i in sass.items()}
    with open(os.path.join(args.out, 'placement_sass.txt'), 'w') as f:
        for (n, w), i in sass.items():
            f.write(f'// {n} width {w or "all"} ({i["ptx"]}, cubin sha256 {i["sha256"]})\n')
            f.write(''.join(f'/*{off:05x}*/ {ins} ;\n' for off, ins in i.get('listing') or []))
    seeds = [int(s) for s in args.placement_seeds.split(',')]
    refs = set()
    for w in widths:
        for seed in seeds:
            try:
                placement_width_seed(args, w, seed, per_width[w], results,
                                     (w, seed) not in refs
                                     and len({s for x, s in refs if x == w})
                                     < args.placement_ref_seeds)
                refs.add((w, seed))
            except Exception:
                import traceback
                traceback.print_exc()
                results['placement'].append({'width': w, 'seed': seed, 'ok': False,
                                             'failed': True})
            save()
    return placement_text(results, sass, widths)


def placement_text(results, sass, widths):
    text = ['', 'placement (kernels/paged_fp4_mqa_logits.mlir, cubins by ptxas -O3 '
                'unless "jit"):']
    rows = []
    for (n, w), i in sorted(sass.items(),
                            key=lambda x: (x[0][1] or 0, x[0][0][0], x[1]['shift'])):
        ff = i.get('first_ffma')
        for c in i.get('vs') or [{}]:
            rows.append([n, w or 'all', i.get('shift', 0), i.get('instrs', '-'),
                         i.get('ffma', '-'),
                         f'{ff:#x} ({ff % 128})' if ff is not None else '-',
                         f'{c.get("same_in_order", "-")} vs {c.get("base", "-")}',
                         ' '.join(c.get('diff', []))[:80], i['sha256'][:12]])
    text.append(rc.table(rows, ['variant', 'width', 'shift', 'SASS', 'FFMA',
                                'first FFMA (mod 128)', 'identical in order',
                                'differing opcodes (base>variant)', 'cubin sha256']))
    runs = [r for r in results['placement'] if not r.get('failed')]
    for w in widths:
        rw = [r for r in runs if r['width'] == w]
        if not rw:
            continue
        names = rw[0]['names']
        head = ['variant'] + [f'seed {r["seed"]}' for r in rw] + ['geo. mean']
        rows = []
        for i, n in enumerate(names):
            if i == 0:
                rows.append([n] + [f'{r["ms"][0]:.3f} ms' for r in rw] + [''])
                continue
            gm = statistics.geometric_mean(r['ratio_to_S'][i] for r in rw)
            rows.append([n] + [f'{r["ratio_to_S"][i]:.4f} [{r["ci_lo"][i]:.4f},'
                               f'{r["ci_hi"][i]:.4f}]' for r in rw] + [f'{gm:.4f}'])
        for k in rw[0]['extra']:
            gm = statistics.geometric_mean(r['extra'][k][0] for r in rw)
            rows.append([k] + [f'{r["extra"][k][0]:.4f} [{r["extra"][k][1]:.4f},'
                               f'{r["extra"][k][2]:.4f}]' for r in rw] + [f'{gm:.4f}'])
        rows.append(['noise'] + [f'{r["noise"]:.4f}' for r in rw] + [''])
        rows.append(['correct'] + [str(r['ok']) for r in rw] + [''])
        text += ['', f'W = {w}: time / time of S, median of the samples [95% bootstrap]',
                 rc.table(rows, head)]
    return text


# ------------------------------------------------------------------ main ---

def load_pair(ptx_dir, widths, abi):
    """The hoisted kernel and one specialized kernel per width of a PTX dir."""
    with open(os.path.join(ptx_dir, 'manifest.json')) as f:
        manifest = json.load(f)
    if manifest['entry'] != abi[0]:
        sys.exit(f'error: {ptx_dir} holds {manifest["entry"]}, expected {abi[0]}')
    widths = widths or manifest['widths']
    hoisted = Kernel(os.path.join(ptx_dir, 'hoisted.ptx'), True, abi)
    specs = {w: Kernel(os.path.join(ptx_dir, f'specialized_w{w}.ptx'), False, abi)
             for w in widths}
    sha = next(iter(manifest['hoisted'].values()))['sha256']
    log(f'{abi[0]}: {ptx_dir}, hoisted sha256 {sha[:16]} (one file for all widths), '
        f'{len(specs)} specialized; widths {widths}')
    return hoisted, specs, widths


def pct(x, ceiling):
    return f' ({100 * x / ceiling:.1f}%)' if ceiling else ''


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


def main():
    global np, cp
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--kernels', default='mqa,gather')
    parser.add_argument('--ptx-dir', default=os.path.join(HERE, 'ptx'),
                        help='PTX of the prefill kernel (make_ptx.py output)')
    parser.add_argument('--gather-ptx-dir', default=os.path.join(HERE, 'ptx_gather'))
    parser.add_argument('--baseline-unchecked', action='store_true',
                        help='time the baseline kernel without its float64 reference check')
    parser.add_argument('--candidates',
                        help='comma-separated PTX dirs of prefill kernel versions: the '
                             'fastest (hoisted, --screen-widths) becomes --ptx-dir')
    parser.add_argument('--screen-widths', default='128,333,512')
    parser.add_argument('--screen-reps', type=int, default=20)
    parser.add_argument('--baseline-ptx-dir',
                        help='PTX of an earlier prefill kernel, timed against the new one')
    parser.add_argument('--widths', help='prefill widths (default: the manifest\'s)')
    parser.add_argument('--gather-widths', help='gather widths (default: the manifest\'s)')
    parser.add_argument('--logits', type=float, default=3e6,
                        help='target number of logits per width (sets the token count)')
    parser.add_argument('--min-tokens', type=int, default=512)
    parser.add_argument('--max-tokens', type=int, default=32768)
    parser.add_argument('--gather-pages', type=int, default=1 << 17,
                        help='pages in use per gather problem (the pool is twice that)')
    parser.add_argument('--reps', type=int, default=30)
    parser.add_argument('--gather-reps', type=int, default=100)
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--seed', type=int, default=2026)
    parser.add_argument('--skip-ceilings', action='store_true')
    parser.add_argument('--variants-dir',
                        help='--kernels placement: make_variants.py output (variants.json)')
    parser.add_argument('--placement-widths', help='default: variants.json\'s')
    parser.add_argument('--placement-seeds', default='17,18,19,20,17',
                        help='input seeds per width (a repeated seed draws the same inputs)')
    parser.add_argument('--placement-reps', type=int, default=50)
    parser.add_argument('--placement-jit', action=argparse.BooleanOptionalAction,
                        default=True, help='also time S and H loaded from PTX (driver JIT)')
    parser.add_argument('--placement-ref-seeds', type=int, default=1,
                        help='seeds per width whose S output is checked against float64 '
                             '(every output is compared with S\'s bit for bit)')
    parser.add_argument('--out', default=os.environ.get('OUT', '.'))
    args = parser.parse_args()
    kinds = args.kernels.split(',')

    import numpy
    import cupy
    np, cp = numpy, cupy
    os.makedirs(args.out, exist_ok=True)

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
    t0 = time.perf_counter()
    results = {'info': info, 'mqa': [], 'gather': [], 'ceilings': {}, 'resources': {},
               'failed_checks': [], 'screen': [], 'placement': []}
    out_json = os.path.join(args.out, 'gpu_results.json')

    def save():
        with open(out_json, 'w') as f:
            json.dump(results, f, indent=1)

    def guarded(what, fn, *a):
        # A failed check is recorded and the run goes on: the other kernel's
        # figures and this one's per-width checks still come back.
        try:
            fn(*a)
        except Exception:
            import traceback
            traceback.print_exc()
            results['failed_checks'].append(what)

    paths = []
    mqa_abi = (rc.ENTRY, rc.MEMREFS, 2)
    gather_abi = (rc.GATHER_ENTRY, rc.GATHER_MEMREFS, 1)
    if 'mqa' in kinds:
        old = None
        if args.baseline_ptx_dir:
            old = Kernel(os.path.join(args.baseline_ptx_dir, 'hoisted.ptx'), True, mqa_abi)
            log(f'baseline prefill kernel: {old.path}')
            paths.append(('mqa_old_hoisted', old.path))
        if args.candidates:
            args.ptx_dir = screen_candidates(
                args, args.candidates.split(','), old,
                [int(w) for w in args.screen_widths.split(',')], results)
        mqa_h, mqa_specs, mqa_widths = load_pair(
            args.ptx_dir, [int(w) for w in args.widths.split(',')] if args.widths else None,
            mqa_abi)
        wmin = min(mqa_widths)
        guarded('mqa self-check', self_check,
                [('hoisted', mqa_h), ('specialized', mqa_specs[wmin])], wmin)
        paths += [('mqa_hoisted', mqa_h.path)] + [
            (f'mqa_specialized_w{w}', mqa_specs[w].path) for w in mqa_widths]
    if 'gather' in kinds:
        g_h, g_specs, g_widths = load_pair(
            args.gather_ptx_dir,
            [int(w) for w in args.gather_widths.split(',')] if args.gather_widths else None,
            gather_abi)
        wmin = min(g_widths)
        guarded('gather self-check', gather_self_check,
                [('hoisted', g_h), ('specialized', g_specs[wmin])], wmin)
        paths += [('gather_hoisted', g_h.path)] + [
            (f'gather_specialized_w{w}', g_specs[w].path) for w in g_widths]

    if not args.skip_ceilings:
        bw, ok = copy_bandwidth()
        results['ceilings']['copy_bytes_per_s'] = bw
        results['ceilings']['copy_ok'] = ok
        log(f'device-to-device copy: {bw / 1e12:.2f} TB/s (bytes read + written), ok={ok}')
        fl = sgemm_rate()
        results['ceilings']['sgemm_flops'] = fl
        log(f'FP32 SGEMM (CuPy/cuBLAS 8192^3): {fl / 1e12:.1f} TFLOP/s')

    if 'gather' in kinds:
        for w in g_widths:
            try:
                run_gather_width(args, w, g_h, g_specs[w], results)
            except Exception:
                import traceback
                traceback.print_exc()
                results['gather'].append({'width': w, 'ok': False, 'failed': True})
            save()
    if 'mqa' in kinds:
        for w in mqa_widths:
            try:
                run_mqa_width(args, w, mqa_h, mqa_specs[w], old, results)
            except Exception:
                import traceback
                traceback.print_exc()
                results['mqa'].append({'width': w, 'ok': False, 'failed': True})
            save()

    placement = []
    if 'placement' in kinds:
        import tempfile
        with tempfile.TemporaryDirectory() as work:
            placement = run_placement(args, results, work, save)
        save()

    results['resources'] = ptxas_report(paths, args.out)
    for name, rep in results['resources'].items():
        log(f'{name}: {rep["ptxas"]} sass_instrs={rep["sass_instrs"]}')

    bw = results['ceilings'].get('copy_bytes_per_s')
    fl = results['ceilings'].get('sgemm_flops')
    done = {k: [r for r in results[k] if not r.get('failed')] for k in ('gather', 'mqa')}
    failed = sum(1 for k in ('gather', 'mqa') for r in results[k] if r.get('failed'))
    text = []
    if results.get('screen_choice'):
        text.append(f'prefill kernel versions screened at widths {args.screen_widths}: '
                    f'chosen {results["screen_choice"]} (ptx dir {args.ptx_dir})')
    if bw:
        text.append(f'copy bandwidth {bw / 1e12:.2f} TB/s; FP32 SGEMM {fl / 1e12:.1f} TFLOP/s')
    if done['gather']:
        g = done['gather']
        text += ['', 'gather (kernels/paged_fp4_k_gather.mlir):', gather_table(g, bw)]
        worst = max(r['ratio'] for r in g)
        frac = min(r['min_bytes'] / (r['ms_h'] / 1e3) for r in g) / bw if bw else 0
        text.append(f'gather: h/s {min(r["ratio"] for r in g):.4f} .. {worst:.4f} '
                    f'(target <= 1.005), lowest hoisted bandwidth {100 * frac:.1f}% of copy '
                    f'(target >= 70%); correct everywhere: {all(r["ok"] for r in g)}')
    if done['mqa']:
        m = done['mqa']
        text += ['', 'mqa (kernels/paged_fp4_mqa_logits.mlir):', mqa_table(m, bw, fl)]
        line = (f'mqa: h/s {min(r["ratio"] for r in m):.4f} .. '
                f'{max(r["ratio"] for r in m):.4f}; correct everywhere: '
                f'{all(r["ok"] for r in m)}')
        if 'speedup' in m[0]:
            inrange = [r['speedup'] for r in m if r['width'] <= 512]
            line += (f'; old/new {min(r["speedup"] for r in m):.2f}x .. '
                     f'{max(r["speedup"] for r in m):.2f}x (widths <= 512: '
                     f'{min(inrange) if inrange else 0:.2f}x at least, target >= 2x)')
        text.append(line)
    text += placement
    failed += sum(1 for r in results['placement'] if r.get('failed'))
    text.append(f'failed widths: {failed}; failed self-checks: '
                f'{results["failed_checks"] or "none"}; total {time.perf_counter() - t0:.0f} s')
    log('\n'.join(text))
    save()
    with open(os.path.join(args.out, 'gpu_table.txt'), 'w') as f:
        f.write('\n'.join(text) + '\n')
    allok = (failed == 0 and not results['failed_checks']
             and all(r['ok'] for k in done for r in done[k])
             and all(r['ok'] for r in results['placement']))
    return 0 if allok else 1


if __name__ == '__main__':
    sys.exit(main())

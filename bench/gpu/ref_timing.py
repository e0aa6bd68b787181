"""run_reference.py's timing, ceilings and ptxas reports: how kernels are
run and timed, and what the GPU can do at best."""

import os
import shutil
import statistics
import subprocess
import time
import refcore as rc

np = None  # numpy and cupy, set by run_reference.main()
cp = None


def log(*a):
    print(*a, flush=True)


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


def fill_sentinel(arr):
    arr.view(cp.uint32).fill(rc.SENTINEL_BITS)


def run_once(kern, dev, args):
    fill_sentinel(dev['logits'])
    kern.launch(args)
    cp.cuda.runtime.deviceSynchronize()
    return cp.asnumpy(dev['logits'])


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


def pct(x, ceiling):
    return f' ({100 * x / ceiling:.1f}%)' if ceiling else ''

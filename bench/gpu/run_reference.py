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
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
import refcore as rc
import ref_gather  # noqa: E402
import ref_mqa  # noqa: E402
import ref_placement  # noqa: E402
import ref_timing  # noqa: E402
from ref_timing import (  # noqa: E402,F401
    log,
    Kernel,
    fill_sentinel,
    run_once,
    time_kernels,
    noise_of,
    copy_bandwidth,
    sgemm_rate,
    cuda_tool,
    run_ptxas,
    ptxas_report,
    bootstrap_ratios,
    pct)
from ref_mqa import (  # noqa: E402,F401
    nibble_lut,
    decode_rows,
    to_bf16_bits,
    bf16_to_f64,
    make_inputs,
    reference_numpy,
    min_bytes,
    upload,
    write_check,
    self_check,
    run_mqa_width,
    screen_candidates,
    mqa_table)
from ref_gather import (  # noqa: E402,F401
    GATHER_IN,
    GATHER_OUT,
    make_gather_inputs,
    gather_upload,
    gather_run_once,
    gather_rows,
    gather_check,
    gather_sample_check,
    gather_min_bytes,
    gather_self_check,
    run_gather_width,
    gather_table)
from ref_placement import (  # noqa: E402,F401
    BRANCHES,
    ptxas_cubin,
    sass_of,
    sass_key,
    sass_compare,
    sass_summary,
    load_placement,
    placement_width_seed,
    run_placement,
    placement_text,
    load_pair)

np = None
cp = None


# ---------------------------------------------------------------- inputs ---


# ---------------------------------------------------------------- device ---


# ------------------------------------------------------------ self-check ---


# ------------------------------------------------------------------ mqa ---


# --------------------------------------------------------------- gather ---


# ------------------------------------------------------------- placement ---


# ------------------------------------------------------------------ main ---


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
    # The modules split off this script use them as this one does.
    for part in (ref_timing, ref_mqa, ref_gather, ref_placement):
        part.np, part.cp = numpy, cupy
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

"""run_reference.py's placement study: SASS comparison of the variants and
their timing per width and seed."""

import difflib
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import refcore as rc
from ref_timing import Kernel, bootstrap_ratios, cuda_tool, log, noise_of, run_once, run_ptxas, time_kernels  # noqa: F401
from ref_mqa import make_inputs, reference_numpy, upload, write_check  # noqa: F401

np = None  # numpy and cupy, set by run_reference.main()
cp = None


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

#!/usr/bin/env python3
"""What a hoisted stride costs the backend, and what each fact gives back.

For each microkernel in bench/microkernels/ and the reference kernel
(kernels/paged_fp4_mqa_logits.mlir), for each chip and each marked value,
compiles five variants to code objects:

  specialized  materialize-specialization (the stride is a constant)
  hoisted      hoist-stride-specialization (default: the value as is)
  div16        hoist-stride-specialization{divisibility=16}
  narrow       hoist-stride-specialization{narrow-range}
  both         hoist-stride-specialization{divisibility=16 narrow-range}

and prints, from the disassembly (llvm-objdump-22) and the code object
metadata (llvm-readelf-22 --notes): instructions (up to each function's
final s_endpgm; the s_nop 0 / s_code_end alignment padding after it is not
counted), VGPRs, SGPRs, spills (SGPR + VGPR), kernel argument bytes, and
instruction classes:
  w128    128-bit memory accesses (global/buffer/flat dwordx4, ds_*_b128)
  w64     64/96-bit accesses (dwordx2/x3, ds_*_b64/_b96, ds_*2_b64 pairs)
  narrow  32-bit-or-less vector/LDS memory accesses (dword, short, byte,
          ds_*_b32, ds_*2_b32 pairs); scalar s_load of kernel arguments
          is not counted
  imul    integer multiplies (v_mul_lo/hi, v_mad_u64_u32, v_mul_u32_u24,
          s_mul_i32, s_mul_hi)
  a64     64-bit integer address arithmetic (v_mad_u64_u32, v_lshl_add_u64,
          *_b64 shifts, add/sub with carry, mul_hi)
Ratios are instructions relative to `specialized` of the same chip, case
and value, from this run. `fact` is what the pass recorded for the value
(divisor kept by divisibility=16, i32 = passed narrow).

  bench/facts.py [--chips gfx942,gfx950] [--values 128,96,200]
                 [--cases vec4_f32_rows,...,reference]
                 [--modes hoisted,div16,narrow,both] [--jobs 2]
"""

import argparse
import concurrent.futures
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import common
import quality

BENCH = os.path.dirname(os.path.abspath(__file__))
MICRO = os.path.join(BENCH, 'microkernels')

MODES = [
    ('specialized', 'materialize-specialization'),
    ('hoisted', 'hoist-stride-specialization{remarks=false}'),
    ('div16', 'hoist-stride-specialization{remarks=false divisibility=16}'),
    ('narrow', 'hoist-stride-specialization{remarks=false narrow-range}'),
    ('both', 'hoist-stride-specialization{remarks=false divisibility=16 narrow-range}'),
]

_MEM = re.compile(r'^(global|buffer|flat|scratch|ds)_(load|store|read|write)')
_W128 = re.compile(r'(dwordx4|_b128)$')
_W64 = re.compile(r'(dwordx2|dwordx3|_b64|_b96)$')
_IMUL = re.compile(r'^(v_mul_lo_u32|v_mul_hi_u32|v_mul_hi_i32|v_mad_u64_u32|v_mad_i64_i32|'
                   r'v_mul_u32_u24|v_mul_i32_i24|v_mad_u32_u24|v_mad_i32_i24|'
                   r'v_mul_hi_u32_u24|v_mul_hi_i32_i24|s_mul_i32|s_mul_hi_u32|s_mul_hi_i32)$')
_A64 = re.compile(r'^(v_mad_u64_u32|v_mad_i64_i32|v_lshl_add_u64|v_lshlrev_b64|v_lshrrev_b64|'
                  r'v_ashrrev_i64|v_add_co_u32|v_addc_co_u32|v_sub_co_u32|v_subb_co_u32|'
                  r'v_subrev_co_u32|v_subbrev_co_u32|v_add_u64|v_sub_u64|v_mul_hi_u32|'
                  r'v_mul_hi_i32|s_add_u32|s_addc_u32|s_sub_u32|s_subb_u32|s_lshl_b64|'
                  r's_lshr_b64|s_ashr_i64|s_mul_hi_u32|s_mul_hi_i32|s_add_u64|s_mul_u64)$')


def cases():
    """[(name, path, parameter name)] for the microkernels and the reference."""
    out = []
    for path in sorted(glob.glob(os.path.join(MICRO, '*.mlir'))):
        out.append((os.path.basename(path)[:-5], path, 'row_stride'))
    out.append(('reference', common.KERNEL, common.WIDTH_PARAM))
    return out


def with_value(text, param, value):
    """`text` with the literal of `spec.param "<param>" = N` set to value."""
    line = re.compile(r'(spec\.param\s+"' + re.escape(param) + r'"\s*=\s*)(\d+)')
    new, count = line.subn(lambda m: m.group(1) + str(value), text)
    if count != 1:
        sys.exit(f'error: expected one `spec.param "{param}" = N` line, found {count}')
    return new


def strip_suffix(mnemonic):
    return re.sub(r'_e(32|64|64_dpp|32_dpp|_sdwa)$', '', mnemonic)


def instructions(objdump, path):
    """The mnemonics of every function in the code object, without padding.

    The disassembly pads each function to its alignment with `s_nop 0`
    (and `s_code_end`) after the final `s_endpgm`; that tail is dropped.
    """
    text = subprocess.run([objdump, '-d', '--no-show-raw-insn', '--no-leading-addr', path],
                          check=True, capture_output=True, text=True).stdout
    out = []
    block = []

    def flush():
        last = max((i for i, m in enumerate(block) if m == 's_endpgm'), default=None)
        tail = block[last + 1:] if last is not None else []
        if last is not None and all(m in ('s_nop', 's_code_end') for m in tail):
            out.extend(block[:last + 1])
        else:
            out.extend(m for m in block if m != 's_code_end')
        block.clear()

    for line in text.splitlines():
        if re.match(r'^<[^>]+>:$', line.strip()):
            flush()
            continue
        if not line.startswith('\t'):
            continue
        word = line.split()[0] if line.split() else ''
        if word and not word.endswith(':') and not word.startswith('.'):
            block.append(word)
    flush()
    return out


def classify(mnemonics):
    counts = {'w128': 0, 'w64': 0, 'narrow': 0, 'imul': 0, 'a64': 0}
    for m in map(strip_suffix, mnemonics):
        if _MEM.match(m):
            if _W128.search(m):
                counts['w128'] += 1
            elif _W64.search(m):
                counts['w64'] += 1
            else:
                counts['narrow'] += 1
        if _IMUL.match(m):
            counts['imul'] += 1
        if _A64.match(m):
            counts['a64'] += 1
    return counts


def fact_of(fly_opt, text, param, workdir):
    """The divisor and type the pass records for the value with both options."""
    manifest = os.path.join(workdir, 'facts-manifest.json')
    common.compile_module(
        fly_opt, text,
        'builtin.module(hoist-stride-specialization{remarks=false '
        f'divisibility=16 narrow-range manifest={manifest}}})',
        workdir)
    with open(manifest) as f:
        kernels = json.load(f)['kernels']
    entry = next((e for k in kernels for e in k['hoisted']
                  if e['name'] == param), None)
    if entry is None:
        return 'NOT HOISTED'
    d = next((p['divisor'] for p in entry['preconditions']
              if p['kind'] == 'divisible-by'), 1)
    return f'd={d} {entry["type"]}'


def measure(fly_opt, objdump, readelf, text, chip, pipe_first, workdir, tag):
    pipe = f'builtin.module({pipe_first},flyhoist-amdgpu-pipeline{{chip={chip} format=bin}})'
    out, cpu, _ = common.compile_module(fly_opt, text, pipe, workdir)
    objs = common.object_bytes(out)
    if len(objs) != 1:
        raise RuntimeError(f'{tag}: expected one code object, found {len(objs)}')
    path = os.path.join(workdir, tag + '.hsaco')
    with open(path, 'wb') as f:
        f.write(objs[0][2])
    mnemonics = instructions(objdump, path)
    md = quality.metadata(readelf, path)
    row = {'instrs': len(mnemonics), 'vgpr': md['.vgpr_count'], 'sgpr': md['.sgpr_count'],
           'spill': (md['.sgpr_spill_count'] or 0) + (md['.vgpr_spill_count'] or 0),
           'kernarg': md['.kernarg_segment_size'], 'cpu': cpu}
    row.update(classify(mnemonics))
    os.unlink(path)
    return row


COLS = ['instrs', 'vgpr', 'sgpr', 'spill', 'kernarg', 'w128', 'w64', 'narrow', 'imul', 'a64']


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--chips', default='gfx942,gfx950')
    parser.add_argument('--values', default='128,96,200')
    parser.add_argument('--cases', help='comma-separated case names (default: all)')
    parser.add_argument('--modes',
                        help='comma-separated modes besides specialized (default: all)')
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--fly-opt')
    args = parser.parse_args()
    fly_opt = common.find_fly_opt(args.fly_opt)
    objdump = common.find_llvm_tool('llvm-objdump')
    readelf = common.find_llvm_tool('llvm-readelf')
    chips = args.chips.split(',')
    values = [int(v) for v in args.values.split(',')]
    selected = cases()
    if args.cases:
        wanted = args.cases.split(',')
        selected = [c for c in selected if c[0] in wanted]
        missing = set(wanted) - {c[0] for c in selected}
        if missing:
            sys.exit(f'error: unknown cases {sorted(missing)}')

    modes = MODES
    if args.modes:
        wanted = args.modes.split(',')
        modes = [m for m in MODES if m[0] == 'specialized' or m[0] in wanted]
        missing = set(wanted) - {m[0] for m in modes}
        if missing:
            sys.exit(f'error: unknown modes {sorted(missing)}')

    print(f'fly-opt: {fly_opt}')
    print(f'machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores; '
          f'{time.strftime("%Y-%m-%dT%H:%M:%S")}')
    print(f'chips: {",".join(chips)}; values: {",".join(map(str, values))}; '
          f'{args.jobs} parallel compiles')
    print()

    results = {}
    facts = {}
    with tempfile.TemporaryDirectory(prefix='flyhoist-facts-') as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {}
        for name, path, param in selected:
            with open(path) as f:
                base = f.read()
            for value in values:
                text = with_value(base, param, value)
                facts[(name, value)] = pool.submit(fact_of, fly_opt, text, param, workdir)
                for chip in chips:
                    for mode, first in modes:
                        tag = f'{name}-{value}-{chip}-{mode}'
                        jobs[(chip, name, value, mode)] = pool.submit(
                            measure, fly_opt, objdump, readelf, text, chip, first,
                            workdir, tag)
        for key, fut in jobs.items():
            results[key] = fut.result()
        facts = {k: f.result() for k, f in facts.items()}

    header = (f'{"chip":<7} {"case":<14} {"value":>5} {"mode":<12} {"fact":<10} ' +
              ' '.join(f'{c:>7}' for c in COLS) + f' {"ratio":>7}')
    print(header)
    print('-' * len(header))
    for chip in chips:
        for name, _, _ in selected:
            for value in values:
                base = results[(chip, name, value, 'specialized')]['instrs']
                for mode, _ in modes:
                    r = results[(chip, name, value, mode)]
                    fact = {'specialized': 'const', 'hoisted': 'd=1 index'}.get(mode, '')
                    if mode == 'both':
                        fact = facts[(name, value)]
                    ratio = f'{r["instrs"] / base:.3f}'
                    print(f'{chip:<7} {name:<14} {value:>5} {mode:<12} {fact:<10} ' +
                          ' '.join(f'{("-" if r[c] is None else r[c]):>7}' for c in COLS) +
                          f' {ratio:>7}')
            print()

    # Summary: per case and chip, each mode's worst instruction ratio over the
    # values, and whether its memory-access classes equal the specialized ones.
    print('summary: worst instruction ratio over the values vs specialized; '
          '"=mem" when every value has the specialized w128/w64/narrow counts')
    head = f'{"chip":<7} {"case":<14} ' + ' '.join(f'{m:>13}' for m, _ in modes[1:])
    print(head)
    print('-' * len(head))
    for chip in chips:
        for name, _, _ in selected:
            cells = []
            for mode, _ in modes[1:]:
                worst = 0.0
                same_mem = True
                for value in values:
                    s = results[(chip, name, value, 'specialized')]
                    r = results[(chip, name, value, mode)]
                    worst = max(worst, r['instrs'] / s['instrs'])
                    same_mem &= all(r[c] == s[c] for c in ('w128', 'w64', 'narrow'))
                cells.append(f'{worst:.3f}{" =mem" if same_mem else " MEM"}')
            print(f'{chip:<7} {name:<14} ' + ' '.join(f'{c:>13}' for c in cells))
    return 0


if __name__ == '__main__':
    sys.exit(main())

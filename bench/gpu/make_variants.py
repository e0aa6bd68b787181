#!/usr/bin/env python3
"""Placement variants of the prefill kernel's PTX: the same code, moved.

Reads a make_ptx.py directory (hoisted.ptx, specialized_w<W>.ptx) and writes,
for each width, copies of the specialized PTX with N `nanosleep.u32 0;`
inserted before the first instruction of the kernel, and copies of the
hoisted PTX likewise. ptxas keeps a nanosleep (it has an effect), puts it at
the top of the entry block and leaves the rest of the SASS as it was, so
every instruction after it, the tile loop included, sits 16 * N bytes later:
the specialized kernel moved by 16 bytes is where the hoisted kernel's loop
sits, the hoisted kernel moved by 112 bytes is 128 bytes from the
specialized one (the same place modulo a 128-byte line). run_reference.py
--kernels placement compiles each with ptxas on the device, checks with
cuobjdump that only the shift changed, runs each on the same inputs (bit
identical to the specialized kernel) and times them interleaved.

Writes OUT/variants.json: widths, and per variant its name, PTX file,
whether it is hoisted (takes the width as its last argument), the file it
was made from and its shift in bytes. Standard library only.

  bench/gpu/make_variants.py --ptx-dir DIR/ptx_mqa -o DIR/variants
      [--widths 333,512,1023] [--spec-shifts 1,2,3,4,8] [--hoisted-shifts 1,7]
"""

import argparse
import json
import os
import shutil
import sys

SLEEP = '\tnanosleep.u32 \t0;'


def shifted(ptx, count):
    """The PTX with `count` nanosleeps before the first instruction of the
    (single) entry's body."""
    lines = ptx.split('\n')
    body = next((i for i, l in enumerate(lines) if l.strip() == '{'), None)
    if body is None:
        sys.exit('error: no function body in the PTX')
    first = next(i for i in range(body + 1, len(lines))
                 if lines[i].strip() and not lines[i].strip().startswith(('.', '//')))
    return '\n'.join(lines[:first] + [SLEEP] * count + lines[first:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ptx-dir', required=True, help='make_ptx.py output')
    parser.add_argument('-o', '--output-dir', required=True)
    parser.add_argument('--widths', help='default: the PTX dir\'s widths of 333 and up')
    parser.add_argument('--spec-shifts', default='1,2,3,4,8',
                        help='nanosleeps inserted into the specialized kernel (16 bytes each)')
    parser.add_argument('--hoisted-shifts', default='1,7',
                        help='nanosleeps inserted into the hoisted kernel')
    args = parser.parse_args()

    with open(os.path.join(args.ptx_dir, 'manifest.json')) as f:
        manifest = json.load(f)
    widths = ([int(w) for w in args.widths.split(',')] if args.widths
              else [w for w in manifest['widths'] if w >= 333])
    os.makedirs(args.output_dir, exist_ok=True)
    out = {'entry': manifest['entry'], 'widths': widths, 'source': args.ptx_dir,
           'variants': []}

    def add(name, src, dst, count, hoisted, width):
        with open(os.path.join(args.ptx_dir, src)) as f:
            text = f.read()
        if count:
            text = shifted(text, count)
            with open(os.path.join(args.output_dir, dst), 'w') as f:
                f.write(text)
        else:
            shutil.copyfile(os.path.join(args.ptx_dir, src),
                            os.path.join(args.output_dir, dst))
        out['variants'].append({'name': name, 'ptx': dst, 'from': src, 'hoisted': hoisted,
                                'width': width, 'shift_bytes': 16 * count})

    spec_shifts = [int(s) for s in args.spec_shifts.split(',') if s]
    hoist_shifts = [int(s) for s in args.hoisted_shifts.split(',') if s]
    add('H', 'hoisted.ptx', 'hoisted.ptx', 0, True, None)
    for n in hoist_shifts:
        add(f'H+{16 * n}', 'hoisted.ptx', f'hoisted_s{16 * n}.ptx', n, True, None)
    for w in widths:
        src = f'specialized_w{w}.ptx'
        add('S', src, src, 0, False, w)
        for n in spec_shifts:
            add(f'S+{16 * n}', src, f'specialized_w{w}_s{16 * n}.ptx', n, False, w)
    with open(os.path.join(args.output_dir, 'variants.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print(f'{len(out["variants"])} PTX files for widths {widths} in {args.output_dir}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Extracts the objects of every `gpu.binary` in a printed MLIR module.

Usage: gpu_objects.py MODULE.mlir [-o DIR]
Writes DIR/<binary>.<chip>.hsaco for `bin`/`offload` objects and
DIR/<binary>.<chip>.s for `assembly` ones, and prints one line per file:
`<sha256> <path>`. Standard library only; the decoder follows MLIR's string
printing (printable ASCII as is, `\\\\`, and `\\XX` hex escapes).
"""

import argparse
import hashlib
import os
import re
import sys

_BINARY = re.compile(r'gpu\.binary @([\w$.]+)')
_OBJECT = re.compile(
    r'#gpu\.object<#(\w+)\.target<([^>]*)>(?:[^"]*?)(bin|assembly|offload|fatbin)\s*=\s*"((?:[^"\\]|\\.)*)"',
    re.S)
_CHIP = re.compile(r'chip\s*=\s*"([^"]+)"')


def decode_mlir_string(text):
    """Decodes the body of an MLIR string literal into bytes."""
    out = bytearray()
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c != '\\':
            out += c.encode('latin-1')
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in '\\"':
            out.append(ord(nxt))
            i += 2
        elif nxt == 'n':
            out.append(10)
            i += 2
        elif nxt == 't':
            out.append(9)
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return bytes(out)


def objects(module_text):
    """Yields (binary, dialect, chip, kind, bytes) for every object."""
    for line in module_text.splitlines():
        m = _BINARY.search(line)
        if not m:
            continue
        for obj in _OBJECT.finditer(line):
            chip = _CHIP.search(obj.group(2))
            yield (m.group(1), obj.group(1), chip.group(1) if chip else 'unknown',
                   obj.group(3), decode_mlir_string(obj.group(4)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('module')
    parser.add_argument('-o', '--output-dir', default='.')
    args = parser.parse_args()
    with open(args.module, encoding='latin-1') as f:
        text = f.read()
    os.makedirs(args.output_dir, exist_ok=True)
    count = 0
    for binary, _, chip, kind, data in objects(text):
        ext = '.s' if kind == 'assembly' else '.hsaco'
        path = os.path.join(args.output_dir, f'{binary}.{chip}{ext}')
        with open(path, 'wb') as f:
            f.write(data)
        print(hashlib.sha256(data).hexdigest(), path)
        count += 1
    if count == 0:
        print('error: no gpu.binary object found', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

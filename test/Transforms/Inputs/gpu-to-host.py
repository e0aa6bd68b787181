#!/usr/bin/env python3
"""Makes a module with a gpu.module runnable on the CPU by mlir-runner.

Reads fly-opt's printed output on stdin and writes it with
  - the `gpu.module @name {` line and its closing brace removed, so the
    kernels and device functions become host functions;
  - each `gpu.launch_func @mod::@kernel ... args(%a : T, ...)` turned into
    `func.call @kernel(%a, ...) : (T, ...) -> ()` (one thread, one block:
    the tests' kernels do not read their ids);
  - `gpu.container_module` and `gpu.kernel` attributes dropped.
Only the printed form of fly-opt (two-space indentation, launch arguments
whose types hold no ", %") is understood; anything else is an error.
"""

import re
import sys

LAUNCH = re.compile(r'^(\s*)gpu\.launch_func\s+@\w+::@(\w+)\s.*\sargs\((.*)\)\s*$')


def convert(text):
    out = []
    inside = None  # indentation of the open gpu.module
    for line in text.splitlines():
        opened = re.match(r'^(\s*)gpu\.module @\w+ .*\{$|^(\s*)gpu\.module @\w+ \{$', line)
        if opened:
            if inside is not None:
                sys.exit('gpu-to-host: nested gpu.module')
            inside = opened.group(1) if opened.group(1) is not None else opened.group(2)
            continue
        if inside is not None and line == inside + '}':
            inside = None
            continue
        launch = LAUNCH.match(line)
        if launch:
            indent, kernel, args = launch.groups()
            names, types = [], []
            for arg in args.split(', %'):
                name, _, type_ = arg.lstrip('%').partition(' : ')
                if not type_:
                    sys.exit('gpu-to-host: cannot read launch arguments: ' + args)
                names.append('%' + name)
                types.append(type_)
            line = '%sfunc.call @%s(%s) : (%s) -> ()' % (
                indent, kernel, ', '.join(names), ', '.join(types))
        elif 'gpu.launch_func' in line:
            sys.exit('gpu-to-host: cannot read: ' + line)
        line = re.sub(r'\bgpu\.(container_module|kernel)(, )?', '', line)
        line = line.replace(', }', '}').replace('attributes {}', '')
        out.append(line)
    if inside is not None:
        sys.exit('gpu-to-host: unterminated gpu.module')
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    sys.stdout.write(convert(sys.stdin.read()))

# The quick start is true: the code in the package's docstring runs as
# written (one trace and one compile for three widths, the width a launch
# argument, the loop bound's recompile in the log), and the README's copy
# of it is the same code.
# RUN: rm -rf %t && mkdir -p %t
# RUN: env FLYHOIST_CACHE_DIR=%t/cache python3 %s %flyhoist_src_root/README.md | FileCheck %s

import sys

import flyhoist

block = flyhoist.__doc__.split('    import flyhoist\n', 1)[1]
block = block.split('\n`row_stride`', 1)[0]
code = ['import flyhoist'] + [line[4:] for line in block.splitlines()]
exec(compile('\n'.join(code), 'quick start', 'exec'), {'__name__': 'qs'})
# CHECK: 1 1
# CHECK-NEXT: ['m', 'row', 128]
# CHECK-NEXT: compiled @kernels::@scale again: 'steps' 4 -> 8 (kept specialized: loop bound or step at {{.*}})

with open(sys.argv[1]) as f:
    readme = f.read().split('## Python quick start', 1)[1]
readme = readme.split('```python\n', 1)[1].split('```', 1)[0]


def statements(lines):
    return [line.split('  #')[0].rstrip() for line in lines
            if line.strip() and not line.lstrip().startswith('#')]


missing = [line for line in statements(readme.splitlines())
           if line not in statements(code)]
print('README lines not in the docstring:', missing)
# CHECK-NEXT: README lines not in the docstring: []

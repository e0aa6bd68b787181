# What a compile worker's libraries write to file descriptor 1 cannot
# corrupt its replies: the replies have a pipe of their own
# (_compile_worker.py), and the worker's stdout goes where its stderr goes.
# A sitecustomize that writes to fd 1 and to sys.stdout when every worker
# starts (a library that prints on import): the compile succeeds in the
# worker, no fallback, no warning, and the noise reaches stderr only.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t 2>%t/err | FileCheck %s
# RUN: FileCheck %s --allow-empty --check-prefix=STDERR < %t/err

import os
import sys

site = os.path.join(sys.argv[1], 'site')
os.makedirs(site, exist_ok=True)
with open(os.path.join(site, 'sitecustomize.py'), 'w') as out:
    out.write("import os\n"
              "os.write(1, b'noise on fd 1 from a library\\n')\n"
              "print('noise on sys.stdout from a library', flush=True)\n")
# Only the workers start after this: they import the sitecustomize.
os.environ['PYTHONPATH'] = site + os.pathsep + os.environ.get('PYTHONPATH',
                                                              '')

from flyhoist import KernelCache  # noqa: E402

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<?xi32>) kernel {
      %v = spec.param "v" = V : i32
      %c0 = arith.constant 0 : index
      memref.store %v, %out[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
'''

log = []
cache = KernelCache('gfx942', cache_dir=False, compile_in_worker=True,
                    log=log.append)
launch = cache.get('fill', {'v': 7},
                   lambda values: KERNEL.replace('V', str(values['v'])))
print('compiled', cache.compiled, 'fallbacks',
      cache.specialized_after_failure, 'warnings', cache.warnings)
# CHECK: compiled 1 fallbacks 0 warnings []
print('ELF:', launch.objects['kernels'][:4] == b'\x7fELF')
# CHECK-NEXT: ELF: True
cache.close()
# STDERR-NOT: warning

"""The traced kernel the KernelCache tests share: a paged gather whose
block-table width (`max_blocks_per_seq`, an address stride: hoisted) and
page count (`pages`, a loop bound: kept) are the frontend's values."""

import flyhoist

KERNEL = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index) kernel {
      WIDTH
      PAGES
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %row = arith.muli %seq, %w : index
      scf.for %blk = %c0 to %n step %c1 {
        %i = arith.addi %row, %blk : index
        %v = memref.load %bt[%i] : memref<?xi32>
        memref.store %v, %out[%blk] : memref<?xi32>
      }
      gpu.return
    }
  }
}
'''

# The values of every trace, in order: a test reads how often it traced.
traces = []


def kernel_text(width, pages):
    """The kernel with both values marked as spec.params."""
    return (KERNEL
            .replace('WIDTH', flyhoist.spec_param('w', 'max_blocks_per_seq',
                                                  width))
            .replace('PAGES', flyhoist.spec_param('n', 'pages', pages)))


def trace(values):
    """The tracer a KernelCache calls on a miss."""
    traces.append(dict(values))
    return kernel_text(values['max_blocks_per_seq'], values['pages'])


def no_trace(values):
    """The tracer for calls that must be hits."""
    raise AssertionError(f'traced on a hit: {values}')

"""The generated modules of the pass-cost benchmarks (bench/pass_cost.py,
bench/pass_profile.py).

Many gpu.func kernels in one gpu.module, plus a host function that launches
every kernel. Kernel shapes:
  independent  each of `params` strides feeds its own `chain`-long address
               chain into a load; one kept parameter (a comparison);
  shared       the `params` parameters enter one address chain at its top
               and share its `chain` ops (the case where walking each
               parameter's uses separately multiplies the work);
  shared-kept  as shared, and the chain also feeds a comparison at every
               step: every parameter is kept, with `chain` blocking uses;
  many         `params` x 8 parameters, pairs of them joining one shared
               chain after another (deep and wide at once).
"""

SHAPES = ('independent', 'shared', 'shared-kept', 'many')

HOIST = 'hoist-stride-specialization{remarks=false}'


def kernel_text(k, params, chain, shape='independent'):
    """One kernel of `shape` (see the module docstring)."""
    if shape != 'independent':
        return shared_kernel_text(k, params, chain, shape)
    return independent_kernel_text(k, params, chain)


def shared_kernel_text(k, params, chain, shape):
    """Parameters entering shared address chains: `shared` and `shared-kept`
    have `params` parameters at the top of one `chain`-long chain; `many` has
    8x as many, joining the chain two at a time along its length."""
    count = params * 8 if shape == 'many' else params
    lines = [f'    gpu.func @k{k}(%buf: memref<?xf32>, %out: memref<?xf32>) kernel {{',
             '      %tid = gpu.thread_id x',
             '      %bid = gpu.block_id x']
    for i in range(count):
        lines.append(f'      %p{i} = spec.param "p{i}" = {17 + i} : index')
    prev = '%bid'
    entering = list(range(count))
    if shape != 'many':
        # All parameters at the top of the chain.
        for i in entering:
            lines.append(f'      %top{i} = arith.muli {prev}, %p{i} : index')
            prev = f'%top{i}'
        entering = []
    for s in range(chain):
        name = f'%c{s}'
        if entering and s % 2 == 0:
            lines.append(f'      {name} = arith.muli {prev}, %p{entering.pop(0)} : index')
        elif s % 2 == 0:
            lines.append(f'      {name} = arith.muli {prev}, %tid : index')
        else:
            lines.append(f'      {name} = arith.addi {prev}, %tid : index')
        if shape == 'shared-kept':
            lines.append(f'      %k{s} = arith.cmpi ult, {name}, %tid : index')
        prev = name
    for i in entering:  # left over when the chain is short
        lines.append(f'      %late{i} = arith.addi {prev}, %p{i} : index')
        prev = f'%late{i}'
    lines.append(f'      %v = memref.load %buf[{prev}] : memref<?xf32>')
    lines.append('      memref.store %v, %out[%tid] : memref<?xf32>')
    lines.append('      gpu.return')
    lines.append('    }')
    return lines


def independent_kernel_text(k, params, chain):
    """One kernel: `params` hoistable strides, each through a `chain`-long
    address computation, and one kept parameter (a comparison)."""
    lines = []
    args = ', '.join(f'%buf{i}: memref<?xf32>' for i in range(params))
    lines.append(f'    gpu.func @k{k}({args}, %out: memref<?xf32>) kernel {{')
    lines.append('      %tid = gpu.thread_id x')
    lines.append('      %bid = gpu.block_id x')
    lines.append('      %zero = arith.constant 0.0 : f32')
    lines.append('      %limit = spec.param "limit" = 4096 : index')
    acc = '%zero'
    for i in range(params):
        lines.append(f'      %p{i} = spec.param "stride{i}" = {17 + i} : index')
        prev = '%bid'
        for s in range(chain):
            name = f'%a{i}_{s}'
            if s % 2 == 0:
                lines.append(f'      {name} = arith.muli {prev}, %p{i} : index')
            else:
                lines.append(f'      {name} = arith.addi {prev}, %tid : index')
            prev = name
        lines.append(f'      %v{i} = memref.load %buf{i}[{prev}] : memref<?xf32>')
        lines.append(f'      %s{i} = arith.addf {acc}, %v{i} : f32')
        acc = f'%s{i}'
    lines.append('      %inside = arith.cmpi ult, %tid, %limit : index')
    lines.append('      scf.if %inside {')
    lines.append(f'        memref.store {acc}, %out[%tid] : memref<?xf32>')
    lines.append('      }')
    lines.append('      gpu.return')
    lines.append('    }')
    return lines


def module_text(target_ops, params, chain, shape='independent'):
    per_kernel = len(kernel_text(0, params, chain, shape))
    kernels = max(1, round(target_ops / (per_kernel + 1)))
    lines = ['module attributes {gpu.container_module} {', '  gpu.module @kernels {']
    for k in range(kernels):
        lines += kernel_text(k, params, chain, shape)
    lines.append('  }')
    if shape != 'independent':
        lines.append('  func.func @host(%buf: memref<?xf32>, %out: memref<?xf32>) {')
        lines.append('    %c1 = arith.constant 1 : index')
        lines.append('    %c256 = arith.constant 256 : index')
        for k in range(kernels):
            lines.append(f'    gpu.launch_func @kernels::@k{k} blocks in (%c256, %c1, %c1) '
                         f'threads in (%c256, %c1, %c1) args(%buf : memref<?xf32>, '
                         f'%out : memref<?xf32>)')
        lines.append('    return')
        lines.append('  }')
        lines.append('}')
        return '\n'.join(lines) + '\n', kernels
    margs = ', '.join(f'%buf{i}: memref<?xf32>' for i in range(params))
    lines.append(f'  func.func @host({margs}, %out: memref<?xf32>) {{')
    lines.append('    %c1 = arith.constant 1 : index')
    lines.append('    %c256 = arith.constant 256 : index')
    kargs = ', '.join(f'%buf{i} : memref<?xf32>' for i in range(params))
    for k in range(kernels):
        lines.append(f'    gpu.launch_func @kernels::@k{k} blocks in (%c256, %c1, %c1) '
                     f'threads in (%c256, %c1, %c1) args({kargs}, %out : memref<?xf32>)')
    lines.append('    return')
    lines.append('  }')
    lines.append('}')
    return '\n'.join(lines) + '\n', kernels

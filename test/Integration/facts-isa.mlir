// The divisibility fact on gfx942 ISA: a row stride that feeds 16-byte LDS
// accesses (row * row_stride + 4 * col into a 16-byte aligned workgroup
// buffer; bench/microkernels/lds_vec4_rows.mlir). Specialized, the backend
// knows the offset is a multiple of 16 bytes and uses ds_write_b128 and
// ds_read_b128. Hoisted as is, it only knows 4-byte alignment and splits each
// access into two ds_*2_b32 pairs. With divisibility=16 the kernel rebuilds
// the stride as (v/16) << 4 and the 16-byte accesses come back. (Global
// dwordx4 accesses stay wide in every mode: the backend allows them at any
// alignment.)
//
// RUN: fly-opt %s --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=WIDE
// RUN: fly-opt %s --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=SPLIT
// RUN: fly-opt %s --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false divisibility=16},flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=WIDE
// A width that is not a power of two (200 = 8 * 25) keeps divisor 8 elements
// (32 bytes), still enough for 16-byte accesses.
// RUN: sed 's/"row_stride" = 128/"row_stride" = 200/' %s \
// RUN:   | fly-opt --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false divisibility=16},flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=WIDE

// WIDE-LABEL: lds_vec4_rows:
// WIDE: global_load_dwordx4
// WIDE-NOT: ds_write2_b32
// WIDE: ds_write_b128
// WIDE-NOT: ds_read2_b32
// WIDE: ds_read_b128
// WIDE: global_store_dwordx4
// WIDE: s_endpgm

// SPLIT-LABEL: lds_vec4_rows:
// SPLIT: global_load_dwordx4
// SPLIT-NOT: ds_write_b128
// SPLIT: ds_write2_b32
// SPLIT: ds_write2_b32
// SPLIT-NOT: ds_read_b128
// SPLIT: ds_read2_b32
// SPLIT: ds_read2_b32
// SPLIT: global_store_dwordx4
// SPLIT: s_endpgm

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @lds_vec4_rows(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%tile: memref<4096xf32, 3>)
        kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      %col = arith.muli %tx, %c4 : index
      %lin = arith.muli %ty, %c64 : index
      %g0 = arith.muli %bid, %c64 : index
      %g1 = arith.addi %g0, %lin : index
      %g = arith.addi %g1, %col : index
      %v = vector.load %in[%g] : memref<?xf32>, vector<4xf32>
      %wr0 = arith.muli %ty, %w : index
      %wr = arith.addi %wr0, %col : index
      vector.store %v, %tile[%wr] : memref<4096xf32, 3>, vector<4xf32>
      gpu.barrier
      %ty1 = arith.addi %ty, %c1 : index
      %ry = arith.andi %ty1, %c3 : index
      %rd0 = arith.muli %ry, %w : index
      %rd = arith.addi %rd0, %col : index
      %u = vector.load %tile[%rd] : memref<4096xf32, 3>, vector<4xf32>
      vector.store %u, %out[%g] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %groups: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@lds_vec4_rows
        blocks in (%groups, %c1, %c1) threads in (%c16, %c4, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}

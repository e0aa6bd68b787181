// Semantics: func.func kernels run on the CPU with mlir-runner give the same
// output specialized and hoisted, for several widths.
// DEFINE: %{lower} = fly-opt --convert-scf-to-cf --expand-strided-metadata --convert-to-llvm --reconcile-unrealized-casts --strip-hoist-records
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so
// The first printed line holds the buffer address: compare the data only.
// DEFINE: %{data} = grep -v "base@"
// RUN: for w in 3 8 13; do \
// RUN:   sed "s/WIDTH/$w/" %s | fly-opt --materialize-specialization | %{lower} | %{run} | %{data} > %t.spec.$w && \
// RUN:   sed "s/WIDTH/$w/" %s | fly-opt --hoist-stride-specialization=remarks=false | %{lower} | %{run} | %{data} > %t.hoist.$w && \
// RUN:   diff %t.spec.$w %t.hoist.$w || exit 1; \
// RUN: done
// RUN: FileCheck %s --check-prefix=W3 --input-file=%t.hoist.3
// RUN: FileCheck %s --check-prefix=W13 --input-file=%t.hoist.13
// The hoisted kernel really takes the width at run time.
// RUN: sed "s/WIDTH/8/" %s | fly-opt --hoist-stride-specialization=remarks=false | FileCheck %s --check-prefix=IR

// Row r of a [4, W] table holds r*W .. r*W+W-1; the kernel gathers columns
// 1 and 2 of each row, walking a row pointer advanced by W per iteration.
// W3: [1,  2,  4,  5,  7,  8,  10,  11]
// W13: [1,  2,  14,  15,  27,  28,  40,  41]

// IR-LABEL: func.func @gather
// IR-SAME: %{{.*}}: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "row_stride", type = index, argument = 2>]
// IR-NOT: spec.param

func.func @gather(%table: memref<?xi32>, %out: memref<8xi32>) {
  %w = spec.param "row_stride" = WIDTH : index
  %rows = spec.param "rows" = 4 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %end = scf.for %r = %c0 to %rows step %c1 iter_args(%row = %c0) -> (index) {
    %a = arith.addi %row, %c1 : index
    %b = arith.addi %row, %c2 : index
    %va = memref.load %table[%a] : memref<?xi32>
    %vb = memref.load %table[%b] : memref<?xi32>
    %o = arith.muli %r, %c2 : index
    %o1 = arith.addi %o, %c1 : index
    memref.store %va, %out[%o] : memref<8xi32>
    memref.store %vb, %out[%o1] : memref<8xi32>
    %next = arith.addi %row, %w : index
    scf.yield %next : index
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %w = spec.param "row_stride" = WIDTH : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.muli %w, %c4 : index
  %table = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %table[%i] : memref<?xi32>
  }
  %out = memref.alloc() : memref<8xi32>
  func.call @gather(%table, %out) : (memref<?xi32>, memref<8xi32>) -> ()
  %u = memref.cast %out : memref<8xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %table : memref<?xi32>
  memref.dealloc %out : memref<8xi32>
  return
}

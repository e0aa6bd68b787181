// Semantics of the new shapes, run on the CPU at -O0 and -O3: for edge values
// of every integer type (0, 1, -1, min, max, the top bit; i1, i8, i32, i64,
// index), the module hoisted from those values prints exactly what the fully
// specialized one prints. Three shapes in one module:
//  - device functions reached through a kernel that holds no parameter, with
//    recursion (hoisted through their callers);
//  - an index parameter of an llvm.func kernel (an i64 argument, cast back);
//  - `equals` of an argument and of a memref stride, launched with the values
//    the contract asks for.
// Each gathered element is table[w + (k - w)], computed with wrapping
// arithmetic, so any w addresses the table; a wrong w reads another element.
// The gpu.module is made runnable on the CPU by Inputs/gpu-to-host.py.
//
// DEFINE: %{lower} = fly-opt --convert-scf-to-cf --expand-strided-metadata --convert-to-llvm --reconcile-unrealized-casts --strip-hoist-records
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so
// DEFINE: %{host} = %python %S/Inputs/gpu-to-host.py
// DEFINE: %{data} = grep -v "base@"
// RUN: rm -rf %t && mkdir %t
// RUN: echo "s/V1/0/;s/V8/0/;s/V32/0/;s/V64/0/;s/VI/0/"                                                                  > %t/sets
// RUN: echo "s/V1/1/;s/V8/1/;s/V32/1/;s/V64/1/;s/VI/1/"                                                                 >> %t/sets
// RUN: echo "s/V1/-1/;s/V8/-1/;s/V32/-1/;s/V64/-1/;s/VI/-1/"                                                            >> %t/sets
// RUN: echo "s/V1/1/;s/V8/-128/;s/V32/-2147483648/;s/V64/-9223372036854775808/;s/VI/-9223372036854775808/"                >> %t/sets
// RUN: echo "s/V1/0/;s/V8/255/;s/V32/4294967295/;s/V64/9223372036854775807/;s/VI/9223372036854775807/"                    >> %t/sets
// RUN: echo "s/V1/1/;s/V8/128/;s/V32/2147483648/;s/V64/4294967296/;s/VI/2147483647/"                                      >> %t/sets
// RUN: echo "s/V1/0/;s/V8/127/;s/V32/2147483647/;s/V64/2147483648/;s/VI/4294967296/"                                      >> %t/sets
// RUN: n=0; while read set; do n=$((n+1)); \
// RUN:   sed "$set" %s > %t/in.$n.mlir && \
// RUN:   fly-opt %t/in.$n.mlir --materialize-specialization | %{host} > %t/spec.$n.mlir && \
// RUN:   fly-opt %t/in.$n.mlir --hoist-stride-specialization=remarks=false > %t/hoisted.$n.mlir && \
// RUN:   %{host} < %t/hoisted.$n.mlir > %t/hoist.$n.mlir && \
// RUN:   for o in 0 3; do \
// RUN:     %{lower} %t/spec.$n.mlir | %{run} -O$o | %{data} > %t/spec.$n.O$o.out && \
// RUN:     %{lower} %t/hoist.$n.mlir | %{run} -O$o | %{data} > %t/hoist.$n.O$o.out && \
// RUN:     diff %t/spec.$n.O$o.out %t/hoist.$n.O$o.out || exit 1; \
// RUN:   done; \
// RUN: done < %t/sets; test $n = 7
// The values really travel: the hoisted gpu.module, the llvm.func kernel and
// the equals kernels are the same for every set; the printed data is not
// trivially constant.
// RUN: for n in 2 3 4 5 6 7; do \
// RUN:   sed -n '/^  gpu.module/,/^  }$/p' %t/hoisted.1.mlir > %t/g.1 && \
// RUN:   sed -n '/^  gpu.module/,/^  }$/p' %t/hoisted.$n.mlir > %t/g.$n && diff %t/g.1 %t/g.$n && \
// RUN:   grep -A12 'llvm.func @lk' %t/hoisted.1.mlir > %t/l.1 && grep -A12 'llvm.func @lk' %t/hoisted.$n.mlir > %t/l.$n && diff %t/l.1 %t/l.$n || exit 1; \
// RUN: done
// RUN: FileCheck %s --input-file=%t/hoist.1.O3.out
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/hoisted.1.mlir

// Row r of the table holds 100*r + column; each kernel writes its gathered
// elements to its own row of out.
// CHECK: [3,  13,  23,  33,  43,  -1,  -1,  -1]
// CHECK: [4,  12,  -1,  -1,  -1,  -1,  -1,  -1]
// CHECK: [5,  6,  -1,  -1,  -1,  -1,  -1,  -1]

// IR-LABEL: func.func @entry(
// IR-SAME: %{{.*}}: i1, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i8, %{{.*}}: index) attributes {gpu.kernel
// IR-LABEL: llvm.func @lk(
// IR-SAME: %{{.*}}: i64) attributes {spec.record
// IR-LABEL: func.func @eq(
// IR-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "e", type = i32, preconditions = [#spec.equals<argument = 2, part = value>]>, #spec.hoisted<name = "s", type = index, preconditions = [#spec.equals<argument = 0, part = stride, index = 0>]>]

module attributes {gpu.container_module} {
  gpu.module @m {
    // Holds no parameter: takes all five through @gather.
    func.func @entry(%t: memref<?xi32>, %out: memref<8xi32>, %k: memref<8xindex>) attributes {gpu.kernel} {
      %c4 = arith.constant 4 : index
      func.call @gather(%t, %out, %k, %c4) : (memref<?xi32>, memref<8xi32>, memref<8xindex>, index) -> ()
      return
    }
    // Recursive, down to depth 0; every level gathers the five elements
    // (element j from parameter j) and passes every value on.
    func.func @gather(%t: memref<?xi32>, %out: memref<8xi32>, %k: memref<8xindex>, %n: index) {
      %w1 = spec.param "w1" = V1 : i1
      %w8 = spec.param "w8" = V8 : i8
      %w32 = spec.param "w32" = V32 : i32
      %w64 = spec.param "w64" = V64 : i64
      %wi = spec.param "wi" = VI : index
      %x1 = arith.index_cast %w1 : i1 to index
      %x8 = arith.index_cast %w8 : i8 to index
      %x32 = arith.index_cast %w32 : i32 to index
      %x64 = arith.index_cast %w64 : i64 to index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %k0 = memref.load %k[%c0] : memref<8xindex>
      %k1 = memref.load %k[%c1] : memref<8xindex>
      %k2 = memref.load %k[%c2] : memref<8xindex>
      %k3 = memref.load %k[%c3] : memref<8xindex>
      %k4 = memref.load %k[%c4] : memref<8xindex>
      %i0 = arith.addi %x1, %k0 : index
      %i1 = arith.addi %x8, %k1 : index
      %i2 = arith.addi %x32, %k2 : index
      %i3 = arith.addi %x64, %k3 : index
      %i4 = arith.addi %wi, %k4 : index
      %v0 = memref.load %t[%i0] : memref<?xi32>
      %v1 = memref.load %t[%i1] : memref<?xi32>
      %v2 = memref.load %t[%i2] : memref<?xi32>
      %v3 = memref.load %t[%i3] : memref<?xi32>
      %v4 = memref.load %t[%i4] : memref<?xi32>
      memref.store %v0, %out[%c0] : memref<8xi32>
      memref.store %v1, %out[%c1] : memref<8xi32>
      memref.store %v2, %out[%c2] : memref<8xi32>
      memref.store %v3, %out[%c3] : memref<8xi32>
      memref.store %v4, %out[%c4] : memref<8xi32>
      %more = arith.cmpi ne, %n, %c0 : index
      scf.if %more {
        %m = arith.subi %n, %c1 : index
        func.call @gather(%t, %out, %k, %m) : (memref<?xi32>, memref<8xi32>, memref<8xindex>, index) -> ()
      }
      return
    }
  }

  // An llvm.func kernel with index and i8 parameters, called by llvm.call.
  llvm.func @lk(%t: !llvm.ptr, %out: !llvm.ptr, %k0: i64, %k1: i64) {
    %wi = spec.param "wi" = VI : index
    %w8 = spec.param "w8" = V8 : i8
    %x = arith.index_cast %wi : index to i64
    %y = llvm.sext %w8 : i8 to i64
    %i0 = llvm.add %x, %k0 : i64
    %i1 = llvm.add %y, %k1 : i64
    %g0 = llvm.getelementptr %t[%i0] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %g1 = llvm.getelementptr %t[%i1] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v0 = llvm.load %g0 : !llvm.ptr -> i32
    %v1 = llvm.load %g1 : !llvm.ptr -> i32
    %o1 = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.store %v0, %out : i32, !llvm.ptr
    llvm.store %v1, %o1 : i32, !llvm.ptr
    llvm.return
  }

  // `equals`: an i32 argument, and the row stride of a 2-d table.
  func.func @eq(%tab: memref<?x?xi32>, %out: memref<8xi32>, %e: i32, %k: index) attributes {spec.kernel} {
    %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %tab : memref<?x?xi32> -> memref<i32>, index, index, index, index, index
    %ep = spec.param "e" = 2 equals %e : i32
    %sp = spec.param "s" = 3 equals %strides#0 : index
    %ei = arith.index_cast %ep : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %flat = memref.reinterpret_cast %tab to offset: [0], sizes: [300], strides: [1] : memref<?x?xi32> to memref<300xi32>
    %r = arith.muli %sp, %c1 : index
    %i0 = arith.addi %r, %ei : index
    %i = arith.addi %i0, %k : index
    %v = memref.load %flat[%i] : memref<300xi32>
    memref.store %v, %out[%c0] : memref<8xi32>
    %j = arith.addi %i, %c1 : index
    %v2 = memref.load %flat[%j] : memref<300xi32>
    memref.store %v2, %out[%c1] : memref<8xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c100 = arith.constant 100 : index
    %c300 = arith.constant 300 : index
    %m1 = arith.constant -1 : i32
    // table[i] = i for i < 300 (row r, column c at 100*r + c).
    %t = memref.alloc(%c300) : memref<?xi32>
    scf.for %i = %c0 to %c300 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %t[%i] : memref<?xi32>
    }
    %out = memref.alloc() : memref<3x8xi32>
    scf.for %r = %c0 to %c3 step %c1 {
      scf.for %c = %c0 to %c8 step %c1 {
        memref.store %m1, %out[%r, %c] : memref<3x8xi32>
      }
    }
    // k[n] = 10 * n + 3 - w_n: the gathered element n is 10 * n + 3.
    %w1 = spec.param "w1" = V1 : i1
    %w8 = spec.param "w8" = V8 : i8
    %w32 = spec.param "w32" = V32 : i32
    %w64 = spec.param "w64" = V64 : i64
    %wi = spec.param "wi" = VI : index
    %x1 = arith.index_cast %w1 : i1 to index
    %x8 = arith.index_cast %w8 : i8 to index
    %x32 = arith.index_cast %w32 : i32 to index
    %x64 = arith.index_cast %w64 : i64 to index
    %k = memref.alloc() : memref<8xindex>
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %ws = memref.alloc() : memref<5xindex>
    memref.store %x1, %ws[%c0] : memref<5xindex>
    memref.store %x8, %ws[%c1] : memref<5xindex>
    memref.store %x32, %ws[%c2] : memref<5xindex>
    memref.store %x64, %ws[%c3] : memref<5xindex>
    memref.store %wi, %ws[%c4] : memref<5xindex>
    %c5 = arith.constant 5 : index
    scf.for %n = %c0 to %c5 step %c1 {
      %wn = memref.load %ws[%n] : memref<5xindex>
      %tn = arith.muli %n, %c10 : index
      %want = arith.addi %tn, %c3 : index
      %kn = arith.subi %want, %wn : index
      memref.store %kn, %k[%n] : memref<8xindex>
    }
    %row0 = memref.subview %out[0, 0] [1, 8] [1, 1] : memref<3x8xi32> to memref<8xi32, strided<[1]>>
    %o0 = memref.alloc() : memref<8xi32>
    memref.copy %row0, %o0 : memref<8xi32, strided<[1]>> to memref<8xi32>
    gpu.launch_func @m::@entry blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xi32>, %o0 : memref<8xi32>, %k : memref<8xindex>)
    memref.copy %o0, %row0 : memref<8xi32> to memref<8xi32, strided<[1]>>

    // The llvm.func kernel gathers elements 4 and 12.
    %c12 = arith.constant 12 : index
    %ka = arith.subi %c4, %wi : index
    %kb = arith.subi %c12, %x8 : index
    %ka64 = arith.index_cast %ka : index to i64
    %kb64 = arith.index_cast %kb : index to i64
    %o1 = memref.alloc() : memref<8xi32>
    scf.for %c = %c0 to %c8 step %c1 {
      memref.store %m1, %o1[%c] : memref<8xi32>
    }
    %tp = memref.extract_aligned_pointer_as_index %t : memref<?xi32> -> index
    %op = memref.extract_aligned_pointer_as_index %o1 : memref<8xi32> -> index
    %tp64 = arith.index_cast %tp : index to i64
    %op64 = arith.index_cast %op : index to i64
    %tptr = llvm.inttoptr %tp64 : i64 to !llvm.ptr
    %optr = llvm.inttoptr %op64 : i64 to !llvm.ptr
    llvm.call @lk(%tptr, %optr, %ka64, %kb64) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
    %row1 = memref.subview %out[1, 0] [1, 8] [1, 1] : memref<3x8xi32> to memref<8xi32, strided<[1], offset: 8>>
    memref.copy %o1, %row1 : memref<8xi32> to memref<8xi32, strided<[1], offset: 8>>

    // The equals kernel on a [100, 3] table (row stride 3) gathers element
    // 3 * 1 + 2 + 0 = 5 and the next one.
    %tab2 = memref.alloc(%c100, %c3) : memref<?x?xi32>
    scf.for %r = %c0 to %c100 step %c1 {
      scf.for %c = %c0 to %c3 step %c1 {
        %r3 = arith.muli %r, %c3 : index
        %i = arith.addi %r3, %c : index
        %v = arith.index_cast %i : index to i32
        memref.store %v, %tab2[%r, %c] : memref<?x?xi32>
      }
    }
    %e = spec.param "e" = 2 : i32
    %o2 = memref.alloc() : memref<8xi32>
    scf.for %c = %c0 to %c8 step %c1 {
      memref.store %m1, %o2[%c] : memref<8xi32>
    }
    func.call @eq(%tab2, %o2, %e, %c0) : (memref<?x?xi32>, memref<8xi32>, i32, index) -> ()
    %row2 = memref.subview %out[2, 0] [1, 8] [1, 1] : memref<3x8xi32> to memref<8xi32, strided<[1], offset: 16>>
    memref.copy %o2, %row2 : memref<8xi32> to memref<8xi32, strided<[1], offset: 16>>

    %u = memref.cast %out : memref<3x8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}

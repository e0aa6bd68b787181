// The models name every operand an instruction encodes as an immediate on
// their own, not only through LLVM's intrinsic tables (which the analysis
// asks first, and which stop answering for an op whose operands no longer
// match its intrinsic one to one: an MLIR release that moves one immediate
// to an attribute). `model-verdicts` prints what the model alone says.
// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   --test-stride-use-analysis="model-verdicts=true" \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// LDS DMA: the per-lane size, the instruction's offset and aux; voffset and
// soffset stay addresses.
func.func @lds_dma(%rsrc: !llvm.ptr<8>, %lds: !llvm.ptr<3>) attributes {spec.kernel} {
  %sz = spec.param "size" = 4 : i32 // expected-remark {{'size': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %imm = spec.param "imm" = 256 : i32 // expected-remark {{'imm': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %pol = spec.param "aux" = 0 : i32 // expected-remark {{'aux': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %vo = spec.param "voffset" = 64 : i32 // expected-remark {{'voffset': address-only, 1 address operand(s)}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-remark@+2 {{'size' operand #2 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #2: blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %sz, %c0, %c0, %c0, %c0
  // expected-remark@+2 {{'imm' operand #5 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #5: blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %c0, %c0, %imm, %c0
  // expected-remark@+2 {{'aux' operand #6 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #6: blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %c0, %c0, %c0, %pol
  // expected-remark@+2 {{'voffset' operand #3 (value): address}}
  // expected-remark@+1 {{model: operand #3: address}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %vo, %c0, %c0, %c0
  return
}

// -----

// Buffer loads, stores and atomics: aux.
func.func @buffer_aux(%rsrc: !llvm.ptr<8>, %v: f32) attributes {spec.kernel} {
  %pol = spec.param "aux" = 0 : i32 // expected-remark {{'aux': 3 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load'}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  // expected-remark@+2 {{'aux' operand #3 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #3: blocking (must-be-immediate)}}
  %x = rocdl.raw.ptr.buffer.load %rsrc, %c0, %c0, %pol : f32
  // expected-remark@+2 {{'aux' operand #4 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #4: blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.store %v, %rsrc, %c0, %c0, %pol : f32
  // expected-remark@+2 {{'aux' operand #4 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{model: operand #4: blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.atomic.fadd %v, %rsrc, %c0, %c0, %pol : f32
  return
}

//===- ImmediateOffsets.cpp - Parameters that fold into immediates --------===//
//
// Two passes over the values a parameter reaches. The first follows every
// use forward and accepts only linear address arithmetic and the address
// operands of accesses with an immediate offset field; the second gives each
// value its coefficient (value = coefficient * parameter + terms without it)
// in an order where a value comes after every reached operand of its
// defining operation (Kahn's algorithm), so that `(x + p) + p` counts the
// parameter twice. No block argument is ever reached (region and branch
// forwarding are not in the accepted set), so that order exists.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/ImmediateOffsets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::flyhoist;

//===----------------------------------------------------------------------===//
// Accesses and their immediate fields
//===----------------------------------------------------------------------===//

/// The AMDGPU chip the access is compiled for, from the ROCDL target of its
/// gpu.module; "" when there is none (or more than one chip).
static StringRef getRocdlChip(Operation *access) {
  auto module = access->getParentOfType<gpu::GPUModuleOp>();
  if (!module || !module.getTargetsAttr())
    return "";
  StringRef chip;
  for (Attribute target : module.getTargetsAttr()) {
    auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target);
    if (!rocdl || (!chip.empty() && chip != rocdl.getChip()))
      return "";
    chip = rocdl.getChip();
  }
  return chip;
}

/// Whether `use` is the voffset or soffset operand of a ROCDL buffer
/// operation of kind `Op`: both are added to the address the MUBUF
/// instruction's 12-bit immediate offset is also added to.
template <typename... Ops> static bool isBufferOffset(OpOperand &use) {
  Operation *owner = use.getOwner();
  Value value = use.get();
  auto matches = [&](auto op) {
    return op && (op.getOffset() == value || op.getSoffset() == value);
  };
  return (matches(dyn_cast<Ops>(owner)) || ...);
}

static constexpr ImmediateRange kMubufRange{0, 4095};
static constexpr ImmediateRange kLdsRange{0, 65535};

std::optional<ImmediateRange>
mlir::flyhoist::getImmediateOffsetRange(OpOperand &address) {
  Operation *access = address.getOwner();
  if (auto loadLds = dyn_cast<ROCDL::RawPtrBufferLoadLdsOp>(access))
    return address.get() == loadLds.getVoffset() ||
                   address.get() == loadLds.getSoffset()
               ? std::optional(kMubufRange)
               : std::nullopt;
  if (isBufferOffset<
          ROCDL::RawPtrBufferLoadOp, ROCDL::RawPtrBufferStoreOp,
          ROCDL::RawBufferLoadOp, ROCDL::RawBufferStoreOp,
          ROCDL::RawPtrBufferAtomicFaddOp, ROCDL::RawPtrBufferAtomicFmaxOp,
          ROCDL::RawPtrBufferAtomicSmaxOp, ROCDL::RawPtrBufferAtomicUminOp,
          ROCDL::RawPtrBufferAtomicCmpSwap>(address))
    return kMubufRange;
  // Pointer accesses: the address operand only, never stored data.
  Value pointer;
  if (auto load = dyn_cast<LLVM::LoadOp>(access))
    pointer = load.getAddr();
  else if (auto store = dyn_cast<LLVM::StoreOp>(access))
    pointer = store.getAddr();
  else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(access))
    pointer = rmw.getPtr();
  else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(access))
    pointer = cmpxchg.getPtr();
  if (!pointer || pointer != address.get())
    return std::nullopt;
  auto type = dyn_cast<LLVM::LLVMPointerType>(pointer.getType());
  // Which instruction an address space becomes is AMDGPU's numbering: only
  // believed inside a gpu.module compiled for a ROCDL chip.
  StringRef chip = getRocdlChip(access);
  if (!type || chip.empty())
    return std::nullopt;
  // gfx9 (gfx900 .. gfx950) has 13-bit signed global/scratch offsets and
  // 12-bit unsigned flat ones; gfx10 has 12 and 11 bits. Other chips get
  // the smaller fields: a range too small only hoists more.
  bool gfx9 = chip.starts_with("gfx9");
  switch (type.getAddressSpace()) {
  case 0: // flat
    return ImmediateRange{0, gfx9 ? 4095 : 2047};
  case 1: // global
  case 5: // scratch
    return gfx9 ? ImmediateRange{-4096, 4095} : ImmediateRange{-2048, 2047};
  case 3: // LDS: ds_* 16-bit unsigned offset
    return kLdsRange;
  case 7: // buffer fat pointer: MUBUF
    return kMubufRange;
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Linear address arithmetic
//===----------------------------------------------------------------------===//

/// Operations through which a value stays the same number (widening,
/// narrowing, pointer <-> integer).
static bool isValueCast(Operation *op) {
  return isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, LLVM::SExtOp,
             LLVM::ZExtOp, LLVM::TruncOp, LLVM::PtrToIntOp, LLVM::IntToPtrOp,
             LLVM::AddrSpaceCastOp>(op);
}

/// The constant integer `value` is, if any. Asked of libMLIR
/// (getConstantAPIntValue), not matched here: m_ConstantInt tests the
/// ConstantLike trait by a TypeID that g++ and clang spell differently, so
/// inlined into the plugin or the C API library (which keep their own copy)
/// it would see no constant where fly-opt (which shares libMLIR's) sees one,
/// and a decision would depend on the host process.
static std::optional<int64_t> getConstant(Value value) {
  std::optional<std::pair<APInt, bool>> constant = getConstantAPIntValue(value);
  if (!constant || constant->first.getSignificantBits() > 64)
    return std::nullopt;
  return constant->first.getSExtValue();
}

/// Whether the use of a parameter-derived value as `use` keeps the result
/// linear in the parameter with a constant coefficient.
static bool isLinearUse(OpOperand &use) {
  Operation *op = use.getOwner();
  if (isValueCast(op) ||
      isa<arith::AddIOp, arith::SubIOp, LLVM::AddOp, LLVM::SubOp>(op))
    return true;
  // A product stays linear only with a constant factor.
  if (isa<arith::MulIOp, LLVM::MulOp>(op))
    return getConstant(op->getOperand(1 - use.getOperandNumber())).has_value();
  if (isa<arith::ShLIOp, LLVM::ShlOp>(op)) {
    std::optional<int64_t> amount = getConstant(op->getOperand(1));
    return use.getOperandNumber() == 0 && amount && *amount >= 0 &&
           *amount < 63;
  }
  if (auto gep = dyn_cast<LLVM::GEPOp>(op))
    return use.get() == gep.getBase() ||
           llvm::is_contained(gep.getDynamicIndices(), use.get());
  return false;
}

/// The byte size of `type`, if fixed.
static std::optional<int64_t> getByteSize(Operation *at, Type type) {
  llvm::TypeSize size = DataLayout::closest(at).getTypeSize(type);
  if (size.isScalable())
    return std::nullopt;
  return static_cast<int64_t>(size.getFixedValue());
}

/// The coefficient of a GEP's result: its base's, plus each index's scaled
/// by the byte size of what that index steps over (the element type for the
/// first, then the element of the array or vector it indexes).
template <typename CoefficientOf>
static std::optional<int64_t> gepCoefficient(LLVM::GEPOp gep,
                                             CoefficientOf coefficientOf) {
  using llvm::checkedAdd;
  using llvm::checkedMul;
  Operation *op = gep.getOperation();
  std::optional<int64_t> total = coefficientOf(gep.getBase());
  Type stepped = gep.getElemType();
  bool first = true;
  for (auto index : gep.getIndices()) {
    if (!first) {
      if (auto array = dyn_cast<LLVM::LLVMArrayType>(stepped))
        stepped = array.getElementType();
      else if (auto vector = dyn_cast<VectorType>(stepped))
        stepped = vector.getElementType();
      else if (auto structType = dyn_cast<LLVM::LLVMStructType>(stepped)) {
        // Struct positions are attributes; a value there is invalid IR.
        auto position = dyn_cast<IntegerAttr>(index);
        if (!position || position.getInt() < 0 ||
            position.getInt() >= (int64_t)structType.getBody().size())
          return std::nullopt;
        stepped = structType.getBody()[position.getInt()];
        continue;
      } else {
        return std::nullopt;
      }
    }
    first = false;
    auto value = dyn_cast<Value>(index);
    if (!value)
      continue;
    int64_t coefficient = coefficientOf(value);
    if (coefficient == 0)
      continue;
    std::optional<int64_t> size = getByteSize(op, stepped);
    if (!size || !total)
      return std::nullopt;
    std::optional<int64_t> term = checkedMul(coefficient, *size);
    if (!term)
      return std::nullopt;
    total = checkedAdd(*total, *term);
  }
  return total;
}

/// The coefficient of the results of `op`, an accepted linear operation,
/// from those of its operands (`coefficientOf`, 0 for a value the parameter
/// does not reach); std::nullopt on overflow or a GEP into a type without a
/// fixed size.
template <typename CoefficientOf>
static std::optional<int64_t> propagate(Operation *op,
                                        CoefficientOf coefficientOf) {
  using llvm::checkedAdd;
  using llvm::checkedMul;
  if (isValueCast(op))
    return coefficientOf(op->getOperand(0));
  if (isa<arith::AddIOp, LLVM::AddOp>(op))
    return checkedAdd(coefficientOf(op->getOperand(0)),
                      coefficientOf(op->getOperand(1)));
  if (isa<arith::SubIOp, LLVM::SubOp>(op)) {
    int64_t rhs = coefficientOf(op->getOperand(1));
    if (rhs == INT64_MIN)
      return std::nullopt;
    return checkedAdd(coefficientOf(op->getOperand(0)), -rhs);
  }
  if (isa<arith::MulIOp, LLVM::MulOp>(op)) {
    // isLinearUse() saw that the other factor is a constant.
    std::optional<int64_t> lhs = getConstant(op->getOperand(0));
    std::optional<int64_t> rhs = getConstant(op->getOperand(1));
    if (lhs)
      return checkedMul(*lhs, coefficientOf(op->getOperand(1)));
    return checkedMul(coefficientOf(op->getOperand(0)), *rhs);
  }
  if (isa<arith::ShLIOp, LLVM::ShlOp>(op))
    return checkedMul(coefficientOf(op->getOperand(0)),
                      int64_t(1) << *getConstant(op->getOperand(1)));
  return gepCoefficient(cast<LLVM::GEPOp>(op), coefficientOf);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

namespace {
/// What pass 1 of findImmediateOffsetFold found: per linear operation, how
/// many of its operands the parameter reaches (with repeats), and the
/// address operands it ends in with their immediate ranges.
struct LinearUses {
  llvm::DenseMap<Operation *, unsigned> pending;
  SmallVector<std::pair<OpOperand *, ImmediateRange>> addresses;
};
} // namespace

/// Pass 1: every use must be linear arithmetic or an address operand with
/// an immediate field; std::nullopt otherwise.
static std::optional<LinearUses> collectLinearUses(ArrayRef<Value> roots) {
  LinearUses uses;
  llvm::DenseSet<Value> reached(roots.begin(), roots.end());
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      if (std::optional<ImmediateRange> range = getImmediateOffsetRange(use)) {
        uses.addresses.push_back({&use, *range});
        continue;
      }
      if (!isLinearUse(use))
        return std::nullopt;
      Operation *op = use.getOwner();
      if (uses.pending[op]++ == 0)
        for (Value result : op->getResults())
          if (reached.insert(result).second)
            worklist.push_back(result);
    }
  }
  return uses;
}

/// Pass 2: the parameter's coefficient in every value it reaches, each
/// operation once all its reached operands have theirs (consumes
/// `pending`). std::nullopt on overflow, or when an operation was not
/// reached by all its operands (a cycle through graph regions).
static std::optional<llvm::DenseMap<Value, int64_t>>
computeCoefficients(ArrayRef<Value> roots,
                    llvm::DenseMap<Operation *, unsigned> &pending) {
  llvm::DenseMap<Value, int64_t> coefficients;
  for (Value root : roots)
    coefficients[root] = 1;
  auto coefficientOf = [&](Value operand) {
    auto it = coefficients.find(operand);
    return it == coefficients.end() ? int64_t(0) : it->second;
  };
  SmallVector<Value> ready(roots.begin(), roots.end());
  while (!ready.empty()) {
    Value current = ready.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      auto it = pending.find(use.getOwner());
      if (it == pending.end() || --it->second != 0)
        continue;
      Operation *op = use.getOwner();
      std::optional<int64_t> coefficient = propagate(op, coefficientOf);
      if (!coefficient)
        return std::nullopt;
      for (Value result : op->getResults()) {
        coefficients[result] = *coefficient;
        ready.push_back(result);
      }
    }
  }
  for (auto &[op, count] : pending)
    if (count != 0)
      return std::nullopt;
  return coefficients;
}

std::optional<ImmediateOffsetFold>
mlir::flyhoist::findImmediateOffsetFold(ArrayRef<Value> roots, int64_t value) {
  // Only accesses compiled for one ROCDL chip have known immediate fields,
  // and a parameter's uses stay in its function: elsewhere nothing folds, and
  // the walk below is not needed.
  if (llvm::none_of(roots, [](Value root) {
        Operation *def = root.getDefiningOp();
        return def && !getRocdlChip(def).empty();
      }))
    return std::nullopt;
  std::optional<LinearUses> uses = collectLinearUses(roots);
  if (!uses || uses->addresses.empty())
    return std::nullopt;
  std::optional<llvm::DenseMap<Value, int64_t>> coefficients =
      computeCoefficients(roots, uses->pending);
  if (!coefficients)
    return std::nullopt;
  // (An access with two address operands the parameter reaches counts once:
  // one add before it, whichever operand it goes to.)
  std::optional<ImmediateOffsetFold> fold;
  llvm::SmallPtrSet<Operation *, 4> counted;
  for (auto [use, range] : uses->addresses) {
    std::optional<int64_t> bytes =
        llvm::checkedMul(coefficients->lookup(use->get()), value);
    if (!bytes || *bytes == 0 || *bytes < range.min || *bytes > range.max)
      continue;
    if (!fold)
      fold =
          ImmediateOffsetFold{use->getOwner(), use->getOperandNumber(), *bytes};
    if (counted.insert(use->getOwner()).second)
      ++fold->numAccesses;
  }
  return fold;
}

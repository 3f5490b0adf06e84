//===- ProgramToTile.cpp - Emit the tile dialect from a program -----------===//
//
// One func.func per program: its arguments are the inputs, its results the
// outputs, its body one tile op per statement and per elementwise
// sub-expression. Every op is located at its construct in the .tile source;
// the op that defines a named tensor carries the name in a NameLoc.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tilec;

namespace {

/// The element type that represents `dtype`: signless integers for signed
/// ints and bool, unsigned integers for unsigned ints.
Type getElementType(MLIRContext *context, DType dtype) {
  Builder builder(context);
  switch (dtype) {
  case DType::Bool:
    return builder.getI1Type();
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
    return builder.getIntegerType(dtypeBits(dtype));
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return builder.getIntegerType(dtypeBits(dtype), /*isSigned=*/false);
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::F64:
    return builder.getF64Type();
  }
  llvm_unreachable("unknown dtype");
}

tile::AggregationKind convert(AggregationKind kind) {
  switch (kind) {
  case AggregationKind::Sum:
    return tile::AggregationKind::Add;
  case AggregationKind::Product:
    return tile::AggregationKind::Mul;
  case AggregationKind::Max:
    return tile::AggregationKind::Max;
  case AggregationKind::Min:
    return tile::AggregationKind::Min;
  case AggregationKind::Assign:
    return tile::AggregationKind::Assign;
  }
  llvm_unreachable("unknown aggregation");
}

tile::CombinationKind convert(CombinationKind kind) {
  switch (kind) {
  case CombinationKind::None:
    return tile::CombinationKind::None;
  case CombinationKind::Mul:
    return tile::CombinationKind::Mul;
  case CombinationKind::Add:
    return tile::CombinationKind::Add;
  case CombinationKind::Eq:
    return tile::CombinationKind::Eq;
  case CombinationKind::Cond:
    return tile::CombinationKind::Cond;
  }
  llvm_unreachable("unknown combination");
}

// The Program's operations and the dialect's kinds are rows of one table
// (tilec/Support/ElementwiseOps.def).
tile::ElementwiseKind convert(UnaryOp op) {
  switch (op) {
#define TILE_UNARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling)                \
  case UnaryOp::Op:                                                            \
    return tile::ElementwiseKind::Kind;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown unary op");
}

tile::ElementwiseKind convert(BinaryOp op) {
  switch (op) {
#define TILE_BINARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling, Precedence)   \
  case BinaryOp::Op:                                                           \
    return tile::ElementwiseKind::Kind;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown binary op");
}

tile::ElementwiseKind convert(Builtin builtin) {
  switch (builtin) {
#define TILE_BUILTIN(Kind, Mnemonic, Arity, Rule, Class)                       \
  case Builtin::Kind:                                                          \
    return tile::ElementwiseKind::Kind;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown builtin");
}

/// Emits the ops of one program into the body of its function.
class Emitter {
public:
  Emitter(MLIRContext *context, const Program &program,
          llvm::SourceMgr &sourceMgr)
      : context(context), program(program), sourceMgr(sourceMgr),
        builder(context), values(program.tensors.size()) {}

  OwningOpRef<ModuleOp> emit();

private:
  Location getLoc(llvm::SMLoc loc);
  /// The location of the op that defines tensor `tensor`.
  Location getNamedLoc(unsigned tensor, llvm::SMLoc loc);
  RankedTensorType getTensorType(DType dtype, const Shape &shape);
  RankedTensorType getTensorType(unsigned tensor);
  /// `value` converted to `dtype` (itself when it has that dtype already).
  Value castTo(Value value, DType dtype, Location loc);

  Value emitContraction(const Statement &statement,
                        const Contraction &contraction, Location loc);
  Value emitExpr(const Expr &expr, Location loc);
  Value emitStatement(const Statement &statement);

  MLIRContext *context;
  const Program &program;
  llvm::SourceMgr &sourceMgr;
  OpBuilder builder;
  /// The SSA value of every tensor defined so far.
  std::vector<Value> values;
};

} // namespace

Location Emitter::getLoc(llvm::SMLoc loc) {
  unsigned buffer = loc.isValid() ? sourceMgr.FindBufferContainingLoc(loc) : 0;
  if (buffer == 0)
    return UnknownLoc::get(context);
  auto [line, column] = sourceMgr.getLineAndColumn(loc, buffer);
  return FileLineColLoc::get(
      context, sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier(), line,
      column);
}

Location Emitter::getNamedLoc(unsigned tensor, llvm::SMLoc loc) {
  return NameLoc::get(builder.getStringAttr(program.tensors[tensor].name),
                      getLoc(loc));
}

RankedTensorType Emitter::getTensorType(DType dtype, const Shape &shape) {
  return RankedTensorType::get(shape, getElementType(context, dtype));
}

RankedTensorType Emitter::getTensorType(unsigned tensor) {
  const TensorDecl &decl = program.tensors[tensor];
  return getTensorType(decl.dtype, decl.shape);
}

Value Emitter::castTo(Value value, DType dtype, Location loc) {
  auto type = cast<RankedTensorType>(value.getType());
  Type elementType = getElementType(context, dtype);
  if (type.getElementType() == elementType)
    return value;
  return builder.create<tile::CastOp>(loc, type.clone(elementType), value);
}

/// The rows of a RationalMapAttr for `polys`.
static tile::RationalMapAttr getMap(MLIRContext *context, unsigned numIndices,
                                    ArrayRef<const AffinePoly *> polys) {
  SmallVector<Rational> rows;
  for (const AffinePoly *poly : polys) {
    rows.append(poly->coeffs.begin(), poly->coeffs.end());
    rows.push_back(poly->constant);
  }
  return tile::RationalMapAttr::get(context, numIndices, rows);
}

static tile::RationalMapAttr getMap(MLIRContext *context, unsigned numIndices,
                                    const std::vector<AffinePoly> &polys) {
  SmallVector<const AffinePoly *> pointers;
  for (const AffinePoly &poly : polys)
    pointers.push_back(&poly);
  return getMap(context, numIndices, pointers);
}

Value Emitter::emitContraction(const Statement &statement,
                               const Contraction &contraction, Location loc) {
  DType resultDType = program.tensors[statement.output].dtype;
  unsigned numIndices = contraction.indexNames.size();

  // The contraction computes in explicit types: the compared operands of
  // `eq` and `cond` in their promoted dtype, every other operand in the
  // result's dtype.
  std::optional<DType> compareDType;
  if (contraction.combination == CombinationKind::Eq ||
      contraction.combination == CombinationKind::Cond)
    compareDType = contraction.comparisonType;

  SmallVector<Value> inputs;
  SmallVector<Attribute> inputMaps;
  for (auto [position, access] : llvm::enumerate(contraction.operands)) {
    DType dtype = compareDType && position < 2 ? *compareDType : resultDType;
    inputs.push_back(castTo(values[access.tensor], dtype, getLoc(access.loc)));
    inputMaps.push_back(getMap(context, numIndices, access.indices));
  }

  SmallVector<StringRef> indexNames(contraction.indexNames.begin(),
                                    contraction.indexNames.end());
  tile::RationalMapAttr constraints;
  DenseI64ArrayAttr bounds;
  if (!contraction.constraints.empty()) {
    SmallVector<const AffinePoly *> polys;
    SmallVector<int64_t> boundValues;
    for (const Constraint &constraint : contraction.constraints) {
      polys.push_back(&constraint.poly);
      // A bound <= 0 admits no value, as does the bound 0.
      boundValues.push_back(std::max<int64_t>(constraint.bound, 0));
    }
    constraints = getMap(context, numIndices, polys);
    bounds = builder.getDenseI64ArrayAttr(boundValues);
  }

  Value init;
  if (contraction.defaultTensor)
    init = values[*contraction.defaultTensor];

  return builder.create<tile::ContractOp>(
      loc, getTensorType(statement.output), inputs, init,
      tile::AggregationKindAttr::get(context, convert(contraction.aggregation)),
      tile::CombinationKindAttr::get(context, convert(contraction.combination)),
      builder.getStrArrayAttr(indexNames),
      getMap(context, numIndices, contraction.outputIndices),
      builder.getArrayAttr(inputMaps), constraints, bounds,
      contraction.noDefract ? builder.getUnitAttr() : UnitAttr());
}

/// The attribute of a scalar constant of `type`.
static TypedAttr getConstantAttr(Type type, const Expr &expr) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    double value = std::visit([](auto v) { return static_cast<double>(v); },
                              expr.constant);
    return FloatAttr::get(floatType, value);
  }
  auto intType = cast<IntegerType>(type);
  return std::visit(
      [&](auto v) -> TypedAttr {
        using T = decltype(v);
        if constexpr (std::is_same_v<T, double>)
          return IntegerAttr::get(intType, static_cast<int64_t>(v));
        else
          return IntegerAttr::get(
              intType, APInt(intType.getWidth(), static_cast<uint64_t>(v),
                             /*isSigned=*/std::is_same_v<T, int64_t>));
      },
      expr.constant);
}

Value Emitter::emitExpr(const Expr &expr, Location loc) {
  RankedTensorType type = getTensorType(expr.dtype, expr.shape);
  auto operands = [&]() {
    SmallVector<Value> result;
    for (const std::unique_ptr<Expr> &operand : expr.operands)
      result.push_back(emitExpr(*operand, getLoc(operand->loc)));
    return result;
  };
  switch (expr.kind) {
  case Expr::Kind::Constant:
    return builder.create<tile::ConstantOp>(
        loc, getConstantAttr(type.getElementType(), expr));
  case Expr::Kind::Tensor:
    return values[expr.tensor];
  case Expr::Kind::Index:
    return builder.create<tile::IndexOp>(loc, type, expr.axis);
  case Expr::Kind::Unary:
  case Expr::Kind::Binary: {
    tile::ElementwiseKind kind = expr.kind == Expr::Kind::Unary
                                     ? convert(expr.unaryOp)
                                     : convert(expr.binaryOp);
    SmallVector<Value> args = operands();
    // Logical operators take truth values; `x && y` tests `x != 0`.
    if (kind == tile::ElementwiseKind::Not ||
        kind == tile::ElementwiseKind::And || kind == tile::ElementwiseKind::Or)
      for (Value &arg : args)
        arg = castTo(arg, DType::Bool, loc);
    return builder.create<tile::ElementwiseOp>(loc, type, kind, args);
  }
  case Expr::Kind::Select:
    return builder.create<tile::ElementwiseOp>(
        loc, type, tile::ElementwiseKind::Select, operands());
  case Expr::Kind::Call:
    return builder.create<tile::ElementwiseOp>(loc, type, convert(expr.builtin),
                                               operands());
  case Expr::Kind::Cast:
    return castTo(operands().front(), expr.dtype, loc);
  }
  llvm_unreachable("unknown expression kind");
}

Value Emitter::emitStatement(const Statement &statement) {
  Location loc = getNamedLoc(statement.output, statement.loc);
  RankedTensorType type = getTensorType(statement.output);
  return std::visit(
      [&](const auto &op) -> Value {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, Contraction>)
          return emitContraction(statement, op, loc);
        else if constexpr (std::is_same_v<T, Elementwise>)
          return emitExpr(*op.value, loc);
        else if constexpr (std::is_same_v<T, Reshape>)
          return builder.create<tile::ReshapeOp>(loc, type, values[op.input]);
        else
          return builder.create<tile::ShapeOp>(loc, type, values[op.input]);
      },
      statement.op);
}

OwningOpRef<ModuleOp> Emitter::emit() {
  context->loadDialect<tile::TileDialect, func::FuncDialect>();
  // The module and the function point at the `function` keyword, so that
  // any diagnostic about them (lowering, bundle extraction) has a location.
  Location sourceLoc = getLoc(program.loc);
  OwningOpRef<ModuleOp> module = ModuleOp::create(sourceLoc);

  SmallVector<Type> argumentTypes, resultTypes;
  SmallVector<Location> argumentLocs;
  for (unsigned input : program.inputs) {
    argumentTypes.push_back(getTensorType(input));
    argumentLocs.push_back(getNamedLoc(input, program.tensors[input].loc));
  }
  for (unsigned output : program.outputs)
    resultTypes.push_back(getTensorType(output));

  // An unnamed Tile function gets the name the CLI uses for it.
  StringRef name = program.name.empty() ? "main" : StringRef(program.name);
  Location functionLoc = NameLoc::get(builder.getStringAttr(name), sourceLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto function = builder.create<func::FuncOp>(
      functionLoc, name, builder.getFunctionType(argumentTypes, resultTypes));
  auto nameAttr = [&](unsigned tensor) {
    return builder.getNamedAttr(
        "tile.name", builder.getStringAttr(program.tensors[tensor].name));
  };
  for (auto [position, input] : llvm::enumerate(program.inputs))
    function.setArgAttrs(position, nameAttr(input));
  for (auto [position, output] : llvm::enumerate(program.outputs))
    function.setResultAttrs(position, nameAttr(output));

  Block *body = function.addEntryBlock();
  for (auto [position, input] : llvm::enumerate(program.inputs)) {
    body->getArgument(position).setLoc(argumentLocs[position]);
    values[input] = body->getArgument(position);
  }
  builder.setInsertionPointToStart(body);
  for (const Statement &statement : program.statements)
    values[statement.output] = emitStatement(statement);

  SmallVector<Value> results;
  for (unsigned output : program.outputs)
    results.push_back(values[output]);
  builder.create<func::ReturnOp>(functionLoc, results);
  return module;
}

OwningOpRef<ModuleOp> tilec::emitTileModule(MLIRContext &context,
                                            const Program &program,
                                            llvm::SourceMgr &sourceMgr) {
  return Emitter(&context, program, sourceMgr).emit();
}

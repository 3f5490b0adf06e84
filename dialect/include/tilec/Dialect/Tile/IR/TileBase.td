//===- TileBase.td - The tile dialect and its enums --------*- tablegen -*-===//
//
// The `tile` dialect is the MLIR form of a specialised Tile program: one op
// per statement (and per elementwise sub-expression), static shapes, explicit
// dtype conversions. Its enums name the aggregations, combinations and
// elementwise operations of the language.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEBASE_TD
#define TILEC_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Tensor contractions and elementwise ops of the Tile language";
  let description = [{
    A specialised Tile function as ops on statically shaped builtin tensors.
    Signed integers are signless (`i8`..`i64`), unsigned ones are `ui8`..
    `ui64`, booleans are `i1`. Every conversion is an explicit `tile.cast`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes; lives with their storage classes.
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_AggregationKind : I32EnumAttr<"AggregationKind",
    "how a contraction folds the values that reach one output element", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Mul", 1, "mul">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Min", 3, "min">,
      I32EnumAttrCase<"Assign", 4, "assign">,
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_CombinationKind : I32EnumAttr<"CombinationKind",
    "how a contraction combines the values of its inputs", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Mul", 1, "mul">,
      I32EnumAttrCase<"Add", 2, "add">,
      I32EnumAttrCase<"Eq", 3, "eq">,
      I32EnumAttrCase<"Cond", 4, "cond">,
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_ElementwiseKind : I32EnumAttr<"ElementwiseKind",
    "the operation of a tile.ew op", [
      // Unary operators.
      I32EnumAttrCase<"Neg", 0, "neg">,
      I32EnumAttrCase<"Not", 1, "not">,
      I32EnumAttrCase<"BitNot", 2, "bitnot">,
      // Binary operators.
      I32EnumAttrCase<"Add", 3, "add">,
      I32EnumAttrCase<"Sub", 4, "sub">,
      I32EnumAttrCase<"Mul", 5, "mul">,
      I32EnumAttrCase<"Div", 6, "div">,
      I32EnumAttrCase<"Rem", 7, "rem">,
      I32EnumAttrCase<"Eq", 8, "eq">,
      I32EnumAttrCase<"Ne", 9, "ne">,
      I32EnumAttrCase<"Lt", 10, "lt">,
      I32EnumAttrCase<"Gt", 11, "gt">,
      I32EnumAttrCase<"Le", 12, "le">,
      I32EnumAttrCase<"Ge", 13, "ge">,
      I32EnumAttrCase<"And", 14, "and">,
      I32EnumAttrCase<"Or", 15, "or">,
      I32EnumAttrCase<"BitAnd", 16, "bitand">,
      I32EnumAttrCase<"BitOr", 17, "bitor">,
      I32EnumAttrCase<"BitXor", 18, "bitxor">,
      I32EnumAttrCase<"Shl", 19, "shl">,
      I32EnumAttrCase<"Shr", 20, "shr">,
      // `c ? a : b` and select(c, a, b).
      I32EnumAttrCase<"Select", 21, "select">,
      // Builtins.
      I32EnumAttrCase<"Exp", 22, "exp">,
      I32EnumAttrCase<"Log", 23, "log">,
      I32EnumAttrCase<"Sqrt", 24, "sqrt">,
      I32EnumAttrCase<"Rsqrt", 25, "rsqrt">,
      I32EnumAttrCase<"Pow", 26, "pow">,
      I32EnumAttrCase<"Sin", 27, "sin">,
      I32EnumAttrCase<"Cos", 28, "cos">,
      I32EnumAttrCase<"Tan", 29, "tan">,
      I32EnumAttrCase<"Sinh", 30, "sinh">,
      I32EnumAttrCase<"Cosh", 31, "cosh">,
      I32EnumAttrCase<"Tanh", 32, "tanh">,
      I32EnumAttrCase<"Asin", 33, "asin">,
      I32EnumAttrCase<"Acos", 34, "acos">,
      I32EnumAttrCase<"Atan", 35, "atan">,
      I32EnumAttrCase<"Atan2", 36, "atan2">,
      I32EnumAttrCase<"Erf", 37, "erf">,
      I32EnumAttrCase<"Floor", 38, "floor">,
      I32EnumAttrCase<"Ceil", 39, "ceil">,
      I32EnumAttrCase<"Round", 40, "round">,
      I32EnumAttrCase<"Abs", 41, "abs">,
      I32EnumAttrCase<"Sign", 42, "sign">,
      I32EnumAttrCase<"Min", 43, "min">,
      I32EnumAttrCase<"Max", 44, "max">,
      I32EnumAttrCase<"Relu", 45, "relu">,
      I32EnumAttrCase<"Sigmoid", 46, "sigmoid">,
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

#endif // TILEC_DIALECT_TILE_IR_TILEBASE_TD

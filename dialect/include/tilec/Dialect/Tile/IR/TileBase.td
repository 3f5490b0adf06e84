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
include "mlir/IR/AttrTypeBase.td"
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

// The operation of a tile.ew op. Its C++ enum, mnemonics, arities and typing
// rules come from the one table of elementwise operations that sema shares
// (tilec/Support/ElementwiseOps.def, read by ElementwiseKind.h): MLIR 19's
// TableGen cannot read a .def, and an I32EnumAttr would repeat every row
// here. So this attribute is an AttrDef over that C++ enum, written like an
// EnumAttr: the bare keyword in an op (`tile.ew add`), `#tile<ew_kind add>`
// on its own.
def Tile_ElementwiseKindParameter
    : AttrParameter<"::tilec::tile::ElementwiseKind",
                    "an elementwise operation"> {
  let parser = [{[&]() -> ::mlir::FailureOr<::tilec::tile::ElementwiseKind> {
    ::llvm::SMLoc loc = $_parser.getCurrentLocation();
    ::llvm::StringRef keyword;
    if (::mlir::failed($_parser.parseKeyword(&keyword)))
      return ::mlir::failure();
    if (auto kind = ::tilec::tile::symbolizeElementwiseKind(keyword))
      return *kind;
    return {(::llvm::LogicalResult)($_parser.emitError(loc)
        << "unknown elementwise operation '" << keyword << "'")};
  }()}];
  let printer = "$_printer << ::tilec::tile::stringifyElementwiseKind($_self)";
}

def Tile_ElementwiseKindAttr : AttrDef<Tile_Dialect, "ElementwiseKind"> {
  let summary = "the operation of a tile.ew op";
  let mnemonic = "ew_kind";
  let parameters = (ins Tile_ElementwiseKindParameter:$value);
  let assemblyFormat = "$value";
  // Like an EnumAttr: op accessors and builders take and give the enum.
  let returnType = "::tilec::tile::ElementwiseKind";
  let convertFromStorage = "$_self.getValue()";
  let constBuilderCall =
      "::tilec::tile::ElementwiseKindAttr::get($_builder.getContext(), $0)";
}

#endif // TILEC_DIALECT_TILE_IR_TILEBASE_TD

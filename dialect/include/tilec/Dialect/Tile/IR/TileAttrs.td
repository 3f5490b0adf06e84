//===- TileAttrs.td - Attributes of the tile dialect -------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_TD
#define TILEC_DIALECT_TILE_IR_TILEATTRS_TD

include "tilec/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/AttrTypeBase.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_AggregationKindAttr
    : EnumAttr<Tile_Dialect, Tile_AggregationKind, "agg">;
def Tile_CombinationKindAttr
    : EnumAttr<Tile_Dialect, Tile_CombinationKind, "combo">;

def Tile_RationalMapAttr : Tile_Attr<"RationalMap", "map"> {
  let summary = "affine map with exact rational coefficients";
  let description = [{
    `#tile.map<(i, j, k) -> (i, 2*i + k div 2 - 1)>`: each result is
    `sum_d coeff_d * dim_d + constant` with rational coefficients, written
    `n*dim div d`. `div` is exact division (the coefficient is n/d), not
    integer division. Dim names only bind positions; the attribute prints
    them as d0, d1, ... A negative term is written with its integer
    coefficient (`i - 1*k`), because the MLIR lexer has no standalone minus.

    Storage: `rows` is a row-major matrix of numResults x (numDims + 1)
    normalised rationals; the last column of a row is its constant.
  }];
  let parameters = (ins "unsigned":$numDims,
                        ArrayRefParameter<"::tilec::Rational">:$rows);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumResults() const;
    /// The numDims coefficients of `result` followed by its constant.
    ::llvm::ArrayRef<::tilec::Rational> getRow(unsigned result) const;
    ::tilec::Rational getCoefficient(unsigned result, unsigned dim) const;
    ::tilec::Rational getConstant(unsigned result) const;
    /// True when every coefficient and constant is an integer.
    bool isIntegral() const;
  }];
}

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD

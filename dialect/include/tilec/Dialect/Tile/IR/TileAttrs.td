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

//===----------------------------------------------------------------------===//
// Kernels and schedules (written by lowering's passes, docs/kernel-ir.md)
//===----------------------------------------------------------------------===//

def Tile_KernelKind : I32EnumAttr<"KernelKind",
    "what a tile.kernel computes", [
      I32EnumAttrCase<"Elementwise", 0, "elementwise">,
      I32EnumAttrCase<"Contraction", 1, "contraction">,
      I32EnumAttrCase<"Copy", 2, "copy">,
      I32EnumAttrCase<"Row", 3, "row">,
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

def Tile_KernelKindAttr
    : EnumAttr<Tile_Dialect, Tile_KernelKind, "kernel_kind">;

def Tile_ScheduleKind : I32EnumAttr<"ScheduleKind",
    "how a kernel's work is dealt out to work-items (docs/scheduler.md)", [
      I32EnumAttrCase<"PerElement", 0, "per_element">,
      I32EnumAttrCase<"GenericContraction", 1, "generic">,
      I32EnumAttrCase<"TiledContraction", 2, "tiled">,
      I32EnumAttrCase<"ReductionContraction", 3, "reduction">,
      I32EnumAttrCase<"PartialCombination", 4, "partial_combination">,
      I32EnumAttrCase<"ImplicitGemm", 5, "implicit_gemm">,
      I32EnumAttrCase<"RowFused", 6, "row">,
    ]> {
  let cppNamespace = "::tilec::tile";
  let genSpecializedAttr = 0;
}

/// x, y and z extents, written `[x, y, z]`.
def Tile_Dim3Parameter : ArrayRefParameter<"int64_t", "x, y and z extents"> {
  let parser = "::tilec::tile::parseDim3($_parser)";
  let printer = "::tilec::tile::printDim3($_printer, $_self)";
}

/// A flag written `true` or `false`, omitted when false.
def Tile_FlagParameter : DefaultValuedParameter<"bool", "false"> {
  let parser = "::tilec::tile::parseFlag($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

class Tile_CountParameter<string default>
    : DefaultValuedParameter<"int64_t", default>;

def Tile_ScheduleAttr : Tile_Attr<"Schedule", "schedule"> {
  let summary = "the schedule chosen for a tile.kernel";
  let description = [{
    Written by `tile-schedule` on every `tile.kernel` (docs/scheduler.md says
    what each field means): the schedule's kind, the work-group size and
    count, the work-items that do something, the tiles of a tiled
    contraction, the element walk of a per-element kernel, how a reduction
    shares an element's loop nest, and the estimates (loop passes, local
    memory, registers) with the reason for the choice. Fields at their
    default are omitted:

      #tile.schedule<kind = per_element, local_size = [256, 1, 1],
                     num_groups = [4, 1, 1], active_items = 1024,
                     walk_steps = 1024, registers = 18, loop_passes = 1.0,
                     reason = "...">

    What follows from the ops (the dense-matmul shape of a tiled
    contraction, the index system) is recomputed from them, not stored.
  }];
  let parameters = (ins
    EnumParameter<Tile_ScheduleKind>:$kind,
    Tile_Dim3Parameter:$local_size,
    Tile_Dim3Parameter:$num_groups,
    Tile_CountParameter<"0">:$active_items,
    // Tiled contractions (TileSizes).
    Tile_CountParameter<"0">:$block_m,
    Tile_CountParameter<"0">:$block_n,
    Tile_CountParameter<"0">:$block_k,
    Tile_CountParameter<"0">:$reg_m,
    Tile_CountParameter<"0">:$reg_n,
    Tile_CountParameter<"0">:$stride_a,
    Tile_CountParameter<"0">:$stride_b,
    Tile_CountParameter<"1">:$vector_width,
    Tile_CountParameter<"1">:$stage_width_a,
    Tile_CountParameter<"1">:$stage_width_b,
    Tile_FlagParameter:$double_buffered,
    // Per-element schedules (ElementWalk).
    Tile_CountParameter<"1">:$walk_width,
    Tile_CountParameter<"0">:$walk_steps,
    Tile_CountParameter<"0">:$walk_group_steps,
    Tile_CountParameter<"0">:$vector_accesses,
    Tile_CountParameter<"0">:$accesses,
    // Reductions (WorkSplit and the sharing of an element).
    Tile_CountParameter<"0">:$merged_levels,
    Tile_CountParameter<"0">:$strided_level,
    Tile_FlagParameter:$contiguous,
    Tile_CountParameter<"1">:$step_width,
    Tile_CountParameter<"1">:$elements_per_group,
    Tile_CountParameter<"1">:$partial_groups,
    Tile_FlagParameter:$tree_combination,
    Tile_FlagParameter:$last_group_combines,
    Tile_FlagParameter:$compensated,
    // Row kernels (RowWalk).
    Tile_CountParameter<"1">:$rows_per_group,
    Tile_CountParameter<"0">:$row_steps,
    Tile_CountParameter<"1">:$row_chunks,
    Tile_FlagParameter:$online_sums,
    // Estimates.
    "::mlir::FloatAttr":$loop_passes,
    Tile_CountParameter<"0">:$local_mem_bytes,
    Tile_CountParameter<"0">:$registers,
    Tile_FlagParameter:$unit_registers,
    StringRefParameter<"why this schedule, for --explain", "\"\"">:$reason
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD

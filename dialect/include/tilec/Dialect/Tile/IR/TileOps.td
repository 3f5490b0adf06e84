//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tile_ElementType : AnyTypeOf<[I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64,
                                  F16, BF16, F32, F64],
                                 "Tile element type">;
def Tile_Tensor : StaticShapeTensorOf<[Tile_ElementType]>;
def Tile_ScalarTensor : 0DTensorOf<[Tile_ElementType]>;
def Tile_I32Tensor : StaticShapeTensorOf<[I32]>;
def Tile_ShapeTensor : 1DTensorOf<[I32]>;

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Pure])>;

//===----------------------------------------------------------------------===//
// tile.contract
//===----------------------------------------------------------------------===//

def Tile_ContractOp : Tile_Op<"contract", [AttrSizedOperandSegments]> {
  let summary = "tensor contraction over a rational affine index space";
  let description = [{
    `O[out] = AGG(COMBO(I0[m0], I1[m1], ...))` over every tuple of the
    indices `index_names` that is valid: every index integral, every access
    in bounds, every constraint satisfied. Each output element starts at the
    aggregation's identity, or at the element of `default` when given.

    ```mlir
    %C = tile.contract add, mul (i, j, k) [i, j] = %A[i, k], %B[k, j]
           where i + k < 5 default %D no_defract
           : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
    ```

    Constraint r reads `0 <= constraints_r < constraint_bounds[r]`.
    Inputs of `none`, `mul` and `add` have the result's element type; `eq`
    compares two inputs of one element type and yields `i1`; `cond`
    (`A == B ? C`) compares A and B of one element type and contributes C,
    which has the result's element type.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs,
                       Optional<Tile_Tensor>:$init,
                       Tile_AggregationKindAttr:$aggregation,
                       Tile_CombinationKindAttr:$combination,
                       StrArrayAttr:$index_names,
                       Tile_RationalMapAttr:$output_map,
                       TypedArrayAttrBase<Tile_RationalMapAttr,
                                          "rational maps">:$input_maps,
                       OptionalAttr<Tile_RationalMapAttr>:$constraints,
                       OptionalAttr<DenseI64ArrayAttr>:$constraint_bounds,
                       UnitAttr:$no_defract);
  let results = (outs Tile_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How many inputs `kind` takes.
    static unsigned getNumInputsOf(CombinationKind kind);
    RationalMapAttr getInputMap(unsigned input) {
      return ::llvm::cast<RationalMapAttr>(getInputMaps()[input]);
    }
  }];
}

//===----------------------------------------------------------------------===//
// tile.ew
//===----------------------------------------------------------------------===//

def Tile_ElementwiseOp : Tile_Op<"ew"> {
  let summary = "elementwise operation with NumPy broadcasting";
  let description = [{
    Applies `kind` to the broadcast of its operands: shapes align on the
    right and a size-1 extent stretches. The result has the broadcast shape.
    Comparisons yield `i1`; `and`, `or` and `not` take and yield `i1`;
    `select` takes an `i1` condition and two values of the result's element
    type; every other kind takes and yields one element type.

    ```mlir
    %2 = tile.ew add %0, %1 : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Tile_ElementwiseKindAttr:$kind,
                       Variadic<Tile_Tensor>:$operands);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    ``$kind $operands attr-dict `:` functional-type($operands, $result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How many operands `kind` takes.
    static unsigned getArity(ElementwiseKind kind);
  }];
}

//===----------------------------------------------------------------------===//
// Other ops
//===----------------------------------------------------------------------===//

def Tile_ConstantOp : Tile_Op<"constant", [InferTypeOpAdaptor]> {
  let summary = "scalar constant";
  let description = [{
    A 0-d tensor holding `value`, whose type is the element type:
    `%c = tile.constant 2.5 : f32` yields `tensor<f32>`.
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Tile_ScalarTensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

def Tile_CastOp : Tile_Op<"cast"> {
  let summary = "element type conversion";
  let description = [{
    Converts every element to the result's element type, with the language's
    rules: float to int truncates toward zero, to `i1` means `!= 0`.
  }];
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape"> {
  let summary = "same elements in C order, another shape";
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IndexOp : Tile_Op<"index"> {
  let summary = "coordinate along one axis";
  let description = [{
    Each element of the result holds its own coordinate along `axis`:
    `%i = tile.index 1 : tensor<3x4xi32>`. It reads no tensor: Tile's
    `index(X, axis)` only takes X's shape, which is the result's.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_I32Tensor:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_ShapeOp : Tile_Op<"shape"> {
  let summary = "the extents of a tensor";
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_ShapeTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels (written by lowering's kernel formation, docs/kernel-ir.md)
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Op<Tile_Dialect, "kernel",
                       [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "the ops that run together as one kernel";
  let description = [{
    Records kernel formation (fusion, docs/scheduler.md): the ops of the body
    run as one kernel, named `name`, and the values its `tile.yield` takes
    are the values the kernel stores to global memory, which the kernel's
    results stand for outside it. The body reads the function's other values
    directly (the region is not isolated from above): function arguments,
    results of earlier kernels, and the generators (`tile.constant`,
    `tile.index`, `tile.shape`) that each kernel recomputes.

      %r = tile.kernel contraction "k0_C" -> tensor<4x4xf32> {
        %0 = tile.contract add, mul (i, j, k) [i, j] = %A[i, k], %B[k, j]
            : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
        tile.yield %0 : tensor<4x4xf32>
      }

    `contraction` kernels start with their tile.contract, followed by the
    elementwise ops fused into its epilogue; `elementwise` kernels hold
    elementwise ops of one shape; `row` kernels start with a reduction over
    the last axis of an `[M, N]` tensor and hold the reductions over the
    same rows, the elementwise ops over `[M, N]` and over the rows (`[M]` or
    `[M, 1]`) and the reshapes between those (docs/scheduler.md, "Row
    kernels"); a `copy` kernel has no ops and yields the
    value it copies (into the function result its result is returned as).
    Later passes add attributes: the schedule (`schedule`) and the memory
    plan (docs/kernel-ir.md): `chunk_bounds`, the rows 0 = b_0 < ... < b_n
    of the iteration space's outermost dimension where the chunks of a
    split launch start and end, and `piece_bytes`, per result the largest
    piece of a streamed tensor (0 when the result is not streamed).
  }];
  let arguments = (ins Tile_KernelKindAttr:$kind, StrAttr:$kernel_name,
                       OptionalAttr<StrAttr>:$split_reason,
                       OptionalAttr<Tile_ScheduleAttr>:$schedule,
                       OptionalAttr<DenseI64ArrayAttr>:$chunk_bounds,
                       OptionalAttr<DenseI64ArrayAttr>:$piece_bytes);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "`` $kind $kernel_name attr-dict-with-keyword "
                       "(`->` type($results)^)? $region";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile.yield ending the body.
    YieldOp getYield();
    /// The shape every value of the kernel has: its iteration space.
    ::mlir::RankedTensorType getIterationType();
    /// The verifier of a `row` kernel's body.
    ::mlir::LogicalResult verifyRowKernel();
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Terminator, HasParent<"KernelOp">]> {
  let summary = "the values a tile.kernel stores";
  let arguments = (ins Variadic<Tile_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD

module {
}
// -----
module {
  func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tile.contract add (i) [i] = %a[i, i] : tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

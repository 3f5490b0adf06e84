module {
  func.func @f( {
}

//===- CompileTargets.h - The code a bundle carries -------------*- C++ -*-===//

#ifndef TILEC_BUNDLE_COMPILETARGETS_H
#define TILEC_BUNDLE_COMPILETARGETS_H

namespace tilec {

/// The code a bundle carries: any subset of the targets. MSL is translated
/// from the SPIR-V, so it implies SPIR-V.
struct CompileTargets {
  bool openCL = true;
  bool spirv = false;
  bool msl = false;
};

} // namespace tilec

#endif // TILEC_BUNDLE_COMPILETARGETS_H

//===- tilec.h - Everything a tilec application uses ------------*- C++ -*-===//
//
// The JIT (compile and run Tile programs) and the runtime's value types it
// takes and returns: tensors on the host and on the device, dtypes and
// shapes, device profiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TILEC_H
#define TILEC_TILEC_H

#include "tilec/JIT.h"
#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/HostTensor.h"

#endif // TILEC_TILEC_H

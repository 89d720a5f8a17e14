//===- BufferIdentity.h - which buffer or mbarrier a value names -*- C++
//-*-===//
//
// The checking passes reason about buffers and mbarriers by identity: the
// frontend makes a fresh `tlx.local_view` for every `bufs[i]`, so two values
// name the same buffer when they view one allocation at one index.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TLX_TRANSFORMS_BUFFERIDENTITY_H
#define TLX_DIALECT_TLX_TRANSFORMS_BUFFERIDENTITY_H

#include "mlir/IR/Value.h"
#include <optional>
#include <utility>

namespace mlir::tlx {

/// The buffer a value views whole or in part: through transposes, slices,
/// reinterpretations and reshapes of one buffer (they read the same memory).
Value getViewedBuffer(Value buffer);

/// The static buffer a view selects: (allocation, constant index), or the
/// view itself when the index is dynamic.
std::pair<Value, std::optional<int64_t>> identifyBuffer(Value buffer);

/// Whether two buffer or mbarrier values certainly name the same one.
bool mustAlias(Value a, Value b);

/// Whether two buffer or mbarrier values may name the same one.
bool mayAlias(Value a, Value b);

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_TRANSFORMS_BUFFERIDENTITY_H

//===- OutOfResources.h - errors that a CTA's memory ran out --*- C++ -*-===//
//
// A kernel needing more shared or tensor memory than a CTA has is no mistake
// in the kernel: it is a configuration to skip (Triton's autotuner skips an
// OutOfResources). The pass reporting it marks its error so, as metadata of
// the diagnostic that printing leaves out, and the Python binding reads the
// mark instead of the message's wording.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_SUPPORT_OUTOFRESOURCES_H
#define TLX_SUPPORT_OUTOFRESOURCES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include <optional>
#include <string>

namespace mlir::tlx {

/// What ran out: `resource` ("shared memory", "tensor memory columns"), how
/// much the kernel needs and how much a CTA has, in that resource's unit.
struct OutOfResources {
  std::string resource;
  int64_t required;
  int64_t limit;
};

/// The metadata key of the mark.
constexpr llvm::StringLiteral kOutOfResourcesKey = "tlx.out_of_resources";

/// Marks `diag` (an error about to be reported) as out of resources.
inline InFlightDiagnostic &markOutOfResources(InFlightDiagnostic &diag,
                                              const OutOfResources &what) {
  if (Diagnostic *underlying = diag.getUnderlyingDiagnostic()) {
    Builder builder(underlying->getLocation().getContext());
    underlying->getMetadata().push_back(
        DiagnosticArgument(builder.getDictionaryAttr({
            builder.getNamedAttr(kOutOfResourcesKey,
                                 builder.getStringAttr(what.resource)),
            builder.getNamedAttr("required",
                                 builder.getI64IntegerAttr(what.required)),
            builder.getNamedAttr("limit",
                                 builder.getI64IntegerAttr(what.limit)),
        })));
  }
  return diag;
}

/// The mark of `diag`, if markOutOfResources put one there.
inline std::optional<OutOfResources> findOutOfResources(Diagnostic &diag) {
  for (DiagnosticArgument &argument : diag.getMetadata()) {
    if (argument.getKind() !=
        DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      continue;
    auto mark = dyn_cast<DictionaryAttr>(argument.getAsAttribute());
    if (!mark)
      continue;
    auto resource = mark.getAs<StringAttr>(kOutOfResourcesKey);
    auto required = mark.getAs<IntegerAttr>("required");
    auto limit = mark.getAs<IntegerAttr>("limit");
    if (resource && required && limit)
      return OutOfResources{resource.str(), required.getInt(), limit.getInt()};
  }
  return std::nullopt;
}

} // namespace mlir::tlx

#endif // TLX_SUPPORT_OUTOFRESOURCES_H

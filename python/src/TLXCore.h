/*===- TLXCore.h - the C interface of the TLX compiler core ------*- C -*-===*
 *
 * The MLIR world of TLX (built -fno-rtti -fno-exceptions, static LLVM/MLIR)
 * talks to its Python binding only through this interface: plain C types,
 * so the binding can be built apart from it (another compiler, another
 * Python) and link it either statically or as libtlx_core.so.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TLX_PYTHON_SRC_TLXCORE_H
#define TLX_PYTHON_SRC_TLXCORE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from libtlx_core.so; hidden again by the extension's version
 * script when linked statically into tlx._C. */
#define TLX_CORE_API __attribute__((visibility("default")))

typedef struct TlxResult TlxResult;

/// Parses `ir` (`irLength` bytes; need not be NUL-terminated) as an MLIR
/// module, runs the textual pass `pipeline` on it and prints the result.
/// `sourceName` names the buffer in diagnostics. With `printDebugInfo` set
/// the output keeps source locations. Never aborts the process: bad input and
/// internal failures both come back as a failed result with diagnostics.
/// The result is owned by the caller: release it with tlxResultDestroy.
TLX_CORE_API TlxResult *tlxRunPipeline(const char *ir, size_t irLength,
                                       const char *pipeline,
                                       const char *sourceName,
                                       int printDebugInfo);

/// 1 when parsing, pipeline parsing and every pass succeeded, else 0.
TLX_CORE_API int tlxResultSucceeded(const TlxResult *result);

/// Where it stopped: "" on success, else "parse", "pipeline", "pass" or
/// "internal" (an assertion or signal inside the compiler, caught).
TLX_CORE_API const char *tlxResultStage(const TlxResult *result);

/// The printed module (empty on failure); its length goes to `*length`.
TLX_CORE_API const char *tlxResultOutput(const TlxResult *result,
                                         size_t *length);

TLX_CORE_API size_t tlxResultNumDiagnostics(const TlxResult *result);

/// Diagnostic `index` in emission order. `severity` is "error", "warning",
/// "note" or "remark"; `file` is empty and `line`/`column` are 0 when the
/// diagnostic has no file location. Strings live as long as the result.
TLX_CORE_API void tlxResultGetDiagnostic(const TlxResult *result, size_t index,
                                         const char **severity,
                                         const char **file, unsigned *line,
                                         unsigned *column,
                                         const char **message);

/// 1 when diagnostic `index` says the kernel needs more of a CTA's memory
/// than there is (a configuration to skip, not a mistake in the kernel), with
/// what ran out ("shared memory", "tensor memory columns") and how much is
/// needed and available in `resource`'s unit; else 0, the outputs untouched.
TLX_CORE_API int tlxResultGetOutOfResources(const TlxResult *result,
                                            size_t index, const char **resource,
                                            long long *required,
                                            long long *limit);

TLX_CORE_API void tlxResultDestroy(TlxResult *result);

/// The TLX version string.
TLX_CORE_API const char *tlxVersion(void);

/// The shared memory one CTA may use on `target` ("cuda:90"), in bytes; -1
/// for a target TLX does not know.
TLX_CORE_API long long tlxSharedMemoryLimit(const char *target);

/// The op contract table (JSON, generated from TLXOps.td): what the carrier
/// of each TLX op carries. NUL-terminated, static.
TLX_CORE_API const char *tlxOpContracts(void);

#ifdef __cplusplus
}
#endif

#endif /* TLX_PYTHON_SRC_TLXCORE_H */

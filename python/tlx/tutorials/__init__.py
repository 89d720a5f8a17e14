"""TLX tutorials: readable kernels that show one idea each, with their host code.

Each module has the kernel, a `run(...)` host function taking PyTorch tensors, and a `SPEC` used to
compile it on the CPU (no GPU needed) in the test suite and the showcase.
"""

import inspect


def kernel_source(kernel, signature: dict, constexprs: dict | None = None, divisible_by_16=()):
    """The ``ASTSource`` a launch of ``kernel`` would compile: ``signature`` maps arguments to Triton types
    (``"*fp16"``, ``"i32"``, ``"tensordesc<...>"``); ``constexprs`` gives the values of constexpr arguments
    (they need not be in ``signature`` too); a constexpr argument given neither takes its default.
    ``divisible_by_16`` names the arguments Triton would specialize as multiples of 16 at launch."""
    from triton.compiler.compiler import ASTSource

    signature, constexprs = dict(signature), dict(constexprs or {})
    signature.update((name, "constexpr") for name in constexprs)
    params = getattr(kernel, "params", ())
    for param in params:
        if param.name not in signature and param.is_constexpr and param.default is not inspect.Parameter.empty:
            signature[param.name] = "constexpr"
            constexprs.setdefault(param.name, param.default)
    names = [param.name for param in params if param.name in signature] or list(signature)
    signature = {name: signature[name] for name in names}
    constants = {(names.index(name),): value for name, value in constexprs.items()}
    attrs = {(names.index(name),): [["tt.divisibility", 16]] for name in divisible_by_16}
    return ASTSource(kernel, signature, constants, attrs)


def compile_kernel(
    kernel, signature: dict, constexprs: dict | None = None, arch: int = 90, *, divisible_by_16=(), **options
):
    """Compile a ``@triton.jit`` kernel on the CPU for sm_``arch`` (no GPU needed), as a launch would
    (``kernel_source``'s arguments); ``options`` are ``triton.compile``'s (``num_warps``, ``num_stages``,
    ``ctas_per_cga``, ...)."""
    import triton
    from triton.backends.compiler import GPUTarget

    source = kernel_source(kernel, signature, constexprs, divisible_by_16)
    return triton.compile(source, target=GPUTarget("cuda", arch, 32), options=options)


def compile_tutorial(spec: dict, arch: int | None = None):
    """Compile a tutorial's kernel on the CPU from its SPEC (``compile_kernel``'s arguments as a dict:
    ``kernel``, ``signature``, ``constexprs``, ``num_warps``; optional ``arch`` (90 unless said; the ``arch``
    argument overrides it), ``divisible_by_16``, ``num_stages`` and other launch ``options``, e.g.
    ``ctas_per_cga``)."""
    arch = spec.get("arch", 90) if arch is None else arch
    options = {"num_warps": spec["num_warps"]}
    if "num_stages" in spec:
        options["num_stages"] = spec["num_stages"]
    options.update(spec.get("options", {}))
    return compile_kernel(
        spec["kernel"],
        spec["signature"],
        spec["constexprs"],
        arch,
        divisible_by_16=spec.get("divisible_by_16", ()),
        **options,
    )

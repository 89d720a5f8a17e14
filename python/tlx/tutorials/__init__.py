"""TLX tutorials: readable kernels that show one idea each, with their host code.

Each module has the kernel, a `run(...)` host function taking PyTorch tensors, and a `SPEC` used to
compile it on the CPU (no GPU needed) in the test suite and the showcase.
"""

import inspect


def compile_tutorial(spec: dict, arch: int = 90):
    """Compile a tutorial's kernel on the CPU for `arch` from its SPEC (no GPU needed).

    A SPEC may add `divisible_by_16` (argument names Triton would specialize as multiples of 16 at launch),
    `num_stages` and other launch `options` (`ctas_per_cga`)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    signature, constexprs = dict(spec["signature"]), dict(spec["constexprs"])
    params = getattr(spec["kernel"], "params", ())
    # A constexpr parameter the SPEC leaves out takes its default, as a launch binds it.
    for param in params:
        if param.name not in signature and param.is_constexpr and param.default is not inspect.Parameter.empty:
            signature[param.name] = "constexpr"
            constexprs.setdefault(param.name, param.default)
    names = [param.name for param in params if param.name in signature] or list(signature)
    signature = {name: signature[name] for name in names}
    constants = {(names.index(name),): value for name, value in constexprs.items()}
    attrs = {(names.index(name),): [["tt.divisibility", 16]] for name in spec.get("divisible_by_16", ())}
    source = ASTSource(spec["kernel"], signature, constants, attrs)
    options = {"num_warps": spec["num_warps"]}
    if "num_stages" in spec:
        options["num_stages"] = spec["num_stages"]
    options.update(spec.get("options", {}))
    return triton.compile(source, target=GPUTarget("cuda", arch, 32), options=options)

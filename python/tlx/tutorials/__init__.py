"""TLX tutorials: readable kernels that show one idea each, with their host code.

Each module has the kernel, a `run(...)` host function taking PyTorch tensors, and a `SPEC` used to
compile it on the CPU (no GPU needed) in the test suite and the showcase.
"""

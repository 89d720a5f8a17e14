"""Shared pytest configuration: the `needs_tlx_passes` marker.

``@pytest.mark.needs_tlx_passes`` skips a test while this ``tlx._C`` does not register ``tlx-raise-carriers``;
``@pytest.mark.needs_tlx_passes("local_trans", ...)`` also while its ``tlx-raise-carriers`` does not know those
ops yet (probed by raising a module that holds their carriers: an unknown op is an "unknown TLX operation" error).
"""

import functools

import pytest

#: Ops the probe module holds carriers of: what `needs_tlx_passes(...)` can ask for.
PROBED_OPS = ("local_trans", "local_slice", "local_reinterpret")


def _raise_pass_registered() -> bool:
    import tlx.compiler

    return tlx.compiler.pass_registered("tlx-raise-carriers")


@functools.cache
def _unknown_ops() -> frozenset:
    """The ops of PROBED_OPS whose carriers this tlx._C's raise pass rejects as unknown."""
    import triton
    import triton.language as tl

    import tlx
    from tlx.compiler import RAISE_PIPELINE, frontend_ir

    @triton.jit
    def probe():
        buf = tlx.local_alloc((64, 64), tl.float16, 1)[0]
        tlx.local_trans(buf)
        tlx.local_slice(buf, [0, 0], [32, 64])
        tlx.local_reinterpret(buf, tl.int16)

    try:
        tlx.run_pipeline(frontend_ir(probe, {}), RAISE_PIPELINE)
    except tlx.PipelineError as error:
        messages = " ".join(str(d[-1]) for d in error.diagnostics or []) or str(error)
        return frozenset(op for op in PROBED_OPS if f"unknown TLX operation tlx.{op} " in messages + " ")
    return frozenset()


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "needs_tlx_passes(*ops): compiles through the TLX C++ passes; skipped while this tlx._C build does not "
        "register tlx-raise-carriers, or while that pass does not know `ops` yet",
    )


def pytest_collection_modifyitems(config, items):
    marked = [(item, item.get_closest_marker("needs_tlx_passes")) for item in items]
    marked = [(item, marker) for item, marker in marked if marker is not None]
    if not marked:
        return
    if not _raise_pass_registered():
        skip = pytest.mark.skip(reason="tlx._C does not register tlx-raise-carriers yet (the C++ passes)")
        for item, _ in marked:
            item.add_marker(skip)
        return
    for item, marker in marked:
        unprobed = set(marker.args) - set(PROBED_OPS)
        if unprobed:
            raise pytest.UsageError(f"{item.nodeid}: needs_tlx_passes cannot probe {sorted(unprobed)}")
        missing = sorted(set(marker.args) & _unknown_ops())
        if missing:
            names = ", ".join(f"tlx.{op}" for op in missing)
            item.add_marker(pytest.mark.skip(reason=f"tlx._C's tlx-raise-carriers does not know {names} yet"))

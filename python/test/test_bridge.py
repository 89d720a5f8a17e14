"""tlx._C.run_pipeline: parse, run a textual pass pipeline, print; diagnostics as exceptions."""

import re

import pytest

import tlx
import tlx._C

TLX_MODULE = """\
func.func @pipeline(%i: i32, %phase: i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 1 : i32
  %a = tlx.local_alloc : !tlx.buffers<2, 64x64xbf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<2, 64x64xbf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %m = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  tlx.barrier_expect_bytes %m, 8192 : !tlx.mbarrier
  tlx.barrier_wait %m, %phase : !tlx.mbarrier
  return
}
"""


def test_version_matches_package():
    assert tlx._C.version() == tlx.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", tlx.__version__)


def test_round_trip_is_stable():
    once = tlx.run_pipeline(TLX_MODULE, "builtin.module()")
    twice = tlx.run_pipeline(once, "builtin.module()")
    assert once == twice
    assert "tlx.local_view %0[%arg0] : !tlx.buffers<2, 64x64xbf16, smem>" in once


@pytest.mark.parametrize("pipeline", ["builtin.module(cse,canonicalize)", "cse,canonicalize", " cse , canonicalize "])
def test_anchored_and_bare_pipelines_run_the_same_passes(pipeline):
    out = tlx.run_pipeline(TLX_MODULE, pipeline)
    # cse merged the two equal constants
    assert out.count("arith.constant 1 : i32") == 1


def test_debug_info_keeps_source_locations():
    out = tlx.run_pipeline(TLX_MODULE, "builtin.module()", source_name="kernel.mlir", debug_info=True)
    assert re.search(r'loc\("kernel.mlir":5:8\)', out), out


def test_parse_error_carries_line_and_column():
    broken = TLX_MODULE.replace("tlx.barrier_wait %m, %phase", "tlx.barrier_wait %m %phase")
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(broken, "canonicalize", source_name="broken.mlir")
    error = info.value
    assert isinstance(error, RuntimeError)
    assert error.stage == "parse"
    assert "broken.mlir:9:" in str(error)
    severity, file, line, column, message = error.diagnostics[0]
    assert (severity, file, line) == ("error", "broken.mlir", 9)
    assert column > 1 and "expected ','" in message


def test_verifier_error_is_reported_at_the_op():
    bad = TLX_MODULE.replace("arrive_count = 1", "arrive_count = 0")
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(bad, "canonicalize")
    assert info.value.stage == "parse"
    assert "<ir>:6:11: error: 'tlx.alloc_barriers' op attribute 'arrive_count'" in str(info.value)


def test_pass_failure_reports_the_offending_op():
    out_of_range = TLX_MODULE.replace("%bars[%c1]", "%bars[%c2]")
    out_of_range = out_of_range.replace("%c2 = arith.constant 1", "%c2 = arith.constant 2")
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(out_of_range, "tlx-check-static-bounds")
    assert info.value.stage == "pass"
    severities = [d[0] for d in info.value.diagnostics]
    assert severities[0] == "error"
    assert info.value.diagnostics[0][2:4] == (7, 8)
    assert "selects mbarrier 2 of 2; valid indices are 0..1" in info.value.diagnostics[0][4]
    # the note showing the op in generic form comes after the error
    assert "note" in severities
    assert info.value.out_of_resources == []  # a mistake in the kernel, not a configuration to skip


def _kernel(target: str, body: str) -> str:
    return f"""module attributes {{"ttg.num-warps" = 4 : i32, ttg.target = "{target}"}} {{
  tt.func @k() {{
{body}
    tt.return
  }}
}}"""


@pytest.mark.parametrize("count, rows, columns", [(3, 128, 256), (2, 64, 512), (5, 128, 128)])
def test_a_kernel_over_tensor_memory_is_marked_out_of_resources(count, rows, columns):
    """The error's mark, not its wording, tells the Python side: f32 takes a 32-bit column per element."""
    alloc = f"    %t = tlx.local_alloc : !tlx.buffers<{count}, {rows}x{columns}xf32, tmem>"
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(_kernel("cuda:100", alloc), "tlx-assign-layouts")
    assert info.value.out_of_resources == [("tensor memory columns", count * columns, 512)]


def test_a_storage_alias_spec_over_tensor_memory_is_marked_out_of_resources():
    buffers = "!tlx.buffers<2, 128x256xf32, tmem>"
    spec = "!tlx.storage_alias_spec<tmem>"
    body = f"""    %s = tlx.storage_alias_spec : {spec}
    %a = tlx.local_alloc reuse(%s : {spec}) : {buffers}
    %b = tlx.local_alloc reuse(%s : {spec}) : {buffers}
    %g = tlx.reuse_group(%a, %b) distinct group_size = 1 : {buffers}, {buffers}
    tlx.set_buffer_overlap %s, %g : {spec}"""
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(_kernel("cuda:100", body), "tlx-assign-layouts,tlx-lower-to-ttg")
    # two buffer sets side by side, 256 columns each per index, two indices
    assert info.value.out_of_resources == [("tensor memory columns", 2 * 2 * 256, 512)]


def test_shared_memory_overflow_is_marked_once_with_the_total():
    allocs = [(2, 128, 256), (3, 64, 256), (1, 128, 128)]
    body = "\n".join(
        f"    %a{i} = tlx.local_alloc : !tlx.buffers<{n}, {r}x{c}xf16, smem>" for i, (n, r, c) in enumerate(allocs)
    )
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(_kernel("cuda:90", body), "tlx-check-shared-memory")
    total = sum(n * r * c * 2 for n, r, c in allocs)
    assert info.value.out_of_resources == [("shared memory", total, tlx._C.shared_memory_limit("cuda:90"))]


def test_unknown_pass_is_a_pipeline_error():
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline(TLX_MODULE, "builtin.module(no-such-pass)")
    assert info.value.stage == "pipeline"
    assert "no-such-pass" in str(info.value)


def test_unregistered_dialect_is_named():
    with pytest.raises(tlx.PipelineError) as info:
        tlx.run_pipeline('"foo.bar"() : () -> ()', "canonicalize")
    assert "foo.bar" in str(info.value)


@pytest.mark.parametrize("text", ["", "module {", "\x00\xff garbage", "}" * 1000, "func.func @f(" * 500])
def test_garbage_never_succeeds_silently(text):
    if text == "":
        # an empty buffer is a valid empty module
        assert "module" in tlx.run_pipeline(text, "canonicalize")
        return
    with pytest.raises(tlx.PipelineError):
        tlx.run_pipeline(text, "canonicalize")


def test_bad_input_loses_nothing_for_the_next_call():
    with pytest.raises(tlx.PipelineError):
        tlx.run_pipeline("module {", "canonicalize")
    assert "tlx.local_alloc" in tlx.run_pipeline(TLX_MODULE, "canonicalize")

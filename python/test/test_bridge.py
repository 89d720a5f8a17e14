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

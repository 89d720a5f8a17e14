"""`triton.language.extra.tlx` is the `tlx` package itself, whichever import comes first.

Each case runs in a fresh interpreter: import order is the point.
"""

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]


def run(code: str) -> subprocess.CompletedProcess:
    """Run `code` as a script file (@triton.jit needs its source in a file) in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as directory:
        script = Path(directory) / "script.py"
        script.write_text(textwrap.dedent(code))
        return subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=PYTHON_DIR
        )


def ok(code: str) -> str:
    child = run(code)
    assert child.returncode == 0, child.stderr[-4000:]
    return child.stdout


def test_import_tlx_then_the_alias():
    ok(
        """
        import sys
        import tlx
        import triton.language.extra.tlx as alias
        from triton.language.extra import tlx as from_import
        assert alias is tlx and from_import is tlx
        assert sys.modules["triton.language.extra.tlx"] is tlx
        assert tlx.__name__ == "tlx" and tlx.__spec__.name == "tlx"
        import triton.language.extra.tlx.language as language
        import triton.language.extra.tlx.compiler.pipeline as pipeline
        import triton.language.extra.tlx.testing.carriers as carriers  # a submodule not loaded before
        import tlx.testing.carriers
        assert language is tlx.language
        assert pipeline is tlx.compiler.pipeline
        assert carriers is tlx.testing.carriers
        assert tlx.testing.carriers.__spec__.name == "tlx.testing.carriers"
        """
    )


def test_alias_first_in_a_fresh_interpreter_with_the_startup_hook():
    """What a `.pth` line `import _tlx_alias` gives an installed TLX: the alias works before `import tlx`."""
    ok(
        """
        import _tlx_alias  # stands for the site-packages .pth line
        import sys
        assert "tlx" not in sys.modules and "triton" not in sys.modules, "the start-up hook must stay light"
        import triton.language.extra.tlx as alias
        import tlx
        assert alias is tlx and tlx.__spec__.name == "tlx"
        import triton.language.extra.tlx.language.semantic as semantic
        assert semantic is tlx.language.semantic
        assert tlx.compiler.installed()
        """
    )


def test_unknown_submodule_through_the_alias():
    child = run("import tlx\nimport triton.language.extra.tlx.no_such_module")
    assert "No module named 'triton.language.extra.tlx.no_such_module'" in child.stderr


@pytest.mark.parametrize("import_line", ["import tlx", "import _tlx_alias\nimport triton.language.extra.tlx as tlx"])
def test_kernels_written_against_either_name_emit_carriers(import_line):
    out = ok(
        import_line
        + "\n"
        + textwrap.dedent(
            """
            import triton
            import triton.language as tl
            import triton.language.extra.tlx as tlx_alias
            from tlx.compiler import frontend_ir
            from tlx.testing.carriers import carriers

            @triton.jit
            def kernel(Y):
                bufs = tlx_alias.local_alloc((64,), tl.float32, 2)
                tl.store(Y + tl.arange(0, 64), tlx_alias.local_load(bufs[1]))

            print([c.op for c in carriers(frontend_ir(kernel, {"Y": "*fp32"}))])
            """
        )
    )
    assert out.strip() == "['local_alloc', 'local_view', 'local_load']"


def test_installed_environment_takes_the_alias_import_first():
    """The installed tlx-alias.pth (the wheel ships it; `make build` puts it beside an editable install)
    makes the TLX users' import line work in a fresh interpreter, before any `import tlx`."""
    code = "import triton.language.extra.tlx as tlx\nimport tlx as direct\nassert tlx is direct\nprint(tlx.local_alloc)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "local_alloc" in result.stdout


def test_the_tl_extra_tlx_spelling_inside_a_kernel():
    out = ok(
        """
        import triton
        import triton.language as tl
        import tlx
        from tlx.compiler import frontend_ir
        from tlx.testing.carriers import carriers

        assert tl.extra.tlx is tlx

        @triton.jit
        def kernel(out):
            bufs = tl.extra.tlx.local_alloc((64,), tl.float32, 1)
            tl.extra.tlx.local_store(bufs[0], tl.zeros((64,), tl.float32))
            tl.store(out + tl.arange(0, 64), tl.extra.tlx.local_load(bufs[0]))

        print([c.op for c in carriers(frontend_ir(kernel, {"out": "*fp32"}))])
        """
    )
    assert out.split() == ["['local_alloc',", "'local_view',", "'local_store',", "'local_view',", "'local_load']"]

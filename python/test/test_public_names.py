"""Every public name of the TLX API (facebookexperimental/triton at db4666f22c1f) is a name of ours, with its
signature: a kernel written for the public API must find each name and call it as written there.

`data/public_tlx_names.txt` lists the 117 names, `data/public_tlx_signatures.txt` their call signatures.
A name of the public API that is still missing here is listed below with who owns it, as a strict xfail:
the test fails when a name is missing without being listed, and when a listed name appears (then take it
off the list). The same holds for the signatures. `test_count` reports the tally.
"""

import ast
import inspect
import re
from pathlib import Path

import pytest
import triton.language as tl
import triton.language.core as tlc

import tlx

DATA = Path(__file__).resolve().parent / "data"


def _lines(name: str) -> list[str]:
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip() and line[0] != "#"]


NAMES = _lines("public_tlx_names.txt")

#: Public names still missing, by owner. Each is a strict xfail: take a name off when it is defined.
MISSING = {
    # In the public API's __all__ but defined nowhere there (`from ... import *` fails on it).
    "not defined by the public API": ["CLCPipeliner"],
}
MISSING_NAMES = {name: owner for owner, names in MISSING.items() for name in names}


def _marked(names, known, why):
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=why(n))) if n in known else n for n in names]


def test_the_lists_are_consistent():
    assert len(NAMES) == 117 and len(set(NAMES)) == len(NAMES)
    assert not set(MISSING_NAMES) - set(NAMES), "a listed name is not a public name"


@pytest.mark.parametrize(
    "name", _marked(NAMES, MISSING_NAMES, lambda n: f"tlx.{n} is not defined yet ({MISSING_NAMES[n]})")
)
def test_public_name_is_defined(name):
    assert hasattr(tlx, name), f"tlx.{name} is missing"


@pytest.mark.parametrize(
    "name", _marked(NAMES, MISSING_NAMES, lambda n: f"tlx.{n} is not defined yet ({MISSING_NAMES[n]})")
)
def test_public_name_is_exported(name):
    """`from tlx import *` (and `import triton.language.extra.tlx as tlx`) binds it."""
    assert name in tlx.__all__ and name in tlx.language.__all__ or name == "compiler" and name in tlx.__all__


def test_count():
    """The tally: defined names, and the missing ones by owner (printed with -s; in the message on failure)."""
    defined = [n for n in NAMES if hasattr(tlx, n)]
    missing = {owner: [n for n in names if not hasattr(tlx, n)] for owner, names in MISSING.items()}
    report = f"{len(defined)} of {len(NAMES)} public TLX names defined; missing: " + "; ".join(
        f"{owner}: {len(names)} ({', '.join(names)})" for owner, names in missing.items() if names
    )
    print(report)
    assert len(defined) + sum(len(names) for names in missing.values()) == len(NAMES), report


# ------------------------------------------------------------------------------------------------ signatures

SIGNATURES = {line.split("(", 1)[0]: line for line in _lines("public_tlx_signatures.txt")}

#: Names defined here whose parameters differ from the public API's, by owner. Strict xfails as above.
SIGNATURE_GAPS = {
    # Defined before the public API was the reference; argument names (and options) differ. Positional calls
    # work; keyword calls (`local_store(dst=..., src=...)`) and the missing options do not.
}
GAP_NAMES = {name: owner for owner, names in SIGNATURE_GAPS.items() for name in names}

#: Value types the compiler makes and kernels receive, never construct: their constructors are not API.
VALUE_TYPES = {"async_token", "buffered_tensor", "buffered_tensor_type", "mbarrier", "mbarrier_type"}


def _reference_parameters(line: str) -> list[tuple[str, str, str | None]]:
    """(name, kind, default source or None) of each parameter of one line of public_tlx_signatures.txt."""
    args = ast.parse(f"def f({line.split('(', 1)[1]}: pass").body[0].args
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in zip(positional, defaults, strict=True):
        out.append((arg.arg, "positional", None if default is None else ast.unparse(default)))
    if args.vararg:
        out.append((args.vararg.arg, "*args", None))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out.append((arg.arg, "keyword", None if default is None else ast.unparse(default)))
    if args.kwarg:
        out.append((args.kwarg.arg, "**kwargs", None))
    return out


_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
    inspect.Parameter.VAR_POSITIONAL: "*args",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_KEYWORD: "**kwargs",
}


def _our_parameters(obj) -> list[tuple[str, str, object]]:
    signature = inspect.signature(obj)  # follows a builtin's __wrapped__; a class's __init__ without self
    return [
        (p.name, _KINDS[p.kind], p.default)
        for p in signature.parameters.values()
        if p.name not in ("_semantic", "_generator")
    ]


def _normal(value):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, (list, tuple)):
        return tuple(_normal(v) for v in value)
    return value


def _default_value(source: str):
    """The value of a default as the public API writes it (``tl.constexpr(1)``, ``tlx.storage_kind.smem``)."""
    scope = {
        "tl": tl,
        "tlx": tlx,
        "storage_kind": tlx.storage_kind,
        "TMemCTAMode": tlx.TMemCTAMode,
        "reuse_group_type": tlx.reuse_group_type,
    }
    return _normal(eval(source, scope))  # noqa: S307 - our own data file


CHECKED = sorted(n for n in SIGNATURES if n not in VALUE_TYPES and n not in MISSING_NAMES)


@pytest.mark.parametrize(
    "name", _marked(CHECKED, GAP_NAMES, lambda n: f"tlx.{n}'s parameters differ from the public API's ({GAP_NAMES[n]})")
)
def test_signature_is_the_public_apis(name):
    theirs = _reference_parameters(SIGNATURES[name])
    ours = _our_parameters(getattr(tlx, name))
    assert [(n, k, d is not None) for n, k, d in theirs] == [
        (n, k, d is not inspect.Parameter.empty) for n, k, d in ours
    ], f"tlx.{name}: public {SIGNATURES[name]}, ours {inspect.signature(getattr(tlx, name))}"
    for (param, _, source), (_, _, default) in zip(theirs, ours, strict=True):
        if source is not None:
            assert _default_value(source) == _normal(default), f"tlx.{name}: `{param}` defaults to {source}"


def test_signature_lists_are_consistent():
    assert set(SIGNATURES) <= set(NAMES)
    assert set(GAP_NAMES) <= set(CHECKED)


def test_the_docs_table_says_what_each_name_does():
    """docs/public-api.md has one row per public name, its status the one this suite checks."""
    from tlx.language import amd

    table = (Path(__file__).resolve().parents[2] / "docs" / "public-api.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", table, flags=re.M))
    assert sorted(rows) == sorted(NAMES)
    for name, status in rows.items():
        if name in MISSING_NAMES:
            expected = "not "
        elif name in amd.__all__:
            expected = "error: AMD only"
        else:
            expected = "works"
        assert status.startswith(expected), f"docs/public-api.md: `{name}` is '{status.strip()}', not '{expected}...'"

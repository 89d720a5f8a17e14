"""The op contract table (generated from TLXOps.td) and the tests that keep every op and check covered.

* the generator distills ODS records into the table and refuses what carriers cannot carry;
* the table the core serves names every op of the dialect, with its operands in ODS order;
* test/TLX/ops.mlir round-trips every op of the table;
* every diagnostic the TLX dialect's verifiers can emit is expected by some lit test.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from tlx import _C
from tlx.language.contracts import contracts, parse

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tools" / "gen-op-contracts" / "gen_op_contracts.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_op_contracts", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(arguments: list[tuple[str, dict]], traits: tuple[str, ...] = ()) -> dict:
    """A minimal `llvm-tblgen --dump-json` record set with one op `tlx.probe`."""
    records = {
        "!instanceof": {"Op": ["TLX_ProbeOp"]},
        "TLX_ProbeOp": {
            "opName": "probe",
            "opDialect": {"def": "TLX_Dialect"},
            "arguments": {"args": [[{"def": name}, name.lower()] for name, _ in arguments]},
            "results": {"args": []},
            "regions": {"args": []},
            "traits": [{"def": t} for t in traits],
            "summary": "a probe",
        },
    }
    records.update(dict(arguments))
    return records


def test_generator_reads_operands_and_attributes_in_ods_order():
    gen = _generator()
    records = _records(
        [
            ("BUF", {"!superclasses": ["TypeConstraint", "TLX_Type"]}),
            ("IDX", {"!superclasses": ["TypeConstraint", "Variadic"], "baseType": {"def": "I32"}}),
            ("ACC", {"!superclasses": ["TypeConstraint", "RankedTensorOf"], "cppType": "::mlir::RankedTensorType"}),
            ("COUNT", {"!superclasses": ["Attr"], "storageType": "::mlir::IntegerAttr", "defaultValue": "1"}),
            ("FLAG", {"!superclasses": ["Attr"], "storageType": " ::mlir::UnitAttr ", "isOptional": 1}),
        ],
        traits=("AttrSizedOperandSegments",),
    )
    records["I32"] = {"!superclasses": ["TypeConstraint"], "cppType": "::mlir::IntegerType"}
    table = gen.contracts(records)["ops"]["probe"]
    assert [(o["name"], o["kinds"], o["arity"]) for o in table["operands"]] == [
        ("buf", "handle", "single"),
        ("idx", "scalar", "variadic"),
        ("acc", "tensor", "single"),
    ]
    assert [(a["name"], a["kind"], a["optional"]) for a in table["attributes"]] == [
        ("count", "int", True),
        ("flag", "unit", True),
    ]
    assert table["operand_segments"] is True


@pytest.mark.parametrize(
    "name, record, message",
    [
        ("TYPE", {"!superclasses": ["Attr"], "storageType": "::mlir::IntegerAttr"}, "reserved"),
        ("LINKED_X", {"!superclasses": ["Attr"], "storageType": "::mlir::IntegerAttr"}, "reserved"),
        ("F", {"!superclasses": ["Attr"], "storageType": "::mlir::FloatAttr"}, "carriers cannot carry"),
    ],
)
def test_generator_refuses_what_carriers_cannot_carry(name, record, message):
    gen = _generator()
    with pytest.raises(gen.ContractError, match=message):
        gen.contracts(_records([(name, record)]))


def test_the_core_serves_the_generated_table():
    table = json.loads(_C.op_contracts())
    assert table["version"] == 1
    ops = parse(_C.op_contracts())
    assert ops == contracts()
    load = ops["async_descriptor_load"]
    assert [o.name for o in load.operands] == ["desc", "offsets", "buffer", "barrier", "pred", "multicastTargets"]
    assert set(load.attributes) == {"cache", "evict", "twoCTAs"}
    assert ops["async_tasks"].regions == 1
    assert ops["local_alloc"].results[0].kinds == {"handle"}
    assert ops["async_dot"].operands[0].kinds == {"handle", "tensor"}


def _lit_text() -> str:
    return "\n".join(p.read_text() for p in sorted((ROOT / "test").rglob("*.mlir")))


def test_ops_mlir_round_trips_every_op():
    text = (ROOT / "test" / "TLX" / "ops.mlir").read_text()
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    missing = [op for op in contracts() if not re.search(rf"\btlx\.{op}\b", body)]
    assert not missing, f"test/TLX/ops.mlir does not round-trip {missing}"


def _verifier_messages() -> list[tuple[str, str]]:
    """The first string literal of every diagnostic of the TLX dialect's IR (file, literal)."""
    found = []
    for path in sorted((ROOT / "lib" / "Dialect" / "TLX" / "IR").glob("*.cpp")):
        source = path.read_text()
        for match in re.finditer(r'emit(?:Op|Optional)?Error\((?:[^()"]*\))?\s*(?:<<\s*)?"((?:[^"\\]|\\.)*)"', source):
            found.append((path.name, match.group(1)))
    return found


def test_every_verifier_message_is_expected_by_a_lit_test():
    expected = "\n".join(re.findall(r"expected-error[^{]*\{\{(.*?)\}\}", _lit_text()))
    messages = _verifier_messages()
    assert len(messages) > 30
    missing = [f"{file}: {text!r}" for file, text in messages if text.strip() and text.strip() not in expected]
    assert not missing, "verifier messages no lit test expects:\n" + "\n".join(missing)

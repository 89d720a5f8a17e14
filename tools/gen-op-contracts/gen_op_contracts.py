"""Distill the TLX ops' ODS records into the op contract table (build step).

    gen_op_contracts.py RECORDS.json OUT.json OUT.inc

RECORDS.json is ``llvm-tblgen --dump-json`` of ``TLXOps.td``. The contract of
an op is what its carrier must carry (docs/carriers.md): its operands in ODS
order with their arity and what kind of value each is, its attributes with how
they are encoded, its results and regions. OUT.json is the table; OUT.inc holds
the same text as a C++ raw string literal, compiled into the TLX core, which
serves it to the raise pass and to the Python frontend (``tlx._C``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: Carrier attributes that are not ODS attributes (docs/carriers.md): an op may not use these names.
RESERVED_ATTRIBUTES = ("op", "type", "operand_segments", "link")
RESERVED_PREFIX = "linked_"

#: How an attribute rides on a carrier, by the ODS attribute's storage type.
ATTRIBUTE_KINDS = {
    "::mlir::IntegerAttr": "int",
    "::mlir::BoolAttr": "bool",
    "::mlir::UnitAttr": "unit",
    "::mlir::DenseI32ArrayAttr": "i32_array",
    "::mlir::Attribute": "text",
}


class ContractError(Exception):
    pass


def _record(records: dict, ref: dict | str) -> tuple[str, dict]:
    name = ref["def"] if isinstance(ref, dict) else ref
    return name, records[name]


def value_kinds(records: dict, ref: dict | str) -> set[str]:
    """What a value of this type constraint can be: handle (a TLX buffer or mbarrier), tensor, desc, scalar."""
    name, record = _record(records, ref)
    supers = record.get("!superclasses", [])
    if "TLX_Type" in supers:
        return {"handle"}
    if "Optional" in supers or "Variadic" in supers:
        return value_kinds(records, record["baseType"])
    if "AnyTypeOf" in supers:
        kinds: set[str] = set()
        for allowed in record["allowedTypes"]:
            kinds |= value_kinds(records, allowed)
        return kinds
    cpp = record.get("cppType", "").strip()
    if cpp == "::mlir::triton::TensorDescType":
        return {"desc"}
    if cpp in ("::mlir::RankedTensorType", "::mlir::TensorType") or "ShapedContainerType" in supers:
        return {"tensor"}
    return {"scalar"}


def arity(record: dict) -> str:
    supers = record.get("!superclasses", [])
    if "Variadic" in supers:
        return "variadic"
    if "Optional" in supers:
        return "optional"
    return "single"


def _kinds_text(kinds: set[str]) -> str:
    return "|".join(sorted(kinds))


def attribute_contract(op: str, name: str, record: dict) -> dict:
    storage = record.get("storageType", "").strip()
    base = record.get("baseAttr")
    kind = ATTRIBUTE_KINDS.get(storage)
    if kind is None and record.get("valueType") and "I32" in json.dumps(record.get("valueType")):
        kind = "int"  # I32 enums: an IntegerAttr subclass whose value must be a case
    if kind is None:
        raise ContractError(f"tlx.{op}: attribute `{name}` has storage {storage!r}, which carriers cannot carry")
    if name in RESERVED_ATTRIBUTES or name.startswith(RESERVED_PREFIX):
        raise ContractError(f"tlx.{op}: attribute name `{name}` is reserved for carrier metadata")
    optional = record.get("isOptional") == 1 or record.get("defaultValue") not in (None, "")
    contract = {"name": name, "kind": kind, "optional": bool(optional)}
    if base:
        contract["constraint"] = base["def"] if isinstance(base, dict) else str(base)
    return contract


def op_contract(records: dict, record: dict) -> dict:
    op = record["opName"]
    operands, attributes = [], []
    for ref, name in record["arguments"]["args"]:
        arg = records[ref["def"]]
        if "Attr" in arg.get("!superclasses", []) or "AttrConstraint" in arg.get("!superclasses", []):
            attributes.append(attribute_contract(op, name, arg))
        else:
            operands.append({"name": name, "kinds": _kinds_text(value_kinds(records, ref)), "arity": arity(arg)})
    results = [
        {"name": name, "kinds": _kinds_text(value_kinds(records, ref)), "arity": arity(records[ref["def"]])}
        for ref, name in record["results"]["args"]
    ]
    traits = {trait["def"] for trait in record.get("traits", [])}
    return {
        "operands": operands,
        "attributes": attributes,
        "results": results,
        "regions": len(record["regions"]["args"]),
        "operand_segments": "AttrSizedOperandSegments" in traits,
        "summary": record.get("summary", ""),
    }


def contracts(records: dict) -> dict:
    ops = {}
    for name in records["!instanceof"]["Op"]:
        record = records[name]
        if record.get("opDialect", {}).get("def") != "TLX_Dialect":
            continue
        ops[record["opName"]] = op_contract(records, record)
    return {"version": 1, "ops": dict(sorted(ops.items()))}


def main(argv: list[str]) -> int:
    records_path, json_path, inc_path = (Path(p) for p in argv[1:4])
    try:
        table = contracts(json.loads(records_path.read_text()))
    except ContractError as error:
        print(f"gen_op_contracts: {error}", file=sys.stderr)
        return 1
    text = json.dumps(table, indent=1, sort_keys=True)
    if ')tlx"' in text:
        print("gen_op_contracts: the table contains the raw-string delimiter", file=sys.stderr)
        return 1
    json_path.write_text(text + "\n")
    inc_path.write_text(
        f'// Generated by tools/gen-op-contracts/gen_op_contracts.py from TLXOps.td: do not edit.\nR"tlx({text})tlx"\n'
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

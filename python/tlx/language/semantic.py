"""TLX semantics: argument checks and carrier emission, the only place that builds TLX IR.

Every ``tlx.*`` builtin lands here. Each method checks what Python can see
(compile-time constants, shapes, element types, buffer kinds, target) and
emits the op's *carrier* exactly as ``docs/carriers.md`` specifies:

* Form A (no tensor operand or result): ``tt.call @tlx.<op>.<signature>``
  to a private ``noinline`` callee with an opaque body, the op's static
  parameters as ``tlx.*`` attributes on the call.
* Form B (tensor operands or results): ``tt.elementwise_inline_asm
  "tlx.<op>"`` with ``pure = false``, handles splat to the tensor shape.

Handles (buffer sets, buffers, mbarrier sets, mbarriers) are ``i64``. Ops
keep the builder's current location: the user's Python line, where the C++
side reports its diagnostics.

Misuse raises :class:`~tlx.language.errors.TLXError` with ``<file>:<line>:
tlx.<op>: <what is wrong>``; Triton's code generator wraps it in a
``CompilationError`` at the same kernel line.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import triton.language.core as tlc
from triton._C.libtriton import ir

from .contracts import LINK_ATTR, LINKED_OPERAND_OP, LINKED_PREFIX, OP_ATTR, SEGMENTS_ATTR, TYPE_ATTR, contract
from .errors import TLXError, location
from .targets import BLACKWELL, blackwell_only
from .types import (
    CLCPipelineContext,
    async_token,
    buffered_tensor,
    buffered_tensor_type,
    clc_response,
    clc_response_type,
    mbarrier,
    mbarrier_type,
    reuse_group,
    reuse_group_ir_type,
    reuse_group_type,
    reuse_group_value,
    storage_alias_spec_type,
    storage_alias_spec_type_class,
    storage_kind,
    tensor_descriptor_ptr,
)

#: The operand formats of a block-scaled MMA: Triton's ScaleDotElemType values.
_SCALED_FORMATS = {"e4m3": 0, "e5m2": 1, "e2m1": 4}

#: Types whose values are TLX handles (an ``i64`` in TTIR, the ``!tlx`` type in ``tlx.type``).
_HANDLE_TYPES = (buffered_tensor_type, mbarrier_type, clc_response_type, storage_alias_spec_type, reuse_group_ir_type)
_HANDLE_VALUES = (buffered_tensor, mbarrier, clc_response, storage_alias_spec_type_class, reuse_group_value)

_DESC_TYPE = re.compile(r"!tt\.tensordesc<tensor<(.*)>>")

#: Static parameters of a carrier (``tlx.<name>`` attributes); a tuple of ints is a dense ``i32`` array.
Attr = bool | int | str | tuple[int, ...]


@dataclass(frozen=True)
class Scalar:
    """A scalar IR value with its element type, as an operand of a carrier."""

    value: ir.value
    dtype: tlc.dtype


@dataclass(frozen=True)
class Linked:
    """A tensor operand whose shape differs from the carrier's: it rides a linked carrier of its own."""

    tensor: tlc.tensor


def _unwrap(value: Any) -> Any:
    """``value`` without constexpr wrappers; a ``tl.tuple`` becomes a Python tuple (stock's unwrap rebuilds a
    ``tl.tuple``, which fails on elements that have no type: ``buf[:, None]`` indexes with a slice and None)."""
    if isinstance(value, tlc.tuple):
        return tuple(_unwrap(element) for element in value.values)
    return tlc._unwrap_if_constexpr(value)


def _describe(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(element) for element in value) + ")"
    if isinstance(value, tlc.slice):
        return "a slice"
    if isinstance(value, tlc.tensor):
        return f"a runtime tensor of type {value.type}"
    if isinstance(value, tlc.base_value):
        return f"a {type(value).__name__} ({value.type})"
    return repr(value)


def _constraint(dtype: tlc.dtype) -> str:
    """Inline-asm constraint of one operand or result element (opaque: never lowered)."""
    return "l" if dtype.is_ptr() or dtype.primitive_bitwidth == 64 else "r"


class TLXSemantic:
    """Checks and carrier emission for one builtin call.

    ``semantic`` is Triton's ``TritonSemantic`` (its builder carries the
    insertion point, the location and the compile options); ``generator`` is
    the ``CodeGenerator`` tracing the kernel (its module receives the carrier
    callees, its current node names the user's line).
    """

    def __init__(self, semantic: Any, generator: Any) -> None:
        if semantic is None or generator is None:
            raise TLXError("TLX builtins can only be called from @triton.jit code")
        self.semantic = semantic
        self.generator = generator
        self.builder: ir.builder = semantic.builder

    # ------------------------------------------------------------------ errors
    def where(self) -> str:
        """``<file>:<line>`` of the kernel line being traced."""
        return location(self.generator)

    def error(self, op: str, message: str, where: str | None = None) -> TLXError:
        """The error of a misused `tlx.<op>`, at the kernel line being traced unless `where` names another."""
        return TLXError(f"{where or self.where()}: tlx.{op}: {message}")

    # ------------------------------------------------------------------ target
    def capability(self) -> int | None:
        arch = getattr(self.builder.options, "arch", None)
        match = re.fullmatch(r"sm_?(\d+)a?", str(arch))
        return int(match.group(1)) if match else None

    def require_blackwell(self, op: str, what: str) -> None:
        """The gate of the public API's Blackwell (sm_100) names: below sm_100, ``blackwell_only``'s error."""
        capability = self.capability()
        if capability is not None and capability < BLACKWELL:
            blackwell_only(op, what, self.semantic, self.generator)

    def require_capability(self, op: str, minimum: int, what: str) -> None:
        capability = self.capability()
        if capability is not None and capability < minimum:
            target = f"sm_{minimum} (Blackwell)" if minimum >= 100 else f"sm_{minimum}"
            raise self.error(op, f"{what} needs {target} or newer; this kernel is compiled for sm_{capability}")

    # --------------------------------------------------------- argument checks
    def const_int(
        self, op: str, name: str, value: Any, *, minimum: int | None = None, maximum: int | None = None
    ) -> int:
        """A compile-time integer argument (Python int or ``tl.constexpr``); without bounds, any value a carrier
        can encode (``i32``): what it must be beyond that is the op verifier's to check."""
        value = _unwrap(value)
        if isinstance(value, tlc.base_value):
            raise self.error(
                op, f"`{name}` must be a compile-time constant (an int or tl.constexpr), got {_describe(value)}"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(op, f"`{name}` must be an int, got {value!r}")
        if minimum is not None and value < minimum or maximum is not None and value > maximum:
            if maximum is None:
                bounds = f">= {minimum}"
            elif minimum is None:
                bounds = f"<= {maximum}"
            else:
                bounds = f"in {minimum}..{maximum}"
            raise self.error(op, f"`{name}` must be {bounds}, got {value}")
        # A bound the op leaves open is the carrier's: its integer attributes are i32.
        if minimum is None and value < -(2**31) or maximum is None and value > 2**31 - 1:
            raise self.error(op, f"`{name}` = {value} does not fit in 32 bits")
        return value

    def const_bool(self, op: str, name: str, value: Any) -> bool:
        value = _unwrap(value)
        if not isinstance(value, bool):
            raise self.error(op, f"`{name}` must be a compile-time bool, got {_describe(value)}")
        return value

    def const_str(self, op: str, name: str, value: Any) -> str:
        value = _unwrap(value)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise self.error(op, f"`{name}` must be a string, got {_describe(value)}")
        return value

    def const_ints(self, op: str, name: str, value: Any, *, minimum: int | None = None) -> tuple[int, ...]:
        """A non-empty tuple/list of compile-time integers (``shape``, ``offsets``, ``dims``)."""
        value = _unwrap(value)
        if not isinstance(value, (tuple, list)) or not value:
            raise self.error(op, f"`{name}` must be a non-empty tuple of ints, got {_describe(value)}")
        return tuple(self.const_int(op, f"{name}[{i}]", d, minimum=minimum) for i, d in enumerate(value))

    def shape(self, op: str, value: Any) -> tuple[int, ...]:
        return self.const_ints(op, "shape", value, minimum=1)

    def element_dtype(self, op: str, name: str, value: Any) -> tlc.dtype:
        value = _unwrap(value)
        if (
            not isinstance(value, tlc.dtype)
            or isinstance(value, (tlc.pointer_type, tlc.block_type))
            or value == tlc.void
        ):
            raise self.error(
                op, f"`{name}` must be an integer or floating-point dtype such as tl.float16, got {value!r}"
            )
        return value

    def mlir_element(self, dtype: tlc.dtype) -> str:
        """How MLIR spells ``dtype`` (f16, bf16, f8E4M3FN, i8, ...): the builder's own print."""
        return str(dtype.to_ir(self.builder))

    def i32(self, op: str, name: str, value: Any) -> Scalar:
        """A scalar integer operand (constant or runtime) as an ``i32`` value."""
        value = _unwrap(value)
        if isinstance(value, int) and not isinstance(value, bool):
            if not -(2**31) <= value < 2**31:
                raise self.error(op, f"`{name}` = {value} does not fit in 32 bits")
            return Scalar(self.builder.get_int32(value), tlc.int32)
        if isinstance(value, tlc.tensor) and not value.type.is_block() and value.dtype.is_int():
            if value.dtype.is_bool():
                raise self.error(op, f"`{name}` must be an integer, got a bool")
            if value.dtype != tlc.int32:
                value = self.semantic.cast(value, tlc.int32)
            return Scalar(value.handle, tlc.int32)
        raise self.error(op, f"`{name}` must be a scalar integer, got {_describe(value)}")

    def predicate(self, op: str, value: Any, name: str = "pred") -> Scalar | None:
        """An optional scalar ``i1`` predicate."""
        value = _unwrap(value)
        if value is None:
            return None
        if isinstance(value, bool):
            return Scalar(self.builder.get_int1(value), tlc.int1)
        if isinstance(value, tlc.tensor) and not value.type.is_block() and value.dtype.is_int():
            if not value.dtype.is_bool():
                value = self.semantic.cast(value, tlc.int1)
            return Scalar(value.handle, tlc.int1)
        raise self.error(op, f"`{name}` must be a scalar bool, got {_describe(value)}")

    def one_buffer(self, op: str, name: str, value: Any, *, shared: bool = False) -> buffered_tensor:
        value = _unwrap(value)
        if not isinstance(value, buffered_tensor):
            raise self.error(op, f"`{name}` must be a buffer from tlx.local_alloc, got {_describe(value)}")
        if not value.type.is_single:
            raise self.error(
                op,
                f"`{name}` is a set of {value.num} buffers ({value.type}); "
                f"select one with {name}[i] or tlx.local_view({name}, i)",
            )
        if shared and value.storage is not storage_kind.smem:
            raise self.error(op, f"`{name}` must be in shared memory (storage smem), got {value.storage.value}")
        return value

    def stored_tensor(self, op: str, name: str, value: Any, buf: buffered_tensor) -> tlc.tensor:
        """A register tensor to store into ``buf`` (its shape and type against the buffer are the op verifier's)."""
        value = _unwrap(value)
        if not isinstance(value, tlc.tensor) or not value.type.is_block():
            raise self.error(
                op, f"`{name}` must be a tensor of shape {list(buf.shape)} and type {buf.dtype}, got {_describe(value)}"
            )
        return value

    def one_barrier(self, op: str, name: str, value: Any, *, remote: bool = False) -> mbarrier:
        value = _unwrap(value)
        if not isinstance(value, mbarrier):
            raise self.error(op, f"`{name}` must be an mbarrier from tlx.alloc_barriers, got {_describe(value)}")
        if value.remote_cta_rank is not None and not remote:
            raise self.error(
                op,
                f"`{name}` is a remote view (tlx.remote_view) of another CTA's mbarrier; {op} takes this CTA's "
                "own mbarrier (arrive remotely with tlx.barrier_arrive(bar, remote_cta_rank=rank))",
            )
        if not value.type.is_single:
            raise self.error(
                op,
                f"`{name}` is a set of {value.num} mbarriers; select one with {name}[i] or tlx.local_view({name}, i)",
            )
        return value

    def load_cache(self, op: str, value: Any, allowed: Sequence[str]) -> int:
        text = self.const_str(op, "cache_modifier", value)
        if text not in allowed:
            raise self.error(op, f"`cache_modifier` must be one of {', '.join(map(repr, allowed))}, got {text!r}")
        return int(self.semantic._str_to_load_cache_modifier(text))

    def eviction(self, op: str, value: Any) -> int:
        text = self.const_str(op, "eviction_policy", value)
        if text not in ("", "evict_first", "evict_last"):
            raise self.error(op, f"`eviction_policy` must be '', 'evict_first' or 'evict_last', got {text!r}")
        return int(self.semantic._str_to_eviction_policy(text))

    def eviction_attr(self, op: str, value: Any) -> dict[str, Attr]:
        """``evict`` of an op whose carrier leaves the default (evict_normal) out."""
        evict = self.eviction(op, value)
        return {} if evict == int(ir.EVICTION_POLICY.NORMAL) else {"evict": evict}

    def unsupported(self, op: str, name: str, value: Any, default: Any = None) -> None:
        """Reject an argument of the TLX API that this TLX does not implement yet."""
        if _unwrap(value) != default:
            raise self.error(op, f"`{name}` is not supported by this TLX release yet")

    # --------------------------------------------------------------- carriers
    #
    # `emit` builds the carrier of any TLX op from its contract (tlx.language.contracts, generated from the
    # ODS definitions): operands by ODS name, put in ODS order; attributes by ODS name, encoded as the
    # contract says. Form A (tt.call) when no operand or result is a tensor, else Form B
    # (tt.elementwise_inline_asm) with handles and scalars splat to the tensors' shape.

    @staticmethod
    def _mangle(type_: ir.type) -> str:
        text = str(type_)
        if text in ("i1", "i32", "i64"):
            return text
        match = _DESC_TYPE.fullmatch(text)
        if match:
            return "d" + re.sub(r"[^0-9A-Za-z]", "_", match.group(1))
        if text.startswith("!tt.ptr<"):
            return "p" + re.sub(r"[^0-9A-Za-z]", "_", text[len("!tt.ptr<") : -1])
        raise AssertionError(f"TLX carriers do not take {text}")

    @classmethod
    def callee_name(cls, op: str, operand_types: Sequence[ir.type], result_types: Sequence[ir.type]) -> str:
        """``tlx.<op>.a_<operand codes>_r_<result codes>``, empty parts left out."""
        parts = []
        if operand_types:
            parts.append("a_" + "".join(cls._mangle(t) for t in operand_types))
        if result_types:
            parts.append("r_" + "".join(cls._mangle(t) for t in result_types))
        signature = "_".join(parts)
        return f"tlx.{op}.{signature}" if signature else f"tlx.{op}"

    def _callee(self, name: str, operand_types: list[ir.type], result_types: list[ir.type], result: Any = None) -> Any:
        """The module's private noinline callee ``name``, created on first use with an opaque body (``result``:
        the Python type of its result, which a descriptor result is built from)."""
        module = self.generator.module
        if module.has_function(name):
            return module.get_function(name)
        builder = ir.builder(self.generator.context)  # no insertion point: the func op is created detached
        fn = builder.get_or_insert_function(
            module, name, builder.get_function_ty(operand_types, result_types), "private", True
        )
        builder.set_insertion_point_to_start(fn.add_entry_block())
        results = []
        for type_ in result_types:
            text = str(type_)
            if text == "i1":
                word = builder.create_inline_asm("// tlx carrier", "=r", [], [builder.get_int32_ty()], False, 1)
                results.append(builder.create_icmpNE(word.get_result(0), builder.get_int32(0)))
            elif isinstance(result, tlc.tensor_descriptor_base_type):
                results.append(self._opaque_descriptor(builder, result.block_type))
            else:
                constraint = "=l" if text == "i64" or text.startswith("!tt.ptr") else "=r"
                results.append(
                    builder.create_inline_asm("// tlx carrier", constraint, [], [type_], False, 1).get_result(0)
                )
        builder.ret(results)
        module.push_back(fn)
        return fn

    @staticmethod
    def _opaque_descriptor(builder: ir.builder, block: tlc.block_type) -> ir.value:
        """A descriptor no pass can see through: inline assembly yields no descriptor, so it describes a tensor
        at an opaque address (the body is never lowered: the raise erases it)."""
        word = builder.create_inline_asm("// tlx carrier", "=l", [], [builder.get_int64_ty()], False, 1)
        base = builder.create_int_to_ptr(word.get_result(0), builder.get_ptr_ty(block.element_ty.to_ir(builder), 1))
        rank = len(block.shape)
        return builder.create_make_tensor_descriptor(
            base,
            [builder.get_int32(1)] * rank,
            [builder.get_int64(1)] * rank,
            list(block.shape),
            block.element_ty.is_int_signed(),
            ir.PADDING_OPTION.PAD_ZERO,
        )

    def _encode_attr(self, kind: str, value: Attr) -> Any:
        """A carrier attribute as the contract's `kind` says: int -> ``i32``, bool/unit -> ``true``/``false``,
        i32_array -> ``dense<[...]> : tensor<Nxi32>`` (printed ``dense<v>`` when all values are equal),
        text -> a string."""
        b = self.builder
        if kind in ("bool", "unit"):
            assert isinstance(value, bool), value
            return b.get_bool_attr(value)
        if kind == "int":
            assert isinstance(value, int) and not isinstance(value, bool), value
            return b.get_int32_attr(value)
        if kind == "i32_array":
            return ir.make_attr(list(value), self.generator.context)
        assert isinstance(value, str), value
        return b.get_string_attr(value)

    def _carrier_attrs(self, op: str, attrs: dict[str, Attr], metadata: dict[str, Attr]) -> dict[str, Any]:
        spec = contract(op)
        unknown = set(attrs) - set(spec.attributes)
        assert not unknown, f"tlx.{op} has no attributes {unknown}"
        missing = [a.name for a in spec.attributes.values() if not a.optional and a.name not in attrs]
        assert not missing, f"tlx.{op} needs attributes {missing}"
        encoded = {OP_ATTR: self.builder.get_string_attr(op)}
        for name, value in metadata.items():
            kind = "i32_array" if isinstance(value, tuple) else "int" if isinstance(value, int) else "text"
            encoded[name] = self._encode_attr(kind, value)
        for name, value in attrs.items():
            kind = spec.attributes[name].kind
            if kind == "int":  # the i32 bound of an attribute no argument check bounded (e.g. a derived value)
                value = self.const_int(op, name, value)
            encoded[name] = self._encode_attr(kind, value)
        return encoded

    def _order_operands(self, op: str, operands: dict[str, Any]) -> tuple[list[tuple[str, Any]], tuple[int, ...]]:
        """The values of ``operands`` in ODS order, and how many each ODS operand has."""
        spec = contract(op)
        unknown = set(operands) - {o.name for o in spec.operands}
        assert not unknown, f"tlx.{op} has no operands {unknown}"
        ordered, segments = [], []
        for operand in spec.operands:
            value = operands.get(operand.name)
            if operand.arity == "variadic":
                values = list(value or ())
            else:
                assert value is not None or operand.arity == "optional", f"tlx.{op} needs `{operand.name}`"
                values = [] if value is None else [value]
            segments.append(len(values))
            ordered.extend((operand.name, v) for v in values)
        return ordered, tuple(segments)

    def emit(
        self,
        op: str,
        operands: dict[str, Any] | None = None,
        attrs: dict[str, Attr] | None = None,
        result: Any = None,
    ) -> ir.value | None:
        """The carrier of ``tlx.<op>``; its result (an i64 handle, a tensor or a scalar) or None.

        ``operands`` maps ODS operand names to buffers, mbarriers, tensors, descriptors, :class:`Scalar`\\ s,
        :class:`Linked` tensors (of another shape than the carrier's) or lists (variadic); None leaves an
        optional operand out. ``result`` is a ``buffered_tensor_type`` / ``mbarrier_type`` (a handle), a
        ``tl.block_type`` (a tensor), a ``tl.dtype`` (a scalar), or a tuple of ``tl.dtype`` (an op of several
        scalar results, Form A: then the list of their values).
        """
        ordered, segments = self._order_operands(op, operands or {})
        metadata: dict[str, Attr] = {}
        if contract(op).has_variable_operands:
            metadata[SEGMENTS_ATTR] = segments
        if isinstance(result, _HANDLE_TYPES):
            metadata[TYPE_ATTR] = self._type_text(result)
        carried = []
        for name, value in ordered:
            if isinstance(value, Linked):
                metadata[LINKED_PREFIX + name] = self._emit_linked(value.tensor)
            else:
                carried.append(value)
        encoded = self._carrier_attrs(op, attrs or {}, metadata)
        shape = self._carrier_shape(carried, result)
        if shape is None:
            return self._call_carrier(op, carried, result, encoded)
        return self._asm_carrier(op, carried, result, shape, encoded)

    def _type_text(self, type_: Any) -> str:
        if not isinstance(type_, buffered_tensor_type):
            return type_.mlir_type()
        return type_.mlir_type(self.mlir_element(type_.element_ty))

    @staticmethod
    def _carrier_shape(values: Sequence[Any], result: Any) -> list[int] | None:
        """The tensor shape of a Form B carrier, None for Form A."""
        shapes = {tuple(v.type.shape) for v in values if isinstance(v, tlc.tensor) and v.type.is_block()}
        if isinstance(result, tlc.block_type):
            shapes.add(tuple(result.shape))
        assert len(shapes) <= 1, f"carrier tensors of several shapes {shapes}: link all but one"
        return list(shapes.pop()) if shapes else None

    def _scalar_of(self, value: Any) -> tuple[ir.value, tlc.dtype]:
        """A handle, descriptor or scalar operand: its IR value and element type."""
        if isinstance(value, _HANDLE_VALUES):
            return value.handle, tlc.int64
        if isinstance(value, Scalar):
            return value.value, value.dtype
        if isinstance(value, tlc.tensor_descriptor_base):
            return value.handle, None
        if isinstance(value, tensor_descriptor_ptr):
            return value.handle, tlc.pointer_type(tlc.int8)
        assert isinstance(value, tlc.tensor) and not value.type.is_block(), value
        return value.handle, value.dtype

    def _result_ir_type(self, result: Any) -> ir.type:
        if isinstance(result, _HANDLE_TYPES):
            return self.builder.get_int64_ty()
        if isinstance(result, tlc.tensor_descriptor_base_type):
            types: list[ir.type] = []
            result._flatten_ir_types(self.builder, types)
            return types[0]
        return result.to_ir(self.builder)

    def _call_carrier(
        self, op: str, values: Sequence[Any], result: Any, attrs: dict[str, Any]
    ) -> ir.value | list[ir.value] | None:
        """Form A: ``tt.call @tlx.<op>.<signature>(operands) {tlx.op, tlx.*}``."""
        operands = [self._scalar_of(v)[0] for v in values]
        operand_types = [v.get_type() for v in operands]
        results = () if result is None else result if isinstance(result, tuple) else (result,)
        result_types = [self._result_ir_type(r) for r in results]
        fn = self._callee(self.callee_name(op, operand_types, result_types), operand_types, result_types, result)
        call = self.builder.call(fn, operands)
        for name, attr in attrs.items():
            call.set_attr(f"tlx.{name}", attr)
        if isinstance(result, tuple):
            return [call.get_result(i) for i in range(len(result_types))]
        return call.get_result(0) if result_types else None

    def _asm_carrier(
        self, op: str, values: Sequence[Any], result: Any, shape: list[int], attrs: dict[str, Any]
    ) -> ir.value | None:
        """Form B: ``tt.elementwise_inline_asm "tlx.<op>" {pure = false, tlx.op, tlx.*}`` over tensors of
        ``shape``; an op without a result returns a dummy ``i1`` tensor."""
        b = self.builder
        operands: list[tuple[ir.value, tlc.dtype]] = []
        for value in values:
            if isinstance(value, tlc.tensor) and value.type.is_block():
                operands.append((value.handle, value.dtype))
                continue
            scalar, dtype = self._scalar_of(value)
            operands.append((b.create_splat(b.get_block_ty(dtype.to_ir(b), shape), scalar), dtype))
        result_type = result if isinstance(result, tlc.block_type) else tlc.block_type(tlc.int1, shape)
        constraints = ",".join(["=" + _constraint(result_type.element_ty)] + [_constraint(t) for _, t in operands])
        asm = b.create_inline_asm(f"tlx.{op}", constraints, [v for v, _ in operands], [result_type.to_ir(b)], False, 1)
        for name, attr in attrs.items():
            asm.set_attr(f"tlx.{name}", attr)
        return asm.get_result(0) if result is not None else None

    def _emit_linked(self, tensor: tlc.tensor) -> int:
        """A linked_operand carrier for ``tensor``; the link number the op's carrier names it by."""
        link = next(self._kernel_state("links", itertools.count(1)))
        attrs = {OP_ATTR: self.builder.get_string_attr(LINKED_OPERAND_OP), LINK_ATTR: self.builder.get_int32_attr(link)}
        self._asm_carrier(LINKED_OPERAND_OP, [tensor], tensor.type, list(tensor.type.shape), attrs)
        return link

    # ------------------------------------------------------------------ buffers
    def local_alloc(self, shape: Any, dtype: Any, num: Any, storage: Any, reuse: Any, layout: Any) -> buffered_tensor:
        op = "local_alloc"
        shape = self.shape(op, shape)
        dtype = self.element_dtype(op, "dtype", dtype)
        num = self.const_int(op, "num", num, minimum=1)
        storage = _unwrap(storage)
        if not isinstance(storage, storage_kind):
            raise self.error(op, f"`storage` must be a tlx.storage_kind (smem, tmem or smemCluster), got {storage!r}")
        if storage is storage_kind.tmem:
            self.require_capability(op, 100, "tensor memory (storage tmem)")
            if len(shape) != 2:
                raise self.error(op, f"tensor memory buffers are 2-D (rows x columns), got shape {list(shape)}")
        reuse = _unwrap(reuse)
        aliases = isinstance(reuse, storage_alias_spec_type_class)
        buffers = isinstance(reuse, buffered_tensor) and not reuse.type.is_single
        if reuse is not None and not aliases and not buffers:
            raise self.error(
                op,
                "`reuse` must be a tlx.storage_alias_spec or a set of buffers from tlx.local_alloc, got "
                f"{_describe(reuse)}",
            )
        layout = None if _unwrap(layout) is None else self.layout_text(op, "layout", layout, shape, dtype)
        type_ = buffered_tensor_type(dtype, shape, num, storage, layout)
        attrs: dict[str, Attr] = {} if layout is None else {"layout": layout}
        return buffered_tensor(self.emit(op, {"reuse": reuse}, attrs=attrs, result=type_), type_)

    def storage_alias_spec(self, storage: Any, buffer_size_bytes: Any) -> storage_alias_spec_type_class:
        op = "storage_alias_spec"
        storage = _unwrap(storage)
        if not isinstance(storage, storage_kind):
            raise self.error(op, f"`storage` must be a tlx.storage_kind (smem or tmem), got {storage!r}")
        if storage is storage_kind.smemCluster:
            raise self.error(op, "smemCluster storage is not supported for storage_alias_spec (smem or tmem)")
        if storage is storage_kind.tmem:
            self.require_capability(op, 100, "tensor memory (storage tmem)")
        size = None
        if _unwrap(buffer_size_bytes) is not None:
            size = self.const_int(op, "buffer_size_bytes", buffer_size_bytes, minimum=1, maximum=2**31 - 1)
        type_ = storage_alias_spec_type(storage, size)
        attrs: dict[str, Attr] = {} if size is None else {"buffer_size_bytes": size}
        return storage_alias_spec_type_class(self.emit(op, attrs=attrs, result=type_), storage, size)

    def set_buffer_overlap(self, spec: storage_alias_spec_type_class, overlap_def: Any) -> None:
        op = "set_buffer_overlap"
        overlap_def = _unwrap(overlap_def)
        if not isinstance(overlap_def, reuse_group):
            raise self.error(op, f"`overlap_def` must be a tlx.reuse_group, got {_describe(overlap_def)}")
        self.emit(op, {"spec": spec, "group": self._reuse_group(overlap_def)})

    def _reuse_group(self, group: reuse_group) -> reuse_group_value:
        """The IR of a reuse group tree, innermost groups first."""
        op = "reuse_group"
        elements = []
        for element in group.args:
            if isinstance(element, reuse_group):
                elements.append(self._reuse_group(element))
            elif element.type.is_single:
                raise self.error(op, f"takes sets of buffers from tlx.local_alloc, not one buffer ({element.type})")
            else:
                elements.append(element)
        type_ = reuse_group_ir_type(group.group_type)
        attrs: dict[str, Attr] = {
            "group_kind": list(reuse_group_type).index(group.group_type),
            "group_size": group.group_size,
        }
        return reuse_group_value(self.emit(op, {"elements": elements}, attrs=attrs, result=type_), type_)

    def local_view(self, source: Any, index: Any) -> buffered_tensor | mbarrier | clc_response:
        op = "local_view"
        source = _unwrap(source)
        if isinstance(source, buffered_tensor):
            kind = "buffers"
            result_type: buffered_tensor_type | mbarrier_type | clc_response_type = source.type.buffer_type()
        elif isinstance(source, mbarrier):
            kind = "mbarriers"
            result_type = mbarrier_type(None, source.type.per_thread)
        elif isinstance(source, clc_response):
            kind = "responses"
            result_type = clc_response_type(None, source.type.layout)
        else:
            raise self.error(
                op,
                f"expects buffers from tlx.local_alloc or mbarriers from tlx.alloc_barriers, got {_describe(source)}",
            )
        if source.type.is_single:
            raise self.error(op, f"selects from a set of {kind}, but this is already a single one ({source.type})")
        # A constant index out of range is tlx-check-static-bounds' to report.
        handle = self.emit(op, {"source": source, "index": self.i32(op, "index", index)}, result=result_type)
        if isinstance(result_type, mbarrier_type):
            return mbarrier(handle, result_type)
        if isinstance(result_type, clc_response_type):
            return clc_response(handle, None, result_type.layout)
        return buffered_tensor(handle, result_type)

    def local_load(self, buf: Any, token: Any, layout: Any, relaxed: Any, remat: Any, remat_group: Any) -> tlc.tensor:
        op = "local_load"
        buf = self.one_buffer(op, "src", buf)
        if _unwrap(token) is not None and not isinstance(_unwrap(token), async_token):
            raise self.error(op, f"`token` must be an async token or None, got {_describe(token)}")
        # AMD scheduling hints in the public API, which NVIDIA code has no use for: checked as it checks them.
        self.const_bool(op, "relaxed", relaxed)
        remat = self.const_bool(op, "rematerialize_coordinates", remat)
        if _unwrap(remat_group) is not None:
            self.const_int(op, "rematerialize_coordinates_group", remat_group, minimum=0)
            if remat:
                raise self.error(
                    op, "`rematerialize_coordinates` and `rematerialize_coordinates_group` are mutually exclusive"
                )
        result = tlc.block_type(buf.dtype, list(buf.shape))
        loaded = tlc.tensor(self.emit(op, {"buffer": buf}, result=result), result)
        if _unwrap(layout) is None:
            return loaded
        return self.require_layout(loaded, layout, True, False, op=op)

    # ---------------------------------------------------------- register layouts
    def layout_text(self, op: str, name: str, layout: Any, shape: Any, dtype: Any) -> str:
        """The ``#ttg`` attribute text of a TLX layout object (or of that text) for a value of ``shape``."""
        layout = _unwrap(layout)
        if isinstance(layout, str):
            return layout
        if not hasattr(layout, "to_ir_text"):
            raise self.error(
                op,
                f"`{name}` must be a TLX layout (tlx.layout(...), ...) or the text of a ttg layout attribute, "
                f"got {_describe(layout)}",
            )
        try:
            return layout.to_ir_text(list(shape), dtype)
        except TLXError as error:
            raise self.error(op, str(error)) from None

    def register_tensor(self, op: str, name: str, value: Any) -> tlc.tensor:
        value = _unwrap(value)
        if not isinstance(value, tlc.tensor) or not value.type.is_block():
            raise self.error(op, f"`{name}` must be a register tensor, got {_describe(value)}")
        return value

    def require_layout(self, x: Any, layout: Any, pin: Any, late_address_compute: Any, op: str = "require_layout"):
        x = self.register_tensor(op, "x", x)
        attrs: dict[str, Attr] = {"layout": self.layout_text(op, "layout", layout, x.shape, x.dtype)}
        if self.const_bool(op, "pin", pin):
            attrs["pin"] = True
        if self.const_bool(op, "late_address_compute", late_address_compute):
            attrs["late_address_compute"] = True
        return tlc.tensor(self.emit("require_layout", {"src": x}, attrs, result=x.type), x.type)

    def release_layout(self, x: Any) -> tlc.tensor:
        op = "release_layout"
        x = self.register_tensor(op, "x", x)
        return tlc.tensor(self.emit(op, {"src": x}, result=x.type), x.type)

    def assert_same_layout(self, lhs: Any, rhs: Any) -> None:
        op = "assert_same_layout"

        def value(name: str, v: Any) -> Any:
            v = _unwrap(v)
            if isinstance(v, buffered_tensor):
                return self.one_buffer(op, name, v)
            return self.register_tensor(op, name, v) if name == "lhs" or isinstance(v, tlc.base_value) else None

        lhs = value("lhs", lhs)
        other = value("rhs", rhs)
        if other is None:
            expected = self.layout_text(op, "rhs", rhs, lhs.shape, lhs.dtype)
            self.emit(op, {"lhs": lhs}, {"expected": expected})
            return
        shapes = [[_unwrap(d) for d in v.shape] for v in (lhs, other)]
        if shapes[0] != shapes[1]:
            # One carrier takes both values: they must have one shape (the op's verifier says so too).
            raise self.error(
                op,
                f"compares layouts of two shapes, {shapes[0]} and {shapes[1]}: a layout is the same only over one "
                "shape",
            )
        self.emit(op, {"lhs": lhs, "rhs": other})

    def local_store(self, buf: Any, value: Any) -> None:
        op = "local_store"
        buf = self.one_buffer(op, "dst", buf)
        self.emit(op, {"value": self.stored_tensor(op, "src", value, buf), "buffer": buf})

    def tmem_copy(self, src: Any, dst: Any) -> None:
        """``tcgen05.cp``: shapes, element types and storage kinds are the op verifier's to check."""
        op = "tmem_copy"
        self.require_capability(op, 100, "a shared-to-tensor-memory copy (tcgen05.cp)")
        self.emit(op, {"src": self.one_buffer(op, "src", src), "dst": self.one_buffer(op, "dst", dst)})

    # ------------------------------------------------------------- buffer views
    #
    # local_trans, local_slice (and subslice), local_reinterpret: one buffer in, one buffer view out, no data
    # moved. The view is a handle like any buffer (Form A, i64 -> i64) whose result type rides in `tlx.type`;
    # every op that takes one buffer takes a view.

    def _view(
        self, op: str, source: buffered_tensor, result_type: buffered_tensor_type, attrs: dict[str, Attr]
    ) -> buffered_tensor:
        return buffered_tensor(self.emit(op, {"source": source}, attrs, result=result_type), result_type)

    @staticmethod
    def _describe_buffer(buf: buffered_tensor | buffered_tensor_type) -> str:
        type_ = buf.type if isinstance(buf, buffered_tensor) else buf
        return f"{list(type_.shape)} {type_.element_ty} in {type_.storage.value}"

    def local_trans(self, buf: Any, dims: Any) -> buffered_tensor:
        op = "local_trans"
        buf = self.one_buffer(op, "input", buf)
        rank = len(buf.shape)
        if _unwrap(dims) is None:
            order = tuple(reversed(range(rank)))
        else:
            order = self.const_ints(op, "dims", dims)
            if sorted(order) != list(range(rank)):
                raise self.error(
                    op,
                    f"`dims` must be a permutation of 0..{rank - 1} for the {rank}-D buffer "
                    f"({self._describe_buffer(buf)}), got {list(order)}",
                )
        shape = tuple(buf.shape[d] for d in order)
        # the view's shared layout is the source's, permuted: the C++ side derives it
        result = buffered_tensor_type(buf.dtype, shape, None, buf.storage, None)
        return self._view(op, buf, result, {"order": order})

    def local_slice(self, buf: Any, offsets: Any, shape: Any, *, op: str = "local_slice") -> buffered_tensor:
        buf = self.one_buffer(op, "buffer", buf)
        offsets = self.const_ints(op, "offset", offsets)
        shape = self.shape(op, shape)
        # Bounds and tiling of the slice are the tlx.local_slice verifier's to check.
        result = buffered_tensor_type(buf.dtype, shape, None, buf.storage, buf.type.layout)
        return self._view("local_slice", buf, result, {"offsets": offsets})

    def subslice(self, buf: Any, offset: Any, size: Any) -> buffered_tensor:
        op = "subslice"
        buf = self.one_buffer(op, "local_allocated_buffer", buf)
        offset = self.const_int(op, "offset", offset)
        size = self.const_int(op, "size", size, minimum=1)
        rank = len(buf.shape)
        return self.local_slice(buf, (0,) * (rank - 1) + (offset,), buf.shape[:-1] + (size,), op=op)

    def local_reshape(self, src: Any, shape: Any) -> buffered_tensor:
        op = "local_reshape"
        buf = self.one_buffer(op, "src", src, shared=True)
        shape = self.shape(op, shape)
        # The element count, and the layout's rules, are the op verifier's and the layout pass's to check.
        result = buffered_tensor_type(buf.dtype, shape, None, buf.storage, None)
        return self._view(op, buf, result, {})

    def local_reinterpret(self, buf: Any, dtype: Any, shape: Any, layout: Any) -> buffered_tensor:
        op = "local_reinterpret"
        buf = self.one_buffer(op, "src", buf)
        dtype = self.element_dtype(op, "dtype", dtype)
        shape = buf.shape if _unwrap(shape) is None else self.shape(op, shape)
        self.unsupported(op, "layout", layout)
        result = buffered_tensor_type(dtype, shape, None, buf.storage, None)
        return self._view(op, buf, result, {})

    # ----------------------------------------------------------------- barriers
    def alloc_barriers(self, num_barriers: Any, arrive_count: Any) -> mbarrier:
        op = "alloc_barriers"
        num = self.const_int(op, "num_barriers", num_barriers, minimum=1)
        count = self.const_int(op, "arrive_count", arrive_count)
        type_ = mbarrier_type(num)
        return mbarrier(self.emit(op, attrs={"arrive_count": count}, result=type_), type_)

    def alloc_warp_barrier(self, num_barriers: Any, num_warps: Any, num_arrivals: Any) -> mbarrier:
        op = "alloc_warp_barrier"
        num = self.const_int(op, "num_barriers", num_barriers, minimum=1)
        warps = self.const_int(op, "num_warps", num_warps, minimum=1)
        arrivals = self.const_int(op, "num_arrivals", num_arrivals, minimum=1)
        type_ = mbarrier_type(num, per_thread=True)
        # One mbarrier set; its arrive count is every thread of `num_warps` warps, `num_arrivals` times.
        count = self.const_int(op, "num_warps * 32 * num_arrivals", warps * 32 * arrivals)
        handle = self.emit("alloc_barriers", attrs={"arrive_count": count}, result=type_)
        return mbarrier(handle, type_)

    def barrier_expect_bytes(self, bar: Any, size: Any, pred: Any) -> None:
        op = "barrier_expect_bytes"
        self.require_capability(op, 90, "mbarrier transaction counts (expect_tx)")
        bar = self.one_barrier(op, "bar", bar)
        size = self.const_int(op, "size", size)
        self.emit(op, {"barrier": bar, "pred": self.predicate(op, pred)}, {"bytes": size})

    def barrier_wait(self, bar: Any, phase: Any, pred: Any) -> None:
        op = "barrier_wait"
        bar = self.one_barrier(op, "bar", bar)
        # A constant phase other than 0 or 1 is tlx-check-static-bounds' to report.
        self.emit(op, {"barrier": bar, "phase": self.i32(op, "phase", phase), "pred": self.predicate(op, pred)})

    def barrier_arrive(self, bar: Any, arrive_count: Any, remote_cta_rank: Any, pred: Any) -> None:
        op = "barrier_arrive"
        view = _unwrap(bar)
        view_rank = getattr(view, "remote_cta_rank", None)
        if view_rank is not None and _unwrap(remote_cta_rank) is not None:
            raise self.error(op, "`bar` is already a remote view: pass remote_cta_rank or a remote view, not both")
        bar = self.one_barrier(op, "bar", bar, remote=True)
        count = self.const_int(op, "arrive_count", arrive_count)
        rank = view_rank
        if _unwrap(remote_cta_rank) is not None:
            self.require_capability(op, 90, "arriving on another CTA's mbarrier")
            rank = self.i32(op, "remote_cta_rank", remote_cta_rank)
        operands = {"barrier": bar, "remoteCTARank": rank, "pred": self.predicate(op, pred)}
        self.emit(op, operands, {"count": count, **({"perThread": True} if bar.type.per_thread else {})})

    # --------------------------------------------------------- cluster memory
    #
    # Distributed shared memory: the same buffer (or mbarrier) of another CTA of the cluster, by rank.

    def remote_view(self, bar: Any, remote_cta_rank: Any) -> mbarrier:
        op = "remote_view"
        self.require_capability(op, 90, "distributed shared memory")
        bar = self.one_barrier(op, "local_allocated_buffer", bar)
        rank = self.i32(op, "remote_cta_rank", remote_cta_rank)
        return mbarrier(bar.handle, bar.type, remote_cta_rank=rank)

    def remote_shmem_store(self, dst: Any, src: Any, remote_cta_rank: Any) -> None:
        op = "remote_shmem_store"
        self.require_capability(op, 90, "distributed shared memory")
        dst = self.one_buffer(op, "dst", dst, shared=True)
        value = self.stored_tensor(op, "src", src, dst)
        rank = self.i32(op, "remote_cta_rank", remote_cta_rank)
        self.emit(op, {"buffer": dst, "value": value, "remoteCTARank": rank})

    def async_remote_shmem_store(self, dst: Any, src: Any, remote_cta_rank: Any, barrier: Any) -> None:
        op = "async_remote_shmem_store"
        self.require_capability(op, 90, "distributed shared memory")
        dst = self.one_buffer(op, "dst", dst, shared=True)
        value = self.stored_tensor(op, "src", src, dst)
        rank = self.i32(op, "remote_cta_rank", remote_cta_rank)
        bar = self.one_barrier(op, "barrier", barrier)
        self.emit(op, {"buffer": dst, "value": value, "remoteCTARank": rank, "barrier": bar})

    def async_remote_shmem_copy(self, dst: Any, src: Any, remote_cta_rank: Any, barrier: Any) -> None:
        op = "async_remote_shmem_copy"
        self.require_capability(op, 90, "distributed shared memory")
        dst = self.one_buffer(op, "dst", dst, shared=True)
        src = self.one_buffer(op, "src", src, shared=True)
        rank = self.i32(op, "remote_cta_rank", remote_cta_rank)
        bar = self.one_barrier(op, "barrier", barrier)
        self.emit(op, {"destination": dst, "source": src, "remoteCTARank": rank, "barrier": bar})

    # ------------------------------------------------------------- cluster launch control
    #
    # clc_create_context / clc_producer / clc_consumer (the public API's dynamic_launch): each a short sequence
    # of TLX ops (alloc_barriers and alloc_clc_responses; barrier ops, clc_try_cancel and clc_query on stage k)
    # whose misuse is reported as the clc_* call's.

    CLC = "cluster launch control (clusterlaunchcontrol.try_cancel)"
    #: What a response delivers to the stage's full mbarrier: its transaction bytes.
    CLC_RESPONSE_BYTES = 16

    def cluster_size(self) -> int:
        """The CTAs of one cluster of the launch (``ctas_per_cga``), 1 without a cluster."""
        shape = getattr(self.builder.options, "ctas_per_cga", None) or (1, 1, 1)
        return shape[0] * shape[1] * shape[2]

    def clc_create_context(self, num_consumers: Any, num_stages: Any) -> CLCPipelineContext:
        op = "clc_create_context"
        self.require_capability(op, 100, self.CLC)
        consumers = self.const_int(op, "num_consumers", num_consumers, minimum=1)
        stages = self.const_int(op, "num_stages", num_stages, minimum=1, maximum=2**20)
        barriers = mbarrier_type(stages)
        empty = mbarrier(self.emit("alloc_barriers", attrs={"arrive_count": consumers}, result=barriers), barriers)
        full = mbarrier(self.emit("alloc_barriers", attrs={"arrive_count": 1}, result=barriers), barriers)
        responses = clc_response_type(stages, None)
        return CLCPipelineContext(
            empty, full, clc_response(self.emit("alloc_clc_responses", result=responses), stages, None)
        )

    def _clc_stage(self, op: str, context: Any, k: Any) -> tuple[mbarrier, mbarrier, clc_response]:
        """Stage ``k`` of a CLC context: its empty mbarrier, its full mbarrier and its response."""
        context = _unwrap(context)
        if not isinstance(context, CLCPipelineContext):
            raise self.error(op, f"`context` must be what tlx.clc_create_context returns, got {_describe(context)}")
        index = self.i32(op, "k", k)
        one_barrier, one_response = mbarrier_type(None), clc_response_type(None, None)

        def view(source: Any, type_: Any) -> ir.value:
            return self.emit("local_view", {"source": source, "index": index}, result=type_)

        return (
            mbarrier(view(context._clc_mbars_empty, one_barrier), one_barrier),
            mbarrier(view(context._clc_mbars_full, one_barrier), one_barrier),
            clc_response(view(context._clc_responses, one_response), None, None),
        )

    def _clc_phase(self, op: str, name: str, phase: Any) -> Scalar:
        if _unwrap(phase) is None:
            raise self.error(
                op, f"`{name}`, the phase parity (0 or 1) to wait for on the stage's mbarrier, is required"
            )
        return self.i32(op, name, phase)

    def _is_cta0(self) -> Scalar:
        rank = self.emit("cluster_cta_rank", result=tlc.int32)
        return Scalar(self.builder.create_icmpEQ(rank, self.builder.get_int32(0)), tlc.int1)

    def clc_producer(self, context: Any, p_producer: Any, multi_ctas: Any, k: Any) -> None:
        op = "clc_producer"
        self.require_capability(op, 100, self.CLC)
        empty, full, response = self._clc_stage(op, context, k)
        phase = self._clc_phase(op, "p_producer", p_producer)
        cluster = self.cluster_size() > 1
        multi = self.const_bool(op, "multi_ctas", multi_ctas) and cluster
        # Arrive remote, wait local: only CTA 0 waits for the stage, which every CTA's consumers release on
        # CTA 0's mbarrier (an mbarrier can be arrived on remotely, but waited on only locally).
        self.emit("barrier_wait", {"barrier": empty, "phase": phase, "pred": self._is_cta0() if multi else None})
        # Every CTA arms its own full mbarrier: the multicast response completes its bytes on each of them.
        self.emit("barrier_expect_bytes", {"barrier": full}, {"bytes": self.CLC_RESPONSE_BYTES})
        self.emit("clc_try_cancel", {"response": response, "barrier": full}, {"multicast": cluster})

    def clc_consumer(self, context: Any, p_consumer: Any, multi_ctas: Any, k: Any, return_3d: Any) -> Any:
        op = "clc_consumer"
        self.require_capability(op, 100, self.CLC)
        empty, full, response = self._clc_stage(op, context, k)
        phase = self._clc_phase(op, "p_consumer", p_consumer)
        cluster = self.cluster_size() > 1
        multi = self.const_bool(op, "multi_ctas", multi_ctas) and cluster
        three = self.const_bool(op, "return_3d", return_3d)
        b = self.builder
        self.emit("barrier_wait", {"barrier": full, "phase": phase})
        x, y, z = self.emit("clc_query", {"response": response}, result=(tlc.int32,) * 3)
        if cluster:
            # The response names the canceled cluster's first CTA; each CTA of this cluster takes the one of
            # its own rank, along x (the public API's decoding: CTA 0 gets tile N, CTA 1 tile N + 1, ...).
            rank = self.emit("cluster_cta_rank", result=tlc.int32)
            x = b.create_select(b.create_icmpEQ(x, b.get_int32(-1)), x, b.create_add(x, rank))
        # The response was read through the generic proxy; the next try_cancel writes it through the async one.
        self.emit("fence_async_shared")
        # No tile left: the producer issues no more requests (and CTA 0 may have exited), so no release.
        has_tile = Scalar(b.create_icmpSGE(x, b.get_int32(0)), tlc.int1)
        cta0 = Scalar(b.get_int32(0), tlc.int32) if multi else None
        self.emit("barrier_arrive", {"barrier": empty, "remoteCTARank": cta0, "pred": has_tile}, {"count": 1})
        ids = [tlc.tensor(v, tlc.int32) for v in (x, y, z)]
        return tlc.tuple(ids) if three else ids[0]

    # ------------------------------------------------------------- trace state
    def _kernel_state(self, name: str, initial: Any) -> Any:
        """TLX's bookkeeping for the kernel being traced (one CodeGenerator traces one kernel): `initial`
        the first time `name` is asked for, the same object after."""
        return self.generator.__dict__.setdefault(f"_tlx_{name}", initial)

    # ----------------------------------------------------------------------- TMA
    def _descriptor(self, op: str, desc: Any, offsets: Any) -> list[Scalar]:
        """A TMA op's descriptor checked, and its offsets as ``i32`` scalars."""
        self.require_capability(op, 90, "TMA")
        desc = _unwrap(desc)
        if not isinstance(desc, tlc.tensor_descriptor_base):
            raise self.error(op, f"`desc` must be a tensor descriptor, got {_describe(desc)}")
        # The block's match with the buffer, and one offset per dimension, are the op verifier's to check.
        offsets = _unwrap(offsets)
        if not isinstance(offsets, (tuple, list)):
            offsets = [offsets]
        return [self.i32(op, f"offsets[{i}]", o) for i, o in enumerate(offsets)]

    def async_descriptor_load(
        self,
        desc: Any,
        buf: Any,
        offsets: Any,
        barrier: Any,
        pred: Any,
        cache_modifier: Any,
        eviction_policy: Any,
        multicast_targets: Any,
        two_ctas: Any,
    ) -> None:
        op = "async_descriptor_load"
        buf = self.one_buffer(op, "result", buf, shared=True)
        offset_values = self._descriptor(op, desc, offsets)
        bar = self.one_barrier(op, "barrier", barrier)
        pred_value = self.predicate(op, pred)
        cache = self.load_cache(op, cache_modifier, ("", ".ca", ".cg", ".cv"))
        evict = self.eviction(op, eviction_policy)
        pair = self.const_bool(op, "two_ctas", two_ctas)
        if pair:
            self.require_capability(op, 100, "two_ctas (a TMA load completing on the CTA pair's mbarrier)")
        targets = _unwrap(multicast_targets)
        if targets is None:
            targets = []
        if not isinstance(targets, (tuple, list)):
            raise self.error(op, f"`multicast_targets` must be a list of CTA ranks, got {_describe(targets)}")
        if targets:
            self.require_capability(op, 90, "TMA multicast")
        target_values = [self.i32(op, f"multicast_targets[{i}]", t) for i, t in enumerate(targets)]
        operands = {
            "desc": _unwrap(desc),
            "offsets": offset_values,
            "buffer": buf,
            "barrier": bar,
            "pred": pred_value,
            "multicastTargets": target_values,
        }
        attrs: dict[str, Attr] = {"cache": cache, "evict": evict}
        if pair:
            attrs["twoCTAs"] = True
        self.emit(op, operands, attrs)

    #: ``store_reduce`` of the public API: the TMA reductions it names (Triton's DESCRIPTOR_REDUCE_KIND).
    STORE_REDUCE_KINDS = ("add", "min", "max", "and", "or", "xor")

    def async_descriptor_store(
        self, desc: Any, buf: Any, offsets: Any, eviction_policy: Any, store_reduce: Any
    ) -> None:
        op = "async_descriptor_store"
        buf = self.one_buffer(op, "source", buf, shared=True)
        offset_values = self._descriptor(op, desc, offsets)
        attrs = self.eviction_attr(op, eviction_policy)
        reduce = self.const_str(op, "store_reduce", store_reduce)
        if reduce:
            if reduce not in self.STORE_REDUCE_KINDS:
                kinds = ", ".join(map(repr, ("", *self.STORE_REDUCE_KINDS)))
                raise self.error(op, f"`store_reduce` must be one of {kinds}, got {reduce!r}")
            # Which element types each kind combines is the op verifier's to check.
            attrs["reduce"] = int(getattr(ir.DESCRIPTOR_REDUCE_KIND, reduce.upper()))
        self.emit(op, {"desc": _unwrap(desc), "offsets": offset_values, "buffer": buf}, attrs)

    # ------------------------------------------------------------- descriptor slots
    #
    # allocate_tensor_descriptor gives a !tt.ptr<i8> into the program's global scratch; a slot is that pointer
    # plus 128 bytes per index (tt.addptr, traced here); make_tensor_descriptor(desc_ptr=slot) writes a
    # descriptor into a slot and reinterpret_tensor_descriptor reads one.

    def allocate_tensor_descriptor(self, num: Any) -> tensor_descriptor_ptr:
        op = "allocate_tensor_descriptor"
        self.require_capability(op, 90, "TMA descriptors")
        num = self.const_int(op, "num", num, minimum=1)
        handle = self.emit(op, attrs={"num": num}, result=tlc.pointer_type(tlc.int8))
        ptr = tensor_descriptor_ptr(handle, num, 128)
        ptr._slot = 0
        return ptr

    def descriptor_ptr(self, op: str, name: str, value: Any) -> tensor_descriptor_ptr:
        value = _unwrap(value)
        if not isinstance(value, tensor_descriptor_ptr):
            raise self.error(
                op, f"`{name}` must be a slot of tlx.allocate_tensor_descriptor (ptrs[i]), got {_describe(value)}"
            )
        return value

    def descriptor_slot(self, ptr: tensor_descriptor_ptr, index: Any) -> tensor_descriptor_ptr:
        """``ptr[index]``: ``index`` descriptors further; a constant index past the allocation is an error."""
        op = "tensor_descriptor_ptr"
        index = _unwrap(index)
        size = ptr.descriptor_size
        slot = None
        if isinstance(index, int) and not isinstance(index, bool):
            slot = None if ptr._slot is None else ptr._slot + index
            if slot is not None and not 0 <= slot < ptr.num:
                raise self.error(op, f"slot {slot} is out of range: tlx.allocate_tensor_descriptor made {ptr.num}")
            offset = self.i32(op, "index", index * size).value
        else:
            offset = self.builder.create_mul(self.i32(op, "index", index).value, self.builder.get_int32(size))
        result = tensor_descriptor_ptr(self.builder.create_addptr(ptr.handle, offset), ptr.num, size)
        result._slot = slot
        return result

    def descriptor_arguments(
        self, base: Any, shape: Any, strides: Any, block_shape: Any, padding_option: Any
    ) -> tuple[tlc.tensor, list[tlc.tensor], list[tlc.tensor], tuple[int, ...], str]:
        """``make_tensor_descriptor`` 's arguments checked, with a slot or without (stock Triton's own checks, on
        the path without, include bare asserts): the base pointer, the shape as ``i32`` and the strides as
        ``i64`` scalars, the block shape and the padding."""
        op = "make_tensor_descriptor"
        base = _unwrap(base)
        if not isinstance(base, tlc.tensor) or base.type.is_block() or not base.dtype.is_ptr():
            raise self.error(op, f"`base` must be a pointer to the tensor's first element, got {_describe(base)}")
        sizes, steps = self._sequence(op, "shape", shape), self._sequence(op, "strides", strides)
        block = self.const_ints(op, "block_shape", block_shape, minimum=1)
        if not len(sizes) == len(steps) == len(block):
            raise self.error(
                op,
                f"`shape`, `strides` and `block_shape` need one entry per dimension: got {len(sizes)}, "
                f"{len(steps)} and {len(block)}",
            )
        last = _unwrap(steps[-1])
        if not isinstance(last, int) or isinstance(last, bool) or last != 1:
            raise self.error(op, f"the last stride must be the constant 1 (rows are contiguous), got {_describe(last)}")
        padding = self.const_str(op, "padding_option", padding_option) or "zero"
        if padding not in ("zero", "nan"):
            raise self.error(op, f"`padding_option` must be 'zero' or 'nan', got {padding!r}")
        dims = [tlc.tensor(self.i32(op, f"shape[{i}]", d).value, tlc.int32) for i, d in enumerate(sizes)]
        strides64 = [self._i64(op, f"strides[{i}]", d) for i, d in enumerate(steps)]
        return base, dims, strides64, block, padding

    def stock_tensor_descriptor(
        self, base: Any, shape: Any, strides: Any, block_shape: Any, padding_option: Any
    ) -> tlc.tensor_descriptor:
        """``make_tensor_descriptor(None, ...)``: Triton's own ``tl.make_tensor_descriptor``, on checked
        arguments."""
        base, dims, _, block, padding = self.descriptor_arguments(base, shape, strides, block_shape, padding_option)
        # The strides as given: stock reads the last one as a Python int.
        return self.semantic.make_tensor_descriptor(base, dims, strides, list(block), padding)

    def make_tensor_descriptor(
        self, desc_ptr: Any, base: Any, shape: Any, strides: Any, block_shape: Any, padding_option: Any
    ) -> tlc.tensor_descriptor:
        """The descriptor written into slot ``desc_ptr``, and read back from it."""
        op = "make_tensor_descriptor"
        self.require_capability(op, 90, "TMA descriptors")
        slot = self.descriptor_ptr(op, "desc_ptr", desc_ptr)
        base, dims, strides64, block, padding = self.descriptor_arguments(
            base, shape, strides, block_shape, padding_option
        )
        self.emit(
            op,
            {
                "descPtr": slot,
                "base": base,
                "shape": [Scalar(d.handle, tlc.int32) for d in dims],
                "strides": [Scalar(d.handle, tlc.int64) for d in strides64],
            },
            {"blockShape": block, "padding": int(self.semantic._str_to_padding_option(padding))},
        )
        block_type = tlc.block_type(base.dtype.element_ty, list(block))
        handle = self._reinterpret(slot, block_type)
        return tlc.tensor_descriptor(handle, dims, strides64, block_type)

    def reinterpret_tensor_descriptor(self, desc_ptr: Any, block_shape: Any, dtype: Any) -> tlc.tensor_descriptor_base:
        op = "reinterpret_tensor_descriptor"
        self.require_capability(op, 90, "TMA descriptors")
        slot = self.descriptor_ptr(op, "desc_ptr", desc_ptr)
        block = self.const_ints(op, "block_shape", block_shape, minimum=1)
        block_type = tlc.block_type(self.element_dtype(op, "dtype", dtype), list(block))
        return tlc.tensor_descriptor_base(self._reinterpret(slot, block_type), block_type)

    def _reinterpret(self, slot: tensor_descriptor_ptr, block_type: tlc.block_type) -> ir.value:
        return self.emit(
            "reinterpret_tensor_descriptor", {"descPtr": slot}, result=tlc.tensor_descriptor_base_type(block_type)
        )

    def _sequence(self, op: str, name: str, value: Any) -> list[Any]:
        value = _unwrap(value)
        if not isinstance(value, (tuple, list)) or not value:
            raise self.error(op, f"`{name}` must be a non-empty list, got {_describe(value)}")
        return list(value)

    def _i64(self, op: str, name: str, value: Any) -> tlc.tensor:
        """A scalar integer (constant or runtime) as an ``i64`` tensor."""
        value = _unwrap(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return tlc.tensor(self.builder.get_int64(value), tlc.int64)
        if isinstance(value, tlc.tensor) and not value.type.is_block() and value.dtype.is_int():
            if value.dtype.is_bool():
                raise self.error(op, f"`{name}` must be an integer, got a bool")
            return self.semantic.cast(value, tlc.int64) if value.dtype != tlc.int64 else value
        raise self.error(op, f"`{name}` must be a scalar integer, got {_describe(value)}")

    def async_descriptor_store_wait(self, pendings: Any) -> None:
        op = "async_descriptor_store_wait"
        self.require_capability(op, 90, "TMA")
        count = self.const_int(op, "pendings", pendings, minimum=0)
        self.emit(op, attrs={"pendings": count})

    def _indices(self, op: str, indices: Any, buf: buffered_tensor, axis: Any) -> tuple[tlc.tensor, int]:
        indices = _unwrap(indices)
        if not isinstance(indices, tlc.tensor) or not indices.type.is_block() or not indices.dtype.is_int():
            raise self.error(op, f"`indices` must be an integer tensor, got {_describe(indices)}")
        if indices.dtype != tlc.int32:
            indices = self.semantic.cast(indices, tlc.int32)
        # Ranks, the axis and the extents against the buffer are the op verifier's to check.
        return indices, self.const_int(op, "axis", axis, minimum=0)

    def local_gather(self, src: Any, indices: Any, axis: Any, token: Any) -> tlc.tensor:
        op = "local_gather"
        buf = self.one_buffer(op, "src", src, shared=True)
        if _unwrap(token) is not None and not isinstance(_unwrap(token), async_token):
            raise self.error(op, f"`token` must be an async token or None, got {_describe(token)}")
        indices, axis = self._indices(op, indices, buf, axis)
        result = tlc.block_type(buf.dtype, list(indices.type.shape))
        return tlc.tensor(self.emit(op, {"buffer": buf, "indices": indices}, {"axis": axis}, result=result), result)

    def local_scatter(self, dst: Any, src: Any, indices: Any, axis: Any, token: Any) -> None:
        op = "local_scatter"
        buf = self.one_buffer(op, "dst", dst, shared=True)
        if _unwrap(token) is not None and not isinstance(_unwrap(token), async_token):
            raise self.error(op, f"`token` must be an async token or None, got {_describe(token)}")
        indices, axis = self._indices(op, indices, buf, axis)
        value = _unwrap(src)
        shape = [int(d) for d in indices.type.shape]
        if not isinstance(value, tlc.tensor) or not value.type.is_block():
            raise self.error(op, f"`src` must be a tensor of the indices' shape {shape}, got {_describe(value)}")
        got = [int(d) for d in value.type.shape]
        if got != shape:  # the verifier says so too, but a carrier of two shapes cannot even be built
            raise self.error(op, f"`src` must be a tensor of the indices' shape {shape}, got one of shape {got}")
        self.emit(op, {"buffer": buf, "value": value, "indices": indices}, {"axis": axis})

    def fence(self, scope: Any) -> None:
        op = "fence"
        text = self.const_str(op, "scope", scope)
        if text == "async_shared":
            return self.fence_async_shared()
        if text not in ("gpu", "sys"):
            raise self.error(op, f"`scope` must be 'gpu', 'sys' or 'async_shared', got {text!r}")
        self.emit(op, attrs={"scope": ("gpu", "sys").index(text)})

    def async_descriptor_prefetch_tensor(self, desc: Any, offsets: Any, pred: Any, eviction_policy: Any) -> None:
        op = "async_descriptor_prefetch_tensor"
        offset_values = self._descriptor(op, desc, offsets)
        operands = {"desc": _unwrap(desc), "offsets": offset_values, "pred": self.predicate(op, pred)}
        self.emit(op, operands, self.eviction_attr(op, eviction_policy))

    def async_store(self, dst_global_ptr: Any, src_smem: Any, size: Any) -> None:
        op = "async_store"
        self.require_capability(op, 90, "bulk copies (cp.async.bulk)")
        src = self.one_buffer(op, "src_smem", src_smem, shared=True)
        dst = _unwrap(dst_global_ptr)
        if not isinstance(dst, tlc.tensor) or dst.type.is_block() or not dst.dtype.is_ptr():
            raise self.error(op, f"`dst_global_ptr` must be a scalar pointer, got {_describe(dst)}")
        # The byte count against the buffer, when constant, is the op verifier's to check.
        self.emit(op, {"destination": dst, "source": src, "size": self.i32(op, "size", size)})

    def fence_async_shared(self) -> None:
        op = "fence_async_shared"
        self.require_capability(op, 90, "the async proxy fence")
        self.emit(op)

    # ------------------------------------------------------------------ cp.async
    def async_load(
        self,
        src_ptrs: Any,
        buf: Any,
        mask: Any,
        other: Any,
        cache_modifier: Any,
        eviction_policy: Any,
        is_volatile: Any,
        bulk: Any,
        bulk_size: Any,
        barrier: Any,
    ) -> async_token:
        op = "async_load"
        if self.const_bool(op, "bulk", bulk):
            return self.async_bulk_load(src_ptrs, buf, mask, other, bulk_size, barrier)
        for name, value in (("bulk_size", bulk_size), ("barrier", barrier)):
            if _unwrap(value) is not None:
                raise self.error(op, f"`{name}` belongs to the bulk form: pass bulk=True")
        self.require_capability(op, 80, "cp.async")
        buf = self.one_buffer(op, "result", buf, shared=True)
        src = _unwrap(src_ptrs)
        if not isinstance(src, tlc.tensor) or not src.type.is_block() or not src.dtype.is_ptr():
            raise self.error(op, f"`src` must be a tensor of pointers, got {_describe(src)}")
        shape = list(src.type.shape)
        pointee = src.dtype.element_ty
        mask, other = _unwrap(mask), _unwrap(other)
        if other is not None and mask is None:
            raise self.error(op, "`other` needs a `mask` (it fills the masked-off elements)")
        if mask is not None:
            mask = self.semantic.to_tensor(mask)
            if not mask.dtype.is_bool():
                raise self.error(op, f"`mask` must be a bool tensor, got {_describe(mask)}")
            try:
                mask = self.semantic.broadcast_impl_shape(mask, shape)
            except ValueError as e:
                raise self.error(op, f"`mask` does not broadcast to {shape}: {e}") from None
        if other is not None:
            other = self.semantic.cast(self.semantic.to_tensor(other), pointee)
            try:
                other = self.semantic.broadcast_impl_shape(other, shape)
            except ValueError as e:
                raise self.error(op, f"`other` does not broadcast to {shape}: {e}") from None
        attrs: dict[str, Attr] = {
            "cache": self.load_cache(op, cache_modifier, ("", ".ca", ".cg")),
            "evict": self.eviction(op, eviction_policy),
            "isVolatile": self.const_bool(op, "is_volatile", is_volatile),
        }
        self.emit(op, {"src": src, "buffer": buf, "mask": mask, "other": other}, attrs)
        return async_token()

    def async_bulk_load(
        self, src_ptr: Any, buf: Any, mask: Any, other: Any, bulk_size: Any, barrier: Any
    ) -> async_token:
        """``async_load(..., bulk=True)``: one bulk copy completing on an mbarrier. Byte counts and the buffer's
        rank are the op verifier's to check."""
        op = "async_load"
        self.require_capability(op, 90, "a bulk copy (cp.async.bulk, bulk=True)")
        buf = self.one_buffer(op, "result", buf, shared=True)
        for name, value in (("mask", mask), ("other", other)):
            if _unwrap(value) is not None:
                raise self.error(op, f"`{name}` is not supported with bulk=True (one contiguous copy)")
        if _unwrap(barrier) is None:
            raise self.error(op, "bulk=True needs `barrier`, the mbarrier the copy completes on")
        bar = self.one_barrier(op, "barrier", barrier)
        src = _unwrap(src_ptr)
        if not isinstance(src, tlc.tensor) or src.type.is_block() or not src.dtype.is_ptr():
            raise self.error(op, f"with bulk=True `src` must be one pointer (a scalar), got {_describe(src)}")
        if _unwrap(bulk_size) is None:
            size = Scalar(self.builder.get_int32(buf.type.nbytes), tlc.int32)
        else:
            size = self.i32(op, "bulk_size", bulk_size)
        self.emit("async_bulk_load", {"source": src, "buffer": buf, "size": size, "barrier": bar})
        return async_token()

    def async_load_commit_group(self, tokens: Any) -> None:
        op = "async_load_commit_group"
        tokens = _unwrap(tokens)
        if tokens is not None and not isinstance(tokens, (tuple, list, async_token)):
            raise self.error(op, f"`tokens` must be async tokens from tlx.async_load, got {_describe(tokens)}")
        self.emit(op)

    def async_load_wait_group(self, pendings: Any, tokens: Any) -> None:
        op = "async_load_wait_group"
        # Tokens need no IR (cp.async groups are counted); they are accepted as the public API takes them.
        count = self.const_int(op, "pendings", pendings, minimum=0)
        self.emit(op, attrs={"pendings": count})

    # ----------------------------------------------------------------- utilities
    def thread_id(self, axis: Any) -> tlc.tensor:
        op = "thread_id"
        axis = self.const_int(op, "axis", axis, minimum=0, maximum=2)
        return tlc.tensor(self.emit(op, attrs={"axis": axis}, result=tlc.int32), tlc.int32)

    def clock64(self) -> tlc.tensor:
        return tlc.tensor(self.emit("clock64", result=tlc.int64), tlc.int64)

    def dump_layout(self, value: Any) -> None:
        op = "dump_layout"
        value = _unwrap(value)
        if isinstance(value, buffered_tensor):
            value = self.one_buffer(op, "x", value)
        elif not (isinstance(value, tlc.tensor) and value.type.is_block()):
            raise self.error(op, f"`x` must be a register tensor or a buffer, got {_describe(value)}")
        self.emit(op, {"value": value})

    def cluster_op(self, op: str, result: tlc.dtype | None = None) -> tlc.tensor | None:
        """An operand-less cluster op (rank, barrier, fence): Hopper's clusters need sm_90."""
        self.require_capability(op, 90, "thread block clusters")
        value = self.emit(op, result=result)
        return None if result is None else tlc.tensor(value, result)

    # ------------------------------------------------------------ asynchronous MMA
    #
    # async_dot (Form B): the accumulator is the carrier's shaped operand; the two shared buffers ride as
    # splat handles of the accumulator's shape, use_acc as a splat i1.

    def async_dot(
        self,
        a: Any,
        b: Any,
        acc: Any,
        use_acc: Any,
        pred: Any,
        barriers: Any,
        two_ctas: Any,
        input_precision: Any,
        out_dtype: Any,
        force_async: bool = False,
    ) -> tlc.tensor | None:
        op = "async_dot"
        acc = _unwrap(acc)
        barriers = _unwrap(barriers)
        capability = self.capability()
        if isinstance(acc, buffered_tensor) or barriers or (capability is not None and capability >= 100):
            return self.tcgen05_mma(
                a, b, acc, use_acc, pred, barriers, two_ctas, input_precision, out_dtype, force_async
            )
        self.require_capability(op, 90, "wgmma")
        a = _unwrap(a)
        a_in_registers = isinstance(a, tlc.tensor)
        if not a_in_registers:
            a = self.one_buffer(op, "a", a, shared=True)
        elif not a.type.is_block():
            raise self.error(op, f"`a` must be a buffer or a 2-D tensor in registers, got {_describe(a)}")
        b = self.one_buffer(op, "b", b, shared=True)
        if _unwrap(pred) is not None and _unwrap(pred) is not True:
            # The public compiler drops `pred` on this path and issues the MMA anyway: refuse what it would ignore.
            raise self.error(
                op,
                "`pred` is the predicate of tcgen05.mma (sm_100); wgmma has none, and the public TLX compiler "
                "ignores it here (the MMA would run anyway): put the async_dot under `if pred:` instead",
            )
        if self.const_bool(op, "two_ctas", two_ctas):
            raise self.error(op, "`two_ctas` is the Blackwell cta_group::2 form (tcgen05.mma); wgmma has none")
        out_dtype = _unwrap(out_dtype) or tlc.float32
        if out_dtype != tlc.float32:
            raise self.error(op, f"only float32 accumulators are supported, got {out_dtype}")
        # Shapes, element types and wgmma's tile sizes are the op verifier's to check; the result is the
        # accumulator's type, zeros of M x N when there is none.
        if acc is None:
            if len(a.shape) != 2 or len(b.shape) != 2:
                raise self.error(op, f"operands must be 2-D, got {list(a.shape)} and {list(b.shape)}")
            acc = self.semantic.full([a.shape[0], b.shape[1]], 0.0, tlc.float32)
        if not isinstance(acc, tlc.tensor) or not acc.type.is_block() or acc.dtype != tlc.float32:
            raise self.error(op, f"`acc` must be a float32 tensor, got {_describe(acc)}")
        precision = _unwrap(input_precision)
        precisions = {None: 0, "tf32": 0, "tf32x3": 1, "ieee": 2}
        if precision not in precisions:
            raise self.error(op, f"`input_precision` must be one of {sorted(p for p in precisions if p)}")
        attrs: dict[str, Attr] = {"inputPrecision": precisions[precision]}
        use = given = _unwrap(use_acc)
        if use is not None:
            use = self.semantic.to_tensor(use) if isinstance(use, (bool, tlc.tensor)) else None
            if use is None or use.type.is_block() or use.dtype != tlc.int1:
                raise self.error(op, f"`use_acc` must be a scalar boolean, got {_describe(given)}")
        # `a` from registers has its own shape (MxK, not MxN): it rides a linked carrier.
        operands = {"a": Linked(a) if a_in_registers else a, "b": b, "acc": acc, "useAcc": use}
        return tlc.tensor(self.emit(op, operands, attrs, result=acc.type), acc.type)

    def tcgen05_mma(
        self,
        a: Any,
        b: Any,
        acc: Any,
        use_acc: Any,
        pred: Any,
        barriers: Any,
        two_ctas: Any,
        input_precision: Any,
        out_dtype: Any,
        force_async: bool = False,
    ) -> None:
        """The Blackwell form of ``async_dot``: ``tcgen05.mma`` into a tensor-memory accumulator (Form A, every
        operand a handle or a scalar). Storage kinds, shapes and element types are the op verifier's to check."""
        op = "async_dot"
        what = "tcgen05.mma (async_dot with mBarriers= or a tensor-memory accumulator)"
        self.require_capability(op, 100, what)
        if isinstance(_unwrap(a), tlc.tensor):
            raise self.error(op, "tcgen05 reads `A` from a shared- or tensor-memory buffer, not from registers")
        a = self.one_buffer(op, "A", a)
        b = self.one_buffer(op, "B", b)
        if not isinstance(acc, buffered_tensor):
            raise self.error(
                op,
                "on sm_100 async_dot is tcgen05.mma, which accumulates in tensor memory: `acc` must be a buffer "
                f"of tlx.local_alloc(..., storage=tlx.storage_kind.tmem), got {_describe(acc)}",
            )
        acc = self.one_buffer(op, "acc", acc)
        pair = self.const_bool(op, "two_ctas", two_ctas)
        precision = _unwrap(input_precision)
        if precision not in (None, "tf32"):
            raise self.error(op, f"tcgen05 multiplies float32 operands as tf32 only, got input_precision={precision!r}")
        out_dtype = _unwrap(out_dtype) or tlc.float32
        if out_dtype != tlc.float32:
            raise self.error(op, f"only float32 accumulators are supported, got {out_dtype}")
        use = _unwrap(use_acc)
        use = None if use is None else self.predicate(op, use, "use_acc")
        operands = {
            "a": a,
            "b": b,
            "acc": acc,
            "useAcc": use,
            "pred": self.predicate(op, pred),
            "barriers": self.barrier_list(op, barriers),
        }
        self.emit("tcgen05_mma", operands, {"isAsync": bool(force_async), "twoCTAs": pair})
        return None

    def barrier_list(self, op: str, barriers: Any) -> list[mbarrier]:
        """``mBarriers=`` of a tcgen05 MMA: None, one mbarrier or a list of them."""
        barriers = _unwrap(barriers)
        if barriers is None:
            barriers = ()
        if isinstance(barriers, mbarrier):
            barriers = (barriers,)
        if not isinstance(barriers, (tuple, list)):
            raise self.error(op, f"`mBarriers` must be a list of mbarriers, got {_describe(barriers)}")
        return [self.one_barrier(op, f"mBarriers[{i}]", bar) for i, bar in enumerate(barriers)]

    def async_dot_scaled(
        self,
        operands: dict[str, Any],
        formats: dict[str, Any],
        use_acc: Any,
        pred: Any,
        barriers: Any,
        two_ctas: Any,
        force_async: Any,
        out_dtype: Any,
    ) -> None:
        """Block-scaled ``tcgen05.mma`` (Form A, every operand a handle or a scalar). ``operands`` maps the
        public argument names (A, B, acc, A_scale, B_scale) to values, ``formats`` A_format and B_format to
        theirs. Storage kinds, shapes and element types are the op verifier's to check."""
        op = "async_dot_scaled"
        self.require_blackwell(op, "block-scaled MMA (tcgen05.mma with scales)")
        bufs = {name: self.one_buffer(op, name, value) for name, value in operands.items()}
        types = {}
        for name, value in formats.items():
            text = self.const_str(op, name, value)
            if text not in _SCALED_FORMATS:
                raise self.error(
                    op, f"`{name}` must be one of {', '.join(map(repr, _SCALED_FORMATS))}, got {_describe(value)}"
                )
            types[name] = _SCALED_FORMATS[text]
        if self.const_bool(op, "two_ctas", two_ctas):
            raise self.error(
                op,
                "`two_ctas` (tcgen05.mma cta_group::2) is not supported for block-scaled MMA: Triton 3.6's "
                "tc_gen5_mma_scaled has no two-CTA form",
            )
        out_dtype = _unwrap(out_dtype) or tlc.float32
        if out_dtype != tlc.float32:
            raise self.error(op, f"only float32 accumulators are supported, got {out_dtype}")
        use = _unwrap(use_acc)
        carried = {
            "a": bufs["A"],
            "b": bufs["B"],
            "acc": bufs["acc"],
            "aScale": bufs["A_scale"],
            "bScale": bufs["B_scale"],
            "useAcc": None if use is None else self.predicate(op, use, "use_acc"),
            "pred": self.predicate(op, pred),
            "barriers": self.barrier_list(op, barriers),
        }
        attrs = {
            "aType": types["A_format"],
            "bType": types["B_format"],
            "isAsync": self.const_bool(op, "force_async", force_async),
        }
        self.emit("tcgen05_mma_scaled", carried, attrs)

    def stoch_round(self, src: Any, dst_ty: Any, rand_bits: Any) -> tlc.tensor:
        """``cvt.rs``: the result type is ``src``'s shape in ``dst_ty``; element types are the op verifier's."""
        op = "stoch_round"
        self.require_blackwell(op, "stochastic rounding (cvt.rs.satfinite)")
        src, rand_bits = _unwrap(src), _unwrap(rand_bits)
        for name, value in (("src", src), ("rand_bits", rand_bits)):
            if not isinstance(value, tlc.tensor) or not value.type.is_block():
                raise self.error(
                    op, f"`{name}` must be a tensor (this TLX rounds tensors, not scalars), got {_describe(value)}"
                )
        shape, bits_shape = ([_unwrap(d) for d in value.shape] for value in (src, rand_bits))
        if shape != bits_shape:
            raise self.error(op, f"`rand_bits` (shape {bits_shape}) must have the shape of `src` ({shape})")
        dst = self.element_dtype(op, "dst_ty", dst_ty)
        if dst == src.dtype:
            return src
        result = tlc.block_type(dst, shape)
        return tlc.tensor(self.emit(op, {"src": src, "randBits": rand_bits}, result=result), result)

    def tcgen05_commit(self, barrier: Any, two_ctas: Any) -> None:
        op = "tcgen05_commit"
        self.require_capability(op, 100, "tcgen05.commit")
        bar = self.one_barrier(op, "mBarrier", barrier)
        self.emit(op, {"barrier": bar}, {"twoCTAs": self.const_bool(op, "two_ctas", two_ctas)})

    def async_dot_wait(self, pendings: Any, acc: Any) -> tlc.tensor:
        op = "async_dot_wait"
        count = self.const_int(op, "pendings", pendings, minimum=0)
        acc = _unwrap(acc)
        if not isinstance(acc, tlc.tensor) or not acc.type.is_block() or acc.dtype != tlc.float32:
            raise self.error(op, f"`acc` must be the float32 tensor an async_dot returned, got {_describe(acc)}")
        return tlc.tensor(self.emit(op, {"acc": acc}, {"pendings": count}, result=acc.type), acc.type)

    # ------------------------------------------------------------ named barriers
    def named_barrier(self, op: str, bar_id: Any, num_threads: Any) -> None:
        """``named_barrier_wait`` / ``named_barrier_arrive``; constant ids and thread counts are
        tlx-check-static-bounds' to check."""
        self.emit(op, {"id": self.i32(op, "bar", bar_id), "numThreads": self.i32(op, "arrive_count", num_threads)})

    # ------------------------------------------------------------ warp specialization
    #
    # `with tlx.async_tasks():` / `with tlx.async_task(...)`: a Form A carrier returning an opaque i1, the
    # condition of an scf.if whose then-block is the region's body. The frontend keeps a stack of open
    # regions per kernel trace to reject misuse at the user's line.

    def _task_stack(self) -> list[TaskRegion]:
        return self._kernel_state("task_stack", [])

    def async_tasks(self, args: tuple, kwargs: dict, exclusive: Any, suspend_ns: Any) -> TaskRegion:
        op = "async_tasks"
        if args or kwargs:
            extra = [repr(_unwrap(a)) for a in args] + list(kwargs)
            raise self.error(op, f"takes no arguments besides its options, got {', '.join(extra)}")
        attrs: dict[str, Attr] = {}
        if self.const_bool(op, "exclusive", exclusive):
            attrs["exclusive"] = True
        if _unwrap(suspend_ns) is not None:
            attrs["mbarrierTryWaitSuspendNs"] = self.const_int(
                op, "mbarrier_try_wait_suspend_ns", suspend_ns, minimum=0, maximum=2**31 - 1
            )
        return TaskRegion(self, op, attrs)

    def check_task_nesting(self, op: str) -> None:
        """Where a task region opens (checked on entry: Triton builds every item of a `with` first, so
        `with tlx.async_tasks(), tlx.async_task("default"):` builds the task before its set is open)."""
        stack = self._task_stack()
        if op == "async_tasks" and stack:
            raise self.error(op, "async_tasks cannot be nested inside another async_tasks or async_task")
        if op == "async_task" and (not stack or stack[-1].op != "async_tasks"):
            where = "inside another async_task" if stack else "outside `with tlx.async_tasks():`"
            raise self.error(op, f"each async_task must sit directly in `with tlx.async_tasks():`, not {where}")

    #: The options of ``async_task`` (the public API takes them as keywords).
    TASK_OPTIONS = ("num_warps", "registers", "num_regs", "replicate", "warp_group_start_id")

    def async_task(self, args: tuple, kwargs: dict) -> TaskRegion:
        op = "async_task"
        if len(args) > 1:
            raise self.error(op, f'takes one positional argument ("default"), got {len(args)}')
        unknown = [name for name in kwargs if name not in self.TASK_OPTIONS]
        if unknown:
            raise self.error(
                op, f"unexpected keyword argument {unknown[0]!r} (options: {', '.join(self.TASK_OPTIONS)})"
            )
        if "registers" in kwargs and "num_regs" in kwargs:
            raise self.error(op, "give `registers` or `num_regs` (the same budget), not both")
        kind = _unwrap(args[0]) if args else None
        num_warps = kwargs.get("num_warps")
        registers = kwargs.get("registers", kwargs.get("num_regs"))
        replicate = kwargs.get("replicate", 1)
        if kind not in (None, "default"):
            raise self.error(op, f'the only task name is "default" (the kernel\'s own warps), got {kind!r}')
        # Warp counts, budgets and the one default task are the task ops' verifiers to check.
        attrs: dict[str, Attr] = {"isDefault": kind == "default"}
        for name, ods_name, value in (("num_warps", "numWarps", num_warps), ("registers", "registers", registers)):
            if _unwrap(value) is not None:
                attrs[ods_name] = self.const_int(op, name, value)
        replicas = 1 if _unwrap(replicate) is None else self.const_int(op, "replicate", replicate)
        if kind == "default":
            attrs["replicate"] = replicas  # runs once: more is its verifier's error
            replicas = 1
        elif not 1 <= replicas <= 32:
            raise self.error(
                op, f"`replicate` must be in 1..32 (copies of the task, each on warps of its own), got {replicas}"
            )
        return TaskRegion(self, op, attrs, replicas)

    def async_task_replica_id(self) -> tlc.constexpr:
        """Which replica of its task is being traced: each replica is traced on its own, so this is a constant."""
        op = "async_task_replica_id"
        stack = self._task_stack()
        if not stack or stack[-1].op != "async_task":
            raise self.error(op, "async_task_replica_id() is only meaningful inside `with tlx.async_task(...)`")
        return tlc.constexpr(stack[-1].replica)


class TaskRegion:
    """The context manager of ``with tlx.async_tasks()`` and ``with tlx.async_task(...)``.

    Names bound inside the body stay inside: a task runs on other warps and yields nothing back.

    A task of ``replicas`` copies is traced once per copy, each a task of its own whose
    ``async_task_replica_id()`` is that copy's number, a compile-time constant (as the public TLX API
    has it: ``if cid == 0:`` and ``NUM_STAGES * cid`` are resolved while tracing). The ``with`` statement
    traces its body once, for the last copy; ``__enter__`` traces the others first.
    """

    def __init__(self, semantic: TLXSemantic, op: str, attrs: dict[str, Attr], replicas: int = 1) -> None:
        self.semantic = semantic
        self.op = op
        self.attrs = attrs
        self.replicas = replicas
        self.replica = 0

    def __enter__(self) -> None:
        generator = self.semantic.generator
        if self.replicas > 1:
            node = generator.cur_node  # the `with` statement being traced
            if not isinstance(node, ast.With) or len(node.items) != 1:
                raise self.semantic.error(
                    self.op, "a replicated async_task must be the only context manager of its `with` statement"
                )
            for replica in range(self.replicas - 1):
                self._open(replica)
                generator.visit_compound_statement(node.body)
                self._close()
        self._open(self.replicas - 1)

    def __exit__(self, *exc_info: Any) -> None:
        self._close()

    def _open(self, replica: int) -> None:
        sem = self.semantic
        builder = sem.builder
        sem.check_task_nesting(self.op)
        self.replica = replica
        # The region's opaque condition: a carrier whose i1 no pass can fold (docs/carriers.md, "Regions").
        condition = sem.emit(self.op, attrs=self.attrs, result=tlc.int1)
        self.if_op = builder.create_if_op([], condition, False)
        builder.set_insertion_point_to_start(self.if_op.get_then_block())
        self.saved_scope = dict(sem.generator.lscope)
        sem._task_stack().append(self)

    def _close(self) -> None:
        sem = self.semantic
        builder = sem.builder
        sem._task_stack().pop()
        block = self.if_op.get_then_block()
        if not block.has_terminator():
            builder.set_insertion_point_to_end(block)
            builder.create_yield_op([])
        builder.set_insertion_point_after(self.if_op.get_operation())
        sem.generator.lscope = self.saved_scope

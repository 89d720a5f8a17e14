"""TLX value types: buffers, mbarriers, cluster-launch-control responses, async tokens, storage kinds.

Every TLX handle (a set of buffers, one buffer, a set of mbarriers, one
mbarrier) is an ``i64`` in TTIR (docs/carriers.md); descriptor slots are
Triton pointers (``!tt.ptr<i8>``). The Python values below
carry what the IR does not: element type, shape, number of buffers, storage.
That is what lets the builtins check misuse while the kernel is traced, and
what names the ``!tlx.*`` type the raise pass rebuilds.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
from typing import Any

import triton.language.core as tlc
from triton._C.libtriton import ir

from .._alias import name_through_alias
from .builtin import builtin

__all__ = [
    "CLCPipelineContext",
    "async_token",
    "async_token_type",
    "buffered_tensor",
    "buffered_tensor_type",
    "clc_response",
    "clc_response_type",
    "mbarrier",
    "mbarrier_type",
    "reuse_group",
    "reuse_group_ir_type",
    "reuse_group_type",
    "storage_alias_spec_type",
    "storage_alias_spec_type_class",
    "storage_kind",
    "tensor_descriptor_ptr",
    "tensor_descriptor_ptr_type",
]


def _made_by_an_op(value: tlc.base_value, handle: Any) -> Any:
    """``handle``, the IR value a tlx op made; a kernel that constructs ``value`` 's class itself gets an
    error at its line instead of a failure in an IR builder later."""
    if not isinstance(handle, ir.value):
        raise TypeError(
            f"tlx.{type(value).__name__} is what tlx ops return, not something a kernel constructs (got {handle!r})"
        )
    return handle


class storage_kind(enum.Enum):
    """Where TLX buffers live.

    ``smem``: shared memory of the CTA. ``tmem``: Blackwell tensor memory
    (sm_100+, 2-D buffers). ``smemCluster``: distributed shared memory of the
    cluster. The value is the spelling of the ``!tlx.buffers`` type.
    """

    smem = "smem"
    tmem = "tmem"
    smemCluster = "smemCluster"


def _shape_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(d) for d in shape)


class buffered_tensor_type(tlc.base_type):
    """The type of a TLX buffer set (``num`` buffers) or of one buffer (``num is None``)."""

    def __init__(
        self,
        element_ty: tlc.dtype,
        shape: tuple[int, ...],
        num: int | None,
        storage: storage_kind,
        layout: str | None = None,
    ) -> None:
        self.element_ty = element_ty
        self.shape = tuple(shape)
        self.num = num
        self.storage = storage
        self.layout = layout

    @property
    def is_single(self) -> bool:
        """True for one buffer (what ``buf[i]`` gives), False for a set."""
        return self.num is None

    def buffer_type(self) -> buffered_tensor_type:
        """The type of one buffer of this set."""
        return buffered_tensor_type(self.element_ty, self.shape, None, self.storage, self.layout)

    @property
    def nbytes(self) -> int:
        """Bytes of one buffer."""
        numel = 1
        for d in self.shape:
            numel *= d
        return numel * self.element_ty.primitive_bitwidth // 8

    def mlir_type(self, element_text: str) -> str:
        """The ``!tlx.buffers`` / ``!tlx.buffer`` text, given the MLIR spelling of the element type."""
        body = f"{_shape_text(self.shape)}x{element_text}, {self.storage.value}"
        if self.num is None:
            return f"!tlx.buffer<{body}>"
        return f"!tlx.buffers<{self.num}, {body}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, buffered_tensor_type) and (
            self.element_ty,
            self.shape,
            self.num,
            self.storage,
            self.layout,
        ) == (other.element_ty, other.shape, other.num, other.storage, other.layout)

    def __hash__(self) -> int:
        return hash((str(self.element_ty), self.shape, self.num, self.storage, self.layout))

    def __repr__(self) -> str:
        count = "" if self.num is None else f"{self.num} x "
        return f"buffered_tensor<{count}{self.element_ty}{list(self.shape)}, {self.storage.value}>"

    __str__ = __repr__

    def mangle(self) -> str:
        shape = "_".join(str(d) for d in self.shape)
        num = "" if self.num is None else f"N{self.num}"
        layout = "" if self.layout is None else "L" + hashlib.sha256(self.layout.encode()).hexdigest()[:12]
        return f"TLXB{self.element_ty.mangle()}S{shape}S{num}{self.storage.value}{layout}"

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_int64_ty()

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(builder.get_int64_ty())

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[buffered_tensor, int]:
        return buffered_tensor(handles[cursor], self), cursor + 1


class buffered_tensor(tlc.base_value):
    """Buffers in shared or tensor memory, as ``tlx.local_alloc`` returns them.

    A set of ``num`` buffers (from ``local_alloc``) or one buffer (from
    ``buf[i]`` / ``tlx.local_view(buf, i)``). Operations that read or write a
    buffer (``local_load``, ``local_store``, ``async_load``, TMA) take one
    buffer.
    """

    def __init__(self, handle: ir.value, type: buffered_tensor_type) -> None:
        self.handle = _made_by_an_op(self, handle)
        self.type = type

    @property
    def dtype(self) -> tlc.dtype:
        return self.type.element_ty

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape

    @property
    def num(self) -> int | None:
        return self.type.num

    @property
    def storage(self) -> storage_kind:
        return self.type.storage

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self.handle)

    @builtin
    def __getitem__(self, index, _semantic=None, _generator=None) -> buffered_tensor:
        """``buf[i]``: the same as ``tlx.local_view(buf, i)``."""
        from .semantic import TLXSemantic

        return TLXSemantic(_semantic, _generator).local_view(self, index)

    def __repr__(self) -> str:
        return repr(self.type)


class mbarrier_type(tlc.base_type):
    """The type of ``num`` mbarriers (``alloc_barriers``) or of one (``num is None``).

    ``per_thread``: warp barriers (``alloc_warp_barrier``), on which every thread arrives. The IR type is the
    same; the flag decides how ``barrier_arrive`` arrives.
    """

    def __init__(self, num: int | None, per_thread: bool = False) -> None:
        self.num = num
        self.per_thread = per_thread

    @property
    def is_single(self) -> bool:
        return self.num is None

    def mlir_type(self) -> str:
        return "!tlx.mbarrier" if self.num is None else f"!tlx.mbarriers<{self.num}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, mbarrier_type) and (self.num, self.per_thread) == (other.num, other.per_thread)

    def __hash__(self) -> int:
        return hash(("mbarrier", self.num, self.per_thread))

    def __repr__(self) -> str:
        kind = "warp_mbarrier" if self.per_thread else "mbarrier"
        return kind if self.num is None else f"{kind}s<{self.num}>"

    __str__ = __repr__

    def mangle(self) -> str:
        kind = "TLXW" if self.per_thread else "TLXM"
        return kind if self.num is None else f"{kind}{self.num}"

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_int64_ty()

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(builder.get_int64_ty())

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[mbarrier, int]:
        return mbarrier(handles[cursor], self), cursor + 1


class mbarrier(tlc.base_value):
    """mbarriers in shared memory, as ``tlx.alloc_barriers`` returns them.

    A set (from ``alloc_barriers``) or one mbarrier (from ``bars[i]``). The
    barrier operations take one mbarrier. ``tlx.remote_view(bar, rank)`` gives
    the same mbarrier of CTA ``rank`` of the cluster (``remote_cta_rank``
    set), which ``barrier_arrive`` arrives on remotely.
    """

    def __init__(self, handle: ir.value, type: mbarrier_type, remote_cta_rank: Any = None) -> None:
        self.handle = _made_by_an_op(self, handle)
        self.type = type
        self.remote_cta_rank = remote_cta_rank

    @property
    def num(self) -> int | None:
        return self.type.num

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self.handle)

    @builtin
    def __getitem__(self, index, _semantic=None, _generator=None) -> mbarrier:
        """``bars[i]``: the same as ``tlx.local_view(bars, i)``."""
        from .semantic import TLXSemantic

        return TLXSemantic(_semantic, _generator).local_view(self, index)

    def __repr__(self) -> str:
        return repr(self.type)


class clc_response_type(tlc.base_type):
    """The type of ``num`` cluster-launch-control responses (``num is None``: one of them).

    A response is a 16-byte opaque word in shared memory that ``clusterlaunchcontrol.try_cancel`` writes
    (``!tlx.clc_responses<N>`` / ``!tlx.clc_response``; an ``i64`` handle in TTIR). ``layout`` is accepted
    as the public API passes it and not used: responses have one fixed layout (16-byte aligned, unswizzled).
    """

    def __init__(self, num: int | None, layout: Any) -> None:
        self.num = num
        self.layout = layout

    @property
    def is_single(self) -> bool:
        return self.num is None

    def mlir_type(self) -> str:
        return "!tlx.clc_response" if self.num is None else f"!tlx.clc_responses<{self.num}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, clc_response_type) and self.num == other.num

    def __hash__(self) -> int:
        return hash(("clc_response", self.num))

    def __repr__(self) -> str:
        return "clc_response" if self.num is None else f"clc_responses<{self.num}>"

    __str__ = __repr__

    def mangle(self) -> str:
        return "TLXC" if self.num is None else f"TLXC{self.num}"

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_int64_ty()

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(builder.get_int64_ty())

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[clc_response, int]:
        return clc_response(handles[cursor], self.num, self.layout), cursor + 1


class clc_response(tlc.base_value):
    """Cluster-launch-control responses in shared memory: a set (``num`` of them, one per pipeline stage)
    or one (``tlx.local_view(responses, k)``). Made by ``tlx.clc_create_context``."""

    def __init__(self, handle: ir.value, num: int | None, layout: Any) -> None:
        self.handle = _made_by_an_op(self, handle)
        self.num = num
        self.type = clc_response_type(num, layout)

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self.handle)

    def __repr__(self) -> str:
        return repr(self.type)


class CLCPipelineContext:
    """What ``tlx.clc_create_context`` returns: the mbarriers and responses of a cluster-launch-control
    pipeline of ``num_stages`` stages. ``clc_producer`` and ``clc_consumer`` take it; it may be passed to
    ``@triton.jit`` helpers (a Triton aggregate of its three fields)."""

    # Triton's aggregates check field values against these types (not strings, so no PEP 563 annotations).
    __annotations__ = {"_clc_mbars_empty": mbarrier, "_clc_mbars_full": mbarrier, "_clc_responses": clc_response}

    def __init__(self, clc_mbars_empty, clc_mbars_full, clc_responses) -> None:
        self._clc_mbars_empty = clc_mbars_empty
        self._clc_mbars_full = clc_mbars_full
        self._clc_responses = clc_responses


_context_init = inspect.signature(CLCPipelineContext.__init__)
CLCPipelineContext = tlc._aggregate(CLCPipelineContext)
# Triton's aggregate constructor takes (*args, **kwargs); introspection shows the public API's arguments.
CLCPipelineContext.__signature__ = _context_init.replace(parameters=list(_context_init.parameters.values())[1:])


class async_token_type(tlc.base_type):
    """The type of :class:`async_token`: no IR value behind it."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, async_token_type)

    def __hash__(self) -> int:
        return hash("async_token")

    def __repr__(self) -> str:
        return "async_token"

    def mangle(self) -> str:
        return "TLXT"

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        return

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[async_token, int]:
        return async_token(), cursor


class async_token(tlc.base_value):
    """What ``tlx.async_load`` returns, for TLX API compatibility.

    Completion of cp.async copies is tracked by commit groups
    (``async_load_commit_group`` / ``async_load_wait_group``), so the token
    carries no IR value; it may be passed around, carried through loops and
    handed to ``async_load_commit_group(tokens=...)``.
    """

    def __init__(self) -> None:
        self.type = async_token_type()

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        return

    def __repr__(self) -> str:
        return "async_token"


# ----------------------------------------------------------------------------------------- storage aliasing


class reuse_group_type(enum.Enum):
    """How the elements of a :class:`reuse_group` share a storage alias spec's memory.

    ``shared``: they overlap, at the same buffer index (use them at different times, synchronized by
    barriers). ``distinct``: side by side, never overlapping (usable at the same time).
    """

    shared = "shared"
    distinct = "distinct"


class reuse_group:
    """A node of a storage alias spec's overlap tree (``spec.set_buffer_overlap(tree)``).

    ``args``: buffer sets allocated with ``local_alloc(..., reuse=spec)`` and nested groups.
    ``group_type``: :class:`reuse_group_type` (default ``shared``). ``group_size`` K: K consecutive buffers
    of each element make one buffer index of the group (subtiling: P of 2N buffers beside QK of N). A plain
    Python value: it becomes IR in ``set_buffer_overlap``.
    """

    def __init__(self, *args, group_type=reuse_group_type.shared, group_size=1) -> None:
        if len(args) == 0:
            raise ValueError("reuse_group requires at least one element")
        group_size = _unwrap_constexpr(group_size)
        if not isinstance(group_size, int) or isinstance(group_size, bool) or group_size < 1:
            raise ValueError(f"group_size must be a positive integer, got {group_size}")
        group_type = _unwrap_constexpr(group_type)
        if not isinstance(group_type, reuse_group_type):
            raise TypeError(f"group_type must be a tlx.reuse_group_type, got {group_type!r}")
        args = tuple(_unwrap_constexpr(a) for a in args)
        for elem in args:
            if not isinstance(elem, (reuse_group, buffered_tensor)):
                raise TypeError(
                    f"reuse_group elements must be buffered_tensor or reuse_group, got {type(elem).__name__}"
                )
        self._args = args
        self._group_type = group_type
        self._group_size = group_size

    @property
    def args(self) -> tuple:
        return self._args

    @property
    def group_type(self) -> reuse_group_type:
        return self._group_type

    @property
    def group_size(self) -> int:
        return self._group_size

    def __repr__(self) -> str:
        size = "" if self._group_size == 1 else f", group_size={self._group_size}"
        return f"reuse_group({self._args}, group_type={self._group_type.value}{size})"


def _unwrap_constexpr(value: Any) -> Any:
    return value.value if isinstance(value, tlc.constexpr) else value


class reuse_group_ir_type(tlc.base_type):
    """The type of a reuse group in the IR (``!tlx.reuse_group``; an ``i64`` handle in TTIR)."""

    def __init__(self, group_kind: reuse_group_type) -> None:
        self._group_kind = group_kind

    @property
    def group_kind(self) -> reuse_group_type:
        return self._group_kind

    def mlir_type(self) -> str:
        return "!tlx.reuse_group"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, reuse_group_ir_type) and self._group_kind == other._group_kind

    def __hash__(self) -> int:
        return hash(("reuse_group", self._group_kind))

    def __repr__(self) -> str:
        return f"reuse_group_ir_type(group_kind={self._group_kind.value})"

    def mangle(self) -> str:
        return f"reuse_group_{self._group_kind.value}"

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_int64_ty()

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(builder.get_int64_ty())

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[reuse_group_value, int]:
        return reuse_group_value(handles[cursor], self), cursor + 1


class reuse_group_value(tlc.base_value):
    """A reuse group lowered to IR (internal: what ``set_buffer_overlap`` builds from a :class:`reuse_group`)."""

    def __init__(self, handle: ir.value, type: reuse_group_ir_type) -> None:
        self.handle = _made_by_an_op(self, handle)
        self.type = type

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self.handle)


class storage_alias_spec_type(tlc.base_type):
    """The type of a storage alias spec (``!tlx.storage_alias_spec<smem>``; an ``i64`` handle in TTIR)."""

    def __init__(self, storage: storage_kind, buffer_size_bytes: int | None = None) -> None:
        self._storage = storage
        self._buffer_size_bytes = buffer_size_bytes

    @property
    def storage(self) -> storage_kind:
        return self._storage

    @property
    def buffer_size_bytes(self) -> int | None:
        return self._buffer_size_bytes

    def mlir_type(self) -> str:
        return f"!tlx.storage_alias_spec<{self._storage.value}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, storage_alias_spec_type) and (self._storage, self._buffer_size_bytes) == (
            other._storage,
            other._buffer_size_bytes,
        )

    def __hash__(self) -> int:
        return hash(("storage_alias_spec", self._storage, self._buffer_size_bytes))

    def __repr__(self) -> str:
        size = f", size={self._buffer_size_bytes}" if self._buffer_size_bytes else ""
        return f"storage_alias_spec_type(storage={self._storage.value}{size})"

    __str__ = __repr__

    def mangle(self) -> str:
        size = f"_{self._buffer_size_bytes}" if self._buffer_size_bytes else ""
        return f"storage_alias_spec_{self._storage.value}{size}"

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_int64_ty()

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(builder.get_int64_ty())

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[storage_alias_spec_type_class, int]:
        return storage_alias_spec_type_class(handles[cursor], self._storage, self._buffer_size_bytes), cursor + 1


class storage_alias_spec_type_class(tlc.base_value):
    """What ``tlx.storage_alias_spec(...)`` returns: one allocation that buffer sets share.

    Pass it as ``local_alloc(..., reuse=spec)``; place those buffer sets with ``spec.set_buffer_overlap(
    tlx.reuse_group(...))`` (without it, all start at the first byte). ``storage`` and ``buffer_size_bytes``
    are read-only. (The public API calls this class ``storage_alias_spec``; the name is the builtin's.)
    """

    def __init__(self, handle: ir.value, storage: storage_kind, buffer_size_bytes: int | None = None) -> None:
        if storage == storage_kind.smemCluster:
            raise ValueError("smemCluster storage is not supported for storage_alias_spec")
        self._handle = _made_by_an_op(self, handle)
        self._storage = storage
        self._buffer_size_bytes = buffer_size_bytes
        self.type = storage_alias_spec_type(storage, buffer_size_bytes)

    @property
    def handle(self) -> ir.value:
        return self._handle

    @property
    def storage(self) -> storage_kind:
        return self._storage

    @property
    def buffer_size_bytes(self) -> int | None:
        return self._buffer_size_bytes

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self._handle)

    @builtin
    def set_buffer_overlap(self, overlap_def, _semantic=None, _generator=None) -> None:
        """Place the buffer sets of this spec: ``overlap_def`` is a :class:`reuse_group` tree holding each of
        them once (``tlx.set_buffer_overlap``; no instruction: it decides the offsets of their views)."""
        from .semantic import TLXSemantic

        TLXSemantic(_semantic, _generator).set_buffer_overlap(self, overlap_def)

    def __repr__(self) -> str:
        size = f", size={self._buffer_size_bytes}" if self._buffer_size_bytes else ""
        return f"storage_alias_spec(storage={self._storage.value}{size})"


# ------------------------------------------------------------------------------------------ descriptor slots


class tensor_descriptor_ptr_type(tlc.pointer_type):
    """The type of :class:`tensor_descriptor_ptr`: a global pointer that advances by ``size`` bytes (one TMA
    descriptor) per index, into ``num`` descriptor slots.

    In IR the pointer is a ``!tt.ptr<i8>`` (byte addresses), whatever the public API's element type says.
    """

    def __init__(self, num: int, size: int = 128) -> None:
        super().__init__(tlc.block_type(tlc.int8, [size]), 1)
        self.num = num
        self.size = size

    def to_ir(self, builder: ir.builder) -> ir.type:
        return builder.get_ptr_ty(builder.get_int8_ty(), 1)

    def _flatten_ir_types(self, builder: ir.builder, out: list[ir.type]) -> None:
        out.append(self.to_ir(builder))

    def _unflatten_ir(self, handles: list[ir.value], cursor: int) -> tuple[tensor_descriptor_ptr, int]:
        return tensor_descriptor_ptr(handles[cursor], self.num, self.size), cursor + 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, tensor_descriptor_ptr_type) and (self.num, self.size) == (other.num, other.size)

    def __hash__(self) -> int:
        return hash(("tensor_descriptor_ptr", self.num, self.size))

    def __repr__(self) -> str:
        return f"tensor_descriptor_ptr_type(num={self.num}, size={self.size})"

    __str__ = __repr__

    def mangle(self) -> str:
        return f"tensor_desc_ptr_{self.num}_{self.size}" if self.num > 1 else f"tensor_desc_ptr_{self.size}"


class tensor_descriptor_ptr(tlc.base_value):
    """Slots for TMA descriptors in the program's global scratch, as ``tlx.allocate_tensor_descriptor``
    returns them: ``ptr[i]`` is slot ``i`` (``descriptor_size`` bytes further per index), which
    ``tlx.make_tensor_descriptor(desc_ptr=...)`` fills and ``tlx.reinterpret_tensor_descriptor`` reads.

    ``num`` counts the slots of the whole allocation, indexed or not.
    """

    def __init__(self, handle: ir.value, num: int, descriptor_size: int) -> None:
        self.handle = _made_by_an_op(self, handle)
        self.type = tensor_descriptor_ptr_type(num, descriptor_size)
        # The slot this pointer is at when tracing knows it (constant indices from the allocation), else None.
        self._slot: int | None = None

    @property
    def num(self) -> int:
        return self.type.num

    @property
    def descriptor_size(self) -> int:
        return self.type.size

    def _flatten_ir(self, handles: list[ir.value]) -> None:
        handles.append(self.handle)

    @builtin
    def __getitem__(self, index, _semantic=None, _generator=None) -> tensor_descriptor_ptr:
        """``ptr[i]``: the slot ``i`` further (``i * descriptor_size`` bytes, a ``tt.addptr``)."""
        from .semantic import TLXSemantic

        return TLXSemantic(_semantic, _generator).descriptor_slot(self, index)

    def __repr__(self) -> str:
        return f"tensor_descriptor_ptr(num={self.num}, descriptor_size={self.descriptor_size})"


name_through_alias(globals())

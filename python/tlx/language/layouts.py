"""Layout encodings of the public TLX API: plain Python values, no IR.

The public TLX API exports classes that describe how a buffer sits in shared or
tensor memory (``swizzled_shared_layout_encoding``, ``nv_mma_shared_layout_encoding``,
``padded_shared_layout_encoding``, ``shared_linear_layout_encoding``,
``tensor_memory_layout_encoding``, the CuTe-style ``swizzled_layout``) and how a
register tensor is spread over threads (``layout``, ``dot_operand_layout``,
``DummyRegisterLayoutEncoding``). Their constructors take the public API's
arguments (names and defaults), with ``make_default`` where it has one.

This TLX reaches Triton through text, so a memory layout becomes the text of
the ``ttg``/``ttng`` attribute Triton 3.6 prints (:meth:`to_ir_text`), which is
what ``tlx.local_alloc(..., layout=...)`` takes. Register layouts compute their
``#ttg.linear`` bases the same way; nothing in this release consumes them yet
(``local_load(layout=)`` is not implemented).

Usable on the host (as ``tl.constexpr`` kernel arguments) and inside
``@triton.jit`` code (arguments may be ``tl.constexpr``).
"""

from __future__ import annotations

from typing import Any

import triton.language.core as tlc
from triton.runtime.jit import constexpr_function

from .._alias import name_through_alias
from .errors import TLXError

__all__ = [
    "DummyRegisterLayoutEncoding",
    "TMemCTAMode",
    "dot_operand_layout",
    "layout",
    "layout_encoding",
    "nv_mma_shared_layout_encoding",
    "padded_shared_layout_encoding",
    "shared_layout_encoding",
    "shared_linear_layout_encoding",
    "swizzled_layout",
    "swizzled_shared_layout_encoding",
    "tensor_memory_layout_encoding",
]


def _value(x: Any) -> Any:
    """``x`` without its ``tl.constexpr`` wrapper; a ``tl.tuple`` as a Python list."""
    x = tlc._unwrap_if_constexpr(x)
    if isinstance(x, tlc.tuple):
        return [_value(v) for v in x.values]
    return x


def _ints(xs: Any) -> list[int]:
    return [int(_value(x)) for x in _value(xs)]


def _bases(xs: Any) -> list[list[int]]:
    return [_ints(b) for b in _value(xs or [])]


def _text(xs: Any) -> str:
    """``[1, 0]`` / ``[[0, 1], [1, 0]]``: how MLIR prints integer arrays and lists of bases."""
    if isinstance(xs, (list, tuple)):
        return "[" + ", ".join(_text(x) for x in xs) + "]"
    return str(int(xs))


def _single_cta(name: str, *per_dim: Any) -> None:
    """Raise unless every CTA-layout list is all ones: multi-CTA (CGA) layouts have no text form here yet."""
    for values in per_dim:
        if any(int(v) != 1 for v in _value(values)):
            raise TLXError(
                f"tlx.{name}: a multi-CTA (CGA) split of the layout is not supported by this TLX release yet; "
                f"the per-CTA counts must be all 1, got {_ints(values)}"
            )


class layout_encoding:
    """Base class of every TLX layout: memory encodings (how a buffer is laid out in shared or tensor memory)
    and register encodings (how a tensor is spread over threads)."""

    def __init__(self) -> None:
        pass

    def __repr__(self) -> str:
        return type(self).__name__

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        """The text of the MLIR attribute this layout stands for (``#ttg.<...>``)."""
        raise TLXError(f"tlx.{type(self).__name__} has no ttg attribute form in this TLX release")


class shared_layout_encoding(layout_encoding):
    """Base class of the memory (shared or tensor memory) layouts."""

    def make_permute(self, dims: Any) -> shared_layout_encoding:
        """The layout of a view whose dimension ``i`` is this layout's dimension ``dims[i]``."""
        raise NotImplementedError(f"{type(self).__name__}.make_permute() must be overridden in subclasses")


def _permuted_order(order: list[int], dims: Any) -> list[int]:
    """The order (fastest dimension first) of a view whose dimension ``i`` is dimension ``dims[i]``."""
    dims = _ints(dims)
    return [dims.index(d) for d in order]


class swizzled_shared_layout_encoding(shared_layout_encoding):
    """``#ttg.swizzled_shared``: ``vectorSize`` elements per vector, XOR-swizzled every ``perPhase`` rows over
    ``maxPhase`` phases; ``order`` lists the dimensions fastest first."""

    def __init__(
        self,
        vectorSize,  # noqa: N803 - the public API's names
        perPhase,  # noqa: N803
        maxPhase,  # noqa: N803
        order,
        numCTAs,  # noqa: N803
        numCTAsPerCGA,  # noqa: N803
        numCTASplit,  # noqa: N803
        numCTAOrder,  # noqa: N803
    ) -> None:
        super().__init__()
        self.vectorSize = int(_value(vectorSize))
        self.perPhase = int(_value(perPhase))
        self.maxPhase = int(_value(maxPhase))
        self.order = _ints(order)
        self.numCTAs = _ints(numCTAs)
        self.numCTAsPerCGA = _ints(numCTAsPerCGA)
        self.numCTASplit = _ints(numCTASplit)
        self.numCTAOrder = _ints(numCTAOrder)

    @classmethod
    def make_default(cls, rank) -> swizzled_shared_layout_encoding:
        """No swizzling, row-major."""
        rank = int(_value(rank))
        return cls(
            vectorSize=1,
            perPhase=1,
            maxPhase=1,
            order=list(reversed(range(rank))),
            numCTAs=[1] * rank,
            numCTAsPerCGA=[1] * rank,
            numCTASplit=[1] * rank,
            numCTAOrder=list(reversed(range(rank))),
        )

    def make_permute(self, dims) -> swizzled_shared_layout_encoding:
        return swizzled_shared_layout_encoding(
            self.vectorSize,
            self.perPhase,
            self.maxPhase,
            _permuted_order(self.order, dims),
            self.numCTAs,
            self.numCTAsPerCGA,
            self.numCTASplit,
            self.numCTAOrder,
        )

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        _single_cta("swizzled_shared_layout_encoding", self.numCTAsPerCGA, self.numCTASplit)
        return (
            f"#ttg.swizzled_shared<{{vec = {self.vectorSize}, perPhase = {self.perPhase}, "
            f"maxPhase = {self.maxPhase}, order = {_text(self.order)}}}>"
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((self.vectorSize, self.perPhase, self.maxPhase, tuple(self.order)))

    def __repr__(self) -> str:
        return (
            f"swizzled_shared_layout_encoding(vec={self.vectorSize}, perPhase={self.perPhase}, "
            f"maxPhase={self.maxPhase}, order={self.order})"
        )


class swizzled_layout:
    """A CuTe ``Swizzle<B, M, S>`` shared-memory layout: ``tlx.swizzled_layout(3, 3, 3)``.

    ``bits`` (B): log2 of the number of XOR phases (``maxPhase = 2**B``); ``base`` (M): log2 of the
    unswizzled contiguous unit (``vec = 2**M``); ``shift`` (S): distance between the XOR'd bit fields.
    ``order`` lists the dimensions fastest first (row-major when omitted). The swizzle becomes a
    ``#ttg.swizzled_shared`` once the buffer's shape is known (at ``local_alloc``):
    ``perPhase = 2**(S + M) // shape[order[0]]``.
    """

    def __init__(self, bits, base=0, shift=0, order=None) -> None:
        self.bits = int(_value(bits))
        self.base = int(_value(base))
        self.shift = int(_value(shift))
        order = _value(order)
        self.order = None if order is None else _ints(order)

    @classmethod
    def make_default(cls, rank) -> swizzled_layout:
        """``Swizzle<0, 0, 0>`` (no swizzling), row-major."""
        return cls(bits=0, base=0, shift=0, order=list(reversed(range(int(_value(rank))))))

    @property
    def maxPhase(self) -> int:  # noqa: N802 - the public API's name
        return 1 << self.bits

    @property
    def vectorSize(self) -> int:  # noqa: N802 - the public API's name
        return 1 << self.base

    def _to_encoding(self, shape: Any = None) -> swizzled_shared_layout_encoding:
        """The ``swizzled_shared_layout_encoding`` of this swizzle for a buffer of ``shape``."""
        shape = None if _value(shape) is None else _ints(shape)
        if self.order is not None:
            rank = len(self.order)
        elif shape is not None:
            rank = len(shape)
        else:
            raise TLXError("tlx.swizzled_layout: needs an `order` or the buffer's shape to become a layout")
        order = list(self.order) if self.order is not None else list(reversed(range(rank)))
        per_phase = 1
        if self.maxPhase > 1:
            if shape is None:
                raise TLXError(
                    f"tlx.swizzled_layout: Swizzle<{self.bits},{self.base},{self.shift}> needs the buffer's shape; "
                    "pass it as tlx.local_alloc(..., layout=tlx.swizzled_layout(...))"
                )
            contiguous = shape[order[0]]
            span = 1 << (self.shift + self.base)
            if span % contiguous:
                raise TLXError(
                    f"tlx.swizzled_layout: Swizzle<{self.bits},{self.base},{self.shift}> gives perPhase < 1 for a "
                    f"contiguous extent of {contiguous} (needs shift + base >= log2({contiguous}))"
                )
            per_phase = span // contiguous
        ones = [1] * rank
        return swizzled_shared_layout_encoding(
            self.vectorSize, per_phase, self.maxPhase, order, ones, ones, ones, list(reversed(range(rank)))
        )

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        return self._to_encoding(shape).to_ir_text()

    def __repr__(self) -> str:
        return f"swizzled_layout(Swizzle<{self.bits},{self.base},{self.shift}>, order={self.order})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, swizzled_layout) and (self.bits, self.base, self.shift, self.order) == (
            other.bits,
            other.base,
            other.shift,
            other.order,
        )

    def __hash__(self) -> int:
        return hash((self.bits, self.base, self.shift, None if self.order is None else tuple(self.order)))


class padded_shared_layout_encoding(shared_layout_encoding):
    """``#ttg.padded_shared``: after every ``intervals[i]`` elements, ``paddings[i]`` elements of padding.

    The identity form maps offsets in ``order`` over ``shape``; :meth:`with_bases` gives an explicit linear
    component (``offset_bases``, ``block_bases``) instead.
    """

    def __init__(
        self,
        intervals,
        paddings,
        order,
        shape,
        numCTAsPerCGA,  # noqa: N803 - the public API's names
        numCTASplit,  # noqa: N803
        numCTAOrder,  # noqa: N803
        offset_bases=None,
        block_bases=None,
    ) -> None:
        super().__init__()
        self.intervals = _ints(intervals)
        self.paddings = _ints(paddings)
        if len(self.intervals) != len(self.paddings):
            raise TLXError("tlx.padded_shared_layout_encoding: `intervals` and `paddings` must have the same length")
        self.order = _ints(order)
        self.shape = _ints(shape)
        self.numCTAsPerCGA = _ints(numCTAsPerCGA)
        self.numCTASplit = _ints(numCTASplit)
        self.numCTAOrder = _ints(numCTAOrder)
        self.offset_bases = None if _value(offset_bases) is None else _bases(offset_bases)
        self.block_bases = None if _value(block_bases) is None else _bases(block_bases)

    @staticmethod
    @constexpr_function
    def with_bases(interval_padding_pairs, offset_bases, shape, block_bases=None) -> padded_shared_layout_encoding:
        """A padded layout with an explicit linear component: ``offset_bases`` (one vector of rank entries per
        offset bit) and ``block_bases``."""
        shape = _ints(shape)
        rank = len(shape)
        offset_bases = _bases(offset_bases)
        block_bases = _bases(block_bases)
        if not rank or not offset_bases:
            raise TLXError("tlx.padded_shared_layout_encoding.with_bases: `shape` and `offset_bases` must be non-empty")
        for basis in offset_bases + block_bases:
            if len(basis) != rank:
                raise TLXError(
                    f"tlx.padded_shared_layout_encoding.with_bases: each basis vector must have {rank} entries "
                    f"(the rank), got {basis}"
                )
        pairs = [_ints(p) for p in _value(interval_padding_pairs)]
        return padded_shared_layout_encoding(
            intervals=[p[0] for p in pairs],
            paddings=[p[1] for p in pairs],
            order=list(reversed(range(rank))),
            shape=shape,
            numCTAsPerCGA=[1] * rank,
            numCTASplit=[1] * rank,
            numCTAOrder=list(range(rank)),
            offset_bases=offset_bases,
            block_bases=block_bases,
        )

    @staticmethod
    @constexpr_function
    def with_identity_for(interval_padding_pairs, shape, order=None) -> padded_shared_layout_encoding:
        """The identity form over ``shape`` in ``order`` (row-major when omitted)."""
        shape = _ints(shape)
        rank = len(shape)
        order = list(reversed(range(rank))) if _value(order) is None else _ints(order)
        pairs = [_ints(p) for p in _value(interval_padding_pairs)]
        return padded_shared_layout_encoding(
            intervals=[p[0] for p in pairs],
            paddings=[p[1] for p in pairs],
            order=order,
            shape=shape,
            numCTAsPerCGA=[1] * rank,
            numCTASplit=[1] * rank,
            numCTAOrder=list(range(rank)),
        )

    def make_permute(self, dims) -> padded_shared_layout_encoding:
        return padded_shared_layout_encoding(
            intervals=self.intervals,
            paddings=self.paddings,
            order=_permuted_order(self.order, dims),
            shape=[self.shape[d] for d in _ints(dims)],
            numCTAsPerCGA=self.numCTAsPerCGA,
            numCTASplit=self.numCTASplit,
            numCTAOrder=self.numCTAOrder,
        )

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        pads = ", ".join(f"{i}:+{p}" for i, p in zip(self.intervals, self.paddings, strict=True))
        if self.offset_bases is not None:
            block = self.block_bases or []
            return f"#ttg.padded_shared<[{pads}] {{offset = {_text(self.offset_bases)}, block = {_text(block)}}}>"
        _single_cta("padded_shared_layout_encoding", self.numCTAsPerCGA, self.numCTASplit)
        return f"#ttg.padded_shared<[{pads}] {{order = {_text(self.order)}, shape = {_text(self.shape)}}}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((tuple(self.intervals), tuple(self.paddings), tuple(self.order), tuple(self.shape)))


class shared_linear_layout_encoding(shared_layout_encoding):
    """``#ttg.shared_linear``: an explicit linear map, one ``offset_bases`` vector per offset bit (and
    ``block_bases`` per CTA bit); ``alignment`` in bytes, a power of two."""

    def __init__(self, offset_bases, block_bases=None, alignment=16) -> None:
        super().__init__()
        self.offset_bases = _bases(offset_bases)
        self.block_bases = _bases(block_bases)
        self.alignment = int(_value(alignment))
        if not self.offset_bases or not self.offset_bases[0]:
            raise TLXError("tlx.shared_linear_layout_encoding: `offset_bases` must be non-empty")
        rank = len(self.offset_bases[0])
        if any(len(b) != rank for b in self.offset_bases + self.block_bases):
            raise TLXError(f"tlx.shared_linear_layout_encoding: every basis vector must have {rank} entries")
        if self.alignment <= 0 or self.alignment & (self.alignment - 1):
            raise TLXError(f"tlx.shared_linear_layout_encoding: `alignment` must be a power of two, got {alignment}")

    def make_permute(self, dims) -> shared_linear_layout_encoding:
        # A physical image: its bases stay; the view's permutation describes the logical order.
        return self

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        return (
            f"#ttg.shared_linear<{{offset = {_text(self.offset_bases)}, block = {_text(self.block_bases)}}}, "
            f"alignment = {self.alignment}>"
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((str(self.offset_bases), str(self.block_bases), self.alignment))


class TMemCTAMode:
    """How a tensor-memory buffer is split over the two CTAs of a ``cta_group::2`` MMA (Blackwell)."""

    DEFAULT = 0
    TwoCTA_LHS = 1
    TwoCTA_RHS = 2


class tensor_memory_layout_encoding(shared_layout_encoding):
    """``#ttng.tensor_memory_encoding`` (Blackwell tensor memory): ``blockM`` x ``blockN`` blocks,
    ``colStride`` columns per element, split ``CTASplitM`` x ``CTASplitN`` over CTAs."""

    def __init__(self, blockM, blockN, colStride, CTASplitM, CTASplitN, ctaMode=TMemCTAMode.DEFAULT) -> None:  # noqa: N803
        super().__init__()
        self.blockM = int(_value(blockM))
        self.blockN = int(_value(blockN))
        self.colStride = int(_value(colStride))
        self.CTASplitM = int(_value(CTASplitM))
        self.CTASplitN = int(_value(CTASplitN))
        self.ctaMode = int(_value(ctaMode))

    @classmethod
    def make_default(cls, shape) -> tensor_memory_layout_encoding:
        shape = _ints(shape)
        return cls(blockM=shape[0], blockN=shape[1], colStride=1, CTASplitM=1, CTASplitN=1)

    def make_permute(self, dims) -> tensor_memory_layout_encoding:
        raise TLXError("tlx.tensor_memory_layout_encoding: tensor memory buffers cannot be permuted")

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        if self.ctaMode != TMemCTAMode.DEFAULT:
            raise TLXError(
                "tlx.tensor_memory_layout_encoding: a two-CTA `ctaMode` is not supported by this TLX release yet"
            )
        text = f"blockM = {self.blockM}, blockN = {self.blockN}, colStride = {self.colStride}"
        if self.CTASplitM != 1:
            text += f", CTASplitM = {self.CTASplitM}"
        if self.CTASplitN != 1:
            text += f", CTASplitN = {self.CTASplitN}"
        return f"#ttng.tensor_memory_encoding<{text}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((self.blockM, self.blockN, self.colStride, self.CTASplitM, self.CTASplitN, self.ctaMode))


def _nvmma_swizzle_bytes(shape: list[int], order: list[int], bitwidth: int, fp4_padded: bool) -> int:
    """The swizzle Triton 3.6 picks for an NVMMA shared layout from the contiguous dimension's bytes."""
    contiguous = shape[order[0]] * (2 if fp4_padded else 1) * bitwidth // 8
    swizzle = next((s for s in (128, 64, 32) if contiguous >= s and contiguous % s == 0), 0)
    outer = 1
    for d in order[1:]:
        outer *= shape[d]
    return 0 if len(shape) < 2 or outer < 8 else swizzle


class nv_mma_shared_layout_encoding(shared_layout_encoding):
    """``#ttg.nvmma_shared``: the shared-memory layout wgmma / tcgen05 and TMA read, with the swizzle Triton picks
    for ``shape`` and ``elemType`` (none when ``swizzled`` is False)."""

    def __init__(
        self,
        shape,
        order,
        elemType,  # noqa: N803 - the public API's names
        numCTAsPerCGA,  # noqa: N803
        numCTASplit,  # noqa: N803
        numCTAOrder,  # noqa: N803
        fp4Padded,  # noqa: N803
        swizzled,
    ) -> None:
        super().__init__()
        self.shape = _ints(shape)
        self.order = _ints(order)
        self.elemType = _value(elemType)
        self.numCTAsPerCGA = _ints(numCTAsPerCGA)
        self.numCTASplit = _ints(numCTASplit)
        self.numCTAOrder = _ints(numCTAOrder)
        self.fp4Padded = bool(_value(fp4Padded))
        self.swizzled = bool(_value(swizzled))

    @classmethod
    def make_default(cls, shape, elemType, fp4Padded=False) -> nv_mma_shared_layout_encoding:  # noqa: N803
        rank = len(_ints(shape))
        return cls(
            shape=shape,
            order=list(reversed(range(rank))),
            elemType=elemType,
            numCTAsPerCGA=[1] * rank,
            numCTASplit=[1] * rank,
            numCTAOrder=list(reversed(range(rank))),
            fp4Padded=fp4Padded,
            swizzled=True,
        )

    def make_permute(self, dims) -> nv_mma_shared_layout_encoding:
        return nv_mma_shared_layout_encoding(
            self.shape,
            _permuted_order(self.order, dims),
            self.elemType,
            self.numCTAsPerCGA,
            self.numCTASplit,
            self.numCTAOrder,
            self.fp4Padded,
            self.swizzled,
        )

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        _single_cta("nv_mma_shared_layout_encoding", self.numCTAsPerCGA, self.numCTASplit)
        dtype = self.elemType
        if not isinstance(dtype, tlc.dtype) or dtype.is_ptr() or isinstance(dtype, tlc.block_type):
            raise TLXError(
                f"tlx.nv_mma_shared_layout_encoding: `elemType` must be a dtype such as tl.float16, got {dtype!r}"
            )
        bitwidth = dtype.primitive_bitwidth
        rank = len(self.shape)
        swizzle = _nvmma_swizzle_bytes(self.shape, self.order, bitwidth, self.fp4Padded) if self.swizzled else 0
        transposed = rank > 1 and self.order[0] == 0
        text = f"swizzlingByteWidth = {swizzle}, transposed = {str(transposed).lower()}, elementBitWidth = {bitwidth}"
        if self.fp4Padded:
            text += ", fp4Padded = true"
        if rank != 2:
            text += f", rank = {rank}"
        return f"#ttg.nvmma_shared<{{{text}}}>"

    def __str__(self) -> str:
        return (
            f"nv_mma_shared_layout_encoding<{self.shape}, {self.order}, {self.elemType}, {self.numCTAsPerCGA}, "
            f"{self.numCTASplit}, {self.numCTAOrder}, {self.fp4Padded}, {self.swizzled}>"
        )

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((tuple(self.shape), tuple(self.order), str(self.elemType), self.fp4Padded, self.swizzled))


class DummyRegisterLayoutEncoding(layout_encoding):
    """A placeholder register layout of a ``shape`` x ``element_type`` tensor, resolved by the compiler
    (``tmem_compatible``: one that loads from and stores to tensor memory)."""

    def __init__(self, shape, element_type, tmem_compatible=False) -> None:
        super().__init__()
        self.shape = _ints(shape)
        self.element_type = _value(element_type)
        self.tmem_compatible = bool(_value(tmem_compatible))

    def __repr__(self) -> str:
        return f"DummyRegisterLayoutEncoding<{self.shape}, {self.element_type}, tmem_compatible={self.tmem_compatible}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DummyRegisterLayoutEncoding) and (
            self.shape,
            str(self.element_type),
            self.tmem_compatible,
        ) == (other.shape, str(other.element_type), other.tmem_compatible)

    def __hash__(self) -> int:
        return hash((tuple(self.shape), str(self.element_type), self.tmem_compatible))


def _flat_strides(extents: list[int], strides: list[int], what: str) -> list[int]:
    """One flat offset per bit of each ``(2**k, stride)`` mode: ``stride, 2 stride, ..., 2**(k-1) stride``."""
    if len(extents) != len(strides):
        raise TLXError(f"tlx.layout: the {what} shape and stride must have the same number of modes")
    flat = []
    for extent, stride in zip(extents, strides, strict=True):
        if extent <= 0 or extent & (extent - 1):
            raise TLXError(f"tlx.layout: mode extents must be powers of two, got {extent}")
        bit = 1
        while bit < extent:
            flat.append(stride * bit)
            bit <<= 1
    return flat


def _coordinates(flat: int, shape: list[int]) -> list[int]:
    """The coordinates of row-major offset ``flat`` in ``shape``."""
    coords = []
    for d in range(len(shape)):
        inner = 1
        for later in shape[d + 1 :]:
            inner *= later
        coords.append((flat // inner) % shape[d])
    return coords


def _modes(x: Any) -> list[int]:
    x = _value(x)
    return _ints(x) if isinstance(x, (list, tuple)) else [int(x)]


class layout(layout_encoding):
    """A register layout written as CuTe-style ``shape`` and ``stride`` of ``(thread, value)`` modes.

    ``shape = (thread_shape, value_shape)``, ``stride = (thread_stride, value_stride)``: power-of-two mode extents
    and flat row-major offsets into the tile. ``tlx.layout(tlx.swizzled_layout(...))`` is the shared-memory
    swizzle instead (resolved at ``local_alloc``).
    """

    def __new__(cls, spec=None, *, shape=None, stride=None):
        spec = _value(spec)
        if isinstance(spec, swizzled_layout):
            # A trivial swizzle does not depend on the buffer's shape: resolved now; a real one at local_alloc.
            return spec._to_encoding() if spec.maxPhase == 1 else spec
        return super().__new__(cls)

    def __init__(self, spec=None, *, shape=None, stride=None) -> None:
        super().__init__()
        shape, stride = _value(shape), _value(stride)
        if shape is None or stride is None:
            raise TLXError("tlx.layout: takes a tlx.swizzled_layout(...), or shape= and stride= for a register layout")
        if len(shape) != 2 or len(stride) != 2:
            raise TLXError("tlx.layout: `shape` and `stride` must each be (thread, value)")
        self.thread_shape, self.value_shape = _modes(shape[0]), _modes(shape[1])
        self.thread_stride, self.value_stride = _modes(stride[0]), _modes(stride[1])

    def bases(self, shape, warp_size: int = 32) -> dict[str, list[list[int]]]:
        """The linear-layout bases (``register``, ``lane``, ``warp``) of this layout over a tensor of ``shape``."""
        shape = _ints(shape)
        lane_bits = warp_size.bit_length() - 1
        values = _flat_strides(self.value_shape, self.value_stride, "value")
        threads = _flat_strides(self.thread_shape, self.thread_stride, "thread")
        return {
            "register": [_coordinates(f, shape) for f in values],
            "lane": [_coordinates(f, shape) for f in threads[:lane_bits]],
            "warp": [_coordinates(f, shape) for f in threads[lane_bits:]],
        }

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        if _value(shape) is None:
            raise TLXError("tlx.layout: needs the shape of the tensor it lays out")
        b = self.bases(shape)
        return (
            f"#ttg.linear<{{register = {_text(b['register'])}, lane = {_text(b['lane'])}, "
            f"warp = {_text(b['warp'])}, block = []}}>"
        )

    def __repr__(self) -> str:
        return (
            f"layout<shape=({self.thread_shape}, {self.value_shape}), "
            f"stride=({self.thread_stride}, {self.value_stride})>"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, layout) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))


class dot_operand_layout(layout_encoding):
    """The register layout of MMA operand ``operand_index`` (0: A, 1: B) of the MMA layout ``parent``,
    ``k_width`` consecutive K elements per thread."""

    def __init__(self, operand_index, parent, k_width=8) -> None:
        super().__init__()
        self.operand_index = int(_value(operand_index))
        self.parent = _value(parent)
        self.k_width = int(_value(k_width))
        if self.operand_index not in (0, 1):
            raise TLXError(f"tlx.dot_operand_layout: `operand_index` must be 0 or 1, got {self.operand_index}")
        if self.k_width <= 0:
            raise TLXError(f"tlx.dot_operand_layout: `k_width` must be positive, got {self.k_width}")

    def to_ir_text(self, shape: Any = None, element_type: Any = None) -> str:
        parent = self.parent.to_ir_text(shape, element_type)
        return f"#ttg.dot_op<{{opIdx = {self.operand_index}, parent = {parent}, kWidth = {self.k_width}}}>"

    def __repr__(self) -> str:
        return f"dot_operand_layout({self.operand_index}, {self.parent!r}, k_width={self.k_width})"


name_through_alias(globals())

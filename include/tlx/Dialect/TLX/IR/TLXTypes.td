//===- TLXTypes.td - TLX types and enums -------------------*- tablegen -*-===//

#ifndef TLX_TYPES_TD
#define TLX_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "tlx/Dialect/TLX/IR/TLXDialect.td"

def TLX_FenceScopeAttr : I32EnumAttr<"FenceScope",
    "the scope of a memory fence", [
      I32EnumAttrCase<"gpu", 0>,
      I32EnumAttrCase<"sys", 1>,
    ]> {
  let cppNamespace = "::mlir::tlx";
}

def TLX_StorageKind : I32EnumAttr<"StorageKind",
    "memory that holds TLX buffers", [
      I32EnumAttrCase<"smem", 0>,
      I32EnumAttrCase<"tmem", 1>,
      I32EnumAttrCase<"smemCluster", 2>,
    ]> {
  let cppNamespace = "::mlir::tlx";
  let genSpecializedAttr = 0;
}

class TLX_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TLX_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TLX_BuffersType : TLX_Type<"Buffers", "buffers"> {
  let summary = "N equally shaped buffers in one storage kind";
  let description = [{
    The result of `tlx.local_alloc`: `count` buffers, each of `shape` elements
    of `elementType`, in shared memory (`smem`), Blackwell tensor memory
    (`tmem`) or cluster-shared memory (`smemCluster`).

    Syntax: `!tlx.buffers<3, 128x64xf16, smem>` (three 128x64 f16 buffers).
  }];
  let parameters = (ins "int64_t":$count,
                        ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        EnumParameter<TLX_StorageKind>:$storage);
  let assemblyFormat = [{
    `<` $count `,` custom<ShapeAndElement>($shape, $elementType) `,` custom<StorageKind>($storage) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The type of one of these buffers, as `tlx.local_view` returns it.
    BufferType getBufferType() const;
    /// The bytes of all `count` buffers (below 2^31: the verifier says so).
    int64_t getAllocationBytes() const;
    /// The 32-bit tensor-memory columns of all `count` buffers, laid out with
    /// `colStride` 32-bit columns between adjacent elements of a row; a
    /// buffer of 64 or 128 rows takes the columns of 128 (Triton's
    /// tensor-memory layouts leave the other lanes unused).
    int64_t getTensorMemoryColumns(unsigned colStride) const;
  }];
}

def TLX_BufferType : TLX_Type<"Buffer", "buffer"> {
  let summary = "one buffer of a `!tlx.buffers`";
  let description = [{
    Syntax: `!tlx.buffer<128x64xf16, smem>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        EnumParameter<TLX_StorageKind>:$storage);
  let assemblyFormat = [{
    `<` custom<ShapeAndElement>($shape, $elementType) `,` custom<StorageKind>($storage) `>`
  }];
  let genVerifyDecl = 1;
}

def TLX_MBarriersType : TLX_Type<"MBarriers", "mbarriers"> {
  let summary = "N mbarriers in shared memory";
  let description = [{
    The result of `tlx.alloc_barriers`. Syntax: `!tlx.mbarriers<4>`.
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def TLX_MBarrierType : TLX_Type<"MBarrier", "mbarrier"> {
  let summary = "one mbarrier (a 64-bit word in shared memory)";
}

def TLX_ReuseGroupKind : I32EnumAttr<"ReuseGroupKind",
    "how the members of a reuse group share storage", [
      I32EnumAttrCase<"shared", 0>,
      I32EnumAttrCase<"distinct", 1>,
    ]> {
  let cppNamespace = "::mlir::tlx";
}

def TLX_StorageAliasSpecType : TLX_Type<"StorageAliasSpec",
                                        "storage_alias_spec"> {
  let summary = "one allocation that several buffer sets share";
  let description = [{
    The result of `tlx.storage_alias_spec`: storage that every
    `tlx.local_alloc` with this spec as its `reuse` operand is a view of.

    Syntax: `!tlx.storage_alias_spec<smem>`.
  }];
  let parameters = (ins EnumParameter<TLX_StorageKind>:$storage);
  let assemblyFormat = "`<` custom<StorageKind>($storage) `>`";
  let genVerifyDecl = 1;
}

def TLX_ReuseGroupType : TLX_Type<"ReuseGroup", "reuse_group"> {
  let summary = "a node of a storage alias spec's overlap tree";
  let description = [{
    The result of `tlx.reuse_group`. Syntax: `!tlx.reuse_group`.
  }];
}

def TLX_CLCResponsesType : TLX_Type<"CLCResponses", "clc_responses"> {
  let summary = "N cluster-launch-control responses in shared memory";
  let description = [{
    The result of `tlx.alloc_clc_responses`: `count` 16-byte, 16-byte
    aligned words of shared memory, each where one
    `clusterlaunchcontrol.try_cancel` has the hardware write its opaque
    response (one per stage of a CLC pipeline).

    Syntax: `!tlx.clc_responses<2>`.
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def TLX_CLCResponseType : TLX_Type<"CLCResponse", "clc_response"> {
  let summary = "one cluster-launch-control response (16 bytes of shared memory)";
}

def TLX_BufferSet : AnyTypeOf<[TLX_BuffersType, TLX_MBarriersType,
                               TLX_CLCResponsesType],
                              "TLX buffers, mbarriers or CLC responses">;

#endif // TLX_TYPES_TD

//===- TritonGPUAttrDefs.td - ttg layout encodings ------------------------===//
//
// Every layout encoding Triton 3.6 prints for NVIDIA targets. The CTA layout
// of a multi-CTA kernel is kept as the list of its `block` bases
// (`CGALayout = [[1, 0]]`), flattened with the layout's rank; an empty list
// is the single-CTA layout, which Triton leaves out of the text.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRITONGPU_ATTRDEFS_TD
#define TLX_TRITONGPU_ATTRDEFS_TD

include "mlir/IR/AttrTypeBase.td"
include "tlx/Dialect/TritonGPU/IR/TritonGPUAttrInterfaces.td"
include "tlx/Dialect/TritonGPU/IR/TritonGPUDialect.td"

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncoding", "blocked"> {
  let summary = "each thread owns a block of sizePerThread elements";
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order,
                        ArrayRefParameter<"unsigned">:$cgaBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TTG_DotOperandEncodingAttr : TTG_Attr<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of operand opIdx of an MMA whose result has `parent`";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        DefaultValuedParameter<"unsigned", "0">:$kWidth);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TTG_NvidiaMmaEncodingAttr : TTG_Attr<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "accumulator layout of mma.sync (v2) or wgmma (v3)";
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$cgaBases,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getWarpsPerCTA().size(); }
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
}

def TTG_LinearEncodingAttr : TTG_Attr<"LinearEncoding", "linear"> {
  let summary = "a distributed layout given by its linear-layout bases";
  let description = [{
    Bases are flattened: each basis of register/lane/warp/block has `rank`
    entries.
  }];
  let parameters = (ins "unsigned":$rank,
                        ArrayRefParameter<"int32_t">:$registerBases,
                        ArrayRefParameter<"int32_t">:$laneBases,
                        ArrayRefParameter<"int32_t">:$warpBases,
                        ArrayRefParameter<"int32_t">:$blockBases);
  let hasCustomAssemblyFormat = 1;
}

def TTG_SwizzledSharedEncodingAttr
    : TTG_Attr<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "shared memory swizzled by XOR of row phase into vectors";
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        ArrayRefParameter<"unsigned">:$cgaBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_NVMMASharedEncodingAttr
    : TTG_Attr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "the swizzled shared layout TMA and wgmma/tcgen05 read";
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        "unsigned":$rank,
                        ArrayRefParameter<"unsigned">:$cgaBases);
  let hasCustomAssemblyFormat = 1;
}

def TTG_PaddedSharedEncodingAttr
    : TTG_Attr<"PaddedSharedEncoding", "padded_shared"> {
  let summary = "shared memory with padding inserted every interval elements";
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        "unsigned":$rank,
                        ArrayRefParameter<"int32_t">:$offsetBases,
                        ArrayRefParameter<"int32_t">:$blockBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedLinearEncodingAttr
    : TTG_Attr<"SharedLinearEncoding", "shared_linear"> {
  let summary = "a shared layout given by its linear-layout bases";
  let parameters = (ins "unsigned":$rank,
                        ArrayRefParameter<"int32_t">:$offsetBases,
                        ArrayRefParameter<"int32_t">:$blockBases,
                        "unsigned":$alignment);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedMemorySpace : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "the memory space of shared memory";
}

#endif // TLX_TRITONGPU_ATTRDEFS_TD

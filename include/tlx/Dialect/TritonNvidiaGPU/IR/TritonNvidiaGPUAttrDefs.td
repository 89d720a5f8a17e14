//===- TritonNvidiaGPUAttrDefs.td - tensor memory encodings ---------------===//

#ifndef TLX_TRITONNVIDIAGPU_ATTRDEFS_TD
#define TLX_TRITONNVIDIAGPU_ATTRDEFS_TD

include "mlir/IR/AttrTypeBase.td"
include "tlx/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td"
include "tlx/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.td"

class TTNG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonNvidiaGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TTNG_TensorMemoryEncodingAttr
    : TTNG_Attr<"TensorMemoryEncoding", "tensor_memory_encoding",
                [DeclareAttrInterfaceMethods<TTG_MemDescEncodingAttrInterface>]> {
  let summary = "layout of a tcgen05 accumulator or operand in tensor memory";
  let description = [{
    Blocks of blockM lanes by blockN columns; colStride is 32 over the
    element width for packed (1) or unpacked storage.
  }];
  let parameters = (ins "unsigned":$blockM, "unsigned":$blockN,
                        "unsigned":$colStride,
                        DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
                        DefaultValuedParameter<"unsigned", "1">:$CTASplitN,
                        DefaultValuedParameter<"bool", "false">:$twoCTAs);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TTNG_TensorMemoryScalesEncodingAttr
    : TTNG_Attr<"TensorMemoryScalesEncoding", "tensor_memory_scales_encoding",
                [DeclareAttrInterfaceMethods<TTG_MemDescEncodingAttrInterface>]> {
  let summary = "layout of block scales in tensor memory";
  let parameters = (ins DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
                        DefaultValuedParameter<"unsigned", "1">:$CTASplitN);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTNG_TensorMemorySpaceAttr : TTNG_Attr<"TensorMemorySpace", "tensor_memory"> {
  let summary = "the memory space of Blackwell tensor memory";
}

#endif // TLX_TRITONNVIDIAGPU_ATTRDEFS_TD

set -e
rm -rf /tmp/cA /tmp/cB /tmp/dump /tmp/ovr
TRITON_CACHE_DIR=/tmp/cA TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=/tmp/dump python3 .gpu/scratch/attn_bench.py A1
python3 .gpu/scratch/edit_ptx.py /tmp/dump /tmp/ovr
TRITON_CACHE_DIR=/tmp/cB TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=/tmp/ovr python3 .gpu/scratch/attn_bench.py B1 | grep -v Overriding
TRITON_CACHE_DIR=/tmp/cA python3 .gpu/scratch/attn_bench.py A2
TRITON_CACHE_DIR=/tmp/cB TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=/tmp/ovr python3 .gpu/scratch/attn_bench.py B2 | grep -v Overriding
TRITON_CACHE_DIR=/tmp/cC ATTN_MOD=.gpu/scratch/wa_rcp.py python3 .gpu/scratch/attn_bench.py C1

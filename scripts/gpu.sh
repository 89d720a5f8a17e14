#!/usr/bin/env bash
# The GPU harness, run ON the GPU machine from the repository root:
#   bash scripts/gpu.sh [pytest args...]
#   bash scripts/gpu.sh -- COMMAND...     (run COMMAND with the staged tlx instead of the checks)
# That machine has its own Python (3.12), PyTorch and triton 3.6 but no MLIR and no network, so the
# compiler core comes prebuilt: .gpu/libtlx_core.so (made here by `make gpu-bundle`, carried along).
# Only the thin pybind11 binding is compiled there, against that Python (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
core=.gpu/libtlx_core.so
[ -f "$core" ] || { echo "missing $core: run 'make gpu-bundle' here first and carry .gpu" >&2; exit 2; }
stage=$(mktemp -d)
mkdir -p "$stage/tlx"
(cd python/tlx && find . -name '*.py' -exec cp --parents {} "$stage/tlx/" \;)
cp "$core" "$stage/tlx/"
suffix=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
g++ -O2 -std=c++17 -shared -fPIC -fvisibility=hidden $(python3 -m pybind11 --includes) \
  python/src/main.cpp -o "$stage/tlx/_C$suffix" -L"$stage/tlx" -ltlx_core -Wl,-rpath,'$ORIGIN'
export PYTHONPATH="$stage:$PWD/python/test${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader || true
python3 -c "import tlx, torch, triton; print('tlx', tlx.__version__, 'core', tlx._C.version(), 'torch', torch.__version__, 'triton', triton.__version__)"
if [ "${1:-}" = "--" ]; then
  shift
  exec "$@"
fi
status=0
# The GPU tests live beside the tutorials and the public API's ops; collecting only those keeps the run short.
if [ -z "${TLX_GPU_CHECK_ARGS:-}" ]; then
  python3 -m pytest -q -p no:cacheprovider -m gpu python/test/test_tutorials.py python/test/test_public_api_ops.py python/test/test_ops_ptx.py python/test/test_compat.py python/test/test_grouped_gemm.py python/test/test_moe_layer.py "$@" || status=$?
fi
# TLX_GPU_CHECK_ARGS=--sweep times wgmma_matmul configurations instead of the full check.
python3 -m tlx.tools.gpu_check ${TLX_GPU_CHECK_ARGS:-} || status=$?
exit $status

# The two commands of the README work on a fresh machine:
#   make showcase   set up, build, compile the showcase kernels, write IR dumps
#                   (where a CUDA GPU is present: also run, check and time them)
#   make test       set up, build, run every check (lint, lit, pytest; the GPU tests where a GPU is present)
#   make bench      the benchmark suite (GPU machines)
# Everything lands in $(VENV) and build/; `ninja -C build/cmake` rebuilds the
# C++ alone after an edit (the editable install links to it).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEPS_STAMP := $(VENV)/.tlx-build-deps
DUMP_DIR ?= dumps
CXX_SOURCES = $(shell find include lib tools python/src test/lib third_party -name '*.cpp' -o -name '*.h')
# Where nvidia-smi lists a GPU, the build also installs what running kernels needs (the `gpu` extra:
# PyTorch, and FlashAttention-3 for the benchmark suite). HAS_GPU=1 or HAS_GPU= overrides the probe.
HAS_GPU ?= $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo 1)
comma := ,
EXTRAS := test$(if $(HAS_GPU),$(comma)gpu)
BENCH_OUT ?= bench-out
BENCH_ARGS ?=

.PHONY: build showcase test lint lit pytest clean gpu-bundle bench

$(DEPS_STAMP): requirements-build.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-build.txt
	touch $@

build: $(DEPS_STAMP)
	$(BIN)/python -m pip install -q --no-build-isolation -e '.[$(EXTRAS)]'
	@# Editable installs skip the wheel's tlx-alias.pth; put it in place so that
	@# `import triton.language.extra.tlx` works before `import tlx` here too.
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'tlx-alias.pth').write_text('import _tlx_alias\n')"

showcase: build
	$(BIN)/python -m tlx.tools.showcase --out $(DUMP_DIR)

bench: build
	$(BIN)/python -m tlx.tools.bench --out $(BENCH_OUT) $(BENCH_ARGS)

lint: build
	$(BIN)/ruff check python test tools setup.py
	$(BIN)/ruff format --check python test tools setup.py
	$(BIN)/clang-format --dry-run --Werror $(CXX_SOURCES)

lit: build
	$(BIN)/lit -sv test third_party/nvidia/test

pytest: build
	$(BIN)/python -m pytest python/test

test: lint lit pytest

# The compiler core for the GPU machine (scripts/gpu.sh builds the binding there).
# On a fresh clone too: the same MLIR, LLVM, Python and pybind11 that `pip install -e .` configures with.
SITE = $(shell $(BIN)/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" 2>/dev/null)
gpu-bundle: $(DEPS_STAMP)
	$(BIN)/cmake -G Ninja -S . -B build/cmake -DTLX_BUILD_CORE_LIBRARY=ON -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_MAKE_PROGRAM=$(abspath $(BIN)/ninja) \
		-DMLIR_DIR=$(SITE)/mlir/lib/cmake/mlir -DLLVM_DIR=$(SITE)/llvm/lib/cmake/llvm \
		-DPython3_EXECUTABLE=$(abspath $(BIN)/python) -Dpybind11_DIR=$$($(BIN)/python -m pybind11 --cmakedir) > /dev/null
	$(BIN)/ninja -C build/cmake tlx_core
	@# Unneeded symbols stripped (31 MB -> 19 MB): the bundle travels to the GPU machine under a size cap.
	mkdir -p .gpu && cp build/cmake/python/libtlx_core.so .gpu/ && strip --strip-unneeded .gpu/libtlx_core.so

clean:
	rm -rf build $(DUMP_DIR) python/tlx/_C*.so python/tlx/bin

"""The ``ctas_per_cga`` launch option on Triton 3.6 (CPU: options, metadata, the launch arguments)."""

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia import compiler as nvidia_compiler

import tlx
from tlx.compiler import clusters
from tlx.tutorials import compile_kernel

BACKEND = nvidia_compiler.CUDABackend(GPUTarget("cuda", 90, 32))


@triton.jit
def rank_kernel(out):
    tl.store(out + tl.program_id(0), tlx.cluster_cta_rank())


def test_the_option_enters_options_hash_and_metadata():
    plain = BACKEND.parse_options({})
    clustered = BACKEND.parse_options({"ctas_per_cga": (2, 1, 1)})
    assert not hasattr(plain, "ctas_per_cga")  # kernels without it keep stock options
    assert clustered.ctas_per_cga == (2, 1, 1) and clustered.num_ctas == 1
    assert clustered.hash() != plain.hash()
    compiled = compile_kernel(rank_kernel, {"out": "*i32"}, ctas_per_cga=(2, 1, 1))
    assert compiled.metadata.ctas_per_cga == (2, 1, 1)
    assert '"ttg.cluster-dim-x" = 2 : i32' in compiled.asm["ttgir"]
    # The stock launcher gets clusters of 2 along x: num_ctas=2 in the packed metadata.
    assert BACKEND.pack_metadata(compiled.metadata)[:2] == (4, 2)


def test_a_launch_naming_no_cluster_is_accepted_and_compiles_without_one():
    # `kernel[grid](..., ctas_per_cga=None)`, as the public GEMMs launch an explicit config: Triton's launch
    # refuses a keyword its options lack ("Keyword argument ... specified but unrecognised").
    options = BACKEND.parse_options({"ctas_per_cga": None})
    assert "ctas_per_cga" in options.__dict__ and options.ctas_per_cga is None
    compiled = compile_kernel(rank_kernel, {"out": "*i32"}, ctas_per_cga=None)
    assert compiled.metadata.ctas_per_cga is None
    assert "ttg.cluster-dim-x" not in compiled.asm["ttgir"]
    assert BACKEND.pack_metadata(compiled.metadata)[:2] == (4, 1)


def test_the_launcher_divides_grid_x_by_the_cluster():
    class Recorder:
        def __init__(self, src, metadata):
            self.num_ctas = 1
            self.calls = []

        def __call__(self, gridX, gridY, gridZ, stream, function, *args):
            self.calls.append((gridX, gridY, gridZ))

    class Metadata:
        ctas_per_cga = (2, 1, 1)

    launcher = clusters.launcher_class(Recorder)(None, Metadata())
    launcher(8, 3, 1, 0, None)
    assert launcher.calls == [(4, 3, 1)] and launcher.num_ctas == 2
    with pytest.raises(clusters.ClusterLaunchError, match=r"grid x \(7\) must be a multiple of the cluster's 2 CTAs"):
        launcher(7, 1, 1, 0, None)


def test_a_three_dimensional_cluster_compiles_with_its_shape_on_the_module():
    compiled = compile_kernel(rank_kernel, {"out": "*i32"}, ctas_per_cga=(2, 2, 2))
    assert compiled.metadata.ctas_per_cga == (2, 2, 2)
    for axis in "xyz":
        assert f'"ttg.cluster-dim-{axis}" = 2 : i32' in compiled.asm["ttgir"]
    assert BACKEND.pack_metadata(compiled.metadata)[:2] == (4, 8)  # Triton's num_ctas: the CTAs of a cluster


def test_the_launcher_divides_each_grid_dimension_by_the_cluster():
    class Recorder:
        def __init__(self, src, metadata):
            self.calls = []

        def __call__(self, gridX, gridY, gridZ, stream, function, *args):
            self.calls.append((gridX, gridY, gridZ))

    class Metadata:
        ctas_per_cga = (2, 2, 1)

    launcher = clusters.launcher_class(Recorder)(None, Metadata())
    launcher(8, 6, 3, 0, None)
    assert launcher.calls == [(4, 3, 3)] and launcher.num_ctas == 4
    with pytest.raises(clusters.ClusterLaunchError, match=r"grid y \(5\) must be a multiple of the cluster's 2 CTAs"):
        launcher(8, 5, 1, 0, None)


def test_the_cluster_launcher_source_launches_clusters_of_x_y_z():
    from triton.backends.nvidia import driver

    stock = driver.make_launcher({}, {0: "*fp32", 1: "i32"}, None)  # no cluster being built: stock source
    assert "clusterDim.x = num_ctas;" in stock and "config.gridDimY = gridY;" in stock
    ours = clusters.cluster_launcher_source(stock, (2, 4, 1))
    for line in (
        "clusterAttr.value.clusterDim.x = 2;",
        "clusterAttr.value.clusterDim.y = 4;",
        "clusterAttr.value.clusterDim.z = 1;",
        "config.gridDimX = gridX * 2;",
        "config.gridDimY = gridY * 4;",
        "config.gridDimZ = gridZ * 1;",
    ):
        assert line in ours
    assert "clusterDim.x = num_ctas" not in ours
    with pytest.raises(clusters.ClusterLaunchError, match="not the one TLX edits"):
        clusters.cluster_launcher_source(ours, (2, 4, 1))


def test_a_kernel_without_a_cluster_gets_the_stock_launcher_itself():
    class Stock:
        def __init__(self, src, metadata):
            self.made_from = (src, metadata)

    class Metadata:
        ctas_per_cga = None

    metadata = Metadata()
    launcher = clusters.launcher_class(Stock)("src", metadata)
    assert type(launcher) is Stock and launcher.made_from == ("src", metadata)
    metadata.ctas_per_cga = (1, 1, 1)
    assert type(clusters.launcher_class(Stock)("src", metadata)) is Stock


def test_config_carries_the_option_to_the_launch():
    config = triton.Config({"BLOCK": 64}, num_warps=8, ctas_per_cga=(2, 1, 1))
    assert config.all_kwargs()["ctas_per_cga"] == (2, 1, 1)
    assert "ctas_per_cga: (2, 1, 1)" in str(config)
    assert "ctas_per_cga" not in triton.Config({"BLOCK": 64}).all_kwargs()


@pytest.mark.parametrize(
    "value, message",
    [
        ((3, 3, 1), "at most 8 CTAs, or 16 .*, not 9 \\(x \\* y \\* z\\)"),
        ((0, 1, 1), "every dimension must be at least 1"),
        ((2, 1), "must be a tuple of three ints"),
        ((12, 1, 1), "at most 8 CTAs, or 16"),
    ],
)
def test_bad_cluster_shapes_are_refused(value, message):
    with pytest.raises(clusters.ClusterLaunchError, match=message):
        BACKEND.parse_options({"ctas_per_cga": value})


def test_clusters_with_num_ctas_or_before_hopper_are_refused():
    with pytest.raises(clusters.ClusterLaunchError, match="Use one of them"):
        BACKEND.parse_options({"ctas_per_cga": (2, 1, 1), "num_ctas": 2})
    ampere = nvidia_compiler.CUDABackend(GPUTarget("cuda", 80, 32))
    with pytest.raises(clusters.ClusterLaunchError, match="need sm_90 or newer, not sm_80"):
        ampere.parse_options({"ctas_per_cga": (2, 1, 1)})

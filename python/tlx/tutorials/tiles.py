"""Tile scheduling shared by the matmul kernels of the tutorials and the benchmark baselines."""

import triton
import triton.language as tl


@triton.jit
def grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """(pid_m, pid_n) of output tile ``tile`` in grouped order.

    Tiles are numbered down GROUP_M rows of tiles at a time, so the programs running at once share their
    B column tiles (and their A row tiles) while those sit in L2.
    """
    tiles_per_group = GROUP_M * num_pid_n
    first_m = (tile // tiles_per_group) * GROUP_M
    group_size = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (tile % group_size)
    pid_n = (tile % tiles_per_group) // group_size
    return pid_m, pid_n

"""The TLX language: builtins callable from ``@triton.jit`` kernels.

Every builtin checks its arguments while the kernel is traced and emits a
*carrier* (``docs/carriers.md``) that rides through stock Triton's TTIR passes
to the TLX compiler. The builtin modules are thin; all IR is built in
:mod:`tlx.language.semantic`.
"""

from .barrier import (
    alloc_barriers,
    barrier_arrive,
    barrier_expect_bytes,
    barrier_wait,
    cluster_barrier,
    fence_mbarrier_init_cluster,
    named_barrier_arrive,
    named_barrier_wait,
)
from .errors import TLXError
from .mem_ops import (
    async_descriptor_load,
    async_descriptor_store,
    async_descriptor_store_wait,
    async_load,
    async_load_commit_group,
    async_load_wait_group,
    fence_async_shared,
    local_alloc,
    local_load,
    local_reinterpret,
    local_slice,
    local_store,
    local_trans,
    local_view,
    subslice,
)
from .mma import async_dot, async_dot_wait
from .tasks import async_task, async_task_replica_id, async_tasks
from .types import (
    async_token,
    async_token_type,
    buffered_tensor,
    buffered_tensor_type,
    mbarrier,
    mbarrier_type,
    storage_kind,
)
from .utility import clock64, cluster_cta_rank, dtype_of, size_of, thread_id

__all__ = [
    "TLXError",
    "alloc_barriers",
    "async_descriptor_load",
    "async_descriptor_store",
    "async_descriptor_store_wait",
    "async_dot",
    "async_dot_wait",
    "async_load",
    "async_load_commit_group",
    "async_load_wait_group",
    "async_task",
    "async_task_replica_id",
    "async_tasks",
    "async_token",
    "async_token_type",
    "barrier_arrive",
    "barrier_expect_bytes",
    "barrier_wait",
    "buffered_tensor",
    "buffered_tensor_type",
    "clock64",
    "cluster_barrier",
    "cluster_cta_rank",
    "dtype_of",
    "fence_async_shared",
    "fence_mbarrier_init_cluster",
    "local_alloc",
    "local_load",
    "local_reinterpret",
    "local_slice",
    "local_store",
    "local_trans",
    "local_view",
    "mbarrier",
    "named_barrier_arrive",
    "named_barrier_wait",
    "mbarrier_type",
    "size_of",
    "storage_kind",
    "subslice",
    "thread_id",
]

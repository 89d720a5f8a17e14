"""An expert-parallel mixture-of-experts layer on N GPUs whose all-to-all hides behind the grouped GEMMs.

    torchrun --nproc-per-node 2 -m tlx.tutorials.moe_layer            # check against one GPU, then time
    torchrun --nproc-per-node 8 -m tlx.tutorials.moe_layer --tokens 8192 --experts 64

The layer: a router picks ``top_k`` experts per token (softmax weights over the picked ones); each
expert is an FFN ``down(act(up(x)))`` with its own weights; the token's output is the weighted sum of
its experts' outputs. With expert parallelism rank ``r`` of N holds experts ``[r*L, (r+1)*L)``
(``L = experts / N``), so every token row travels to the rank of its expert (dispatch), is computed
there, and comes back (combine). Both exchanges are NCCL point-to-point copies over NVLink.

The expert FFNs are ``tlx.tutorials.grouped_gemm.grouped_mm``: one launch per projection for all of a
rank's experts, the row counts read on the device. A rank's rows arrive sorted by expert, segment by
segment (one segment per source rank), so every segment, and every row range of one, is a grouped
GEMM problem of its own: its group ends are the segment's cumulative counts, shifted and clipped on
the device.

How the communication is hidden (``overlap=True``), on each rank:

1. Route, sort the (token, expert) rows by expert, exchange the per-expert counts (one small
   all-to-all and the only host synchronization: NCCL needs the split sizes on the host).
2. Start the dispatch (rows for other ranks' experts); meanwhile compute the rows that stay here.
3. Once the dispatch lands, compute the received rows in ``chunks`` row ranges; as each is done, start
   sending it back, so the combine of one chunk overlaps the computation of the next.
4. Wait for the combine, then sum each token's weighted expert outputs.

NCCL's copies run as kernels beside the GEMMs, so the GEMMs that overlap communication leave
``reserved_sms`` multiprocessors to them (a persistent GEMM occupying every SM would otherwise hold
the copies back until it ends). ``overlap=False`` is the same layer with each exchange waited for
at once, in one chunk, on every SM: the baseline that shows what the overlap buys.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass

import triton
import triton.language as tl

from tlx.tutorials import grouped_gemm


@triton.jit
def _combine_kernel(rows_ptr, where_ptr, weights_ptr, out_ptr, H, TOP_K: tl.constexpr, BLOCK: tl.constexpr):
    """out[t] = sum_j weights[t, j] * rows[where[t, j]] (float32 sum): a token's picks, back in one row."""
    token = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inside = cols < H
    acc = tl.zeros((BLOCK,), tl.float32)
    for pick in tl.static_range(TOP_K):
        row = tl.load(where_ptr + token * TOP_K + pick).to(tl.int64)
        weight = tl.load(weights_ptr + token * TOP_K + pick)
        acc += weight * tl.load(rows_ptr + row * H + cols, mask=inside).to(tl.float32)
    tl.store(out_ptr + token.to(tl.int64) * H + cols, acc.to(out_ptr.dtype.element_ty), mask=inside)


@dataclass(frozen=True)
class MoEShape:
    """One layer: ``tokens`` per rank, model width ``hidden``, expert FFN width ``ffn``."""

    tokens: int = 16384
    hidden: int = 4096
    ffn: int = 2048
    experts: int = 16
    top_k: int = 2
    #: Sigma of a log-normal per-expert bias of the router (0: balanced experts).
    skew: float = 1.0


def _wait(requests: list) -> list:
    """Wait for point-to-point requests (with NCCL: make the current stream wait); an empty list to carry on."""
    for request in requests:
        request.wait()
    return []


def _chunk_bounds(rows: int, chunks: int) -> list[int]:
    """Row boundaries of ``chunks`` nearly equal ranges of ``rows`` (both ends of every exchange agree)."""
    return [rows * i // chunks for i in range(chunks + 1)]


class ExpertParallelMoE:
    """This rank's part of the layer. Weights come from per-expert seeds, so any rank (or one GPU) can
    rebuild any expert: ``reference`` uses that to compute the whole layer on one GPU."""

    def __init__(self, shape: MoEShape, rank: int = 0, world: int = 1, seed: int = 0, device=None):
        import torch

        if shape.experts % world:
            raise ValueError(f"{shape.experts} experts do not split over {world} ranks")
        if shape.top_k > shape.experts:
            raise ValueError(f"top_k = {shape.top_k} exceeds the {shape.experts} experts")
        self.shape, self.rank, self.world, self.seed = shape, rank, world, seed
        self.device = torch.device(device or f"cuda:{torch.cuda.current_device()}")
        self.local = shape.experts // world
        self.dtype = torch.bfloat16
        generator = torch.Generator(device=self.device).manual_seed(seed)
        self.router = torch.randn(shape.hidden, shape.experts, device=self.device, generator=generator)
        self.router = (self.router / math.sqrt(shape.hidden)).to(self.dtype)
        self.router_bias = shape.skew * torch.randn(shape.experts, device=self.device, generator=generator)
        first = rank * self.local
        self.w_up, self.w_down = self.expert_weights(range(first, first + self.local))
        cuda = self.device.type == "cuda"
        self.sms = torch.cuda.get_device_properties(self.device).multi_processor_count if cuda else 1
        self._symm = None
        self._copy_stream = torch.cuda.Stream(self.device) if cuda else None

    def expert_weights(self, experts) -> tuple:
        """(up, down) weights of ``experts``, (E x hidden x ffn) and (E x ffn x hidden), from their seeds."""
        import torch

        ups, downs = [], []
        for expert in experts:
            generator = torch.Generator(device=self.device).manual_seed(self.seed * 100003 + 1 + expert)
            h, f = self.shape.hidden, self.shape.ffn
            ups.append(torch.randn(h, f, device=self.device, generator=generator) / math.sqrt(h))
            downs.append(torch.randn(f, h, device=self.device, generator=generator) / math.sqrt(f))
        return torch.stack(ups).to(self.dtype), torch.stack(downs).to(self.dtype)

    def route(self, x):
        """(weights, experts) of every token's ``top_k`` picks, weights summing to one per token."""
        logits = (x @ self.router).float() + self.router_bias
        top, experts = logits.topk(self.shape.top_k, dim=-1)
        return top.softmax(dim=-1), experts

    def _ffn(self, rows, ends, out, num_sms):
        """The local experts on ``rows`` sorted by expert, group ends ``ends``; the result goes to ``out``."""
        import torch

        hidden = torch.empty(rows.shape[0], self.shape.ffn, device=rows.device, dtype=rows.dtype)
        hidden = grouped_gemm.grouped_mm(rows, self.w_up, ends, out=hidden, num_sms=num_sms)
        hidden = torch.nn.functional.gelu(hidden, approximate="tanh")
        return grouped_gemm.grouped_mm(hidden, self.w_down, ends, out=out, num_sms=num_sms)

    def _exchange(self, sends, receives, group=None):
        """Point-to-point copies: ``sends`` and ``receives`` are (peer, tensor) lists; returns the requests."""
        import torch.distributed as dist

        ops = [dist.P2POp(dist.isend, tensor, peer, group) for peer, tensor in sends if tensor.numel()]
        ops += [dist.P2POp(dist.irecv, tensor, peer, group) for peer, tensor in receives if tensor.numel()]
        return dist.batch_isend_irecv(ops) if ops else []

    def _plan(self, x):
        """Route and sort this rank's tokens; gather every rank's per-expert row counts (the one host
        synchronization: the exchanges' sizes are needed on the host). Returns (weights, order, sources,
        counts, sizes): row i of the sorted rows is token ``sources[i]``; ``counts`` (world x experts, on
        the device) and ``sizes[r][q]``, the rows rank r sends to rank q."""
        import torch
        import torch.distributed as dist

        shape, world, local = self.shape, self.world, self.local
        weights, experts = self.route(x)
        flat = experts.flatten()
        order = flat.argsort(stable=True)
        counts = torch.bincount(flat, minlength=shape.experts)
        everyone = torch.empty(world * shape.experts, dtype=counts.dtype, device=counts.device)
        if world > 1:
            dist.all_gather_into_tensor(everyone, counts)
        else:
            everyone.copy_(counts)
        everyone = everyone.view(world, shape.experts)
        sizes = everyone.view(world, world, local).sum(2).tolist()
        return weights, order, order // shape.top_k, everyone, sizes

    def _finish(self, back, order, weights):
        import torch

        # Where each (token, pick) row is in `back`: the inverse of the sort.
        where = torch.empty_like(order)
        where[order] = torch.arange(order.numel(), device=order.device)
        return self._combine(back, where, weights)

    def forward(self, x, overlap: bool = True, chunks: int = 4, reserved_sms: int = 16, group=None,
                exchange: bool = True, transport: str = "nccl"):  # fmt: skip
        """The layer's output for this rank's tokens ``x`` (tokens x hidden, bf16).

        ``transport``: ``"nccl"`` (point-to-point copies by NCCL kernels; ``group`` may be a process
        group whose kernels use at most ``reserved_sms`` CTAs, the SMs the overlapped GEMMs leave free)
        or ``"copy-engine"`` (peers' symmetric buffers read and written by the copy engines: the GEMMs
        keep every SM). ``exchange=False`` skips the row exchanges (wrong results; what the rest of the
        layer costs)."""
        if transport == "copy-engine":
            return self._forward_copy_engine(x, overlap, chunks, exchange)
        if transport != "nccl":
            raise ValueError(f"transport must be 'nccl' or 'copy-engine', got {transport!r}")
        import torch

        shape, rank, world, local = self.shape, self.rank, self.world, self.local
        weights, order, sources, counts, sizes = self._plan(x)
        rows = x.index_select(0, sources)  # (tokens * top_k) x hidden, sorted by expert, so by rank
        send_starts = grouped_gemm.group_starts(sizes[rank])
        recv_starts = grouped_gemm.group_starts([sizes[peer][rank] for peer in range(world)])
        peers = [peer for peer in range(world) if peer != rank]
        received = torch.empty(recv_starts[-1], shape.hidden, device=x.device, dtype=x.dtype)
        computed = torch.empty_like(received)
        back = torch.empty_like(rows)

        def segment(tensor, starts, peer):
            return tensor[starts[peer] : starts[peer + 1]]

        def send(sends, receives):
            return self._exchange(sends, receives, group) if exchange else []

        dispatch = send(
            [(p, segment(rows, send_starts, p)) for p in peers], [(p, segment(received, recv_starts, p)) for p in peers]
        )
        if not overlap:
            dispatch = _wait(dispatch)
        compute_sms = self.sms - reserved_sms if overlap and peers else self.sms
        mine = counts[:, rank * local : (rank + 1) * local]  # rows of each source for my experts
        self._ffn(segment(rows, send_starts, rank), mine[rank].cumsum(0).to(torch.int32),
                  segment(back, send_starts, rank), compute_sms)  # fmt: skip
        _wait(dispatch)
        combine = []
        for peer in peers:
            ends = mine[peer].cumsum(0)
            bounds = _chunk_bounds(sizes[peer][rank], chunks if overlap else 1)
            their_bounds = _chunk_bounds(sizes[rank][peer], chunks if overlap else 1)
            for lo, hi, their_lo, their_hi in zip(bounds, bounds[1:], their_bounds, their_bounds[1:], strict=False):
                chunk_ends = (ends - lo).clamp(0, hi - lo).to(torch.int32)
                rows_in, rows_out = segment(received, recv_starts, peer), segment(computed, recv_starts, peer)
                self._ffn(rows_in[lo:hi], chunk_ends, rows_out[lo:hi], compute_sms)
                # Send the chunk home; receive ours from the peer (it computes our chunk `c` meanwhile).
                theirs = segment(back, send_starts, peer)[their_lo:their_hi]
                combine += send([(peer, rows_out[lo:hi])], [(peer, theirs)])
                if not overlap:
                    combine = _wait(combine)
        _wait(combine)
        return self._finish(back, order, weights)

    def _symmetric(self, capacity: int):
        """(send, send handle, back, back handle): buffers of ``capacity`` rows that every rank can read
        and write (PyTorch symmetric memory), made once per capacity (a collective call)."""
        import torch.distributed as dist
        import torch.distributed._symmetric_memory as symm_mem

        if self._symm is None or self._symm[0].shape[0] < capacity:
            group = dist.group.WORLD
            if hasattr(symm_mem, "enable_symm_mem_for_group"):
                symm_mem.enable_symm_mem_for_group(group.group_name)
            buffers = []
            for _ in range(2):
                buffer = symm_mem.empty(capacity, self.shape.hidden, dtype=self.dtype, device=self.device)
                buffers += [buffer, symm_mem.rendezvous(buffer, group)]
            self._symm = tuple(buffers)
        return self._symm

    def _forward_copy_engine(self, x, overlap: bool, chunks: int, exchange: bool):
        """``forward`` with the copy engines moving the rows: each rank pulls its rows from the senders'
        symmetric ``send`` buffers and pushes the results into their symmetric ``back`` buffers, on a
        copy stream, while the GEMMs run on every SM."""
        import torch

        shape, rank, world, local = self.shape, self.rank, self.world, self.local
        weights, order, sources, counts, sizes = self._plan(x)
        capacity = max(sum(row) for row in sizes)
        send, send_handle, back, back_handle = self._symmetric(capacity)
        send_starts = [
            grouped_gemm.group_starts(sizes[peer]) for peer in range(world)
        ]  # where each rank's rows for q start
        recv_starts = grouped_gemm.group_starts([sizes[peer][rank] for peer in range(world)])
        peers = [peer for peer in range(world) if peer != rank]
        n = sources.numel()
        rows = torch.index_select(x, 0, sources, out=send[:n])  # sorted straight into the send buffer
        send_handle.barrier(channel=0)  # every rank's rows are in its send buffer
        main = torch.cuda.current_stream()
        copies = self._copy_stream
        copies.wait_stream(main)
        received = torch.empty(recv_starts[-1], shape.hidden, device=x.device, dtype=x.dtype)
        computed = torch.empty_like(received)
        arrived = {}
        with torch.cuda.stream(copies):
            for peer in peers:
                lo = send_starts[peer][rank]
                theirs = send_handle.get_buffer(peer, (capacity, shape.hidden), self.dtype)[lo : lo + sizes[peer][rank]]
                if exchange:
                    received[recv_starts[peer] : recv_starts[peer + 1]].copy_(theirs)
                arrived[peer] = copies.record_event()
                if not overlap:
                    main.wait_event(arrived[peer])
        mine = counts[:, rank * local : (rank + 1) * local]
        own = slice(send_starts[rank][rank], send_starts[rank][rank + 1])
        self._ffn(rows[own], mine[rank].cumsum(0).to(torch.int32), back[own], self.sms)
        for peer in peers:
            main.wait_event(arrived[peer])
            ends = mine[peer].cumsum(0)
            bounds = _chunk_bounds(sizes[peer][rank], chunks if overlap else 1)
            rows_in = received[recv_starts[peer] : recv_starts[peer + 1]]
            rows_out = computed[recv_starts[peer] : recv_starts[peer + 1]]
            home = back_handle.get_buffer(peer, (capacity, shape.hidden), self.dtype)[send_starts[peer][rank] :]
            for lo, hi in zip(bounds, bounds[1:], strict=False):
                self._ffn(rows_in[lo:hi], (ends - lo).clamp(0, hi - lo).to(torch.int32), rows_out[lo:hi], self.sms)
                copies.wait_stream(main)
                with torch.cuda.stream(copies):
                    if exchange:
                        home[lo:hi].copy_(rows_out[lo:hi])  # the results, pushed into the sender's back buffer
                if not overlap:
                    main.wait_stream(copies)
        main.wait_stream(copies)
        back_handle.barrier(channel=1)  # every rank's results are in every back buffer
        # A next call rewrites `send` and pushes into `back` only after its first barrier, which every
        # rank reaches after its `_finish` below.
        return self._finish(back[:n], order, weights)

    def _combine(self, rows, where, weights):
        """Each token's weighted sum of its picks' rows (one pass, float32 sums, no atomics)."""
        import torch

        tokens, hidden = weights.shape[0], self.shape.hidden
        out = torch.empty(tokens, hidden, device=rows.device, dtype=rows.dtype)
        block = 1024
        _combine_kernel[(tokens, triton.cdiv(hidden, block))](
            rows, where, weights.float().contiguous(), out, hidden, TOP_K=self.shape.top_k, BLOCK=block
        )
        return out

    def reference(self, x):
        """The whole layer on this GPU in float32 (every expert rebuilt from its seed), for ``x``."""
        import torch

        weights, experts = self.route(x)
        up, down = self.expert_weights(range(self.shape.experts))
        out = torch.zeros(x.shape[0], self.shape.hidden, device=x.device, dtype=torch.float32)
        for expert in range(self.shape.experts):
            token, slot = (experts == expert).nonzero(as_tuple=True)
            if token.numel():
                hidden = torch.nn.functional.gelu(x[token].float() @ up[expert].float(), approximate="tanh")
                out.index_add_(0, token, (hidden @ down[expert].float()) * weights[token, slot, None])
        return out


def _exchange_group(max_ctas: int):
    """A process group over every rank whose NCCL kernels use at most ``max_ctas`` CTAs (the SMs the
    overlapped GEMMs leave free), and that limit; the world group and 'NCCL default' where this PyTorch
    cannot set it."""
    import torch.distributed as dist

    try:
        options = dist.ProcessGroupNCCL.Options()
        options.config.max_ctas = max_ctas
        options.config.min_ctas = 1
        return dist.new_group(backend="nccl", pg_options=options), str(max_ctas)
    except (AttributeError, TypeError, RuntimeError) as error:
        return None, f"NCCL default ({type(error).__name__}: {error})"


def _time_ms(fn, repeat: int) -> float:
    """Median milliseconds of ``fn`` on this rank, each run started together on every rank."""
    import torch
    import torch.distributed as dist

    times = []
    for _ in range(repeat):
        dist.barrier()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def _slowest(value: float) -> float:
    import torch
    import torch.distributed as dist

    tensor = torch.tensor([value], device="cuda")
    dist.all_reduce(tensor, op=dist.ReduceOp.MAX)
    return tensor.item()


def main(argv: list[str] | None = None) -> int:
    import torch
    import torch.distributed as dist

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=MoEShape.tokens, help="tokens per rank")
    parser.add_argument("--hidden", type=int, default=MoEShape.hidden)
    parser.add_argument("--ffn", type=int, default=MoEShape.ffn)
    parser.add_argument("--experts", type=int, default=MoEShape.experts)
    parser.add_argument("--top-k", type=int, default=MoEShape.top_k)
    parser.add_argument("--skew", type=float, default=MoEShape.skew)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--reserved-sms", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)

    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank))
    rank, world = dist.get_rank(), dist.get_world_size()
    shape = MoEShape(args.tokens, args.hidden, args.ffn, args.experts, args.top_k, args.skew)
    # Every rank must hold the same router and experts: rank 0's fresh seed for all.
    seed = torch.tensor([int.from_bytes(os.urandom(2))], device="cuda")
    dist.broadcast(seed, 0)
    layer = ExpertParallelMoE(shape, rank, world, seed=int(seed.item()))
    exchange_group, nccl_ctas = _exchange_group(args.reserved_sms)
    x = torch.randn(shape.tokens, shape.hidden, device="cuda", dtype=torch.bfloat16)

    def forward(transport: str, overlap: bool, exchange: bool = True):
        group = exchange_group if overlap else None
        return layer.forward(x, overlap, args.chunks, args.reserved_sms, group, exchange, transport)

    reference = layer.reference(x)
    transports = ("nccl", "copy-engine")
    errors = {}
    for transport in transports:
        for overlap in (True, False):
            out = forward(transport, overlap)
            errors[transport, overlap] = ((out.float() - reference).norm() / reference.norm()).item()
    worst = _slowest(max(errors.values()))
    ok = worst < 2e-2

    times = {"without the exchanges": _slowest(_time_ms(lambda: forward("nccl", False, False), args.repeat))}
    for transport in transports:
        for overlap in (False, True):
            label = f"{transport}, {'overlapped' if overlap else 'serial'}"
            times[label] = _slowest(_time_ms(lambda t=transport, o=overlap: forward(t, o), args.repeat))
    flops = 2 * 2 * shape.tokens * shape.top_k * shape.hidden * shape.ffn
    if rank == 0:
        print(
            f"MoE layer on {world} GPUs: {shape.tokens} tokens/rank, hidden {shape.hidden}, ffn {shape.ffn}, "
            f"{shape.experts} experts, top-{shape.top_k}, skew {shape.skew}, bf16; chunks {args.chunks}, "
            f"NCCL overlap on {layer.sms - args.reserved_sms} SMs with {nccl_ctas} NCCL CTAs"
        )
        print(f"check vs one-GPU float32 reference: max relative error {worst:.2e} -> {'ok' if ok else 'WRONG'}")
        for label, ms in times.items():
            print(f"{label:<26}{ms:8.3f} ms  ({flops / ms * 1e-9:.0f} TFLOP/s of expert FFN per GPU)")
        base = times["without the exchanges"]
        for transport in transports:
            serial, overlapped = times[f"{transport}, serial"], times[f"{transport}, overlapped"]
            exposed = serial - base
            share = (serial - overlapped) / exposed if exposed > 0 else float("nan")
            print(
                f"{transport}: the exchanges add {exposed:.3f} ms when serial, {overlapped - base:.3f} ms "
                f"overlapped: {share:.0%} hidden"
            )
    dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

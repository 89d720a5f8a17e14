import sys, importlib.util, torch, triton
from tlx.tutorials import broadcast_scoring as bs
spec = importlib.util.spec_from_file_location("bs_head", ".gpu/scratch/bs_head.py")
head = importlib.util.module_from_spec(spec); sys.modules["bs_head"] = head; spec.loader.exec_module(head)
for shape in bs.SHAPES:
    inp = bs.make_inputs(*shape, dtype=torch.bfloat16)
    ref = bs.reference(**inp)
    out = torch.empty((inp["items"].shape[0], inp["weight"].shape[1]), device="cuda", dtype=torch.bfloat16)
    for m in (head, bs):
        out.fill_(float("nan")); m.run(**inp, out=out); torch.cuda.synchronize()
        assert ((out.double() - ref).norm() / ref.norm()).item() < 1e-2
    r = {"head": [], "new": [], "triton": []}
    for rnd in range(3):
        for n, m in (("head", head), ("new", bs), ("head", head), ("new", bs)):
            r[n].append(triton.testing.do_bench(lambda: m.run(**inp), warmup=25, rep=100) * 1e3)
        r["triton"].append(triton.testing.do_bench(lambda: bs.materialized_triton(**inp), warmup=25, rep=100) * 1e3)
    g = {n: triton.testing.do_bench_cudagraph(lambda: m.run(**inp), rep=200) * 1e3 for n, m in (("head", head), ("new", bs), ("head2", head), ("new2", bs))}
    med = {n: sorted(v)[len(v) // 2] for n, v in r.items()}
    print(shape, " | ".join(f"{n} {med[n]:.1f} [{min(v):.1f}-{max(v):.1f}]" for n, v in r.items()), "| graph", " ".join(f"{n} {v:.1f}" for n, v in g.items()), f"| vs triton head {med['triton']/med['head']:.2f} new {med['triton']/med['new']:.2f}", flush=True)

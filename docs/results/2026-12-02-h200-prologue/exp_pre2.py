import sys, importlib.util, torch, triton
from tlx.tutorials import broadcast_scoring as bs

def load(name, path, proj=None):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); sys.modules[name] = m; spec.loader.exec_module(m)
    if proj: m.PROJECTION_CONFIG = proj
    return m
P16 = {"BLOCK_B": 16, "BLOCK_H": 16, "BLOCK_D": 128}
cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")

def timer(fn, flush, n=200):
    for _ in range(10): fn()
    st = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for i in range(n):
        if flush: cache.zero_()
        st[i].record(); fn(); en[i].record()
    torch.cuda.synchronize()
    ts = sorted(s.elapsed_time(e) * 1e3 for s, e in zip(st, en))
    return ts[n // 2]

variants = [("base", bs)] + [(f"pre{n}", load(f"bs_pre{n}", f".gpu/scratch/bs_pre{n}.py")) for n in (0, 1, 2, 3, 4)]
variants += [("p16", load("bs_p16", "python/tlx/tutorials/broadcast_scoring.py", P16)), ("pre2p16", load("bs_pre2p16", ".gpu/scratch/bs_pre2.py", P16)), ("pre3p16", load("bs_pre3p16", ".gpu/scratch/bs_pre3.py", P16))]
for shape in [bs.SHAPES[1], bs.SHAPES[0]]:
    inp = bs.make_inputs(*shape, dtype=torch.bfloat16)
    ref = bs.reference(**inp)
    out = torch.empty((inp["items"].shape[0], inp["weight"].shape[1]), device="cuda", dtype=torch.bfloat16)
    for name, mod in variants:
        for _ in range(2):
            out.fill_(float("nan"))
            mod.run(**inp, out=out); torch.cuda.synchronize()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (name, err)
    res = {n: [[], [], []] for n, _ in variants}
    for rnd in range(3):
        for name, mod in variants:
            f = lambda: mod.run(**inp, out=out)
            res[name][0].append(triton.testing.do_bench(f, warmup=25, rep=100) * 1e3)
            res[name][1].append(timer(f, True))
            res[name][2].append(timer(f, False))
    gr = {n: triton.testing.do_bench_cudagraph(lambda: m.run(**inp, out=out), rep=100) * 1e3 for n, m in variants}
    print(shape, flush=True)
    for n, v in res.items():
        print(f"  {n:8s} do_bench {sorted(v[0])[1]:.1f} [{min(v[0]):.1f}-{max(v[0]):.1f}]  flushed {sorted(v[1])[1]:.1f} [{min(v[1]):.1f}-{max(v[1]):.1f}]  noflush {sorted(v[2])[1]:.1f} [{min(v[2]):.1f}-{max(v[2]):.1f}]  graph {gr[n]:.1f}", flush=True)

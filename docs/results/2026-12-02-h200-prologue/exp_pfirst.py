import sys, importlib.util, torch, triton
from tlx.tutorials import broadcast_scoring as bs

def load(name, path, **consts):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); sys.modules[name] = m; spec.loader.exec_module(m)
    for k, v in consts.items(): setattr(m, k, v)
    return m
cur = "python/tlx/tutorials/broadcast_scoring.py"
pf = ".gpu/scratch/bs_pfirst.py"
variants = [("landed", bs), ("pfirst", load("v_pf", pf)), ("pfirst_s4", load("v_pf4", pf, MAX_STAGES=4)), ("pfirst_y1", load("v_pfy1", pf, Y_MIN_STAGES=9)), ("landed_y1", load("v_y1", cur, Y_MIN_STAGES=9))]
for shape in [bs.SHAPES[1], bs.SHAPES[0]]:
    inp = bs.make_inputs(*shape, dtype=torch.bfloat16)
    ref = bs.reference(**inp)
    out = torch.empty((inp["items"].shape[0], inp["weight"].shape[1]), device="cuda", dtype=torch.bfloat16)
    for n, m in variants:
        out.fill_(float("nan")); m.run(**inp, out=out); torch.cuda.synchronize()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (n, err)
    print(shape, {n: (m._plan(*shape, 132)["num_stages"], m._plan(*shape, 132)["y_bufs"]) for n, m in variants}, flush=True)
    res = {n: [] for n, _ in variants}
    for rnd in range(4):
        for n, m in variants:
            res[n].append(triton.testing.do_bench(lambda: m.run(**inp, out=out), warmup=25, rep=100) * 1e3)
    print(shape, " | ".join(f"{n} {sorted(v)[1]:.2f} [{min(v):.1f}-{max(v):.1f}]" for n, v in res.items()), flush=True)

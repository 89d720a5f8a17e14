import sys, torch, triton
import os, importlib.util
if os.environ.get("ATTN_MOD"):
    spec = importlib.util.spec_from_file_location("wa_variant", os.environ["ATTN_MOD"])
    wa = importlib.util.module_from_spec(spec); sys.modules["wa_variant"] = wa; spec.loader.exec_module(wa)
else:
    from tlx.tutorials import ws_attention as wa
tag = sys.argv[1]
torch.manual_seed(0)
rows = []
for d, n, causal in [(128, 2048, False), (128, 8192, False), (128, 16384, False), (128, 8192, True), (128, 16384, True), (64, 8192, False), (64, 16384, True)]:
    b, h = 16384 // n, 2048 // d
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    o = wa.run(q, k, v, causal=causal); torch.cuda.synchronize()
    if n <= 8192:
        ref = torch.nn.functional.scaled_dot_product_attention(q[:1].float(), k[:1].float(), v[:1].float(), is_causal=causal)
        err = (o[:1].float() - ref).abs().max().item()
    else:
        err = float(torch.isnan(o).any())
    flops = 4 * b * h * n * n * d * (0.5 if causal else 1.0)
    t = sorted(triton.testing.do_bench_cudagraph(lambda: wa.run(q, k, v, causal=causal, out=o), rep=200) for _ in range(3))[1]
    rows.append(f"{tag} D={d} N={n} causal={causal}: {flops / t * 1e-9:.1f} TFLOP/s  err {err:.2e}")
    print(rows[-1], flush=True)

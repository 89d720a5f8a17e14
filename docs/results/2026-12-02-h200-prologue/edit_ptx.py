import os, sys, re
src, dst = sys.argv[1], sys.argv[2]
SKIP = ("//", ".loc", "{", "}", ".reg", "waitLoop:", "$L__tmp")
for hdir in os.listdir(src):
    for f in os.listdir(os.path.join(src, hdir)):
        if not f.endswith(".ptx") or "ws_attention_persistent" not in f:
            continue
        lines = open(os.path.join(src, hdir, f)).read().split("\n")
        out, removed = [], 0
        for i, l in enumerate(lines):
            if re.match(r"\s*bar\.sync\s+\d+, 128;", l):
                nxt = [x.strip() for x in lines[i + 1:i + 12] if x.strip() and not x.strip().startswith(SKIP)]
                if nxt and "mbarrier." in nxt[0]:
                    removed += 1
                    continue
            out.append(l)
        os.makedirs(os.path.join(dst, hdir), exist_ok=True)
        open(os.path.join(dst, hdir, f), "w").write("\n".join(out))
        print("edited", hdir, f, "removed", removed, "bar.sync", flush=True)

#!/usr/bin/env python3
"""The device's MLP against PyTorch (docs/ml.md, "Checking").

For a few models, builds torch.nn.Linear layers with PyTorch's own initialisation, a random batch
and labels, writes them as .npy files, and runs one training step on the fabric with
`tessera ml mlp --train 1 --load DIR --save DIR`. Then the same step in PyTorch (forward,
cross-entropy, backward, torch.optim.SGD with momentum) and a comparison of the logits, the loss,
every weight and bias gradient and the parameters after the step. f16 runs round the weights,
the inputs and the activations to f16 in PyTorch too, where the device stores f16.

Usage: torch_check.py PATH/TO/tessera. Exit status 0 when every value is within tolerance.
"""
import json
import subprocess
import sys
import tempfile

import numpy as np
import torch

CASES = [
    # layers, batch, activation, dtype, mode, pes, lr, momentum, backend
    ([64, 32, 10], 16, "relu", "f32", "resident", 4, 0.1, 0.9, "func"),
    ([20, 16, 12, 6], 8, "gelu", "f32", "streaming", 3, 0.05, 0.5, "func"),
    ([32, 24, 10], 8, "relu", "f16", "resident", 4, 0.1, 0.9, "func"),
    ([16, 12, 5], 4, "gelu", "f32", "resident", 2, 0.1, 0.9, "rtl"),
]


def normwise(ref, got):
    ref = np.asarray(ref, dtype=np.float64).ravel()
    got = np.asarray(got, dtype=np.float64).ravel()
    diff = np.max(np.abs(ref - got)) if ref.size else 0.0
    top = np.max(np.abs(ref)) if ref.size else 0.0
    if not np.isfinite(diff):
        return float("inf")
    return 0.0 if diff == 0 else (diff / top if top > 0 else float("inf"))


def run_case(tessera, seed, layers, batch, act, dtype, mode, pes, lr, mom, backend):
    torch.manual_seed(seed)
    f16 = dtype == "f16"
    lins = [torch.nn.Linear(layers[l], layers[l + 1]) for l in range(len(layers) - 1)]
    if f16:
        with torch.no_grad():
            for lin in lins:
                lin.weight.copy_(lin.weight.half().float())
    x = torch.rand(batch, layers[0]) * 2 - 1
    labels = torch.randint(0, layers[-1], (batch,), dtype=torch.int32)
    d = tempfile.mkdtemp(prefix="tessera_torch_")
    for l, lin in enumerate(lins):
        np.save(f"{d}/w{l}.npy", lin.weight.detach().numpy().astype(np.float32))
        np.save(f"{d}/b{l}.npy", lin.bias.detach().numpy().astype(np.float32))
    np.save(f"{d}/x.npy", x.numpy().astype(np.float32))
    np.save(f"{d}/labels.npy", labels.numpy().astype(np.int32))
    cmd = [tessera, "ml", "mlp", "--layers", ",".join(map(str, layers)), "--batch", str(batch),
           "--act", act, "--dtype", dtype, "--mode", mode, "--pes", str(pes), "--train", "1",
           "--lr", str(lr), "--momentum", str(mom), "--backend", backend, "--load", d,
           "--save", d, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}{p.stderr}")
        return False
    summary = json.loads(p.stdout.strip().splitlines()[-1])

    # The same step in PyTorch.
    params = [q for lin in lins for q in (lin.weight, lin.bias)]
    opt = torch.optim.SGD(params, lr=lr, momentum=mom)
    a = x.half().float() if f16 else x
    for l, lin in enumerate(lins):
        z = lin(a)
        if l + 1 < len(lins):
            a = torch.relu(z) if act == "relu" else torch.nn.functional.gelu(z, approximate="tanh")
            if f16:
                a = a.half().float()
    logits = z
    loss = torch.nn.functional.cross_entropy(logits, labels.long())
    opt.zero_grad()
    loss.backward()
    grads = [(lin.weight.grad.clone(), lin.bias.grad.clone()) for lin in lins]
    opt.step()

    tol = 2e-3 if f16 else 1e-4
    checks = [("logits", logits.detach().numpy(), np.load(f"{d}/logits.npy")),
              ("loss", [loss.item()], [summary["loss"]])]
    for l, lin in enumerate(lins):
        checks += [(f"grad w{l}", grads[l][0].numpy(), np.load(f"{d}/gw{l}.npy")),
                   (f"grad b{l}", grads[l][1].numpy(), np.load(f"{d}/gb{l}.npy")),
                   (f"w{l} after SGD", lin.weight.detach().numpy(), np.load(f"{d}/w{l}_next.npy")),
                   (f"b{l} after SGD", lin.bias.detach().numpy(), np.load(f"{d}/b{l}_next.npy"))]
    ok = True
    name = f"{'-'.join(map(str, layers))} batch {batch} {act} {dtype} {mode} on {pes} PEs ({backend})"
    worst = max(normwise(r, g) for _, r, g in checks)
    for what, ref, got in checks:
        e = normwise(ref, got)
        if not e <= tol:
            print(f"FAIL {name}: {what}: normwise error {e:.3g} above {tol:g}")
            ok = False
    if ok:
        print(f"ok   {name}: {len(checks)} arrays, worst normwise error {worst:.3g} "
              f"(tolerance {tol:g}), loss {loss.item():.6f}")
    return ok


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    ok = True
    for i, case in enumerate(CASES):
        ok &= run_case(sys.argv[1], 100 + i, *case)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

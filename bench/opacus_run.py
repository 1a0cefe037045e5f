"""``OpacusAccountant`` inside a real Opacus training loop, beside Opacus's own accountants (issue #27, item 2).

Opacus needs torch, which is too heavy for CI here; this script is run by hand in a separate environment::

    python3 -m venv /tmp/opacusvenv && /tmp/opacusvenv/bin/pip install opacus -e .
    /tmp/opacusvenv/bin/python bench/opacus_run.py [--steps 200] [--markdown]

It trains a small logistic regression on random data with ``opacus.PrivacyEngine`` (Poisson sampling,
``make_private``), with ``privacy_engine.accountant = OpacusAccountant()`` set before ``make_private`` (so
the engine attaches our ``get_optimizer_hook_fn`` to its ``DPOptimizer``), then checks that

* the accountant's ``history`` is what Opacus's own RDP and PRV accountants record when given the same steps
  (the ``DPOptimizer`` holds a single step hook, the one ``make_private`` took from our accountant, so
  Opacus's accountants are stepped by hand the same number of times);
* ``privacy_engine.get_epsilon(delta)`` answers through our accountant, and the ``state_dict`` round trip
  that ``PrivacyEngine.save_checkpoint`` / ``load_checkpoint`` makes keeps it;

and prints eps at delta = 1e-5 from our certified bracket, Opacus's RDP, PRV and GDP accountants, with the
CPU seconds of each ``get_epsilon`` call.  Part two repeats the comparison on the three standard DP-SGD
settings of ``bench/accountants.py`` by filling each accountant's ``history`` directly.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _timed(fn):
    c0 = time.process_time()
    out = fn()
    return out, time.process_time() - c0


def training_run(steps: int, delta: float):
    import torch
    from opacus import PrivacyEngine
    from opacus.accountants import PRVAccountant, RDPAccountant

    from numeric.accountants import OpacusAccountant

    torch.manual_seed(0)
    n, d = 2000, 20
    x, y = torch.randn(n, d), torch.randint(0, 2, (n,))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=100)
    model = torch.nn.Linear(d, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    engine = PrivacyEngine(accountant="rdp")
    ours = OpacusAccountant()
    engine.accountant = ours
    model, optimizer, loader = engine.make_private(module=model, optimizer=optimizer, data_loader=loader,
                                                   noise_multiplier=1.1, max_grad_norm=1.0, poisson_sampling=True)
    rate = 1 / len(loader)
    loss_fn, done = torch.nn.CrossEntropyLoss(), 0
    while done < steps:
        for xb, yb in loader:
            if done == steps:
                break
            optimizer.zero_grad()
            loss_fn(model(xb), yb).backward()
            optimizer.step()
            done += 1
    # the DPOptimizer holds one step hook, the one make_private took from engine.accountant: ours.  Opacus's own
    # accountants, stepped the same number of times, record the same merged history.
    rdp, prv = RDPAccountant(), PRVAccountant()
    for _ in range(steps):
        rdp.step(noise_multiplier=optimizer.noise_multiplier, sample_rate=rate)
        prv.step(noise_multiplier=optimizer.noise_multiplier, sample_rate=rate)
    assert engine.accountant is ours and ours.history == rdp.history == prv.history == [(1.1, rate, steps)], (
        ours.history, rdp.history)
    restored = OpacusAccountant()
    restored.load_state_dict(ours.state_dict())
    eps, t = _timed(lambda: engine.get_epsilon(delta))
    assert restored.get_epsilon(delta) == eps
    lo_hi = ours.get_epsilon_bracket(delta)
    rows = [("dp-derive OpacusAccountant (certified upper end)", eps, t)]
    rows += [("Opacus RDPAccountant", *_timed(lambda: rdp.get_epsilon(delta))),
             ("Opacus PRVAccountant", *_timed(lambda: prv.get_epsilon(delta)))]
    return ours.history, lo_hi, rows


def settings_table(delta_default: str):
    from opacus.accountants import GaussianAccountant, PRVAccountant, RDPAccountant

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from accountants import SETTINGS

    from numeric.accountants import OpacusAccountant
    out = []
    for label, n, batch, sigma, steps, delta in SETTINGS:
        entry = (float(sigma), batch / n, steps)
        cells = []
        for name, cls in (("dp-derive", OpacusAccountant), ("Opacus RDP", RDPAccountant),
                          ("Opacus PRV", PRVAccountant), ("Opacus GDP (CLT)", GaussianAccountant)):
            acct = cls()
            acct.history = [entry]
            eps, t = _timed(lambda acct=acct: acct.get_epsilon(float(delta)))
            cells.append((name, eps, t))
        out.append((label, cells))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    import opacus
    import torch
    print(f"opacus {opacus.__version__}, torch {torch.__version__}")
    history, bracket, rows = training_run(args.steps, 1e-5)
    print(f"training run: {args.steps} steps, history {history}, bracket {bracket}")
    for name, eps, t in rows:
        print(f"  {name}: eps = {eps:.6f} ({t:.2f} s CPU)")
    for label, cells in settings_table("1e-5"):
        print(label)
        for name, eps, t in cells:
            print(f"  {name}: eps = {eps:.6f} ({t:.2f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

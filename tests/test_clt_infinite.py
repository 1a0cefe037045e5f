"""clt at delta = 0: the CLT's eps and the exact eps are both inf, and the error was printed as NaN (inf - inf).
The exact eps of G_mu at delta = 0 is inf (delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) > 0
for every finite eps), so the error is 0 and the CLT does not understate the loss."""

from __future__ import annotations

import json

from proofs_check.cli import clt as CLT
from proofs_check.cli import main


def test_error_at_delta_zero_is_zero_not_nan(capsys):
    assert main(["clt", "gaussian", "--mu", "1", "--k", "10", "--at-delta", "0", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["exact"] == "inf" and got["eps"] == "inf"
    assert got["error_clt"] == "0" and got["underestimates"] is False


def test_mutation_plain_difference_is_caught(monkeypatch, capsys):
    monkeypatch.setattr(CLT, "_error", lambda approx, exact: approx - exact)
    main(["clt", "gaussian", "--mu", "1", "--k", "10", "--at-delta", "0", "--json"])
    assert json.loads(capsys.readouterr().out)["error_clt"] != "0"

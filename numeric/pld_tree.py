"""Distinct single steps of a heterogeneous composition combined by a product tree (issue #25 item 1).

``numeric.pld_fft._convolve`` transforms every (step, count) item on the whole composed window of N points:
a spec of n distinct steps (count 1 each) costs n FFTs of length N, and N itself grows with n (1000 distinct
Laplace steps: 1002 transforms, 170 s of CPU).  Here the count-1 steps whose support is short are first
composed pairwise in a balanced tree of *linear* convolutions, each by an FFT of the smallest power of two
that holds the result, so that the n steps cost about log2(n) transforms of the final length; the tree's
result enters ``_convolve`` as one more part (count 1) with a 2-norm bound on its error (the top
subtrees as several parts, when joining them would need a transform as long as the window: ``split``).

Error argument (the same model as ``_convolve``: Higham's bound for the computed FFT, assumption A2 of
pld_fft's docstring, ``pld_fft.fft_eta``, passed in by the caller).  Write a, b for the exact (tilted) arrays of two subtrees, a~, b~ for the
computed ones with ||a~ - a||_2 <= da, ||b~ - b||_2 <= db.  The exact linear convolution c = a * b on
M >= len a + len b - 1 points equals the circular one, and
  ||c~ - c||_2 <= ||conv_fl(a~, b~) - a~ * b~||_2 + ||a~ * b~ - a * b||_2.
The second term: a~ * b~ - a * b = (a~ - a) * b~ + a * (b~ - b), and Young's inequality
||f * g||_2 <= ||f||_2 ||g||_1 gives <= da ||b~||_1 + db (||a~||_1 + sqrt(len a) da) (||a||_1 <= ||a~||_1 +
sqrt(len a) ||a - a~||_2 by Cauchy-Schwarz).  The first term is the FFT product of ``_convolve`` with two
parts of count 1: forward errors e_x = eta sqrt(M) ||x~||_2, pointwise |X| <= ||x~||_1 (so the computed
spectra are bounded by rho_x = ||x~||_1 + e_x), the product error e_a rho_b + rho_a e_b plus its rounding
sqrt(5) u rho_a rho_b sqrt(M) in 2-norm, and the inverse transform adds eta ||Z~||_2; dividing by sqrt(M)
(Parseval for the unnormalised transform) gives the bound in the signal's 2-norm (``_fft_pair``).  Every
norm is computed in float64 and enlarged by a relative (1 + 2 n u + 1e-12) before use, so each bound holds
for the computed norms' roundings too.  The final fold onto the window (entries i and i + N added) is
float additions of at most m = ceil(len / N) terms per entry: an error below gamma_m ||y~||_1, added to the
bound.  ``_convolve`` then treats the tree's output x~ as a part whose forward-transform error is
eta sqrt(N) ||x~||_2 + sqrt(N) d (the DFT scales 2-norms by sqrt(N)) and whose spectrum is bounded by
||x~||_1 + sqrt(len) d.

A member of count k > 1 (``_power_leaf``) is one leaf: ``_convolve`` of that single item on M >= k span + 1
points, where no index wraps, so the circular k-fold composition it bounds is the linear one; its leaf
error d is ``_convolve``'s E_out, a 2-norm bound in the same model, and the joins above use it as they use
any subtree's d.
"""

from __future__ import annotations

import math

import numpy as np

from .pld_discretise import U

#: only steps whose support (knot span) is at most this fraction of the window join the tree, and only when
#: at least MIN_TREE of them do (below that the per-step transforms are cheap anyway)
SPAN_FRACTION = 8
MIN_TREE = 8
#: a step of count k <= TREE_COUNT joins as one leaf, its k-fold power (numeric.pld_envelope's rounded families
#: have many distinct steps of small counts: 843 items of counts 1-5 cost 3372 full-window transforms, 103 of 130 s)
TREE_COUNT = 64


def _norms(x: np.ndarray):
    """(||x||_1, ||x||_2) of a float array, each enlarged to cover its own float rounding."""
    slack = 1 + 2 * len(x) * U + 1e-12
    return float(np.abs(x).sum()) * slack, float(np.sqrt(np.sum(x * x))) * slack


def _fft_pair(a: np.ndarray, b: np.ndarray, eta_of, norms=None):
    """(c~, err): the computed linear convolution of a and b and a bound on ||c~ - a * b||_2 (a, b exact);
    ``eta_of(M)``: the FFT error constant of a length-M transform (``pld_fft.fft_eta``); ``norms``: the
    caller's ``(_norms(a), _norms(b))`` when it has them (``_join``), else computed here."""
    n = len(a) + len(b) - 1
    M = 1 << max(1, (n - 1).bit_length())
    eta, sqM = eta_of(M), math.sqrt(M)
    (a1, a2), (b1, b2) = norms if norms is not None else (_norms(a), _norms(b))
    ea, eb = eta * sqM * a2, eta * sqM * b2
    ra, rb = a1 + ea, b1 + eb
    Z = np.fft.rfft(a, M) * np.fft.rfft(b, M)
    z2 = np.abs(Z) ** 2
    Znorm = float(np.sqrt(2 * np.sum(z2) - z2[0] - z2[-1])) * (1 + 1e-12)
    prod = ea * rb + ra * eb + math.sqrt(5) * U * 1.01 * ra * rb * sqM
    c = np.fft.irfft(Z, M)[:n]
    return c, (prod + eta * Znorm) / sqM


def _join(left, right, eta_of):
    """Compose two subtrees (lo, x~, d): offsets add, errors as in the module docstring."""
    (la, a, da), (lb, b, db) = left, right
    na, nb = _norms(a), _norms(b)
    c, e = _fft_pair(a, b, eta_of, (na, nb))
    a1, b1 = na[0], nb[0]
    d = e + da * b1 + db * (a1 + math.sqrt(len(a)) * da)
    return la + lb, c, d * (1 + 1e-12)


def _dense(knots: np.ndarray, x: np.ndarray):
    lo = int(knots.min())
    arr = np.zeros(int(knots.max()) - lo + 1)
    np.add.at(arr, knots.astype(np.int64) - lo, x)      # distinct knots: exact placement
    return lo, arr, 0.0


def _join_length(a, b) -> int:
    n = len(a[1]) + len(b[1]) - 1
    return 1 << max(1, (n - 1).bit_length())


class _Size:
    """The length of a planned subtree's array (``_plan``), standing in for the array itself."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self):
        return self.n


def _plan(items, members):
    """Leaves (j, _Size(k span + 1), None) of the members: the tree is planned on lengths only (a join's
    result has len a + len b - 1 points, known before any transform)."""
    return [(j, _Size(items[j][1] * int(items[j][0].knots.max() - items[j][0].knots.min()) + 1), None)
            for j in members]


def _power_leaf(meas, part, k: int, convolve):
    """(lo, x~, d) of the k-fold linear self-convolution of a member of count k > 1: ``pld_fft._convolve`` of
    the one item (``convolve``, passed in by it) on M >= k span + 1 points, where the circular composition is the linear one (no aliasing),
    with its 2-norm error bound; the entries past k span + 1 are exact zeros, so dropping them only lowers
    the error."""
    lo = int(meas.knots.min())
    n = k * (int(meas.knots.max()) - lo) + 1
    M = 1 << max(1, (n - 1).bit_length())
    y, e = convolve([(meas, k)], [part], M, k * lo)
    return k * lo, y[:n], e


def _build(node, items, parts, eta_of, convolve):
    """The subtree (lo, x~, d) of a planned node, built depth first: only the arrays of one path from
    the node to a leaf (and their siblings) are alive at a time (issue #25: the levels held every
    member's dense array at once, 5.8e9 points for 10^4 mixed steps at h = 1e-5)."""
    key = node[0]
    if isinstance(key, int):
        if items[key][1] > 1:
            return _power_leaf(items[key][0], parts[key], items[key][1], convolve)
        return _dense(items[key][0].knots, parts[key][1])
    left = _build(key[0], items, parts, eta_of, convolve)
    right = _build(key[1], items, parts, eta_of, convolve)
    return _join(left, right, eta_of)


def split(items, parts, N: int, eta_of, convolve=None):
    """(rest, trees): the indices of the items ``_convolve`` transforms itself, and the tree's parts
    (empty when there is no tree), each a planned subtree that ``fold`` builds when ``_convolve`` reaches
    it (``_build``), so that at most one part's arrays are alive at a time.  Tree members: count 1 (or, given
    ``convolve``, a count k <= TREE_COUNT: one leaf, ``_power_leaf``), k times the knot span <= N /
    SPAN_FRACTION, at least MIN_TREE of them.  The levels join pairs while a join's
    transform is shorter than the window N; the subtrees left then enter ``_convolve`` as parts of their
    own, each transformed once on N points, which is what the top joins would have cost again (1000
    distinct Laplace steps: the top join was a 2^21-point transform, the window 2^21 too).  The plan
    pairs exactly as the levels did on the arrays, so the computed parts are the same."""
    def span(meas):
        return int(meas.knots.max() - meas.knots.min())
    members = [j for j, (meas, k) in enumerate(items)
               if (k == 1 or (convolve is not None and k <= TREE_COUNT)) and len(meas.knots)
               and k * span(meas) <= N // SPAN_FRACTION]
    if len(members) < MIN_TREE:
        return list(range(len(items))), []
    level = _plan(items, members)
    while len(level) > 1 and _join_length(level[0], level[1]) < N:
        nxt = [((level[i], level[i + 1]), _Size(len(level[i][1]) + len(level[i + 1][1]) - 1), None)
               for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    keep = set(members)
    return [j for j in range(len(items)) if j not in keep], [(node, items, parts, eta_of, convolve)
                                                                     for node in level]


def fold(tree, N: int):
    """(indices mod N, x~, d, n): the tree's part (a planned subtree of ``split``, built here, or a built
    (lo, x~, d)) laid on the circular window, the fold's additions' error
    gamma_m ||x~||_1 (m terms per entry at most) added to d."""
    lo, x, d = _build(*tree) if len(tree) == 5 else tree
    m = -(-len(x) // N)
    if m > 1:
        g = m * U / (1 - m * U)
        d = d + g * _norms(x)[0]
    idx = (lo + np.arange(len(x), dtype=np.int64)) % N
    return idx, x, d * (1 + 1e-12)

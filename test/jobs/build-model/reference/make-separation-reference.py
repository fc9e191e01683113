"""Reference values for jobs/build-model/separation.ts (weighted AUC and KS), computed independently.

Run once from the repository root; the output is committed and read by ../separation.test.ts, so the
tests need no Python:

    python3 test/jobs/build-model/reference/make-separation-reference.py > test/jobs/build-model/reference/separation.json

Inputs are synthetic, drawn from a seeded generator and rounded (scores to 1 decimal, so that ties occur, as
they do for the one-decimal index), and stored with the values. The TypeScript sorts once and sweeps the
thresholds; here:

- AUC: over every (with outcome, without outcome) pair, sum of w_i w_j (1 if s_i > s_j, 1/2 if equal) over
  (sum w with) (sum w without), by numpy broadcasting.
- KS: at every distinct score t, |F1(t) - F0(t)| with F the weighted share at or below t, the maximum.
- For integer weights the script also expands each row into w copies and checks both against scipy:
  Mann-Whitney U / (n1 n0) (scipy.stats.mannwhitneyu, which counts ties as 1/2) and the two-sample KS
  statistic (scipy.stats.ks_2samp).
"""

import json
import sys
from datetime import datetime, timezone

import numpy as np
import scipy
from scipy.stats import ks_2samp, mannwhitneyu

rng = np.random.default_rng(20261127)


def pairwise_auc(s, y, w):
    pos, neg = y == 1, y == 0
    sp, sn = s[pos][:, None], s[neg][None, :]
    wp, wn = w[pos][:, None], w[neg][None, :]
    wins = (sp > sn) + 0.5 * (sp == sn)
    return float((wp * wn * wins).sum() / (w[pos].sum() * w[neg].sum()))


def threshold_ks(s, y, w):
    pos, neg = y == 1, y == 0
    best = 0.0
    for t in np.unique(s):
        f1 = w[pos & (s <= t)].sum() / w[pos].sum()
        f0 = w[neg & (s <= t)].sum() / w[neg].sum()
        best = max(best, abs(f1 - f0))
    return float(best)


def scipy_check(s, y, w):
    counts = w.astype(int)
    assert np.all(counts == w)
    se, ye = np.repeat(s, counts), np.repeat(y, counts)
    a, b = se[ye == 1], se[ye == 0]
    u = mannwhitneyu(a, b, alternative="two-sided").statistic
    return float(u / (len(a) * len(b))), float(ks_2samp(a, b).statistic)


def case(name, n, weighting, shift):
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(shift * y, 1.0), 1)
    if weighting == "unit":
        w = np.ones(n)
    elif weighting == "integer":
        w = rng.integers(1, 6, n).astype(float)
    else:
        w = np.round(rng.gamma(2.0, 1500.0, n), 3)
    auc, ks = pairwise_auc(s, y, w), threshold_ks(s, y, w)
    if weighting != "survey":
        auc_s, ks_s = scipy_check(s, y, w)
        assert abs(auc - auc_s) < 1e-12 and abs(ks - ks_s) < 1e-12, (name, auc, auc_s, ks, ks_s)
    return {"name": name, "scores": s.tolist(), "outcomes": y.tolist(), "weights": w.tolist(), "auc": auc, "ks": ks}


cases = [
    case("unit weights, no signal", 40, "unit", 0.0),
    case("integer weights, signal", 200, "integer", 0.8),
    case("survey-like weights, signal", 500, "survey", 0.5),
    case("survey-like weights, inverted signal", 300, "survey", -1.0),
]

json.dump(
    {
        "command": "python3 test/jobs/build-model/reference/make-separation-reference.py",
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cases": cases,
    },
    sys.stdout,
)
sys.stdout.write("\n")

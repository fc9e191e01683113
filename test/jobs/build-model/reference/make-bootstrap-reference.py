"""Reference values for the ranking table's bootstrap (jobs/build-model/bootstrap.ts), computed
independently. (Its AUC and KS are checked by make-separation-reference.py, its logistic regression, glm.ts
with the logit link, by make-reference.py.)

Run once from the repository root; the output is committed and read by ../bootstrap.test.ts, so the
tests need no Python:

    python3 test/jobs/build-model/reference/make-bootstrap-reference.py > test/jobs/build-model/reference/bootstrap.json

Inputs are synthetic, drawn from numpy's seeded generator, and stored with the values.

- Bootstrap: the TypeScript draws consumer units with src/sample/random.ts (sfc32 seeded through
  splitmix32); that generator is re-implemented here from its definition, so that both draw the same units
  (its first outputs are stored too, and checked against the TypeScript's).
  Everything else is computed here another way: each replicate's multiplicity of every row (count of draws
  of its unit) times its weight, the weighted AUC of each score over every (with, without) pair by numpy
  broadcasting (ties count 1/2), their difference, and the 2.5 % and 97.5 % points by numpy.percentile
  (linear interpolation, the default); from the same replicates, each score's own AUC and its interval.
"""

import json
import sys
from datetime import datetime, timezone

import numpy as np

MASK = 0xFFFFFFFF
rng = np.random.default_rng(20261128)


class Sfc32:
    """src/sample/random.ts: sfc32, seeded through splitmix32, 12 outputs discarded."""

    def __init__(self, seed, stream):
        state, words = 0, []
        for value in (seed % 2**32, seed // 2**32, stream, 0):
            state, output = self._splitmix32((state ^ value) & MASK)
            words.append(output)
        self.a, self.b, self.c, self.d = words
        for _ in range(12):
            self.uint32()

    @staticmethod
    def _splitmix32(state):
        nxt = (state + 0x9E3779B9) & MASK
        z = nxt
        z = ((z ^ (z >> 16)) * 0x85EBCA6B) & MASK
        z = ((z ^ (z >> 13)) * 0xC2B2AE35) & MASK
        return nxt, (z ^ (z >> 16)) & MASK

    def uint32(self):
        t = (self.a + self.b + self.d) & MASK
        self.d = (self.d + 1) & MASK
        self.a = self.b ^ (self.b >> 9)
        self.b = (self.c + (self.c << 3)) & MASK
        self.c = ((self.c << 21) | (self.c >> 11)) & MASK
        self.c = (self.c + t) & MASK
        return t

    def integer(self, low, high):
        return low + int(np.floor(self.uint32() / 2**32 * (high - low + 1)))


def first_outputs(seed, stream, count):
    draw = Sfc32(seed, stream)
    return [draw.uint32() for _ in range(count)]


def pairwise_auc(s, y, w):
    pos, neg = y == 1, y == 0
    wins = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
    return float((w[pos][:, None] * w[neg][None, :] * wins).sum() / (w[pos].sum() * w[neg].sum()))


def bootstrap_case(units, replicates, seed):
    clusters = np.repeat(np.arange(units), rng.integers(1, 5, units))  # 1 to 4 quarters per unit
    rng.shuffle(clusters)
    n = len(clusters)
    y = (rng.random(n) < 0.4).astype(int)
    a = np.round(rng.normal(0.9 * y, 1.0), 1)
    b = np.round(0.6 * a + rng.normal(0.3 * y, 0.8), 1)
    w = np.round(rng.gamma(2.0, 1500.0, n), 3)
    labels = [f"cu{c}" for c in clusters]
    order = list(dict.fromkeys(labels))  # units numbered in order of first appearance, as the TypeScript
    draw = Sfc32(seed, 0)
    diffs, aucs_a, aucs_b = [], [], []
    for _ in range(replicates):
        counts = np.zeros(len(order))
        for _ in range(len(order)):
            counts[draw.integer(0, len(order) - 1)] += 1
        m = counts[[order.index(label) for label in labels]] * w
        aucs_a.append(pairwise_auc(a, y, m))
        aucs_b.append(pairwise_auc(b, y, m))
        diffs.append(aucs_a[-1] - aucs_b[-1])
    low, high = np.percentile(diffs, [2.5, 97.5])
    return {
        "name": f"{n} rows in {units} units, {replicates} replicates, seed {seed}",
        "a": a.tolist(),
        "b": b.tolist(),
        "outcomes": y.tolist(),
        "weights": w.tolist(),
        "clusters": labels,
        "replicates": replicates,
        "seed": seed,
        "estimate": pairwise_auc(a, y, w) - pairwise_auc(b, y, w),
        "low": float(low),
        "high": float(high),
        # Each score's own AUC with its interval, from the same replicates (bootstrapIntervals).
        "auc_a": interval(pairwise_auc(a, y, w), aucs_a),
        "auc_b": interval(pairwise_auc(b, y, w), aucs_b),
    }


def interval(estimate, replicates):
    low, high = np.percentile(replicates, [2.5, 97.5])
    return {"estimate": estimate, "low": float(low), "high": float(high)}


json.dump(
    {
        "command": "python3 test/jobs/build-model/reference/make-bootstrap-reference.py",
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "numpy": np.__version__,
        "generator": {"seed": 7, "stream": 0, "uint32": first_outputs(7, 0, 8)},
        "bootstrap": [
            bootstrap_case(24, 200, 7),
            bootstrap_case(150, 500, 20261128),
        ],
    },
    sys.stdout,
)
sys.stdout.write("\n")

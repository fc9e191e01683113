"""Reference values for the model build's numerical core, computed independently of the TypeScript code.

Run once from the repository root; the output is committed and read by ../numerical-core.test.ts, so the
tests need neither Python nor the raw data:

    python3 test/jobs/build-model/reference/make-reference.py > test/jobs/build-model/reference/numerical-core.json

Every input is synthetic and drawn from a seeded generator (and rounded, so the JSON holds the exact
inputs used). Each reference uses a different method from the one it checks:

- GLM (jobs/build-model/glm.ts fits by IRLS with step-halving): the weighted Poisson pseudo-log-likelihood
  and the weighted Bernoulli log-likelihood are maximised with scipy.optimize.minimize (trust-exact, exact
  gradient and Hessian); the sandwich standard errors are A^-1 B A^-1 with A = X'diag(w V)X and
  B = X'diag(w^2 (y - mu)^2)X at that optimum.
- Restricted cubic spline terms (jobs/build-model/design.ts uses Harrell's closed form): each term is
  (x - t_j)^3_+ plus the multiples of (x - t_{k-1})^3_+ and (x - t_k)^3_+ that make it linear beyond the
  last knot, the two multiples solved numerically from that condition, divided by (t_k - t_1)^2; the script
  checks each term against scipy's natural cubic spline (CubicSpline, bc_type="natural") through its values
  at the knots.
- Raking (jobs/build-model/reweight.ts rakes by iterative proportional fitting): the raked weights are
  found by minimising the convex dual of the raking problem, sum_i d_i exp(sum_dims lambda) - lambda . T,
  with scipy.optimize.minimize (trust-exact); the script checks that a plain IPF in numpy agrees.
"""

import json
import re
import sys
from datetime import datetime, timezone

import numpy as np
import scipy
from scipy.interpolate import CubicSpline
from scipy.optimize import minimize

rng = np.random.default_rng(20261126)


def rounded(a, digits=6):
    return np.round(np.asarray(a, dtype=float), digits)


# ---------------------------------------------------------------- GLM


def glm_reference(x, y, w, link, offset):
    off = np.zeros(len(y)) if offset is None else offset

    def mean(eta):
        return np.exp(eta) if link == "log" else 1 / (1 + np.exp(-eta))

    def variance(mu):
        return mu if link == "log" else mu * (1 - mu)

    def negative_log_likelihood(beta):
        eta = x @ beta + off
        cumulant = np.exp(eta) if link == "log" else np.logaddexp(0, eta)
        return -np.sum(w * (y * eta - cumulant))

    def gradient(beta):
        return -x.T @ (w * (y - mean(x @ beta + off)))

    def hessian(beta):
        v = variance(mean(x @ beta + off))
        return x.T @ (x * (w * v)[:, None])

    start = np.zeros(x.shape[1])
    if link == "log":
        start[0] = np.log(np.sum(w * y) / np.sum(w))
    result = minimize(
        negative_log_likelihood,
        start,
        jac=gradient,
        hess=hessian,
        method="trust-exact",
        options={"gtol": 1e-11, "maxiter": 500},
    )
    beta = result.x
    # Two Newton steps on the same likelihood take the optimum from the minimiser's gtol to rounding level.
    for _ in range(2):
        beta = beta - np.linalg.solve(hessian(beta), gradient(beta))
    mu = mean(x @ beta + off)
    a = hessian(beta)
    b = x.T @ (x * (w**2 * (y - mu) ** 2)[:, None])
    a_inverse = np.linalg.inv(a)
    se = np.sqrt(np.diag(a_inverse @ b @ a_inverse))
    relative_gradient = np.max(np.abs(gradient(beta))) / np.max(np.abs(x.T @ (w * y)))
    assert relative_gradient < 1e-12, (link, relative_gradient)
    return beta, se


def glm_case(name, link, rows, dollars, with_offset):
    p = 5
    x = np.column_stack(
        [
            np.ones(rows),
            rounded(rng.uniform(-1, 1, rows)),
            rounded(rng.normal(0, 1, rows)),
            (rng.uniform(size=rows) < 0.4).astype(float),
            rounded(rng.uniform(0, 2, rows) ** 2),
        ]
    )
    true_beta = np.array([0.2, 0.8, -0.5, 0.6, -0.3])
    offset = rounded(rng.uniform(-0.5, 0.5, rows)) if with_offset else None
    eta = x @ true_beta + (0 if offset is None else offset)
    w = rounded(rng.uniform(0.5, 3, rows), 4)
    w[rng.choice(rows, 10, replace=False)] = 0
    if link == "log":
        # Spending-like: zero for some households, otherwise skewed around the mean.
        spender = rng.uniform(size=rows) < 0.8
        y = rounded(spender * np.exp(eta) * rng.gamma(2, 0.5, rows) * dollars, 2)
    else:
        y = (rng.uniform(size=rows) < 1 / (1 + np.exp(-(eta - 0.3)))).astype(float)
    beta, se = glm_reference(x, y, w, link, offset)
    case = {
        "name": name,
        "link": link,
        "p": p,
        "x": x.ravel().tolist(),
        "y": y.tolist(),
        "w": w.tolist(),
        "beta": beta.tolist(),
        "se": se.tolist(),
    }
    if offset is not None:
        case["offset"] = offset.tolist()
    return case


# ---------------------------------------------------------------- restricted cubic spline


def rcs_term(x, knots, j):
    """Term j built from its defining conditions, not from Harrell's closed form."""
    t = np.asarray(knots, dtype=float)
    k = len(t)
    # Linear beyond t_k: the cubic coefficients sum to 0 and so do their (coefficient * knot) products.
    c_before, c_last = np.linalg.solve(
        np.array([[1.0, 1.0], [t[k - 2], t[k - 1]]]), np.array([-1.0, -t[j]])
    )
    cube = lambda v: np.where(v > 0, v, 0.0) ** 3  # noqa: E731
    value = cube(x - t[j]) + c_before * cube(x - t[k - 2]) + c_last * cube(x - t[k - 1])
    return value / (t[k - 1] - t[0]) ** 2


def check_natural_spline(knots, j):
    t = np.asarray(knots, dtype=float)
    natural = CubicSpline(t, rcs_term(t, knots, j), bc_type="natural")
    inside = np.linspace(t[0], t[-1], 401)
    assert np.allclose(natural(inside), rcs_term(inside, knots, j), rtol=1e-12, atol=1e-12)
    beyond = t[-1] + np.array([0.5, 1.0, 2.0])
    linear = natural(t[-1]) + natural(t[-1], 1) * (beyond - t[-1])
    assert np.allclose(rcs_term(beyond, knots, j), linear, rtol=1e-12, atol=1e-12)
    assert np.all(rcs_term(t[0] - np.array([0.5, 3.0]), knots, j) == 0)


def spline_case(name, knots, xs):
    xs = rounded(xs)
    for j in range(len(knots) - 2):
        check_natural_spline(knots, j)
    terms = [[float(rcs_term(x, knots, j)) for j in range(len(knots) - 2)] for x in xs]
    return {"name": name, "knots": list(knots), "x": xs.tolist(), "terms": terms}


AGE_KNOTS = [23, 35, 50, 65, 80]
INCOME_KNOTS = [9.3, 10.0, 10.6, 11.1, 11.9]


def design_row(case):
    """The 20 columns of design.ts's documented layout."""
    u, age, size, tenure, urban, region, log_price = (
        case["u"],
        case["age"],
        case["size"],
        case["tenure"],
        case["urban"],
        case["region"],
        case["logPrice"],
    )
    centre = np.log(40_000)
    log_size = np.log(min(max(size, 1), 8))
    row = np.zeros(20)
    row[0] = 1
    row[1] = u - centre
    row[2:5] = [rcs_term(u, INCOME_KNOTS, j) for j in range(3)]
    row[5] = (age - 50) / 10
    row[6:9] = [rcs_term(age, AGE_KNOTS, j) for j in range(3)]
    row[9:11] = [log_size, log_size**2]
    if tenure == 1:
        row[11], row[13] = 1, u - centre
    if tenure == 2:
        row[12], row[14] = 1, u - centre
    row[15] = 1 if urban else 0
    if region >= 2:
        row[16 + region - 2] = 1
    row[19] = log_price
    return row.tolist()


DESIGN_INPUTS = [
    {"u": 10.5, "age": 44, "size": 3, "tenure": 0, "urban": True, "region": 1, "logPrice": 0.05},
    {"u": 8.2, "age": 19, "size": 1, "tenure": 1, "urban": False, "region": 2, "logPrice": -0.12},
    {"u": 11.4, "age": 67, "size": 2, "tenure": 2, "urban": True, "region": 3, "logPrice": 0.0},
    {"u": 12.6, "age": 91, "size": 11, "tenure": 1, "urban": True, "region": 4, "logPrice": 0.21},
    {"u": 10.0, "age": 35, "size": 0.5, "tenure": 2, "urban": False, "region": 4, "logPrice": -0.03},
]

# ---------------------------------------------------------------- raking

AGE_CUT_BOUNDS = [0, 25, 35, 45, 55, 65, 75, 200]
DIMENSION_SIZES = {"age": 7, "tenure": 2, "region": 4, "area": 2, "composition": 3}


def raking_households(n):
    households = []
    for i in range(n):
        households.append(
            {
                "age": int(rng.integers(18, 95)),
                "isHomeowner": bool(rng.uniform() < 0.6),
                "region": int(rng.integers(0, 5)) if i % 25 == 0 else int(rng.integers(1, 5)),
                "urban": bool(rng.uniform() < 0.85),
                "famType": int(rng.integers(1, 10)),
                "weight": 0.0 if i % 40 == 7 else float(rounded(rng.uniform(2_000, 30_000), 2)),
            }
        )
    return households


def cut_of(h, dimension):
    if dimension == "age":
        return int(np.searchsorted(AGE_CUT_BOUNDS, h["age"], side="right") - 1)
    if dimension == "tenure":
        return 1 if h["isHomeowner"] else 0
    if dimension == "region":
        return h["region"] - 1
    if dimension == "area":
        return 1 if h["urban"] else 0
    return 0 if h["famType"] <= 5 else 1 if h["famType"] <= 7 else 2


def rake(households, counts):
    inside = [i for i, h in enumerate(households) if h["region"] > 0 and h["weight"] > 0]
    d = np.array([households[i]["weight"] for i in inside])
    total = d.sum()
    dims = list(DIMENSION_SIZES)
    offsets = np.cumsum([0] + [DIMENSION_SIZES[k] for k in dims])
    # Indicator matrix: one column per cut of every dimension.
    m = np.zeros((len(inside), offsets[-1]))
    for r, i in enumerate(inside):
        for k, dim in enumerate(dims):
            m[r, offsets[k] + cut_of(households[i], dim)] = 1
    # Solved in shares (weights / total) so the dual is well scaled.
    targets = np.concatenate([np.array(counts[dim]) / sum(counts[dim]) for dim in dims])
    d = d / total
    # Each dimension's indicators sum to 1, so all but the first dimension drop their first cut.
    free = [c for c in range(offsets[-1]) if c < offsets[1] or c not in offsets[1:-1]]
    mf, tf = m[:, free], targets[free]

    def dual(lam):
        return np.sum(d * np.exp(mf @ lam)) - lam @ tf

    def gradient(lam):
        return mf.T @ (d * np.exp(mf @ lam)) - tf

    def hessian(lam):
        return mf.T @ (mf * (d * np.exp(mf @ lam))[:, None])

    result = minimize(
        dual,
        np.zeros(len(free)),
        jac=gradient,
        hess=hessian,
        method="trust-exact",
        options={"gtol": 1e-10, "maxiter": 500},
    )
    assert np.max(np.abs(gradient(result.x))) < 1e-8, result.message
    lam = result.x
    for _ in range(2):
        lam = lam - np.linalg.solve(hessian(lam), gradient(lam))
    raked = d * np.exp(mf @ lam)
    assert np.allclose(m.T @ raked, targets, rtol=1e-11, atol=0), "dual optimum misses a margin"

    ipf = d.copy()
    for _ in range(2_000):
        for k in range(len(dims)):
            block = m[:, offsets[k] : offsets[k + 1]]
            ipf *= block @ (targets[offsets[k] : offsets[k + 1]] / (block.T @ ipf))
    assert np.allclose(ipf, raked, rtol=1e-9, atol=0), "IPF disagrees with the dual optimum"

    weights = [h["weight"] for h in households]
    for r, i in enumerate(inside):
        weights[i] = float(raked[r] * total)
    return weights


def raking_case():
    households = raking_households(400)
    # Published-like counts: each cut's share moved from the sample's by a factor between 0.7 and 1.4 (as
    # 2023 differs from 2014), so the margins are consistent with one another and raking has a solution.
    counts = {}
    for dim, size in DIMENSION_SIZES.items():
        sample = np.zeros(size)
        for h in households:
            if h["region"] > 0:
                sample[cut_of(h, dim)] += h["weight"]
        counts[dim] = rounded(sample / sample.sum() * rng.uniform(0.7, 1.4, size) * 1e5, 0).tolist()
    return {"households": households, "counts": counts, "weights": rake(households, counts)}


# ---------------------------------------------------------------- output

reference = {
    "provenance": {
        "command": "python3 test/jobs/build-model/reference/make-reference.py > test/jobs/build-model/reference/numerical-core.json",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seed": 20261126,
    },
    "glm": [
        glm_case("poisson, dollar-scale y with zeros, offset, some zero weights", "log", 300, 4_000, True),
        glm_case("poisson, y near 1, no offset", "log", 200, 1, False),
        glm_case("logistic, binary y, offset, some zero weights", "logit", 400, 1, True),
    ],
    "spline": [
        spline_case("age knots", AGE_KNOTS, np.concatenate([[10, 23, 35, 50, 65, 80, 95], rng.uniform(15, 100, 12)])),
        spline_case("income knots", INCOME_KNOTS, np.concatenate([INCOME_KNOTS, [8.0, 13.0], rng.uniform(8.5, 12.8, 10)])),
    ],
    "design": {
        "incomeKnots": INCOME_KNOTS,
        "rows": [{"input": case, "row": design_row(case)} for case in DESIGN_INPUTS],
    },
    "raking": raking_case(),
}
# One line per list of numbers keeps the file short and its diffs readable.
text = json.dumps(reference, indent=1)
text = re.sub(r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]", lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
sys.stdout.write(text + "\n")

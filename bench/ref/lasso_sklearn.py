#!/usr/bin/python3
"""scikit-learn's LASSO path on the problem bench/model.c writes, for `make bench`.

usage: lasso_sklearn.py FILE TOL MAXITER [TOL MAXITER ...]

FILE holds little-endian doubles: n, p, L, then L lambdas (decreasing), x (n*p, column-major),
y (n). For each TOL MAXITER pair, solves at every lambda, with warm starts along the path,
    min 1/(2n) ||y - a0 - x beta||^2 + lambda sum_j |beta_j| sd_j      (sd: population)
which is lasso_path on the standardised columns z_j = (x_j - mean_j) / sd_j and the centred y
(lasso_path fits no intercept; constant columns are left out with beta_j = 0, as lasso.c does).
The timed part is that standardisation plus lasso_path, in CPU seconds (time.process_time); it
is repeated up to 3 times while the runs so far took under a second, and the median printed.

Prints "tool scikit-learn VERSION", then for each pair:
    run SECONDS RUNS NOT_CONVERGED      (NOT_CONVERGED: lambdas with a ConvergenceWarning)
    a0 L INTERCEPT                      (one per lambda, 0-based L)
    b L J COEF                          (nonzero coefficients in the units of x, 0-based J)
    end
"""
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import lasso_path


def load(path):
    """Returns lambdas, x (n*p, Fortran order) and y from FILE."""
    v = np.fromfile(path, dtype="<f8")
    n, p, nl = int(v[0]), int(v[1]), int(v[2])
    lambdas = v[3:3 + nl].copy()
    x = v[3 + nl:3 + nl + n * p].reshape((n, p), order="F")
    y = v[3 + nl + n * p:3 + nl + n * p + n].copy()
    return lambdas, x, y


def solve(x, y, lambdas, tol, max_iter):
    """Returns (coefs in the units of x, p*L; intercepts, L; lambdas not converged)."""
    n, p = x.shape
    mean, sd = x.mean(axis=0), x.std(axis=0)
    keep = sd > 1e-13 * (np.abs(mean) + 1e-300)
    z = np.asfortranarray((x[:, keep] - mean[keep]) / sd[keep])
    ybar = y.mean()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        _, coefs, _ = lasso_path(z, y - ybar, alphas=lambdas, tol=tol, max_iter=max_iter)
    beta = np.zeros((p, len(lambdas)))
    beta[keep, :] = coefs / sd[keep][:, None]
    a0 = ybar - mean @ beta
    bad = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
    return beta, a0, bad


def main():
    """Runs every TOL MAXITER pair of the command line; returns the exit status."""
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    lambdas, x, y = load(sys.argv[1])
    out = sys.stdout
    out.write("tool scikit-learn %s\n" % sklearn.__version__)
    for i in range(2, len(sys.argv), 2):
        tol, max_iter = float(sys.argv[i]), int(sys.argv[i + 1])
        times = []
        while len(times) < 3 and (not times or sum(times) < 1.0):
            start = time.process_time()
            beta, a0, bad = solve(x, y, lambdas, tol, max_iter)
            times.append(time.process_time() - start)
        out.write("run %.6f %d %d\n" % (float(np.median(times)), len(times), bad))
        for l in range(len(lambdas)):
            out.write("a0 %d %.17g\n" % (l, a0[l]))
        rows, cols = np.nonzero(beta)
        for j, l in sorted(zip(rows, cols), key=lambda t: (t[1], t[0])):
            out.write("b %d %d %.17g\n" % (l, j, beta[j, l]))
        out.write("end\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

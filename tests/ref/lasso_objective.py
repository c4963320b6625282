#!/usr/bin/python3
"""Reference LASSO objectives from scikit-learn, for tests/unit/test_learn.c.

Reads on stdin: "n p L", then L lambdas, then n rows of p features and y (whitespace separated).
Solves, at each lambda, the problem mantis's lasso.c solves (glmnet's standardize=TRUE form):
    min 1/(2n) ||y - a0 - Z b||^2 + lambda ||b||_1,  Z = standardised columns (population sd),
with scikit-learn's coordinate descent at tolerance 1e-12 (its duality-gap test cannot reach
much below in double precision) and warm starts along the path, and
prints one objective value per lambda (17 significant digits).
"""
import sys
import warnings
import numpy as np
from sklearn.linear_model import lasso_path

words = sys.stdin.read().split()
n, p, nl = int(words[0]), int(words[1]), int(words[2])
lambdas = np.array(words[3:3 + nl], dtype=float)
data = np.array(words[3 + nl:], dtype=float).reshape(n, p + 1)
x, y = data[:, :p], data[:, p]
sd = x.std(axis=0)
keep = sd > 1e-13 * (np.abs(x.mean(axis=0)) + 1e-300)
z = (x[:, keep] - x[:, keep].mean(axis=0)) / sd[keep]
yc = y - y.mean()
warnings.simplefilter("ignore")
_, coefs, _ = lasso_path(z, yc, alphas=lambdas, tol=1e-12, max_iter=10**5)
for i, lam in enumerate(lambdas):
    b = coefs[:, i]
    r = yc - z @ b
    print("%.17g" % (r @ r / (2 * n) + lam * np.abs(b).sum()))

# R glmnet's LASSO path on the problem bench/model.c writes, for `make bench`.
#
# usage: Rscript lasso_glmnet.R FILE THRESH MAXIT [THRESH MAXIT ...]
#
# FILE holds little-endian doubles: n, p, L, then L lambdas (decreasing), x (n*p, column-major),
# y (n). For each THRESH MAXIT pair, runs glmnet(x, y, lambda = those lambdas, standardize =
# TRUE) with its default algorithm choice (covariance updates below 500 columns, naive above),
# which minimises 1/(2n) RSS + lambda sum_j |beta_j| sd_j with population sd, the objective of
# lasso.c (bench/model.c checks that on the numbers). Early path stops are switched off
# (glmnet.control(fdev = 0, devmax = 1)) so every lambda is solved. The timed part is the glmnet
# call, in CPU seconds (user + system); it is repeated up to 3 times while the runs so far took
# under a second, and the median printed.
#
# Prints "tool glmnet VERSION", then for each pair:
#     run SECONDS RUNS NOT_CONVERGED   (NOT_CONVERGED: lambdas glmnet did not return, jerr < 0)
#     a0 L INTERCEPT                   (one per lambda returned, 0-based L)
#     b L J COEF                       (nonzero coefficients in the units of x, 0-based J)
#     end
suppressPackageStartupMessages(library(glmnet))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3 || length(args) %% 2 != 1) {
	cat("usage: Rscript lasso_glmnet.R FILE THRESH MAXIT [THRESH MAXIT ...]\n", file = stderr())
	quit(status = 2)
}

# Returns list(lambda, x, y) from FILE.
load <- function(path) {
	con <- file(path, "rb")
	on.exit(close(con))
	head <- readBin(con, "double", 3, endian = "little")
	n <- head[1]; p <- head[2]; nl <- head[3]
	lambda <- readBin(con, "double", nl, endian = "little")
	x <- matrix(readBin(con, "double", n * p, endian = "little"), n, p)
	y <- readBin(con, "double", n, endian = "little")
	list(lambda = lambda, x = x, y = y)
}

# Returns the CPU seconds of one glmnet fit and the fit, as list(seconds, fit).
timed_fit <- function(d, thresh, maxit) {
	fit <- NULL
	t <- system.time(fit <- glmnet(d$x, d$y, family = "gaussian", alpha = 1, lambda = d$lambda,
				       standardize = TRUE, intercept = TRUE, thresh = thresh,
				       maxit = maxit))
	list(seconds = t[["user.self"]] + t[["sys.self"]], fit = fit)
}

glmnet.control(fdev = 0, devmax = 1)
d <- load(args[1])
cat(sprintf("tool glmnet %s\n", as.character(packageVersion("glmnet"))))
for (i in seq(2, length(args), by = 2)) {
	thresh <- as.numeric(args[i]); maxit <- as.integer(args[i + 1])
	times <- c()
	while (length(times) < 3 && (length(times) == 0 || sum(times) < 1)) {
		r <- suppressWarnings(timed_fit(d, thresh, maxit))
		times <- c(times, r$seconds)
	}
	fit <- r$fit
	nl <- length(fit$lambda)
	cat(sprintf("run %.6f %d %d\n", median(times), length(times), length(d$lambda) - nl))
	cat(sprintf("a0 %d %.17g\n", seq_len(nl) - 1, fit$a0), sep = "")
	b <- summary(fit$beta)
	b <- b[b$x != 0, , drop = FALSE]
	b <- b[order(b$j, b$i), , drop = FALSE]
	if (nrow(b) > 0)
		cat(sprintf("b %d %d %.17g\n", b$j - 1, b$i - 1, b$x), sep = "")
	cat("end\n")
}

/*
 * space.c: parameter spaces of mantis explore (Westermann et al. 2012, 004_ section 3.1.2:
 * "P, the set of all possible measurement points in the parameter space with normalised
 * values").
 *
 * Parsing: NAME is a C identifier; SPEC lo:hi[:step] is an integer range (step > 0, hi - lo a
 * multiple of it), or a real range when a bound holds '.', 'e' or 'E'; bool / bool:WORD a
 * boolean; anything with a comma an enumeration of distinct words. Invariant: an integer
 * parameter's admissible values are lo + k step, k = 0..K-1, K = (hi - lo) / step + 1, at
 * coordinates k / (K - 1) (coordinate 0 when K = 1).
 */
#include "space.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

/* Parses a whole number into *v; returns 1 on success. */
static int parse_number(const char *s, double *v, int *real)
{
	char *end;

	if (!*s)
		return 0;
	*v = strtod(s, &end);
	if (*end || !isfinite(*v))
		return 0;
	if (strpbrk(s, ".eE"))
		*real = 1;
	return 1;
}

/* Parses an integer or real range spec into p. Returns 0 or -1 with err naming p. */
static int parse_range(struct space_param *p, const char *spec, struct error *err)
{
	char *copy = xstrdup(spec), *parts[4] = {0};
	int np = 0, real = 0, rc = 0;

	for (char *t = copy, *c; np < 4; t = c + 1) {
		parts[np++] = t;
		if (!(c = strchr(t, ':')))
			break;
		*c = '\0';
	}
	p->step = 1;
	if (np < 2 || np > 3 || !parse_number(parts[0], &p->lo, &real) || !parse_number(parts[1], &p->hi, &real) ||
	    (np == 3 && !parse_number(parts[2], &p->step, &real)))
		rc = error_set(err, "parameter '%s': '%s' is not lo:hi[:step] (numbers)", p->name, spec);
	else if (p->lo > p->hi)
		rc = error_set(err, "parameter '%s': lo %g is above hi %g", p->name, p->lo, p->hi);
	else if (real && np == 3)
		rc = error_set(err, "parameter '%s': a step is for integer ranges only", p->name);
	else if (!real && (p->lo != floor(p->lo) || p->hi != floor(p->hi) || p->step != floor(p->step)))
		rc = error_set(err, "parameter '%s': integer bounds and step expected in '%s'", p->name, spec);
	else if (!(p->step > 0))
		rc = error_set(err, "parameter '%s': the step must be positive", p->name);
	else if (!real && fmod(p->hi - p->lo, p->step) != 0)
		rc = error_set(err, "parameter '%s': hi - lo (%g) is not a multiple of the step %g", p->name,
			       p->hi - p->lo, p->step);
	p->kind = real ? SPACE_REAL : SPACE_INT;
	free(copy);
	return rc;
}

/* Appends the n bytes at w as a word of p (copied; the list stays NULL-terminated). */
static void add_word(struct space_param *p, const char *w, size_t n)
{
	p->words = xrealloc(p->words, sizeof *p->words * (size_t)(p->nwords + 2));
	p->words[p->nwords] = xmalloc(n + 1);
	memcpy(p->words[p->nwords], w, n);
	p->words[p->nwords++][n] = '\0';
	p->words[p->nwords] = NULL;
}

/* Parses a,b,c into p's words. Returns 0 or -1 with err (an empty or repeated word). */
static int parse_enum(struct space_param *p, const char *spec, struct error *err)
{
	p->kind = SPACE_ENUM;
	for (const char *t = spec;; t++) {
		const char *c = strchr(t, ',');
		size_t n = c ? (size_t)(c - t) : strlen(t);

		if (n == 0)
			return error_set(err, "parameter '%s': empty value in '%s'", p->name, spec);
		add_word(p, t, n);
		for (int k = 0; k < p->nwords - 1; k++) {
			if (strcmp(p->words[k], p->words[p->nwords - 1]) == 0)
				return error_set(err, "parameter '%s': value '%s' is given twice", p->name,
						 p->words[k]);
		}
		if (!c)
			break;
		t = c;
	}
	return 0;
}

/* Returns whether the n bytes at s are a C identifier. */
static int valid_name(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	}
	return 1;
}

int space_add(struct space *s, const char *arg, struct error *err)
{
	const char *eq = strchr(arg, '=');
	struct space_param p = {0};
	int rc;

	if (!eq || !valid_name(arg, (size_t)(eq - arg)))
		return error_set(err, "'%s' is not NAME=SPEC with NAME a letter or _ then letters, digits, _", arg);
	p.name = xmalloc((size_t)(eq - arg) + 1);
	memcpy(p.name, arg, (size_t)(eq - arg));
	p.name[eq - arg] = '\0';
	if (space_find(s, p.name) >= 0) {
		rc = error_set(err, "parameter '%s' is given twice", p.name);
	} else if (strcmp(eq + 1, "bool") == 0 || strncmp(eq + 1, "bool:", 5) == 0) {
		p.kind = SPACE_BOOL;
		add_word(&p, eq[5] ? "" : "0", eq[5] ? 0 : 1);
		add_word(&p, eq[5] ? eq + 6 : "1", eq[5] ? strlen(eq + 6) : 1);
		rc = eq[5] && !eq[6] ? error_set(err, "parameter '%s': bool: needs a word", p.name) : 0;
	} else if (strchr(eq + 1, ',')) {
		rc = parse_enum(&p, eq + 1, err);
	} else {
		rc = parse_range(&p, eq + 1, err);
	}
	if (rc < 0) {
		for (int k = 0; k < p.nwords; k++)
			free(p.words[k]);
		free(p.words);
		free(p.name);
		return -1;
	}
	s->v = xrealloc(s->v, sizeof *s->v * (size_t)(s->d + 1));
	s->v[s->d++] = p;
	return 0;
}

int space_find(const struct space *s, const char *name)
{
	for (int j = 0; j < s->d; j++) {
		if (strcmp(s->v[j].name, name) == 0)
			return j;
	}
	return -1;
}

void space_release(struct space *s)
{
	for (int j = 0; j < s->d; j++) {
		for (int k = 0; k < s->v[j].nwords; k++)
			free(s->v[j].words[k]);
		free(s->v[j].words);
		free(s->v[j].name);
	}
	free(s->v);
	memset(s, 0, sizeof *s);
}

int space_levels(const struct space *s, int j)
{
	const struct space_param *p = &s->v[j];

	switch (p->kind) {
	case SPACE_INT: return (int)((p->hi - p->lo) / p->step + 0.5) + 1;
	case SPACE_REAL: return p->lo == p->hi ? 1 : 0;
	default: return p->nwords;
	}
}

double space_size(const struct space *s)
{
	double n = 1;

	for (int j = 0; j < s->d; j++)
		n *= space_levels(s, j);
	return n;
}

/* Returns the level index of coordinate u for a parameter of k levels. */
static int level(double u, int k)
{
	int i = (int)floor(u * (k - 1) + 0.5);

	return i < 0 ? 0 : i > k - 1 ? k - 1 : i;
}

double space_snap(const struct space *s, int j, double u)
{
	int k = space_levels(s, j);

	if (k == 0)
		return u < 0 ? 0 : u > 1 ? 1 : u;
	return k == 1 ? 0 : (double)level(u, k) / (k - 1);
}

double space_value(const struct space *s, int j, double u)
{
	const struct space_param *p = &s->v[j];
	int k = space_levels(s, j);

	if (p->kind == SPACE_REAL)
		return p->lo + space_snap(s, j, u) * (p->hi - p->lo);
	if (p->kind == SPACE_INT)
		return p->lo + level(u, k) * p->step;
	return level(u, k);
}

void space_range(const struct space *s, double *lo, double *hi)
{
	for (int j = 0; j < s->d; j++) {
		lo[j] = space_value(s, j, 0);
		hi[j] = space_value(s, j, 1);
	}
}

char *space_word(const struct space *s, int j, double u)
{
	const struct space_param *p = &s->v[j];

	if (p->kind == SPACE_ENUM || p->kind == SPACE_BOOL)
		return xstrdup(p->words[level(u, p->nwords)]);
	if (p->kind == SPACE_INT)
		return xasprintf("%.0f", space_value(s, j, u));
	return xasprintf("%.17g", space_value(s, j, u));
}

/* Returns the parameter whose {NAME} starts at t (t[0] == '{'), or -1; *len gets its length. */
static int reference_at(const struct space *s, const char *t, size_t *len)
{
	const char *close = strchr(t, '}');

	if (!close)
		return -1;
	*len = (size_t)(close - t) + 1;
	for (int j = 0; j < s->d; j++) {
		if (strlen(s->v[j].name) == *len - 2 && strncmp(t + 1, s->v[j].name, *len - 2) == 0)
			return j;
	}
	return -1;
}

char **space_substitute(const struct space *s, const double *u, char *const *words, int n, int *nout)
{
	char **out = xcalloc((size_t)n + 1, sizeof *out);

	*nout = 0;
	for (int i = 0; i < n; i++) {
		struct strbuf sb = {0};
		int whole = 0;

		strbuf_add(&sb, "", 0);
		for (const char *t = words[i]; *t;) {
			size_t len;
			int j = *t == '{' ? reference_at(s, t, &len) : -1;

			if (j < 0) {
				strbuf_addch(&sb, *t++);
				continue;
			}
			{
				char *w = space_word(s, j, u[j]);

				strbuf_add(&sb, w, strlen(w));
				free(w);
			}
			whole = t == words[i] && t[len] == '\0';
			t += len;
		}
		if (whole && sb.len == 0) {
			strbuf_release(&sb);
			continue;
		}
		out[(*nout)++] = strbuf_detach(&sb);
	}
	return out;
}

int space_check_words(const struct space *s, char *const *words, int n, const char *const *keep,
		      struct error *err)
{
	for (int i = 0; i < n; i++) {
		for (const char *t = strchr(words[i], '{'); t; t = strchr(t + 1, '{')) {
			const char *close = strchr(t, '}');
			size_t len;
			int known = 0;

			if (!close)
				break;
			if (reference_at(s, t, &len) >= 0)
				continue;
			for (int k = 0; keep && keep[k]; k++)
				known |= strlen(keep[k]) == (size_t)(close - t - 1) && strncmp(t + 1, keep[k], strlen(keep[k])) == 0;
			if (!known)
				return error_set(err, "'%.*s' in '%s' is not a parameter (give it with --param %.*s=...)",
						 (int)(close - t + 1), t, words[i], (int)(close - t - 1), t + 1);
		}
	}
	return 0;
}

int space_used(const struct space *s, int j, char *const *words, int n)
{
	char *ref = xasprintf("{%s}", s->v[j].name);
	int used = 0;

	for (int i = 0; i < n && !used; i++)
		used = strstr(words[i], ref) != NULL;
	free(ref);
	return used;
}

char *space_describe(const struct space *s, const double *u)
{
	struct strbuf sb = {0};

	strbuf_add(&sb, "", 0);
	for (int j = 0; j < s->d; j++) {
		char *w = space_word(s, j, u[j]);

		if (j)
			strbuf_add(&sb, ", ", 2);
		strbuf_add(&sb, s->v[j].name, strlen(s->v[j].name));
		strbuf_addch(&sb, '=');
		strbuf_add(&sb, w, strlen(w));
		free(w);
	}
	return strbuf_detach(&sb);
}

/*
 * manifest.c: features.json and the counters file.
 *
 * features.json: {"build_id": "<16 hex digits>", "counters": N, "features": [{"id", "name",
 * "kind", "function", "file", "line", "variable"?, "description", "terms": [[counter, coef],
 * ...], "per": counter?, "shift": S?}, ...]}; "id" is the feature's position; "shift" (absent:
 * 0) divides the value by 2^S, for fixed-point values. The build id is kept as a string
 * because JSON numbers lose 64-bit integers. "dropped_counters": [c, ...] (absent: none) lists
 * the counters the overhead budget removed from the build (budget.c).
 */
#include "manifest.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

struct feature *manifest_add(struct manifest *m, const char *kind, const char *name,
			     const char *function, const char *file, int line,
			     const char *variable, const char *description)
{
	struct feature *f;

	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = xrealloc(m->v, sizeof *m->v * (size_t)m->cap);
	}
	f = &m->v[m->n++];
	memset(f, 0, sizeof *f);
	f->kind = xstrdup(kind);
	f->name = xstrdup(name);
	f->function = xstrdup(function);
	f->file = xstrdup(file);
	f->line = line;
	f->variable = variable ? xstrdup(variable) : NULL;
	f->description = xstrdup(description);
	f->denominator = -1;
	return f;
}

void feature_add_term(struct feature *f, int counter, int64_t coef)
{
	for (int t = 0; t < f->nterms; t++) {
		if (f->terms[t].counter == counter) {
			f->terms[t].coef += coef;
			return;
		}
	}
	f->terms = xrealloc(f->terms, sizeof *f->terms * (size_t)(f->nterms + 1));
	f->terms[f->nterms++] = (struct feature_term){counter, coef};
}

/* Returns whether some counter appears twice among f's terms and terms[0..n): a mark per
 * counter, linear (a feature of a whole program's count has a term per block: thousands). */
static int repeats_counter(const struct feature *f, const struct feature_term *terms, int n)
{
	int most = -1, repeated = 0;
	unsigned char *seen;

	for (int t = 0; t < f->nterms; t++)
		most = f->terms[t].counter > most ? f->terms[t].counter : most;
	for (int t = 0; t < n; t++)
		most = terms[t].counter > most ? terms[t].counter : most;
	seen = xcalloc((size_t)most + 2, 1);
	for (int t = 0; t < f->nterms + n && !repeated; t++) {
		int c = t < f->nterms ? f->terms[t].counter : terms[t - f->nterms].counter;

		repeated = seen[c];
		seen[c] = 1;
	}
	free(seen);
	return repeated;
}

void feature_add_terms(struct feature *f, const struct feature_term *terms, int n)
{
	if (n == 0) /* terms may then be NULL, which memcpy may not be given */
		return;
	if (repeats_counter(f, terms, n)) { /* rare: merge them in order, one by one */
		for (int t = 0; t < n; t++)
			feature_add_term(f, terms[t].counter, terms[t].coef);
		return;
	}
	f->terms = xrealloc(f->terms, sizeof *f->terms * (size_t)(f->nterms + n + 1));
	memcpy(f->terms + f->nterms, terms, sizeof *terms * (size_t)n);
	f->nterms += n;
}

uint64_t feature_sum(const struct feature *f, const uint64_t *counters)
{
	uint64_t sum = 0;

	for (int t = 0; t < f->nterms; t++)
		sum += (uint64_t)f->terms[t].coef * counters[f->terms[t].counter];
	return sum;
}

double feature_value(const struct feature *f, const uint64_t *counters)
{
	uint64_t sum = feature_sum(f, counters);
	double v = (double)(int64_t)sum;

	if (f->denominator >= 0) {
		uint64_t den = counters[f->denominator];

		v = den ? v / (double)den : 0;
	}
	return f->shift ? ldexp(v, -f->shift) : v;
}

static const char *str(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

void manifest_set_build(struct manifest *m, unsigned schemes, const char *opt,
			char *const *ldflags, int nldflags, const char *program)
{
	m->schemes = schemes;
	m->opt = xstrdup(opt);
	m->program = program ? xstrdup(program) : NULL;
	m->ldflags = xcalloc((size_t)nldflags + 1, sizeof *m->ldflags);
	for (int i = 0; i < nldflags; i++)
		m->ldflags[i] = xstrdup(ldflags[i]);
	m->nldflags = nldflags;
}

/* Returns the "build" object: how to rebuild this program. */
static json_t *build_json(const struct manifest *m)
{
	json_t *b = json_object(), *flags = json_array();

	json_object_set_new(b, "schemes", json_integer(m->schemes));
	json_object_set_new(b, "opt", json_string(m->opt ? m->opt : "2"));
	if (m->program)
		json_object_set_new(b, "program", json_string(m->program));
	for (int i = 0; i < m->nldflags; i++)
		json_array_append_new(flags, json_string(m->ldflags[i]));
	json_object_set_new(b, "ldflags", flags);
	return b;
}

/* Reads the "build" object if there is one (builds made before it existed have none). */
static void read_build(struct manifest *m, json_t *b)
{
	json_t *flags = json_object_get(b, "ldflags"), *f;
	size_t i;

	if (!json_is_object(b))
		return;
	m->schemes = (unsigned)json_integer_value(json_object_get(b, "schemes"));
	m->opt = xstrdup(str(b, "opt") ? str(b, "opt") : "2");
	m->program = str(b, "program") ? xstrdup(str(b, "program")) : NULL;
	m->ldflags = xcalloc(json_array_size(flags) + 1, sizeof *m->ldflags);
	json_array_foreach(flags, i, f) {
		if (json_is_string(f))
			m->ldflags[m->nldflags++] = xstrdup(json_string_value(f));
	}
}

int manifest_write(const struct manifest *m, const char *path, struct error *err)
{
	json_t *root = json_object(), *features = json_array();
	char id[32];
	int rc;

	snprintf(id, sizeof id, "%016" PRIx64, m->build_id);
	json_object_set_new(root, "build_id", json_string(id));
	json_object_set_new(root, "counters", json_integer(m->ncounters));
	if (m->schemes)
		json_object_set_new(root, "build", build_json(m));
	for (int i = 0; i < m->n; i++) {
		const struct feature *f = &m->v[i];
		json_t *jf = json_object(), *terms = json_array();

		json_object_set_new(jf, "id", json_integer(i));
		json_object_set_new(jf, "name", json_string(f->name));
		json_object_set_new(jf, "kind", json_string(f->kind));
		json_object_set_new(jf, "function", json_string(f->function));
		json_object_set_new(jf, "file", json_string(f->file));
		json_object_set_new(jf, "line", json_integer(f->line));
		if (f->variable)
			json_object_set_new(jf, "variable", json_string(f->variable));
		json_object_set_new(jf, "description", json_string(f->description));
		for (int t = 0; t < f->nterms; t++) {
			json_array_append_new(terms, json_integer(f->terms[t].counter));
			json_array_append_new(terms, json_integer(f->terms[t].coef));
		}
		json_object_set_new(jf, "terms", terms);
		if (f->denominator >= 0)
			json_object_set_new(jf, "per", json_integer(f->denominator));
		if (f->shift)
			json_object_set_new(jf, "shift", json_integer(f->shift));
		json_array_append_new(features, jf);
	}
	json_object_set_new(root, "features", features);
	if (m->ndropped) {
		json_t *dropped = json_array();

		for (int i = 0; i < m->ndropped; i++)
			json_array_append_new(dropped, json_integer(m->dropped[i]));
		json_object_set_new(root, "dropped_counters", dropped);
	}
	rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_COMPACT);
	json_decref(root);
	if (rc < 0)
		return error_errno(err, "cannot write %s", path);
	return 0;
}


/* Reads a feature's "terms" into read[0..): counter, coef, counter, coef... (older files: pairs
 * [counter, coef], one array each, which took a third more of the time to parse). Returns how
 * many terms, or -1 when one is malformed or its counter is out of range. */
static int read_terms(const struct manifest *m, json_t *terms, struct feature_term *read)
{
	int pairs = json_is_array(json_array_get(terms, 0)), n = 0;
	size_t size = json_array_size(terms), step = pairs ? 1 : 2;

	if (!pairs && size % 2)
		return -1;
	for (size_t t = 0; t < size; t += step, n++) {
		json_t *c = pairs ? json_array_get(json_array_get(terms, t), 0) : json_array_get(terms, t);
		json_t *k = pairs ? json_array_get(json_array_get(terms, t), 1)
				  : json_array_get(terms, t + 1);

		if (!json_is_integer(c) || !json_is_integer(k) || json_integer_value(c) < 0 ||
		    json_integer_value(c) >= m->ncounters)
			return -1;
		read[n] = (struct feature_term){(int)json_integer_value(c), json_integer_value(k)};
	}
	return n;
}

/* Reads one feature entry. Returns 0 or -1 with err set. */
static int read_feature(struct manifest *m, json_t *jf, size_t i, const char *path,
			struct error *err)
{
	const char *name = str(jf, "name"), *kind = str(jf, "kind");
	json_t *terms = json_object_get(jf, "terms"), *per = json_object_get(jf, "per");
	json_t *shift = json_object_get(jf, "shift");
	struct feature_term *read;
	struct feature *f;
	int n;

	if (!name || !kind || !json_is_array(terms))
		return error_set(err, "%s: features[%zu] needs \"name\", \"kind\" and \"terms\"", path, i);
	f = manifest_add(m, kind, name, str(jf, "function") ? str(jf, "function") : "?",
			 str(jf, "file") ? str(jf, "file") : "?",
			 (int)json_integer_value(json_object_get(jf, "line")), str(jf, "variable"),
			 str(jf, "description") ? str(jf, "description") : "");
	read = xmalloc(sizeof *read * (json_array_size(terms) + 1));
	if ((n = read_terms(m, terms, read)) < 0) {
		free(read);
		return error_set(err, "%s: feature %s: a term is not a counter in range and a "
				 "coefficient", path, name);
	}
	feature_add_terms(f, read, n);
	free(read);
	if (json_is_integer(per)) {
		if (json_integer_value(per) < 0 || json_integer_value(per) >= m->ncounters)
			return error_set(err, "%s: feature %s: counter out of range", path, name);
		f->denominator = (int)json_integer_value(per);
	}
	if (shift && (!json_is_integer(shift) || json_integer_value(shift) < 0 ||
		      json_integer_value(shift) > 62))
		return error_set(err, "%s: feature %s: \"shift\" must be an integer from 0 to 62", path,
				 name);
	f->shift = (int)json_integer_value(shift);
	return 0;
}

/* Reads "dropped_counters" (absent: none). Returns 0, or -1 naming path. */
static int read_dropped(struct manifest *m, json_t *list, const char *path, struct error *err)
{
	json_t *c;
	size_t i;

	if (!list)
		return 0;
	if (!json_is_array(list))
		return error_set(err, "%s: \"dropped_counters\" is not a list", path);
	m->dropped = xcalloc(json_array_size(list) + 1, sizeof *m->dropped);
	json_array_foreach(list, i, c) {
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) >= m->ncounters)
			return error_set(err, "%s: dropped counter %zu out of range", path, i);
		m->dropped[m->ndropped++] = (int)json_integer_value(c);
	}
	return 0;
}

int manifest_read(struct manifest *m, const char *path, struct error *err)
{
	json_error_t jerr;
	size_t len;
	char *text = read_file(path, &len, "", err); /* json_loadf reads a
									* character a call */
	json_t *root = text ? json_loadb(text, len, 0, &jerr) : NULL, *features, *jf;
	const char *id;
	size_t i;

	memset(m, 0, sizeof *m);
	if (!text)
		return -1;
	free(text);
	if (!root)
		return error_set(err, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	features = json_object_get(root, "features");
	id = str(root, "build_id");
	if (!json_is_array(features) || !id || !json_is_integer(json_object_get(root, "counters"))) {
		json_decref(root);
		return error_set(err, "%s: not a mantis features manifest", path);
	}
	m->build_id = strtoull(id, NULL, 16);
	m->ncounters = (int)json_integer_value(json_object_get(root, "counters"));
	read_build(m, json_object_get(root, "build"));
	if (read_dropped(m, json_object_get(root, "dropped_counters"), path, err) < 0) {
		json_decref(root);
		manifest_release(m);
		return -1;
	}
	json_array_foreach(features, i, jf) {
		if (read_feature(m, jf, i, path, err) < 0) {
			json_decref(root);
			manifest_release(m);
			return -1;
		}
	}
	json_decref(root);
	manifest_index(m);
	return 0;
}

void manifest_subset(const struct manifest *from, char *const *names, int n,
		     struct manifest *to)
{
	unsigned char *keep = xcalloc((size_t)from->n + 1, 1);

	memset(to, 0, sizeof *to);
	to->build_id = from->build_id;
	to->ncounters = from->ncounters;
	manifest_set_build(to, from->schemes, from->opt ? from->opt : "2", from->ldflags,
			   from->nldflags, from->program);
	if (from->ndropped > 0) {
		to->dropped = xcalloc((size_t)from->ndropped, sizeof *to->dropped);
		memcpy(to->dropped, from->dropped, sizeof *to->dropped * (size_t)from->ndropped);
		to->ndropped = from->ndropped;
	}
	for (int i = 0; i < n; i++) {
		int j = manifest_find(from, names[i]);

		if (j >= 0)
			keep[j] = 1;
	}
	for (int j = 0; j < from->n; j++) {
		const struct feature *f = &from->v[j];
		struct feature *copy;

		if (!keep[j])
			continue;
		copy = manifest_add(to, f->kind, f->name, f->function, f->file, f->line, f->variable,
				    f->description);
		feature_add_terms(copy, f->terms, f->nterms);
		copy->denominator = f->denominator;
		copy->shift = f->shift;
	}
	free(keep);
	manifest_index(to);
}

static const struct manifest *sorting; /* the manifest manifest_index sorts (qsort has no context) */

static int by_name_then_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b, c = strcmp(sorting->v[x].name, sorting->v[y].name);

	return c ? c : (x > y) - (x < y);
}

/* The index makes train's many lookups over a large program's manifest (the sqlite3 shell:
 * 96,353 features, one lookup per feature and decision) a binary search each. */
void manifest_index(struct manifest *m)
{
	free(m->by_name);
	m->by_name = xmalloc(sizeof *m->by_name * (size_t)(m->n + 1));
	for (int i = 0; i < m->n; i++)
		m->by_name[i] = i;
	sorting = m;
	qsort(m->by_name, (size_t)m->n, sizeof *m->by_name, by_name_then_index);
	sorting = NULL;
	m->nindexed = m->n;
}

int manifest_find(const struct manifest *m, const char *name)
{
	int lo = 0, hi = m->by_name ? m->nindexed : 0;

	while (lo < hi) { /* the first position whose name is not below name */
		int mid = lo + (hi - lo) / 2;

		if (strcmp(m->v[m->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m->by_name && lo < m->nindexed && strcmp(m->v[m->by_name[lo]].name, name) == 0)
		return m->by_name[lo];
	for (int i = m->by_name ? m->nindexed : 0; i < m->n; i++) {
		if (strcmp(m->v[i].name, name) == 0)
			return i;
	}
	return -1;
}

void feature_release(struct feature *f)
{
	free(f->name);
	free(f->kind);
	free(f->function);
	free(f->file);
	free(f->variable);
	free(f->description);
	free(f->terms);
}

void manifest_release(struct manifest *m)
{
	for (int i = 0; i < m->n; i++)
		feature_release(&m->v[i]);
	free(m->v);
	for (int i = 0; i < m->nldflags; i++)
		free(m->ldflags[i]);
	free(m->ldflags);
	free(m->opt);
	free(m->program);
	free(m->dropped);
	free(m->by_name);
	memset(m, 0, sizeof *m);
}

static uint64_t le64(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* Reads n little-endian words from f into v. Returns the number read. */
static uint64_t read_words(FILE *f, uint64_t *v, uint64_t n)
{
	unsigned char word[8];
	uint64_t i = 0;

	while (i < n && fread(word, 1, 8, f) == 8)
		v[i++] = le64(word);
	return i;
}

int counters_read(const struct manifest *m, const char *path, uint64_t **counters,
		  struct error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char head[24];
	uint64_t n, got, want, pair[2];
	int sparse;

	*counters = NULL;
	if (!f)
		return error_errno(err, "no counters from the instrumented program (%s)", path);
	if (fread(head, 1, sizeof head, f) != sizeof head ||
	    (memcmp(head, "MANTISC1", 8) != 0 && memcmp(head, "MANTISC2", 8) != 0)) {
		fclose(f);
		return error_set(err, "%s: not a mantis counters file", path);
	}
	sparse = head[7] == '2';
	n = le64(head + 16);
	if (le64(head + 8) != m->build_id || n != (uint64_t)m->ncounters) {
		fclose(f);
		return error_set(err, "%s: counters of another build (build id or count differs "
				 "from features.json)", path);
	}
	*counters = xcalloc((size_t)n + 1, sizeof **counters);
	if (!sparse) {
		want = n;
		got = read_words(f, *counters, n);
	} else {
		want = read_words(f, &want, 1) == 1 ? want : 1; /* no count: 0 of 1 read */
		for (got = 0; got < want && read_words(f, pair, 2) == 2 && pair[0] < n; got++)
			(*counters)[pair[0]] = pair[1];
	}
	fclose(f);
	if (got < want) {
		free(*counters);
		*counters = NULL;
		return error_set(err, "%s: truncated or out of range after %" PRIu64 " of %" PRIu64
				 " %s", path, got, want, sparse ? "pairs" : "counters");
	}
	return 0;
}

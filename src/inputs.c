/*
 * inputs.c: parser of inputs files.
 *
 * Each line is split into words by a subset of POSIX shell quoting (sh(1), "Quoting"): blanks
 * separate words; '...' is literal; "..." is literal but for \" \\ \$ \` escapes; a backslash
 * outside quotes takes the next byte literally; an unquoted `<` introduces the stdin file; `#` at
 * the start of a word begins a comment. What a shell would expand or interpret (pipes, output
 * redirection, variables, command substitution, separators) is refused with the line number, so a
 * line never silently means something other than it would at a prompt.
 *
 * Invariant: on success every input has argc >= 0 words, argv[argc] == NULL, and every relative
 * word that named an existing path when the file was read has become absolute.
 */
#include "inputs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "util.h"

/* State of splitting one line into words. */
struct line_parse {
	const char *name;   /* inputs file name, for messages */
	int line;           /* line number, for messages */
	const char *p;      /* next byte to read */
	char **words;       /* words found so far; owned until handed to the input */
	int nwords;         /* number of words */
	char *stdin_word;   /* the word after `<`, or NULL; owned */
	struct error *err;  /* where failures are reported */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int refuse(struct line_parse *lp, char c)
{
	switch (c) {
	case '>':
		return error_set(lp->err, "%s:%d: output redirection is not supported: "
				 "mantis captures stdout; write output files under {tmp}",
				 lp->name, lp->line);
	case '$':
	case '`':
		return error_set(lp->err, "%s:%d: '%c' would be expanded by a shell; "
				 "mantis does not expand, so quote it with '...'",
				 lp->name, lp->line, c);
	default:
		return error_set(lp->err, "%s:%d: unsupported shell syntax '%c' "
				 "(quote it with '...' to pass it as an argument)",
				 lp->name, lp->line, c);
	}
}

/* Reads one word at lp->p into *out (owned by the caller). Returns 0, or -1 with lp->err set. */
static int read_word(struct line_parse *lp, char **out)
{
	struct strbuf sb = {0};
	const char *p = lp->p;

	strbuf_add(&sb, "", 0);
	while (*p && !is_blank(*p) && *p != '<') {
		char c = *p++;

		if (c == '\'') {
			const char *end = strchr(p, '\'');

			if (!end)
				goto unterminated;
			strbuf_add(&sb, p, (size_t)(end - p));
			p = end + 1;
		} else if (c == '"') {
			while (*p && *p != '"') {
				if (*p == '$' || *p == '`') {
					strbuf_release(&sb);
					return refuse(lp, *p);
				}
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				strbuf_addch(&sb, *p++);
			}
			if (!*p)
				goto unterminated;
			p++;
		} else if (c == '\\') {
			if (!*p) {
				strbuf_release(&sb);
				return error_set(lp->err, "%s:%d: a line may not end with a backslash "
						 "(continuation lines are not supported)",
						 lp->name, lp->line);
			}
			strbuf_addch(&sb, *p++);
		} else if (strchr("|&;()>$`", c)) {
			strbuf_release(&sb);
			return refuse(lp, c);
		} else {
			strbuf_addch(&sb, c);
		}
	}
	lp->p = p;
	*out = strbuf_detach(&sb);
	return 0;

unterminated:
	strbuf_release(&sb);
	return error_set(lp->err, "%s:%d: unterminated quote", lp->name, lp->line);
}

/* Splits the line at lp->p into lp->words and lp->stdin_word. Returns 0 or -1. */
static int split_line(struct line_parse *lp)
{
	for (;;) {
		int is_stdin = 0;
		char *word;

		while (is_blank(*lp->p))
			lp->p++;
		if (!*lp->p || *lp->p == '#')
			return 0;
		if (*lp->p == '<') {
			if (lp->stdin_word)
				return error_set(lp->err, "%s:%d: stdin is redirected twice",
						 lp->name, lp->line);
			is_stdin = 1;
			lp->p++;
			while (is_blank(*lp->p))
				lp->p++;
			if (!*lp->p || *lp->p == '#' || *lp->p == '<')
				return error_set(lp->err, "%s:%d: '<' must be followed by a file name",
						 lp->name, lp->line);
		}
		if (read_word(lp, &word) < 0)
			return -1;
		if (is_stdin) {
			lp->stdin_word = word;
		} else {
			lp->words = xrealloc(lp->words, sizeof *lp->words * (size_t)(lp->nwords + 2));
			lp->words[lp->nwords++] = word;
			lp->words[lp->nwords] = NULL;
		}
	}
}

/* Returns dir/rel, owned by the caller, if it names an existing path; NULL otherwise. */
static char *existing_path(const char *dir, const char *rel)
{
	struct stat st;
	char *path;

	if (!*rel || rel[0] == '/' || strstr(rel, "{tmp}"))
		return NULL;
	path = xasprintf("%s/%s", dir, rel);
	if (stat(path, &st) == 0)
		return path;
	free(path);
	return NULL;
}

void inputs_resolve_word(char **word, const char *dir)
{
	char *path = existing_path(dir, *word);
	const char *eq;

	if (!path && (*word)[0] == '-' && (eq = strchr(*word, '='))) {
		char *value = existing_path(dir, eq + 1);

		if (value) {
			path = xasprintf("%.*s%s", (int)(eq + 1 - *word), *word, value);
			free(value);
		}
	}
	if (path) {
		free(*word);
		*word = path;
	}
}

/* Returns the line's text without comment and surrounding blanks, owned by the caller. */
static char *line_text(const char *start, const char *end)
{
	while (start < end && is_blank(*start))
		start++;
	while (end > start && is_blank(end[-1]))
		end--;
	return xasprintf("%.*s", (int)(end - start), start);
}

/* Parses one line into *in. Returns 1 if it held an input, 0 if blank, -1 on error. */
static int parse_line(struct input *in, char *line, int lineno, const char *name, const char *dir,
		      struct error *err)
{
	struct line_parse lp = {name, lineno, line, NULL, 0, NULL, err};
	int i;

	if (split_line(&lp) < 0)
		goto fail;
	if (lp.nwords == 0 && !lp.stdin_word)
		return 0;
	if (lp.stdin_word) {
		struct stat st;
		char *path = lp.stdin_word[0] == '/' ? xstrdup(lp.stdin_word)
						     : existing_path(dir, lp.stdin_word);

		if (path && stat(path, &st) < 0) {
			free(path);
			path = NULL;
		}
		if (!path) {
			error_set(err, "%s:%d: stdin file '%s' does not exist", name, lineno,
				  lp.stdin_word);
			goto fail;
		}
		free(lp.stdin_word);
		lp.stdin_word = path;
	}
	for (i = 0; i < lp.nwords; i++)
		inputs_resolve_word(&lp.words[i], dir);
	if (!lp.words) {
		lp.words = xmalloc(sizeof *lp.words);
		lp.words[0] = NULL;
	}
	in->line = lineno;
	in->text = line_text(line, lp.p);
	in->argc = lp.nwords;
	in->argv = lp.words;
	in->stdin_path = lp.stdin_word;
	return 1;

fail:
	for (i = 0; i < lp.nwords; i++)
		free(lp.words[i]);
	free(lp.words);
	free(lp.stdin_word);
	return -1;
}

int inputs_parse(struct inputs *ins, const char *text, const char *name, const char *dir,
		 struct error *err)
{
	int lineno = 0, cap = 0;

	memset(ins, 0, sizeof *ins);
	ins->path = xstrdup(name);
	ins->dir = xstrdup(dir);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *line = xasprintf("%.*s", (int)len, text);
		struct input in;
		int got;

		lineno++;
		text += len + (nl ? 1 : 0);
		got = parse_line(&in, line, lineno, name, dir, err);
		free(line);
		if (got < 0) {
			inputs_release(ins);
			return -1;
		}
		if (got == 0)
			continue;
		if (ins->n == cap) {
			cap = cap ? 2 * cap : 16;
			ins->v = xrealloc(ins->v, sizeof *ins->v * (size_t)cap);
		}
		ins->v[ins->n++] = in;
	}
	return 0;
}

int inputs_load(struct inputs *ins, const char *path, struct error *err)
{
	char dir[PATH_MAX], *text, *slash, *copy;
	size_t len;
	int rc;

	memset(ins, 0, sizeof *ins);
	copy = xstrdup(path);
	slash = strrchr(copy, '/');
	if (slash == copy)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	if (!realpath(slash ? copy : ".", dir)) {
		error_errno(err, "cannot resolve the folder of inputs file %s", path);
		free(copy);
		return -1;
	}
	free(copy);
	if (!(text = read_file(path, &len, "inputs file ", err)))
		return -1;
	if (strlen(text) != len) {
		size_t at = strlen(text);
		int lineno = 1;

		for (size_t i = 0; i < at; i++)
			lineno += text[i] == '\n';
		free(text);
		return error_set(err, "%s:%d: line contains a NUL byte (is this a binary file?)",
				 path, lineno);
	}
	rc = inputs_parse(ins, text, path, dir, err);
	free(text);
	return rc;
}

char *input_key(const struct input *in)
{
	struct strbuf sb = {0};

	strbuf_add(&sb, "", 0);
	for (int i = 0; i < in->argc; i++) {
		strbuf_add(&sb, in->argv[i], strlen(in->argv[i]));
		strbuf_addch(&sb, '\x1f');
	}
	if (in->stdin_path) {
		strbuf_addch(&sb, '\x1e');
		strbuf_add(&sb, in->stdin_path, strlen(in->stdin_path));
	}
	return strbuf_detach(&sb);
}

char *input_stamp(const struct input *in)
{
	struct strbuf sb = {0};

	strbuf_add(&sb, "", 0);
	for (int i = 0; i <= in->argc; i++) {
		const char *path = i < in->argc ? in->argv[i] : in->stdin_path;
		struct stat st;

		if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			strbuf_addf(&sb, "%s%lld:%lld.%09ld", sb.len ? " " : "", (long long)st.st_size,
				    (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	}
	return strbuf_detach(&sb);
}

void input_release(struct input *in)
{
	for (int j = 0; j < in->argc; j++)
		free(in->argv[j]);
	free(in->argv);
	free(in->text);
	free(in->stdin_path);
	memset(in, 0, sizeof *in);
}

void inputs_release(struct inputs *ins)
{
	for (int i = 0; i < ins->n; i++)
		input_release(&ins->v[i]);
	free(ins->v);
	free(ins->path);
	free(ins->dir);
	memset(ins, 0, sizeof *ins);
}

#ifndef TOKENIZE_H
#define TOKENIZE_H

#include <stddef.h>

/* Longest token kept; longer runs of letters/digits are truncated. */
#define MAX_TOKEN 64

/* Reads the next token from [*p, end): a run of ASCII letters and digits,
 * lowercased into buf (NUL-terminated, at most MAX_TOKEN-1 chars).
 * Advances *p past the token. Returns the token length, 0 at end of text. */
size_t next_token(const char **p, const char *end, char *buf);

/* Like next_token, but skips stop words. */
size_t next_term(const char **p, const char *end, char *buf);

int is_stop_word(const char *word);

#endif

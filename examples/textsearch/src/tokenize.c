#include "tokenize.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Sorted for bsearch. */
static const char *const stop_words[] = {
    "a",    "an",   "and",  "are", "as",   "at",   "be",   "but",
    "by",   "for",  "if",   "in",  "into", "is",   "it",   "no",
    "not",  "of",   "on",   "or",  "such", "that", "the",  "their",
    "then", "there", "these", "they", "this", "to",  "was",  "will",
    "with",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

int is_stop_word(const char *word)
{
    return bsearch(word, stop_words, sizeof stop_words / sizeof stop_words[0],
                   sizeof stop_words[0], cmp_word) != NULL;
}

size_t next_token(const char **p, const char *end, char *buf)
{
    const char *s = *p;
    size_t n = 0;

    while (s < end && !isalnum((unsigned char)*s))
        s++;
    while (s < end && isalnum((unsigned char)*s)) {
        if (n < MAX_TOKEN - 1)
            buf[n++] = (char)tolower((unsigned char)*s);
        s++;
    }
    buf[n] = '\0';
    *p = s;
    return n;
}

size_t next_term(const char **p, const char *end, char *buf)
{
    size_t n;
    while ((n = next_token(p, end, buf)) > 0 && is_stop_word(buf))
        continue;
    return n;
}

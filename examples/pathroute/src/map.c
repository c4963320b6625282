/* map.c - parsing a map file and building the road-length matrix
 *
 * File format (blank lines and lines starting with '#' are skipped):
 *
 *     locations N
 *     NAME X Y            (N lines)
 *     roads M
 *     FROM TO LENGTH      (M lines; FROM/TO are names or 0-based indices)
 *
 * Roads are two-way. When two roads join the same pair of locations only
 * the shorter one is kept.
 */
#include "map.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 512
#define MAX_TOKENS 8

struct reader {
    FILE *f;
    const char *path;
    long lineno;
    char buf[LINE_MAX_LEN];
};

/* Reads the next line that is not blank or a comment into r->buf.
 * Returns 1 when a line was read, 0 at end of file, -1 on error. */
static int next_line(struct reader *r)
{
    while (fgets(r->buf, sizeof r->buf, r->f) != NULL) {
        size_t len = strlen(r->buf);
        r->lineno++;
        if (len == sizeof r->buf - 1 && r->buf[len - 1] != '\n' && !feof(r->f)) {
            fprintf(stderr, "%s:%ld: line too long\n", r->path, r->lineno);
            return -1;
        }
        char *p = r->buf;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0' || *p == '#')
            continue;
        return 1;
    }
    if (ferror(r->f)) {
        fprintf(stderr, "%s: read error\n", r->path);
        return -1;
    }
    return 0;
}

/* Splits s in place at whitespace. Returns the number of tokens, or
 * max + 1 if there are more than max. */
static int split(char *s, char **tok, int max)
{
    int count = 0;
    char *p = strtok(s, " \t\r\n");
    while (p != NULL) {
        if (count == max)
            return max + 1;
        tok[count++] = p;
        p = strtok(NULL, " \t\r\n");
    }
    return count;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int parse_count(const char *s, long *out)
{
    char *end;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

/* A name starts with a letter and uses letters, digits, '_', '-' and '.'. */
static int valid_name(const char *s)
{
    if (!isalpha((unsigned char)s[0]) || strlen(s) > MAP_NAME_MAX)
        return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!isalnum(c) && c != '_' && c != '-' && c != '.')
            return 0;
    }
    return 1;
}

static int same_name(const char *a, const char *b)
{
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
        a++;
        b++;
    }
    return *a == '\0' && *b == '\0';
}

static int find_among(const struct location *loc, int count, const char *key)
{
    if (isdigit((unsigned char)key[0])) {
        long idx;
        if (parse_count(key, &idx) != 0 || idx >= count)
            return -1;
        return (int)idx;
    }
    for (int i = 0; i < count; i++) {
        if (same_name(loc[i].name, key))
            return i;
    }
    return -1;
}

int map_find(const struct map *m, const char *key)
{
    return find_among(m->loc, m->n, key);
}

double map_distance(const struct map *m, int a, int b)
{
    double dx = m->loc[a].x - m->loc[b].x;
    double dy = m->loc[a].y - m->loc[b].y;
    return sqrt(dx * dx + dy * dy);
}

void map_free(struct map *m)
{
    free(m->loc);
    free(m->len);
    m->loc = NULL;
    m->len = NULL;
    m->n = 0;
}

/* Reads a "KEYWORD COUNT" header line. */
static int read_header(struct reader *r, const char *keyword, long max, long *count)
{
    char *tok[MAX_TOKENS];
    int rc = next_line(r);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        fprintf(stderr, "%s: unexpected end of file, expected '%s'\n", r->path, keyword);
        return -1;
    }
    int nt = split(r->buf, tok, MAX_TOKENS);
    if (nt != 2 || strcmp(tok[0], keyword) != 0 || parse_count(tok[1], count) != 0) {
        fprintf(stderr, "%s:%ld: expected '%s COUNT'\n", r->path, r->lineno, keyword);
        return -1;
    }
    if (*count > max) {
        fprintf(stderr, "%s:%ld: too many %s (%ld, at most %ld)\n", r->path, r->lineno,
                keyword, *count, max);
        return -1;
    }
    return 0;
}

static int read_locations(struct reader *r, struct map *m, long count)
{
    char *tok[MAX_TOKENS];
    m->loc = malloc((size_t)(count > 0 ? count : 1) * sizeof *m->loc);
    if (m->loc == NULL) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    for (m->n = 0; m->n < count; m->n++) {
        int rc = next_line(r);
        if (rc <= 0) {
            if (rc == 0)
                fprintf(stderr, "%s: unexpected end of file after %d of %ld locations\n",
                        r->path, m->n, count);
            return -1;
        }
        struct location *l = &m->loc[m->n];
        int nt = split(r->buf, tok, MAX_TOKENS);
        if (nt != 3 || !valid_name(tok[0]) || parse_double(tok[1], &l->x) != 0 ||
            parse_double(tok[2], &l->y) != 0) {
            fprintf(stderr, "%s:%ld: expected 'NAME X Y'\n", r->path, r->lineno);
            return -1;
        }
        int dup = find_among(m->loc, m->n, tok[0]);
        if (dup >= 0) {
            fprintf(stderr, "%s:%ld: location '%s' already defined as '%s'\n", r->path,
                    r->lineno, tok[0], m->loc[dup].name);
            return -1;
        }
        strcpy(l->name, tok[0]);
    }
    return 0;
}

static int read_roads(struct reader *r, struct map *m, long count)
{
    char *tok[MAX_TOKENS];
    char last_name[MAP_NAME_MAX + 1] = "";
    int last = -1;
    size_t n = (size_t)m->n;
    m->len = malloc((n > 0 ? n * n : 1) * sizeof *m->len);
    if (m->len == NULL) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < n * n; i++)
        m->len[i] = HUGE_VAL;

    for (m->roads = 0; m->roads < count; m->roads++) {
        int rc = next_line(r);
        if (rc <= 0) {
            if (rc == 0)
                fprintf(stderr, "%s: unexpected end of file after %ld of %ld roads\n",
                        r->path, m->roads, count);
            return -1;
        }
        double len;
        int nt = split(r->buf, tok, MAX_TOKENS);
        if (nt != 3 || parse_double(tok[2], &len) != 0 || len < 0) {
            fprintf(stderr, "%s:%ld: expected 'FROM TO LENGTH' with LENGTH >= 0\n", r->path,
                    r->lineno);
            return -1;
        }
        /* road lists are often grouped by their first location: remember it */
        int a = strcmp(tok[0], last_name) == 0 ? last : map_find(m, tok[0]);
        int b = map_find(m, tok[1]);
        if (a >= 0 && strlen(tok[0]) < sizeof last_name) {
            strcpy(last_name, tok[0]);
            last = a;
        }
        if (a < 0 || b < 0) {
            fprintf(stderr, "%s:%ld: unknown location '%s'\n", r->path, r->lineno,
                    a < 0 ? tok[0] : tok[1]);
            return -1;
        }
        if (a == b) {
            m->loops++;
            continue;
        }
        if (len < m->len[(size_t)a * n + (size_t)b]) {
            m->len[(size_t)a * n + (size_t)b] = len;
            m->len[(size_t)b * n + (size_t)a] = len;
        }
    }

    /* count the distinct links: upper triangle of the matrix */
    m->links = 0;
    for (size_t i = 0; i < n; i++) {
        const double *row = m->len + i * n;
        for (size_t j = i + 1; j < n; j++) {
            if (row[j] != HUGE_VAL)
                m->links++;
        }
    }
    return 0;
}

int map_load(struct map *m, const char *path)
{
    struct reader *r;
    long nloc, nroads;
    int rc = -1;

    memset(m, 0, sizeof *m);
    r = malloc(sizeof *r);
    if (r == NULL) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    r->path = path;
    r->lineno = 0;
    r->f = fopen(path, "r");
    if (r->f == NULL) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        free(r);
        return -1;
    }

    if (read_header(r, "locations", MAP_MAX_LOCATIONS, &nloc) != 0)
        goto out;
    if (nloc == 0) {
        fprintf(stderr, "%s:%ld: map has no locations\n", path, r->lineno);
        goto out;
    }
    if (read_locations(r, m, nloc) != 0 ||
        read_header(r, "roads", 100000000L, &nroads) != 0 ||
        read_roads(r, m, nroads) != 0)
        goto out;
    int more = next_line(r);
    if (more != 0) {
        if (more > 0)
            fprintf(stderr, "%s:%ld: unexpected data after the last road\n", path, r->lineno);
        goto out;
    }
    rc = 0;
out:
    fclose(r->f);
    free(r);
    if (rc != 0)
        map_free(m);
    return rc;
}

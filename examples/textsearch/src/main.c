/* textsearch: builds an inverted index over a corpus of "### title" documents
 * and answers a file of queries, one per line, with BM25 ranking. */
#include "index.h"
#include "query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096
#define MAX_PAGE 100000

static int usage(void)
{
    fprintf(stderr, "usage: textsearch [-p HITS_PER_PAGE] CORPUS QUERIES\n");
    return 1;
}

/* The page size given to -p, or 0 after printing an error. */
static int parse_page_size(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < 1 || v > MAX_PAGE) {
        fprintf(stderr, "textsearch: -p needs an integer from 1 to %d, got '%s'\n", MAX_PAGE, s);
        return 0;
    }
    return (int)v;
}

typedef struct {
    long queries, answered, matches, shown, highlights, snippet_chars;
    double score_sum;
} Totals;

static int run_queries(FILE *f, const char *path, const Index *ix, int page_size, Totals *tot)
{
    char line[MAX_LINE + 2], err[128], snippet[1024];
    Query q;
    Accumulator acc;
    Hit *page = malloc((size_t)page_size * sizeof *page);
    long lineno = 0;
    int status = 0;

    if (page == NULL) {
        fprintf(stderr, "textsearch: out of memory\n");
        return -1;
    }
    accum_init(&acc, ix->ndocs);
    while (fgets(line, sizeof line, f) != NULL) {
        size_t len = strlen(line);
        lineno++;
        if (len > MAX_LINE && line[len - 1] != '\n') {
            fprintf(stderr, "textsearch: %s:%ld: query longer than %d characters\n",
                    path, lineno, MAX_LINE);
            status = -1;
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t")] == '\0')
            continue;
        if (query_parse(&q, ix, line, err, sizeof err) != 0) {
            fprintf(stderr, "textsearch: %s:%ld: %s\n", path, lineno, err);
            status = -1;
            break;
        }
        int nshown;
        int matches = query_run(&q, ix, &acc, page, page_size, &nshown);
        tot->queries++;
        tot->matches += matches;
        tot->shown += nshown;
        for (int i = 0; i < nshown; i++) {
            tot->highlights += make_snippet(&q, ix, page[i].doc, snippet, sizeof snippet);
            tot->snippet_chars += (long)strlen(snippet);
            tot->score_sum += page[i].score;
        }
        if (matches > 0) {
            tot->answered++;
            printf("q%ld: matching %d, top \"%s\" (%.4f)\n", tot->queries, matches,
                   ix->docs[page[0].doc].title, page[0].score);
        } else {
            printf("q%ld: matching 0\n", tot->queries);
        }
    }
    if (status == 0 && ferror(f)) {
        fprintf(stderr, "textsearch: error reading queries '%s'\n", path);
        status = -1;
    }
    accum_free(&acc);
    free(page);
    return status;
}

int main(int argc, char **argv)
{
    int page_size = 10, argi = 1;

    while (argi < argc && argv[argi][0] == '-' && argv[argi][1] != '\0') {
        const char *opt = argv[argi++];
        if (strcmp(opt, "--") == 0)
            break;
        if (strcmp(opt, "-p") != 0) {
            fprintf(stderr, "textsearch: unknown option '%s'\n", opt);
            return usage();
        }
        if (argi == argc) {
            fprintf(stderr, "textsearch: -p needs a value\n");
            return usage();
        }
        if ((page_size = parse_page_size(argv[argi++])) == 0)
            return 1;
    }
    if (argc - argi != 2)
        return usage();
    const char *corpus = argv[argi], *queries = argv[argi + 1];

    FILE *qf = fopen(queries, "r");
    if (qf == NULL) {
        fprintf(stderr, "textsearch: cannot open queries '%s'\n", queries);
        return 1;
    }
    Index ix;
    Totals tot = {0};
    int status = index_load(&ix, corpus);
    if (status == 0)
        status = run_queries(qf, queries, &ix, page_size, &tot);
    fclose(qf);
    if (status == 0) {
        printf("index: %d documents, %d terms, %ld tokens\n", ix.ndocs, ix.nterms, ix.total_terms);
        printf("queries: %ld, with matches: %ld, matching documents: %ld\n",
               tot.queries, tot.answered, tot.matches);
        printf("page size %d: %ld hits shown, %ld highlighted words, %ld snippet chars, "
               "score sum %.4f\n", page_size, tot.shown, tot.highlights, tot.snippet_chars,
               tot.score_sum);
    }
    index_free(&ix);
    return status == 0 ? 0 : 1;
}

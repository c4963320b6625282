/* spamfilter - builds a database of spam senders' phone numbers.
 *
 *   spamfilter -w PHONEBOOK -o DBFILE LIST1 [LIST2 ...]
 *
 * Each LIST is an export from an online spam-report database: one phone
 * number per line in whatever style that site uses.  The lists are sorted,
 * merged and de-duplicated; numbers that appear in the user's phonebook
 * are white-listed (never treated as spam); the rest go into a hash table
 * that is written to DBFILE.  A few well-known example senders are then
 * checked against the table as a smoke test.
 */
#include "db.h"
#include "numbers.h"
#include "phone.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "spamfilter";

/* Senders from the support team's bug reports, checked after every build. */
static const char *const example_senders[] = {
    "+1 (202) 555-0143", "800.555.0199",    "+44 20 7946 0958",
    "(312) 555-0187",    "1-888-555-0123",  "+1 415 555 0110",
    "646-555-0175",      "0049 30 901820",
};
#define NEXAMPLES (sizeof example_senders / sizeof example_senders[0])

typedef struct {
    size_t contacts;
    size_t numbers;
    size_t unusable;
} PhonebookStats;

static void usage(void)
{
    fprintf(stderr, "usage: %s -w PHONEBOOK -o DBFILE LIST1 [LIST2 ...]\n",
            progname);
}

/* Phonebook lines look like "Alice Smith, +1 555 123 4567" or, for
 * contacts with several numbers, "Bob Jones, 555-201-3344; 555-201-9900".
 * The numbers follow the last comma.  Numbers that cannot be parsed are
 * counted but do not stop the build; a line without a name is an error. */
static int load_phonebook(const char *path, PhoneVec *out, PhonebookStats *st)
{
    char line[512];
    size_t lineno = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open phonebook %s: %s\n", progname, path,
                strerror(errno));
        return -1;
    }

    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        lineno++;
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fprintf(stderr, "%s: %s:%zu: line too long\n", progname, path,
                    lineno);
            fclose(f);
            return -1;
        }
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line + strspn(line, " \t");
        if (*p == '\0' || *p == '#')
            continue;

        char *comma = strrchr(line, ',');
        if (!comma || comma == p) {
            fprintf(stderr, "%s: %s:%zu: expected 'Name, number'\n",
                    progname, path, lineno);
            fclose(f);
            return -1;
        }
        st->contacts++;

        char *field = comma + 1;
        for (;;) {
            char *semi = strchr(field, ';');
            size_t flen = semi ? (size_t)(semi - field) : strlen(field);
            Phone num;
            if (phone_parse(field, flen, &num) == 0) {
                phonevec_push(out, &num);
                st->numbers++;
            } else {
                st->unusable++;
            }
            if (!semi)
                break;
            field = semi + 1;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: error reading %s\n", progname, path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *phonebook = NULL, *dbfile = NULL;
    const char **lists = malloc((size_t)argc * sizeof *lists);
    size_t nlists = 0;
    int only_files = 0;

    if (!lists)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (!only_files && (strcmp(a, "-w") == 0 || strcmp(a, "-o") == 0)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: option %s needs an argument\n", progname, a);
                usage();
                return 2;
            }
            if (a[1] == 'w')
                phonebook = argv[++i];
            else
                dbfile = argv[++i];
        } else if (!only_files && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "%s: unknown option %s\n", progname, a);
            usage();
            return 2;
        } else {
            lists[nlists++] = a;
        }
    }
    if (!phonebook || !dbfile || nlists == 0) {
        fprintf(stderr, "%s: %s\n", progname,
                !phonebook ? "missing -w PHONEBOOK" :
                !dbfile ? "missing -o DBFILE" : "no spam lists given");
        usage();
        return 2;
    }

    /* 1. the whitelist */
    PhoneVec white = {0};
    PhonebookStats pb = {0};
    if (load_phonebook(phonebook, &white, &pb) != 0)
        return 1;
    sort_numbers(white.v, white.n);
    unsigned *wcounts = malloc((white.n + 1) * sizeof *wcounts);
    if (!wcounts)
        return 1;
    size_t nwhite = dedup_sorted(white.v, white.n, wcounts);
    free(wcounts);

    /* 2. collect and sort the spam lists */
    PhoneVec all = {0};
    ListStats total = {0};
    for (size_t k = 0; k < nlists; k++) {
        PhoneVec cur = {0};
        ListStats st = {0};
        if (load_list(lists[k], &cur, &st) != 0) {
            fprintf(stderr, "%s: cannot read list %s: %s\n", progname,
                    lists[k], strerror(errno));
            return 1;
        }
        if (st.read > 0 && st.malformed == st.read) {
            fprintf(stderr, "%s: %s: no valid phone numbers in %zu lines\n",
                    progname, lists[k], st.read);
            return 1;
        }
        sort_numbers(cur.v, cur.n);
        merge_sorted(&all, &cur);
        phonevec_free(&cur);
        total.read += st.read;
        total.malformed += st.malformed;
    }

    /* 3. remove duplicates, counting how often each number was reported */
    unsigned *reports = malloc((all.n + 1) * sizeof *reports);
    if (!reports)
        return 1;
    size_t unique = dedup_sorted(all.v, all.n, reports);

    /* 4. drop white-listed numbers and build the database */
    SpamDb db;
    size_t whitelisted = 0;
    db_init(&db, unique);
    for (size_t i = 0; i < unique; i++) {
        if (contains_sorted(white.v, nwhite, all.v[i].num))
            whitelisted++;
        else
            db_insert(&db, all.v[i].num, reports[i]);
    }
    if (db_write(&db, dbfile) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", progname, dbfile,
                strerror(errno));
        return 1;
    }

    /* 5. smoke test with the known example senders */
    size_t flagged = 0;
    unsigned max_reports = 0;
    for (size_t i = 0; i < NEXAMPLES; i++) {
        const char *s = example_senders[i];
        Phone num;
        const DbEntry *e;
        if (phone_parse(s, strlen(s), &num) == 0 && (e = db_lookup(&db, num.num))) {
            flagged++;
            if (e->reports > max_reports)
                max_reports = e->reports;
        }
    }

    printf("lists: %zu, read: %zu, malformed: %zu\n", nlists, total.read,
           total.malformed);
    printf("unique: %zu\n", unique);
    printf("phonebook: %zu contacts, %zu numbers, %zu unusable\n",
           pb.contacts, pb.numbers, pb.unusable);
    printf("whitelisted: %zu\n", whitelisted);
    printf("stored: %zu (%zu slots, longest probe %zu)\n", db.count,
           db.nslots, db.longest_probe);
    printf("examples flagged: %zu/%zu (most reports %u)\n", flagged,
           (size_t)NEXAMPLES, max_reports);

    db_free(&db);
    free(reports);
    phonevec_free(&all);
    phonevec_free(&white);
    free(lists);
    return 0;
}

/* db.c - hash table with linear probing, and its on-disk text format. */
#include "db.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 32-bit FNV-1a */
static uint32_t hash_string(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

void db_init(SpamDb *db, size_t expected)
{
    db->nslots = 16;
    while (db->nslots < expected * 2)
        db->nslots *= 2;
    db->slots = calloc(db->nslots, sizeof *db->slots);
    if (!db->slots) {
        fprintf(stderr, "spamfilter: out of memory\n");
        exit(1);
    }
    db->count = 0;
    db->longest_probe = 0;
}

void db_free(SpamDb *db)
{
    free(db->slots);
    db->slots = NULL;
    db->nslots = db->count = 0;
}

void db_insert(SpamDb *db, const char *num, unsigned reports)
{
    size_t mask = db->nslots - 1;
    size_t i = hash_string(num) & mask;
    size_t probe = 1;

    while (db->slots[i].num[0] != '\0' && strcmp(db->slots[i].num, num) != 0) {
        i = (i + 1) & mask;
        probe++;
    }
    if (db->slots[i].num[0] != '\0') {
        db->slots[i].reports += reports;
        return;
    }
    strcpy(db->slots[i].num, num);
    db->slots[i].reports = reports;
    db->count++;
    if (probe > db->longest_probe)
        db->longest_probe = probe;
}

const DbEntry *db_lookup(const SpamDb *db, const char *num)
{
    size_t mask = db->nslots - 1;
    size_t i = hash_string(num) & mask;

    while (db->slots[i].num[0] != '\0') {
        if (strcmp(db->slots[i].num, num) == 0)
            return &db->slots[i];
        i = (i + 1) & mask;
    }
    return NULL;
}

int db_write(const SpamDb *db, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;

    fprintf(f, "# spamdb v1\ncount %zu\nslots %zu\n", db->count, db->nslots);
    for (size_t i = 0; i < db->nslots; i++) {
        const DbEntry *e = &db->slots[i];
        if (e->num[0] != '\0')
            fprintf(f, "%zu\t%s\t%u\n", i, e->num, e->reports);
    }
    if (ferror(f)) {
        fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

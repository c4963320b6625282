/* db.h - the spam database: an open-addressing hash table of numbers. */
#ifndef DB_H
#define DB_H

#include <stddef.h>

#include "phone.h"

typedef struct {
    char num[PHONE_SIZE];   /* canonical number; "" marks an empty slot */
    unsigned reports;       /* how many times the sources listed it */
} DbEntry;

typedef struct {
    DbEntry *slots;
    size_t nslots;          /* power of two */
    size_t count;
    size_t longest_probe;
} SpamDb;

/* Creates an empty table with room for about `expected` numbers. */
void db_init(SpamDb *db, size_t expected);
void db_free(SpamDb *db);

/* Inserts num (adds to its report count if already present). */
void db_insert(SpamDb *db, const char *num, unsigned reports);

/* Returns the entry for num, or NULL. */
const DbEntry *db_lookup(const SpamDb *db, const char *num);

/* Writes the table to path as text.  Returns 0 or -1 (errno set). */
int db_write(const SpamDb *db, const char *path);

#endif

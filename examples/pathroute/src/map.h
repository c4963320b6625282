/* map.h - road map: locations with coordinates and a matrix of road lengths */
#ifndef PATHROUTE_MAP_H
#define PATHROUTE_MAP_H

#define MAP_NAME_MAX 63        /* longest location name */
#define MAP_MAX_LOCATIONS 5000 /* the length matrix is n*n doubles */

struct location {
    char name[MAP_NAME_MAX + 1];
    double x, y;
};

struct map {
    int n;                /* number of locations */
    struct location *loc; /* n locations, in file order */
    double *len;          /* n*n road lengths, HUGE_VAL where there is no road */
    long roads;           /* road lines read from the file */
    long links;           /* distinct pairs of locations joined by a road */
    long loops;           /* roads from a location to itself (ignored) */
};

/* Reads a map file. Returns 0 on success; on error prints a message to
 * stderr, frees what was allocated and returns -1. */
int map_load(struct map *m, const char *path);

/* Finds a location by name (case-insensitive) or by its 0-based index
 * written in decimal. Returns the index or -1. */
int map_find(const struct map *m, const char *key);

/* Straight-line distance between two locations. */
double map_distance(const struct map *m, int a, int b);

void map_free(struct map *m);

#endif

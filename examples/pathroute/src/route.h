/* route.h - shortest route between two locations of a map */
#ifndef PATHROUTE_ROUTE_H
#define PATHROUTE_ROUTE_H

#include "map.h"

struct route {
    int found;     /* 1 if every leg is reachable */
    int legs;      /* legs searched (stops - 1, or up to the unreachable one) */
    int settled;   /* locations settled, summed over the legs */
    int hops;      /* roads on the route */
    double length; /* total road length */
    int *path;     /* hops + 1 location indices, from start to target */
};

enum search_kind { SEARCH_DIJKSTRA, SEARCH_ASTAR };

/* Finds the shortest route visiting stops[0], stops[1], ... stops[nstops-1]
 * in order, one search per leg. Each search stops as soon as the leg's
 * target is settled. A* uses the straight-line distance to the target as
 * its estimate; it finds the shortest route when no road is shorter than
 * the straight line between its ends. If a leg is unreachable the search
 * ends there with found = 0. Returns 0, or -1 when out of memory. */
int route_find(const struct map *m, const int *stops, int nstops, enum search_kind kind,
               struct route *r);

/* Writes the route as text, one stop per line. Returns 0 or -1. */
int route_write(const struct map *m, const struct route *r, const char *path);

void route_free(struct route *r);

#endif

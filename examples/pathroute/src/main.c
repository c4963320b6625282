/* pathroute - shortest route between two locations of a road map
 *
 * usage: pathroute MAPFILE FROM TO [-v VIA]... [-o ROUTEFILE] [-a]
 *
 * FROM, TO and VIA are location names (case-insensitive) or 0-based
 * indices. The route goes from FROM through each VIA in the given order to
 * TO. Prints the map size, the number of hops, the route length and how
 * many locations the searches settled. An unreachable stop is not an
 * error: the summary says "status: unreachable" and the exit status is 0.
 * Exit status 1: bad arguments, unreadable or malformed map, unknown
 * location, or the route file cannot be written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "route.h"

#define MAX_VIA 64

struct options {
    const char *map_path;
    const char *from;
    const char *to;
    const char *via[MAX_VIA];
    int nvia;
    const char *route_path;
    enum search_kind kind;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: pathroute MAPFILE FROM TO [-v VIA]... [-o ROUTEFILE] [-a]\n"
                 "  FROM, TO, VIA  location names or 0-based indices\n"
                 "  -v VIA         pass through VIA on the way (repeatable, in order)\n"
                 "  -o ROUTEFILE   write the route, one stop per line\n"
                 "  -a             A* search with a straight-line estimate\n"
                 "                 (default: Dijkstra)\n");
}

static int parse_args(int argc, char **argv, struct options *opt)
{
    const char *pos[3];
    int npos = 0;

    memset(opt, 0, sizeof *opt);
    opt->kind = SEARCH_DIJKSTRA;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "-v") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "pathroute: %s needs an argument\n", a);
                return -1;
            }
            if (a[1] == 'o') {
                opt->route_path = argv[++i];
            } else if (opt->nvia == MAX_VIA) {
                fprintf(stderr, "pathroute: at most %d -v stops\n", MAX_VIA);
                return -1;
            } else {
                opt->via[opt->nvia++] = argv[++i];
            }
        } else if (strcmp(a, "-a") == 0) {
            opt->kind = SEARCH_ASTAR;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "pathroute: unknown option '%s'\n", a);
            return -1;
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            fprintf(stderr, "pathroute: unexpected argument '%s'\n", a);
            return -1;
        }
    }
    if (npos < 3) {
        fprintf(stderr, "pathroute: expected MAPFILE FROM TO\n");
        return -1;
    }
    opt->map_path = pos[0];
    opt->from = pos[1];
    opt->to = pos[2];
    return 0;
}

static int lookup(const struct map *m, const char *key, const char *what)
{
    int idx = map_find(m, key);
    if (idx < 0)
        fprintf(stderr, "pathroute: %s location '%s' is not on the map\n", what, key);
    return idx;
}

int main(int argc, char **argv)
{
    struct options opt;
    struct map map;
    struct route route;
    int stops[MAX_VIA + 2];
    int nstops = 0;

    if (parse_args(argc, argv, &opt) != 0) {
        usage(stderr);
        return 1;
    }
    if (map_load(&map, opt.map_path) != 0)
        return 1;

    int bad = (stops[nstops++] = lookup(&map, opt.from, "start")) < 0;
    for (int i = 0; i < opt.nvia; i++)
        bad |= (stops[nstops++] = lookup(&map, opt.via[i], "via")) < 0;
    bad |= (stops[nstops++] = lookup(&map, opt.to, "target")) < 0;
    if (bad) {
        map_free(&map);
        return 1;
    }

    if (route_find(&map, stops, nstops, opt.kind, &route) != 0) {
        fprintf(stderr, "pathroute: out of memory\n");
        map_free(&map);
        return 1;
    }

    printf("map: %d locations, %ld roads, %ld links\n", map.n, map.roads, map.links);
    printf("route: %s -> %s, %d via (%s)\n", map.loc[stops[0]].name,
           map.loc[stops[nstops - 1]].name, opt.nvia,
           opt.kind == SEARCH_ASTAR ? "a*" : "dijkstra");
    if (route.found) {
        printf("status: ok\n");
        printf("hops: %d\n", route.hops);
        printf("length: %.2f\n", route.length);
    } else {
        printf("status: unreachable (leg %d of %d)\n", route.legs, nstops - 1);
    }
    printf("settled: %d\n", route.settled);

    int status = 0;
    if (opt.route_path != NULL && route_write(&map, &route, opt.route_path) != 0)
        status = 1;
    route_free(&route);
    map_free(&map);
    return status;
}

/* main.c - command line driver: chess [-d DEPTH] [-a] POSITIONFILE */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess.h"

#define MAX_DEPTH 8

static void usage(void)
{
    fprintf(stderr, "usage: chess [-d DEPTH] [-a] POSITIONFILE\n"
                    "  -d DEPTH  search depth in plies, 1..%d (default 3)\n"
                    "  -a        alpha-beta pruning (default: plain minimax)\n", MAX_DEPTH);
}

/* Reads the first line of the file that is neither blank nor a comment into buf. */
static int read_fen(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "chess: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(buf, (int)size, f)) {
        if (!strchr(buf, '\n') && !feof(f)) {
            fprintf(stderr, "chess: %s: line too long for a FEN record\n", path);
            fclose(f);
            return -1;
        }
        char *p = buf + strspn(buf, " \t");
        p[strcspn(p, "\r\n")] = '\0';
        if (*p && *p != '#') {
            memmove(buf, p, strlen(p) + 1);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    fprintf(stderr, "chess: %s: no FEN record found\n", path);
    return -1;
}

static void print_score(int score)
{
    if (score > SCORE_MATE - 1000)
        printf("score: mate in %d\n", (SCORE_MATE - score + 1) / 2);
    else if (score < -SCORE_MATE + 1000)
        printf("score: mated in %d\n", (SCORE_MATE + score) / 2);
    else
        printf("score: %d\n", score);
}

int main(int argc, char **argv)
{
    int depth = 3, alphabeta = 0;
    const char *path = NULL;
    char line[512], err[128], mv[6];
    Board board;
    SearchResult res;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-a") == 0) {
            alphabeta = 1;
        } else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 1 || v > MAX_DEPTH) {
                fprintf(stderr, "chess: bad depth '%s' (expected 1..%d)\n", argv[i], MAX_DEPTH);
                return 2;
            }
            depth = (int)v;
        } else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "chess: unexpected argument '%s'\n", argv[i]);
            usage();
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        usage();
        return 2;
    }

    if (read_fen(path, line, sizeof line) < 0)
        return 1;
    if (board_from_fen(&board, line, err, sizeof err) < 0) {
        fprintf(stderr, "chess: %s: invalid FEN: %s\n", path, err);
        return 1;
    }

    if (search_position(&board, depth, alphabeta, &res) < 0) {
        fprintf(stderr, "chess: out of memory\n");
        return 1;
    }

    printf("position: %d pieces, %s to move, %d legal moves, static eval %d\n",
           count_pieces(&board), board.side == WHITE ? "white" : "black", res.root_moves,
           evaluate(&board));
    printf("search: depth %d, %s\n", depth, alphabeta ? "alpha-beta" : "minimax");
    if (res.has_move) {
        move_to_str(res.best, mv);
        printf("best move: %s\n", mv);
    } else {
        printf("best move: none (%s)\n", in_check(&board, board.side) ? "checkmate" : "stalemate");
    }
    print_score(res.score);
    printf("nodes: %llu\nleaves: %llu\n", res.nodes, res.leaves);
    if (alphabeta)
        printf("cutoffs: %llu\n", res.cutoffs);
    return 0;
}

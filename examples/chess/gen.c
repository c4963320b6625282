/* gen.c - seeded generator of random chess positions for the chess example.
 * usage: gen [-n N] [-s SEED] [-o DIR]
 * Writes DIR/pos_NNN.fen (one FEN record each) and DIR/inputs.txt with N lines of chess arguments. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static int rnd(int lo, int hi) { return lo + (int)(next_u64() % (uint64_t)(hi - lo + 1)); }

/* Board: index = rank * 8 + file, rank 0 = rank 1; '.' is empty. */
static char board[64];

static int on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

static char at(int f, int r) { return on_board(f, r) ? board[r * 8 + f] : '#'; }

/* Is square (f, r) attacked by the side `white`? */
static int attacked(int f, int r, int white)
{
    static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    char P = white ? 'P' : 'p', N = white ? 'N' : 'n', K = white ? 'K' : 'k';
    char B = white ? 'B' : 'b', R = white ? 'R' : 'r', Q = white ? 'Q' : 'q';
    int pr = white ? r - 1 : r + 1;

    if (at(f - 1, pr) == P || at(f + 1, pr) == P)
        return 1;
    for (int i = 0; i < 8; i++) {
        if (at(f + kn[i][0], r + kn[i][1]) == N || at(f + dirs[i][0], r + dirs[i][1]) == K)
            return 1;
        int x = f + dirs[i][0], y = r + dirs[i][1];
        while (at(x, y) == '.') {
            x += dirs[i][0];
            y += dirs[i][1];
        }
        char c = at(x, y);
        if (c == Q || (i < 4 ? c == R : c == B))
            return 1;
    }
    return 0;
}

/* Number of pseudo-legal moves of one side (no castling, no en passant): a cheap estimate of
 * how wide the game tree is. */
static int mobility(int white)
{
    static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int n = 0;

    for (int sq = 0; sq < 64; sq++) {
        char c = board[sq];
        int f = sq % 8, r = sq / 8;
        if (c == '.' || (c >= 'A' && c <= 'Z') != white)
            continue;
        c = (char)(c | 0x20);
        if (c == 'p') {
            int dr = white ? 1 : -1, k = 0;
            if (at(f, r + dr) == '.')
                k += 1 + (r == (white ? 1 : 6) && at(f, r + 2 * dr) == '.');
            for (int df = -1; df <= 1; df += 2) {
                char t = at(f + df, r + dr);
                if (t != '.' && t != '#' && (t >= 'A' && t <= 'Z') != white)
                    k++;
            }
            /* a pawn that can promote counts as the queen it becomes */
            n += (k > 0 && r + dr == (white ? 7 : 0)) ? 10 : k;
            continue;
        }
        for (int i = 0; i < 8; i++) {
            int jump = c == 'n', slide = c == 'q' || (c == 'r' && i < 4) || (c == 'b' && i >= 4);
            if (!jump && !slide && c != 'k')
                continue;
            int x = f, y = r;
            do {
                x += jump ? kn[i][0] : dirs[i][0];
                y += jump ? kn[i][1] : dirs[i][1];
                char t = at(x, y);
                if (t == '#' || (t != '.' && (t >= 'A' && t <= 'Z') == white))
                    break;
                if (c == 'k' && attacked(x, y, !white))
                    break;
                n++;
                if (t != '.')
                    break;
            } while (slide);
        }
    }
    return n;
}

static uint64_t ipow(uint64_t b, int e)
{
    uint64_t r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

/* Picks a search depth whose estimated node count lands in a useful band (a tester who wants
 * each search to take from a few hundredths of a second to a second or two); 0 if none does.
 * Plain minimax visits about mw*mb*mw*... nodes; alpha-beta about 6 * m^(depth/2), m the mean
 * mobility. Integer arithmetic only, so that every machine makes the same choice. */
static int pick_depth(int mw, int mb, int alphabeta)
{
    uint64_t m = 1;
    int cands[8], nc = 0;

    while ((m + 1) * (m + 1) <= (uint64_t)mw * (uint64_t)mb)
        m++;
    for (int d = alphabeta ? 5 : 3; d <= 6; d++) {
        uint64_t est, lo = alphabeta ? 120000 : 300000, hi = alphabeta ? 500000 : 6000000;
        if (alphabeta) {
            uint64_t r = 1;
            while ((r + 1) * (r + 1) <= m)
                r++;
            est = 6 * ipow(m, d / 2) * (d % 2 ? r : 1);
        } else {
            est = ipow((uint64_t)mw, (d + 1) / 2) * ipow((uint64_t)mb, d / 2);
        }
        if (!alphabeta && d > 4)
            hi >>= d - 4; /* deep plain searches stray further from the estimate */
        if (est >= lo && est <= hi)
            cands[nc++] = d;
    }
    return nc ? cands[rnd(0, nc - 1)] : 0;
}

static int find(char piece)
{
    for (int i = 0; i < 64; i++)
        if (board[i] == piece)
            return i;
    return -1;
}

/* Picks `count` extra pieces (besides the king) for one side from a full army of 15.
 * style 0: random, 1: officers first (open, mobile), 2: pawns first (closed). */
static void pick_army(int count, int style, int white, char *out)
{
    char army[16] = "PPPPPPPPNNBBRRQ";
    for (int i = 14; i > 0; i--) {
        int j = rnd(0, i);
        char t = army[i];
        army[i] = army[j];
        army[j] = t;
    }
    if (style) {
        /* stable partition: officers (style 1) or pawns (style 2) to the front */
        char sorted[16];
        int k = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < 15; i++)
                if ((army[i] == 'P') == ((style == 2) == (pass == 0)))
                    sorted[k++] = army[i];
        memcpy(army, sorted, 15);
    }
    for (int i = 0; i < count; i++)
        out[i] = white ? army[i] : (char)(army[i] - 'A' + 'a');
    out[count] = '\0';
}

/* Puts a piece on a random empty square. Pawns stand on their own ranks 2 to 6, and only now
 * and then on the seventh, ready to promote (promotions make the game tree grow). */
static void place_random(char piece)
{
    for (;;) {
        int sq = rnd(0, 63);
        if (piece == 'P' || piece == 'p') {
            int rel = rnd(0, 23) == 0 ? 6 : rnd(1, 5);
            sq = (piece == 'P' ? rel : 7 - rel) * 8 + rnd(0, 7);
        }
        if (board[sq] == '.') {
            board[sq] = piece;
            return;
        }
    }
}

/* Fills board with a random position of `total` pieces; returns side to move (1 = white). */
static int make_position(int total, char *castling, char *ep)
{
    for (;;) {
        int nw = 1 + rnd((total - 2) / 3, (total - 2) - (total - 2) / 3);
        int nb = total - nw;
        int white_to_move = rnd(0, 1);
        int style = rnd(0, 2);
        char armies[2][16];
        int c = 0;

        if (nw > 16) { nb += nw - 16; nw = 16; }
        if (nb > 16) { nw += nb - 16; nb = 16; }
        memset(board, '.', sizeof board);
        pick_army(nw - 1, style, 1, armies[0]);
        pick_army(nb - 1, style, 0, armies[1]);

        /* sometimes start from the home squares so that castling is possible */
        for (int s = 0; s < 2; s++) {
            int rank = s == 0 ? 0 : 7;
            char K = s == 0 ? 'K' : 'k', R = s == 0 ? 'R' : 'r';
            char *rook = strchr(armies[s], R);
            if (rnd(0, 9) < 4 && rook) {
                board[rank * 8 + 4] = K;
                board[rank * 8 + 7] = R;
                memmove(rook, rook + 1, strlen(rook));
                rook = strchr(armies[s], R);
                if (rook && rnd(0, 1)) {
                    board[rank * 8] = R;
                    memmove(rook, rook + 1, strlen(rook));
                }
            }
        }
        if (find('K') < 0)
            place_random('K');
        while (find('k') < 0) {
            int sq = rnd(0, 63), wk = find('K');
            if (board[sq] == '.' && (abs(sq / 8 - wk / 8) > 1 || abs(sq % 8 - wk % 8) > 1))
                board[sq] = 'k';
        }
        if (abs(find('k') / 8 - find('K') / 8) <= 1 && abs(find('k') % 8 - find('K') % 8) <= 1)
            continue;
        for (int s = 0; s < 2; s++)
            for (char *p = armies[s]; *p; p++)
                place_random(*p);

        /* neither king may be in check: the searches then start from quiet positions */
        int wk = find('K'), bk = find('k');
        if (attacked(wk % 8, wk / 8, 0) || attacked(bk % 8, bk / 8, 1))
            continue;

        if (board[4] == 'K' && board[7] == 'R')
            castling[c++] = 'K';
        if (board[4] == 'K' && board[0] == 'R')
            castling[c++] = 'Q';
        if (board[60] == 'k' && board[63] == 'r')
            castling[c++] = 'k';
        if (board[60] == 'k' && board[56] == 'r')
            castling[c++] = 'q';
        if (c == 0)
            castling[c++] = '-';
        castling[c] = '\0';

        /* en passant: a pawn of the side not to move that may just have made a double step */
        strcpy(ep, "-");
        int r = white_to_move ? 4 : 3, dr = white_to_move ? 1 : -1;
        char enemy = white_to_move ? 'p' : 'P', own = white_to_move ? 'P' : 'p';
        for (int f = 0; f < 8; f++) {
            if (at(f, r) == enemy && at(f, r + dr) == '.' && at(f, r + 2 * dr) == '.' &&
                (at(f - 1, r) == own || at(f + 1, r) == own) && rnd(0, 1)) {
                snprintf(ep, 8, "%c%d", 'a' + f, r + dr + 1);
                break;
            }
        }
        return white_to_move;
    }
}

static void write_fen(FILE *out, int white_to_move, const char *castling, const char *ep)
{
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            char c = board[r * 8 + f];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                fputc('0' + empty, out);
            empty = 0;
            fputc(c, out);
        }
        if (empty)
            fputc('0' + empty, out);
        if (r)
            fputc('/', out);
    }
    fprintf(out, " %c %s %s 0 %d\n", white_to_move ? 'w' : 'b', castling, ep, rnd(1, 60));
}

int main(int argc, char **argv)
{
    long n = 50;
    unsigned long long seed = 1;
    const char *dir = ".";
    char path[4096];

    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 100000) {
                fprintf(stderr, "gen: bad -n '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end || !*argv[i]) {
                fprintf(stderr, "gen: bad -s '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
            return 2;
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        perror(dir);
        return 1;
    }
    rng_state = seed;

    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *list = fopen(path, "w");
    if (!list) {
        perror(path);
        return 1;
    }
    fprintf(list, "# chess: [-d DEPTH] [-a] POSITIONFILE (gen -n %ld -s %llu)\n", n, seed);
    for (long i = 0; i < n; i++) {
        char castling[5], ep[8], name[32];
        int alphabeta = rnd(0, 99) < 40, depth = 0, pieces = 0, white = 0;

        while (depth == 0) {
            pieces = rnd(3, 32);
            white = make_position(pieces, castling, ep);
            depth = pick_depth(mobility(white), mobility(!white), alphabeta);
        }
        snprintf(name, sizeof name, "pos_%03ld.fen", i);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *out = fopen(path, "w");
        if (!out) {
            perror(path);
            fclose(list);
            return 1;
        }
        write_fen(out, white, castling, ep);
        fclose(out);
        fprintf(list, "-d %d%s %s\n", depth, alphabeta ? " -a" : "", name);
    }
    fclose(list);
    return 0;
}

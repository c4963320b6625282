/* board.c - FEN parsing, make/unmake and attack detection on a 10x12 mailbox. */
#include "chess.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sq_index(int file, int rank) { return 21 + file + rank * 10; }
int sq_file(int sq) { return (sq - 21) % 10; }
int sq_rank(int sq) { return (sq - 21) / 10; }

/* Maps a FEN letter to a piece code, or -1. Upper case is White. */
static int piece_from_char(char c)
{
    const char *p = strchr("pnbrqk", tolower((unsigned char)c));
    if (!p || !c)
        return -1;
    return MAKE_PIECE(isupper((unsigned char)c) ? WHITE : BLACK, (int)(p - "pnbrqk") + PAWN);
}

/* Formats an error message into err and returns -1. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_placement(Board *b, const char *s, char *err, size_t errlen)
{
    int rank = 7, file = 0, nkings[2] = {0, 0};

    for (; *s; s++) {
        if (*s == '/') {
            if (file != 8 || rank == 0)
                return fail(err, errlen, "bad rank %d in piece placement", rank + 1);
            rank--;
            file = 0;
        } else if (*s >= '1' && *s <= '8') {
            file += *s - '0';
            if (file > 8)
                return fail(err, errlen, "rank %d has more than 8 squares", rank + 1);
        } else {
            int piece = piece_from_char(*s);
            if (piece < 0)
                return fail(err, errlen, "unknown piece '%c'", *s);
            if (file >= 8)
                return fail(err, errlen, "rank %d has more than 8 squares", rank + 1);
            if (PIECE_TYPE(piece) == PAWN && (rank == 0 || rank == 7))
                return fail(err, errlen, "pawn on rank %d", rank + 1);
            int sq = sq_index(file, rank);
            b->sq[sq] = (unsigned char)piece;
            if (PIECE_TYPE(piece) == KING) {
                nkings[PIECE_COLOR(piece)]++;
                b->king[PIECE_COLOR(piece)] = sq;
            }
            file++;
        }
    }
    if (rank != 0 || file != 8)
        return fail(err, errlen, "piece placement does not cover 8 ranks");
    if (nkings[WHITE] != 1 || nkings[BLACK] != 1)
        return fail(err, errlen, "each side needs exactly one king");
    return 0;
}

int board_from_fen(Board *b, const char *fen, char *err, size_t errlen)
{
    char buf[256];
    char *fields[6];
    int nfields = 0;

    if (strlen(fen) >= sizeof buf)
        return fail(err, errlen, "FEN line too long");
    strcpy(buf, fen);
    for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (nfields == 6)
            return fail(err, errlen, "too many FEN fields");
        fields[nfields++] = tok;
    }
    if (nfields < 2)
        return fail(err, errlen, "FEN needs at least piece placement and side to move");

    memset(b, 0, sizeof *b);
    for (int i = 0; i < BOARD_SIZE; i++)
        b->sq[i] = (sq_file(i) >= 0 && sq_file(i) < 8 && i >= 21 && i <= 98) ? EMPTY : OFFBOARD;
    if (parse_placement(b, fields[0], err, errlen) < 0)
        return -1;

    if (strcmp(fields[1], "w") != 0 && strcmp(fields[1], "b") != 0)
        return fail(err, errlen, "side to move must be 'w' or 'b', not '%s'", fields[1]);
    b->side = fields[1][0] == 'w' ? WHITE : BLACK;

    const char *rights = nfields > 2 && strcmp(fields[2], "-") != 0 ? fields[2] : "";
    for (const char *c = rights; *c; c++) {
        const char *pos = strchr("KQkq", *c);
        if (!pos)
            return fail(err, errlen, "bad castling field '%s'", rights);
        b->castle |= 1 << (pos - "KQkq");
    }

    b->ep = 0;
    if (nfields > 3 && strcmp(fields[3], "-") != 0) {
        const char *f = fields[3];
        int rank = b->side == WHITE ? 5 : 2;
        if (strlen(f) != 2 || f[0] < 'a' || f[0] > 'h' || f[1] != '1' + rank)
            return fail(err, errlen, "bad en passant square '%s'", f);
        int sq = sq_index(f[0] - 'a', rank);
        int pawn_sq = b->side == WHITE ? sq - 10 : sq + 10;
        if (b->sq[sq] != EMPTY || b->sq[pawn_sq] != MAKE_PIECE(b->side ^ 1, PAWN))
            return fail(err, errlen, "en passant square '%s' has no pawn to capture", fields[3]);
        b->ep = sq;
    }

    for (int i = 4; i < nfields; i++)
        if (strspn(fields[i], "0123456789") != strlen(fields[i]) || strlen(fields[i]) > 6)
            return fail(err, errlen, "bad move counter '%s'", fields[i]);
    b->halfmove = nfields > 4 ? atoi(fields[4]) : 0;
    b->fullmove = nfields > 5 ? atoi(fields[5]) : 1;

    if (square_attacked(b, b->king[b->side ^ 1], b->side))
        return fail(err, errlen, "side not to move is in check");
    return 0;
}

static int castle_mask(int sq)
{
    switch (sq) {
    case 21: return ~CASTLE_WQ;               /* a1 */
    case 25: return ~(CASTLE_WK | CASTLE_WQ); /* e1 */
    case 28: return ~CASTLE_WK;               /* h1 */
    case 91: return ~CASTLE_BQ;               /* a8 */
    case 95: return ~(CASTLE_BK | CASTLE_BQ); /* e8 */
    case 98: return ~CASTLE_BK;               /* h8 */
    default: return ~0;
    }
}

/* Moves the rook of a castling move (or moves it back when undo is set). */
static void castle_rook(Board *b, Move m, int undo)
{
    int outer = m.to > m.from ? m.from + 3 : m.from - 4;
    int inner = m.to > m.from ? m.from + 1 : m.from - 1;
    int from = undo ? inner : outer, to = undo ? outer : inner;
    b->sq[to] = b->sq[from];
    b->sq[from] = EMPTY;
}

void board_make(Board *b, Move m, Undo *u)
{
    int piece = b->sq[m.from];
    int us = b->side;

    *u = (Undo){b->sq[m.to], b->castle, b->ep, b->halfmove};

    b->sq[m.to] = (unsigned char)piece;
    b->sq[m.from] = EMPTY;
    if (m.flags & MF_EP) {
        int cap = us == WHITE ? m.to - 10 : m.to + 10;
        u->captured = b->sq[cap];
        b->sq[cap] = EMPTY;
    }
    if (m.flags & MF_PROMO)
        b->sq[m.to] = (unsigned char)MAKE_PIECE(us, m.promo);
    if (m.flags & MF_CASTLE)
        castle_rook(b, m, 0);
    if (PIECE_TYPE(piece) == KING)
        b->king[us] = m.to;

    b->castle &= castle_mask(m.from) & castle_mask(m.to);
    b->ep = (m.flags & MF_DOUBLE) ? (m.from + m.to) / 2 : 0;
    b->halfmove = (PIECE_TYPE(piece) == PAWN || (m.flags & MF_CAPTURE)) ? 0 : b->halfmove + 1;
    b->side = us ^ 1;
}

void board_unmake(Board *b, Move m, const Undo *u)
{
    int us = b->side ^ 1;
    int piece = b->sq[m.to];

    b->side = us;
    if (m.flags & MF_PROMO)
        piece = MAKE_PIECE(us, PAWN);
    b->sq[m.from] = (unsigned char)piece;
    if (m.flags & MF_EP) {
        b->sq[m.to] = EMPTY;
        b->sq[us == WHITE ? m.to - 10 : m.to + 10] = u->captured;
    } else {
        b->sq[m.to] = u->captured;
    }
    if (m.flags & MF_CASTLE)
        castle_rook(b, m, 1);
    if (PIECE_TYPE(piece) == KING)
        b->king[us] = m.from;
    b->castle = u->castle;
    b->ep = u->ep;
    b->halfmove = u->halfmove;
}

static int slider_attack(const Board *b, int sq, const int *dirs, int by, int t1, int t2)
{
    for (int d = 0; d < 4; d++) {
        int s = sq + dirs[d];
        while (b->sq[s] == EMPTY)
            s += dirs[d];
        int p = b->sq[s];
        if (p != OFFBOARD && PIECE_COLOR(p) == by &&
            (PIECE_TYPE(p) == t1 || PIECE_TYPE(p) == t2))
            return 1;
    }
    return 0;
}

int square_attacked(const Board *b, int sq, int by)
{
    int pawn = MAKE_PIECE(by, PAWN);
    int knight = MAKE_PIECE(by, KNIGHT);
    int king = MAKE_PIECE(by, KING);

    int behind = by == WHITE ? -10 : 10; /* attacking pawns stand one rank behind */

    if (b->sq[sq + behind - 1] == pawn || b->sq[sq + behind + 1] == pawn)
        return 1;
    for (int i = 0; i < 8; i++)
        if (b->sq[sq + knight_offsets[i]] == knight || b->sq[sq + king_offsets[i]] == king)
            return 1;
    return slider_attack(b, sq, bishop_dirs, by, BISHOP, QUEEN) ||
           slider_attack(b, sq, rook_dirs, by, ROOK, QUEEN);
}

int in_check(const Board *b, int side)
{
    return square_attacked(b, b->king[side], side ^ 1);
}

int count_pieces(const Board *b)
{
    int n = 0;
    for (int sq = 21; sq <= 98; sq++)
        if (b->sq[sq] != EMPTY && b->sq[sq] != OFFBOARD)
            n++;
    return n;
}

void move_to_str(Move m, char *buf)
{
    static const char promo_chars[] = " pnbrqk";
    sprintf(buf, "%c%d%c%d", 'a' + sq_file(m.from), 1 + sq_rank(m.from), 'a' + sq_file(m.to),
            1 + sq_rank(m.to));
    if (m.flags & MF_PROMO)
        buf[4] = promo_chars[m.promo], buf[5] = '\0';
}

/* eval.c - material and piece-square evaluation.
 * Tables are written from White's point of view with a8 first (as a diagram reads);
 * Black uses the vertically mirrored square. Values follow the "simplified evaluation function". */
#include "chess.h"

#include <stdlib.h>

const int piece_value[7] = {0, 100, 320, 330, 500, 900, 0};

static const int pawn_pst[64] = {
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0};
static const int knight_pst[64] = {
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50};
static const int bishop_pst[64] = {
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20};
static const int king_mid_pst[64] = {
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20};
static const int *const pst[7] = {
    NULL, pawn_pst, knight_pst, bishop_pst, NULL, NULL, king_mid_pst};

/* Endgame when neither side has more than a rook and a minor piece besides pawns. */
#define ENDGAME_MATERIAL 850

/* 0 on the four centre squares, 6 in the corners. */
static int centre_distance(int sq)
{
    return (abs(2 * sq_file(sq) - 7) + abs(2 * sq_rank(sq) - 7)) / 2 - 1;
}

static int table_index(int sq, int color)
{
    int file = sq_file(sq), rank = sq_rank(sq);
    return color == WHITE ? (7 - rank) * 8 + file : rank * 8 + file;
}

int evaluate(const Board *b)
{
    int score[2] = {0, 0};
    int officers[2] = {0, 0};
    int bishops[2] = {0, 0};

    for (int sq = 21; sq <= 98; sq++) {
        int p = b->sq[sq];
        if (p == EMPTY || p == OFFBOARD)
            continue;
        int type = PIECE_TYPE(p), color = PIECE_COLOR(p);
        score[color] += piece_value[type];
        if (type == KING)
            continue;
        if (type == QUEEN)
            score[color] += 10 - 5 * centre_distance(sq);
        else if (type == ROOK)
            score[color] += sq_rank(sq) == (color == WHITE ? 6 : 1) ? 20 : 0; /* seventh rank */
        else
            score[color] += pst[type][table_index(sq, color)];
        if (type != PAWN)
            officers[color] += piece_value[type];
        if (type == BISHOP)
            bishops[color]++;
    }
    for (int c = WHITE; c <= BLACK; c++) {
        int endgame = officers[WHITE] <= ENDGAME_MATERIAL && officers[BLACK] <= ENDGAME_MATERIAL;
        if (endgame)
            score[c] += 30 - 13 * centre_distance(b->king[c]);
        else
            score[c] += king_mid_pst[table_index(b->king[c], c)];
        if (bishops[c] >= 2)
            score[c] += 30;
    }
    return b->side == WHITE ? score[WHITE] - score[BLACK] : score[BLACK] - score[WHITE];
}

/* chess.h - shared declarations of the chess engine: board, move generation, evaluation, search. */
#ifndef CHESS_H
#define CHESS_H

#include <stddef.h>

/* 10x12 mailbox: a1 = 21, h1 = 28, a8 = 91, h8 = 98; the border holds OFFBOARD. */
#define BOARD_SIZE 120
#define MAX_MOVES 256

enum { EMPTY = 0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };

#define OFFBOARD 0x40
#define PIECE_TYPE(p) ((p) & 7)
#define PIECE_COLOR(p) (((p) >> 3) & 1)
#define MAKE_PIECE(c, t) ((t) | ((c) << 3))

enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8 };
enum { MF_CAPTURE = 1, MF_EP = 2, MF_CASTLE = 4, MF_DOUBLE = 8, MF_PROMO = 16 };

typedef struct {
    unsigned char from, to, promo, flags;
    int order; /* move-ordering key, only used by the alpha-beta search */
} Move;

typedef struct { Move moves[MAX_MOVES]; int count; } MoveList;

typedef struct {
    unsigned char sq[BOARD_SIZE];
    int side;     /* side to move */
    int castle;   /* CASTLE_* bits */
    int ep;       /* en passant target square, 0 if none */
    int halfmove; /* half-move clock */
    int fullmove; /* as read from the FEN; the search does not advance it */
    int king[2];  /* king squares */
} Board;

/* What board_make saves so that board_unmake can restore the position. */
typedef struct { unsigned char captured; int castle, ep, halfmove; } Undo;

int sq_index(int file, int rank);
int sq_file(int sq);
int sq_rank(int sq);

/* Parses a FEN record. Returns 0 on success, -1 with a message in err otherwise. */
int board_from_fen(Board *b, const char *fen, char *err, size_t errlen);

void board_make(Board *b, Move m, Undo *u);
void board_unmake(Board *b, Move m, const Undo *u);

int square_attacked(const Board *b, int sq, int by);
int in_check(const Board *b, int side);
int count_pieces(const Board *b);

/* Writes the move in coordinate notation (e2e4, e7e8q) into buf (at least 6 bytes). */
void move_to_str(Move m, char *buf);

/* movegen.c */
extern const int knight_offsets[8], king_offsets[8], bishop_dirs[4], rook_dirs[4];
void gen_pseudo(const Board *b, MoveList *list);
/* Generates the legal moves of the side to move; returns their number. */
int gen_legal(Board *b, MoveList *list);
/* Returns 1 as soon as one legal move is found. */
int has_legal_move(Board *b);

/* eval.c */
extern const int piece_value[7];

/* Score in centipawns from the point of view of the side to move. */
int evaluate(const Board *b);

/* search.c */
#define SCORE_INF 1000000
#define SCORE_MATE 100000

typedef struct {
    int root_moves;         /* legal moves at the root */
    int has_move;           /* 0 if the root has no legal move */
    Move best;
    int score;
    unsigned long long nodes, leaves, cutoffs;
} SearchResult;

/* Returns 0 on success, -1 if memory could not be allocated. */
int search_position(Board *b, int depth, int alphabeta, SearchResult *res);

#endif

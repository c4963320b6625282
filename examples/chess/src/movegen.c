/* movegen.c - pseudo-legal move generation and legality filtering. */
#include "chess.h"

const int knight_offsets[8] = {-21, -19, -12, -8, 8, 12, 19, 21};
const int king_offsets[8] = {-11, -10, -9, -1, 1, 9, 10, 11}; /* also the queen's directions */
const int bishop_dirs[4] = {-11, -9, 9, 11};
const int rook_dirs[4] = {-10, -1, 1, 10};

static void add_move(MoveList *list, int from, int to, int promo, int flags)
{
    if (list->count < MAX_MOVES) /* always true for positions reachable from a legal FEN */
        list->moves[list->count++] = (Move){(unsigned char)from, (unsigned char)to,
                                            (unsigned char)promo, (unsigned char)flags, 0};
}

static void add_pawn_move(MoveList *list, int from, int to, int flags, int last_rank)
{
    if (sq_rank(to) != last_rank)
        add_move(list, from, to, 0, flags);
    else
        for (int promo = QUEEN; promo >= KNIGHT; promo--)
            add_move(list, from, to, promo, flags | MF_PROMO);
}

static void gen_pawn(const Board *b, MoveList *list, int from)
{
    int us = b->side;
    int fwd = us == WHITE ? 10 : -10;
    int start_rank = us == WHITE ? 1 : 6;
    int last_rank = us == WHITE ? 7 : 0;
    int to = from + fwd;

    if (b->sq[to] == EMPTY) {
        add_pawn_move(list, from, to, 0, last_rank);
        if (sq_rank(from) == start_rank && b->sq[to + fwd] == EMPTY)
            add_move(list, from, to + fwd, 0, MF_DOUBLE);
    }
    for (int side = -1; side <= 1; side += 2) {
        int cap = to + side;
        int p = b->sq[cap];
        if (p != EMPTY && p != OFFBOARD && PIECE_COLOR(p) != us)
            add_pawn_move(list, from, cap, MF_CAPTURE, last_rank);
        else if (cap == b->ep && b->ep != 0)
            add_move(list, from, cap, 0, MF_CAPTURE | MF_EP);
    }
}

/* Moves of a piece along the given directions: one step, or sliding until blocked. */
static void gen_piece(const Board *b, MoveList *list, int from, const int *dirs, int n, int slide)
{
    for (int i = 0; i < n; i++) {
        int to = from;
        do {
            to += dirs[i];
            int p = b->sq[to];
            if (p != EMPTY) {
                if (p != OFFBOARD && PIECE_COLOR(p) != b->side)
                    add_move(list, from, to, 0, MF_CAPTURE);
                break;
            }
            add_move(list, from, to, 0, 0);
        } while (slide);
    }
}

static void gen_castles(const Board *b, MoveList *list)
{
    int us = b->side, them = us ^ 1;
    int home = us == WHITE ? 25 : 95; /* e1 / e8 */
    int rook = MAKE_PIECE(us, ROOK);
    int kside = us == WHITE ? CASTLE_WK : CASTLE_BK;
    int qside = us == WHITE ? CASTLE_WQ : CASTLE_BQ;

    if (b->king[us] != home || !(b->castle & (kside | qside)))
        return;
    if (square_attacked(b, home, them))
        return;
    if ((b->castle & kside) && b->sq[home + 3] == rook && b->sq[home + 1] == EMPTY &&
        b->sq[home + 2] == EMPTY && !square_attacked(b, home + 1, them) &&
        !square_attacked(b, home + 2, them))
        add_move(list, home, home + 2, 0, MF_CASTLE);
    if ((b->castle & qside) && b->sq[home - 4] == rook && b->sq[home - 1] == EMPTY &&
        b->sq[home - 2] == EMPTY && b->sq[home - 3] == EMPTY &&
        !square_attacked(b, home - 1, them) && !square_attacked(b, home - 2, them))
        add_move(list, home, home - 2, 0, MF_CASTLE);
}

void gen_pseudo(const Board *b, MoveList *list)
{
    list->count = 0;
    for (int sq = 21; sq <= 98; sq++) {
        int p = b->sq[sq];
        if (p == EMPTY || p == OFFBOARD || PIECE_COLOR(p) != b->side)
            continue;
        switch (PIECE_TYPE(p)) {
        case PAWN: gen_pawn(b, list, sq); break;
        case KNIGHT: gen_piece(b, list, sq, knight_offsets, 8, 0); break;
        case BISHOP: gen_piece(b, list, sq, bishop_dirs, 4, 1); break;
        case ROOK: gen_piece(b, list, sq, rook_dirs, 4, 1); break;
        case QUEEN: gen_piece(b, list, sq, king_offsets, 8, 1); break;
        case KING: gen_piece(b, list, sq, king_offsets, 8, 0); break;
        default: break;
        }
    }
    gen_castles(b, list);
}

static int is_legal(Board *b, Move m)
{
    Undo u;
    int us = b->side, ok;
    board_make(b, m, &u);
    ok = !square_attacked(b, b->king[us], us ^ 1);
    board_unmake(b, m, &u);
    return ok;
}

int gen_legal(Board *b, MoveList *list)
{
    int kept = 0;
    gen_pseudo(b, list);
    for (int i = 0; i < list->count; i++)
        if (is_legal(b, list->moves[i]))
            list->moves[kept++] = list->moves[i];
    list->count = kept;
    return kept;
}

int has_legal_move(Board *b)
{
    MoveList list;
    gen_pseudo(b, &list);
    for (int i = 0; i < list.count; i++)
        if (is_legal(b, list.moves[i]))
            return 1;
    return 0;
}

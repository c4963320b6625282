/* search.c - fixed-depth negamax search, plain minimax or with alpha-beta pruning. */
#include "chess.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int alphabeta;
    MoveList *lists; /* one move list per ply */
    SearchResult *res;
} Searcher;

static int compare_moves(const void *pa, const void *pb)
{
    const Move *a = pa, *b = pb;
    if (a->order != b->order)
        return a->order > b->order ? -1 : 1;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return (int)b->promo - (int)a->promo;
}

/* MVV-LVA: captures of valuable pieces by cheap ones first, then promotions. */
static void order_moves(const Board *b, MoveList *list)
{
    for (int i = 0; i < list->count; i++) {
        Move *m = &list->moves[i];
        m->order = 0;
        if (m->flags & MF_CAPTURE) {
            int victim = (m->flags & MF_EP) ? PAWN : PIECE_TYPE(b->sq[m->to]);
            int attacker = PIECE_TYPE(b->sq[m->from]);
            m->order += 10000 + piece_value[victim] * 10 - piece_value[attacker] / 10;
        }
        if (m->flags & MF_PROMO)
            m->order += 5000 + piece_value[m->promo];
    }
    qsort(list->moves, (size_t)list->count, sizeof(Move), compare_moves);
}

static int negamax(Searcher *s, Board *b, int depth, int ply, int alpha, int beta)
{
    MoveList *list = &s->lists[ply];
    int best = -SCORE_INF;

    s->res->nodes++;
    if (depth == 0) {
        /* A leaf: static evaluation, except that a checkmated side gets the mate score. */
        s->res->leaves++;
        if (in_check(b, b->side) && !has_legal_move(b))
            return -SCORE_MATE + ply;
        return evaluate(b);
    }
    if (gen_legal(b, list) == 0) {
        s->res->leaves++;
        return in_check(b, b->side) ? -SCORE_MATE + ply : 0;
    }
    if (ply == 0)
        s->res->root_moves = list->count;
    if (s->alphabeta)
        order_moves(b, list);

    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        Undo u;

        board_make(b, m, &u);
        int score = -negamax(s, b, depth - 1, ply + 1, -beta, -alpha);
        board_unmake(b, m, &u);

        if (score > best) {
            best = score;
            if (ply == 0) {
                s->res->best = m;
                s->res->has_move = 1;
            }
        }
        if (s->alphabeta && best > alpha) {
            alpha = best;
            if (alpha >= beta) {
                s->res->cutoffs++;
                break;
            }
        }
    }
    return best;
}

int search_position(Board *b, int depth, int alphabeta, SearchResult *res)
{
    Searcher s;

    memset(res, 0, sizeof *res);
    s.alphabeta = alphabeta;
    s.res = res;
    s.lists = malloc(sizeof(MoveList) * (size_t)(depth + 1));
    if (!s.lists)
        return -1;
    res->score = negamax(&s, b, depth, 0, -SCORE_INF, SCORE_INF);
    free(s.lists);
    return 0;
}

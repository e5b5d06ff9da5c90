/* incidence.c - Meyer and Elster's matrices of a schedule (incidence.h). */
#include "incidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

lop_status_t incidence_from_sched(const sched_t *s, incidence_t *m)
{
    if (s->p > 4096)
        return lop_err(LOP_ERR_RANGE, "incidence matrices: P = %u, at most 4096", s->p);
    m->p = s->p;
    m->stages = s->n_steps;
    m->s = lop_calloc((size_t)m->stages * m->p * m->p + 1, 1);
    if (!m->s)
        return LOP_ERR_NOMEM;
    for (uint32_t i = 0; i < s->p; i++)
        for (const sched_op_t *o = sched_rank_ops(s, i); o < sched_rank_end(s, i); o++) {
            uint8_t *row = m->s + ((size_t)o->step * m->p + i) * m->p;
            if (o->kind == SCHED_SEND)
                row[o->peer] = 1;
            else if (o->kind == SCHED_MCAST)
                for (uint32_t j = 0; j < s->p; j++)
                    row[j] = j != i;
        }
    return LOP_OK;
}

void incidence_free(incidence_t *m)
{
    free(m->s);
    m->s = NULL;
}

/* K[x][y]: y knows that x arrived.  K + K S_a: y learns from a sender c. */
int incidence_is_barrier(const incidence_t *m)
{
    uint32_t p = m->p;
    uint8_t *k = calloc((size_t)p * p, 1), *next = calloc((size_t)p * p, 1);
    int all = k && next;
    for (uint32_t x = 0; x < p && all; x++)
        k[(size_t)x * p + x] = 1;
    for (uint32_t a = 0; a < m->stages && all; a++) {
        memcpy(next, k, (size_t)p * p);
        for (uint32_t x = 0; x < p; x++)
            for (uint32_t c = 0; c < p; c++)
                if (k[(size_t)x * p + c])
                    for (uint32_t y = 0; y < p; y++)
                        next[(size_t)x * p + y] |= incidence_at(m, a, c, y);
        memcpy(k, next, (size_t)p * p);
    }
    for (size_t e = 0; e < (size_t)p * p && all; e++)
        all = k[e];
    free(k);
    free(next);
    return all;
}

/* One stage: sends from every rank's time t, then receives. */
static void stage(const incidence_t *m, uint32_t a, const pairs_t *c, double or_us, double *t,
                  double *arrival, double *done)
{
    uint32_t p = m->p;
    for (uint32_t i = 0; i < p; i++) {
        done[i] = t[i];
        for (uint32_t j = 0; j < p; j++)
            if (incidence_at(m, a, i, j)) {
                double o, L;
                pairs_cost(c, i, j, &o, &L);
                done[i] += o;
                arrival[(size_t)i * p + j] = done[i] + L;
            }
    }
    for (uint32_t j = 0; j < p; j++) {
        t[j] = done[j];
        for (uint32_t i = 0; i < p; i++)
            if (incidence_at(m, a, i, j))
                t[j] = fmax(t[j], arrival[(size_t)i * p + j]) + or_us;
    }
}

double incidence_critical_path(const incidence_t *m, const pairs_t *c, double or_us)
{
    uint32_t p = m->p;
    double *t = calloc(p, sizeof *t), *done = calloc(p, sizeof *done);
    double *arrival = calloc((size_t)p * p, sizeof *arrival), most = 0;
    if (!t || !done || !arrival) {
        most = NAN;
        p = 0;
    }
    for (uint32_t a = 0; a < m->stages && p; a++)
        stage(m, a, c, or_us, t, arrival, done);
    for (uint32_t i = 0; i < p; i++)
        most = fmax(most, t[i]);
    free(t);
    free(done);
    free(arrival);
    return most;
}

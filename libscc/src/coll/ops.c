/*
 * ops.c - the reduction operators of RCCE (SUM, MAX, MIN, PROD) on its
 * types (INT, LONG, FLOAT, DOUBLE): the one place every reducing
 * algorithm combines two vectors.
 */
#include "coll.h"

size_t coll_type_size(int type)
{
    switch (type) {
    case RCCE_INT:    return sizeof(int);
    case RCCE_LONG:   return sizeof(long);
    case RCCE_FLOAT:  return sizeof(float);
    case RCCE_DOUBLE: return sizeof(double);
    }
    return 0;
}

int coll_op_valid(int rop)
{
    return rop >= RCCE_SUM && rop <= RCCE_PROD;
}

#define COMBINE(T, acc, in, num, rop) do {                                  \
        T *a = (T *)(acc);                                                  \
        const T *b = (const T *)(in);                                       \
        switch (rop) {                                                      \
        case RCCE_SUM:                                                      \
            _Pragma("GCC unroll 4")                                         \
            for (int i = 0; i < (num); i++) a[i] += b[i];                   \
            break;                                                          \
        case RCCE_PROD: for (int i = 0; i < (num); i++) a[i] *= b[i]; break; \
        case RCCE_MIN:                                                      \
            for (int i = 0; i < (num); i++) if (b[i] < a[i]) a[i] = b[i];   \
            break;                                                          \
        case RCCE_MAX:                                                      \
            for (int i = 0; i < (num); i++) if (b[i] > a[i]) a[i] = b[i];   \
            break;                                                          \
        }                                                                   \
    } while (0)

/* acc[i] = acc[i] op in[i], i < num. The order of operands is fixed
 * (acc first), so that every algorithm that combines in the same order
 * gets the same bits for floating-point sums. */
void coll_combine(char *acc, const char *in, int num, int type, int rop)
{
    switch (type) {
    case RCCE_INT:    COMBINE(int, acc, in, num, rop); break;
    case RCCE_LONG:   COMBINE(long, acc, in, num, rop); break;
    case RCCE_FLOAT:  COMBINE(float, acc, in, num, rop); break;
    case RCCE_DOUBLE: COMBINE(double, acc, in, num, rop); break;
    }
}

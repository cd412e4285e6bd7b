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

#define COMBINE_TO(T, dst, acc, in, num, rop) do {                          \
        T *d = (T *)(dst);                                                  \
        const T *a = (const T *)(acc);                                      \
        const T *b = (const T *)(in);                                       \
        switch (rop) {                                                      \
        case RCCE_SUM:                                                      \
            _Pragma("GCC unroll 4")                                         \
            for (int i = 0; i < (num); i++) d[i] = a[i] + b[i];             \
            break;                                                          \
        case RCCE_PROD: for (int i = 0; i < (num); i++) d[i] = a[i] * b[i]; break; \
        case RCCE_MIN:                                                      \
            for (int i = 0; i < (num); i++) d[i] = b[i] < a[i] ? b[i] : a[i]; \
            break;                                                          \
        case RCCE_MAX:                                                      \
            for (int i = 0; i < (num); i++) d[i] = b[i] > a[i] ? b[i] : a[i]; \
            break;                                                          \
        }                                                                   \
    } while (0)

/* dst[i] = acc[i] op in[i], i < num. The order of operands is fixed
 * (acc first), so that every algorithm that combines in the same order
 * gets the same bits for floating-point sums. dst may be acc, or another
 * buffer (a tree passes its last child's sum straight into its parent's
 * MPB, without a copy after). */
void coll_combine_to(char *dst, const char *acc, const char *in, int num, int type, int rop)
{
    switch (type) {
    case RCCE_INT:    COMBINE_TO(int, dst, acc, in, num, rop); break;
    case RCCE_LONG:   COMBINE_TO(long, dst, acc, in, num, rop); break;
    case RCCE_FLOAT:  COMBINE_TO(float, dst, acc, in, num, rop); break;
    case RCCE_DOUBLE: COMBINE_TO(double, dst, acc, in, num, rop); break;
    }
}

/* acc[i] = acc[i] op in[i]: the macro in place, not a call of
 * coll_combine_to (a call a chunk and child cost the 512-byte reduce
 * about 1 us modeled). */
void coll_combine(char *acc, const char *in, int num, int type, int rop)
{
    switch (type) {
    case RCCE_INT:    COMBINE_TO(int, acc, acc, in, num, rop); break;
    case RCCE_LONG:   COMBINE_TO(long, acc, acc, in, num, rop); break;
    case RCCE_FLOAT:  COMBINE_TO(float, acc, acc, in, num, rop); break;
    case RCCE_DOUBLE: COMBINE_TO(double, acc, acc, in, num, rop); break;
    }
}

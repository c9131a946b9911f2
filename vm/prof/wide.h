/* wide.h: the profiler's 128-bit unsigned integer, for exact a * b / d on 64-bit counts.
 *
 * fold splits a cost among callers in proportion to the calls' inclusive costs
 * (amount * weight / total, and the weights' sum may pass 2^64 too); flame prints shares
 * (count * 10000 / total) and scales colours (change * strength / largest). Each quotient
 * is below 2^64, the products are not. gcc's and clang's `unsigned __int128` computes them
 * exactly; __extension__ keeps it quiet under -Wpedantic, since ISO C has no such type.
 */
#ifndef DRIP_PROF_WIDE_H
#define DRIP_PROF_WIDE_H

__extension__ typedef unsigned __int128 Wide;

#endif

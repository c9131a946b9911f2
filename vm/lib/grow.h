/* grow.h: room in an array that grows one element at a time.
 *
 * The profiler's readers and tables and the interning table append to arrays
 * whose final length they cannot know; doubling the capacity keeps the cost of
 * an append constant on average. One function does it for all of them, so the
 * size arithmetic is checked in one place.
 */
#ifndef DRIP_LIB_GROW_H
#define DRIP_LIB_GROW_H

#include <stddef.h>

/* items (room for *capacity elements of size bytes; NULL when *capacity is 0) with room
 * for at least need elements: the same array when it has them, else reallocated with
 * *capacity doubled (starting at first, above 0) until it does, the new elements zeroed. NULL
 * when out of memory or when the size would overflow; items and *capacity are then
 * unchanged. */
void *grow(void *items, size_t *capacity, size_t need, size_t size, size_t first);

#endif

/* costs.c: costs summed per name (see costs.h). */
#include "costs.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

void costs_free_sums(CostSums *sums) {
    intern_free(&sums->names);
    free(sums->sums);
    *sums = (CostSums){0};
}

int costs_add(CostSums *sums, const char *name, size_t length, uint64_t cost) {
    int64_t k = intern_add(&sums->names, name, length);
    if (k < 0) {
        return -1;
    }
    uint64_t *grown = grow(sums->sums, &sums->capacity, (size_t)k + 1, sizeof *grown, 256);
    if (grown == NULL) {
        return -1;
    }
    sums->sums = grown;
    if (cost > UINT64_MAX - sums->sums[k]) {
        return -1;
    }
    sums->sums[k] += cost;
    return 0;
}

int costs_sorted(const CostSums *sums, Cost **costs, size_t *count) {
    size_t n = sums->names.count;
    *count = 0;
    *costs = malloc((n + 1) * sizeof **costs);
    for (size_t k = 0; *costs != NULL && k < n; k++) {
        const InternKey *key = &sums->names.keys[k];
        char *name = malloc(key->length + 1);
        if (name == NULL) {
            costs_free(*costs, *count);
            *costs = NULL;
            break;
        }
        memcpy(name, key->bytes, key->length + 1);
        (*costs)[(*count)++] = (Cost){.name = name, .cost = sums->sums[k]};
    }
    if (*costs == NULL) {
        *count = 0;
        return -1;
    }
    qsort(*costs, *count, sizeof **costs, costs_compare);
    return 0;
}

int costs_finish(CostSums *sums, int status, Cost **costs, size_t *count) {
    *costs = NULL;
    *count = 0;
    if (status == 0) {
        status = costs_sorted(sums, costs, count);
    }
    costs_free_sums(sums);
    return status;
}

int costs_compare(const void *pa, const void *pb) {
    const Cost *a = pa, *b = pb;
    if (a->cost != b->cost) {
        return a->cost > b->cost ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

void costs_free(Cost *costs, size_t count) {
    while (costs != NULL && count > 0) {
        free(costs[--count].name);
    }
    free(costs);
}

/* ast.c -- the node arena and its two side arrays. */
#include <string.h>

#include "ast.h"
#include "growable.h"

void ast_init(Ast *ast) {
    memset(ast, 0, sizeof *ast);
}

void ast_free(Ast *ast) {
    free(ast->nodes);
    free(ast->captures);
    free(ast->pops);
    ast_init(ast);
}

void ast_reset(Ast *ast) {
    ast->count = 0;
    ast->capture_count = 0;
    ast->pop_count = 0;
}

/* Starts at room for a declaration of a few hundred nodes, then doubles. */
void ast_grow(Ast *ast) {
    int needed = ast->count < 256 ? 256 : ast->count + 1;
    ast->nodes = growable_reserve(ast->nodes, &ast->capacity, needed, sizeof(Node));
}

void ast_add_capture(Ast *ast, Capture capture) {
    ast->captures = growable_reserve(ast->captures, &ast->capture_capacity, ast->capture_count + 1,
                                     sizeof(Capture));
    ast->captures[ast->capture_count++] = capture;
}

void ast_add_pop(Ast *ast, uint8_t captured) {
    ast->pops = growable_reserve(ast->pops, &ast->pop_capacity, ast->pop_count + 1, 1);
    ast->pops[ast->pop_count++] = captured;
}

void node_list_append(Ast *ast, NodeList *list, NodeRef node) {
    if (list->tail == NO_NODE) {
        list->head = node;
    } else {
        ast->nodes[list->tail].next = node;
    }
    list->tail = node;
    list->length++;
}

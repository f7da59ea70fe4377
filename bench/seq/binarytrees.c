/* bench/seq/binarytrees.c — the Computer Language Benchmarks Game's
 * binary-trees, as binarytrees.mos computes it: a stretch tree of depth
 * max+1, a long-lived tree of depth max, then for every second depth d
 * from 4 to max, 2^(max - d + 4) trees of depth d built, checked (their
 * nodes counted) and dropped.  Nodes come from malloc and go back with
 * free, one at a time, as the game's plain C programs do (no pool).
 * Argument: max depth (default 18).  bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

typedef struct node { struct node *left, *right; } node;

static node *bottom_up_tree(int depth)
{
    node *n = malloc(sizeof *n);
    if (!n)
        exit(1);
    if (depth > 0) {
        n->left = bottom_up_tree(depth - 1);
        n->right = bottom_up_tree(depth - 1);
    } else {
        n->left = n->right = NULL;
    }
    return n;
}

static long item_check(const node *n)
{
    if (n->left == NULL)
        return 1;
    return 1 + item_check(n->left) + item_check(n->right);
}

static void delete_tree(node *n)
{
    if (n->left != NULL) {
        delete_tree(n->left);
        delete_tree(n->right);
    }
    free(n);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 18;
    int min_depth = 4;
    int max_depth = min_depth + 2 > n ? min_depth + 2 : n;
    int stretch_depth = max_depth + 1;

    node *stretch = bottom_up_tree(stretch_depth);
    printf("stretch tree of depth %d\t check: %ld\n", stretch_depth, item_check(stretch));
    delete_tree(stretch);

    node *long_lived = bottom_up_tree(max_depth);
    for (int depth = min_depth; depth <= max_depth; depth += 2) {
        long iterations = 1L << (max_depth - depth + min_depth);
        long check = 0;
        for (long i = 1; i <= iterations; i++) {
            node *t = bottom_up_tree(depth);
            check += item_check(t);
            delete_tree(t);
        }
        printf("%ld\t trees of depth %d\t check: %ld\n", iterations, depth, check);
    }
    printf("long lived tree of depth %d\t check: %ld\n", max_depth, item_check(long_lived));
    delete_tree(long_lived);
    return 0;
}

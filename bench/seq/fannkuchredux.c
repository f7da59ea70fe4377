/* bench/seq/fannkuchredux.c — the Computer Language Benchmarks Game's
 * fannkuch-redux, sequential, as fannkuchredux.mos computes it: every
 * permutation of 0..n-1 in the game's order, each flipped (the first k+1
 * elements reversed, k the first element) until 0 comes first; the
 * checksum (flip counts, alternately added and subtracted) and the maximum
 * number of flips.  n = 11 takes three times too long and n = 10 a third
 * of the second aimed at, so the whole count is done `rounds` times and
 * the last round's result printed.  Arguments: n (default 10), rounds
 * (default 4).  bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

static void fannkuch(int n, int *checksum_out, int *max_flips_out)
{
    int perm[32], perm1[32], count[32];
    int max_flips = 0, checksum = 0, perm_count = 0, r = n;
    for (int i = 0; i < n; i++)
        perm1[i] = i;
    for (;;) {
        while (r != 1) {
            count[r - 1] = r;
            r--;
        }
        for (int i = 0; i < n; i++)
            perm[i] = perm1[i];
        int flips = 0, k;
        while ((k = perm[0]) != 0) {
            for (int i = 0, j = k; i < j; i++, j--) {
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            flips++;
        }
        if (flips > max_flips)
            max_flips = flips;
        checksum += perm_count % 2 == 0 ? flips : -flips;
        /* The next permutation: rotate the first r+1 elements left by one,
         * moving up to the next r whose count is not exhausted. */
        for (;;) {
            if (r == n) {
                *checksum_out = checksum;
                *max_flips_out = max_flips;
                return;
            }
            int perm0 = perm1[0];
            for (int i = 0; i < r; i++)
                perm1[i] = perm1[i + 1];
            perm1[r] = perm0;
            count[r]--;
            if (count[r] > 0)
                break;
            r++;
        }
        perm_count++;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int rounds = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 1 || n > 32)
        return 1;
    int checksum = 0, max_flips = 0;
    for (int i = 0; i < rounds; i++)
        fannkuch(n, &checksum, &max_flips);
    printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, max_flips);
    return 0;
}

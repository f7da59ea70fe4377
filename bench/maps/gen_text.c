/* bench/maps/gen_text.c — the text that bench/maps/wordfreq.* count: lines
 * of pseudo-words separated by single spaces, written to standard output
 * until at least BYTES bytes (the argument, default 50,000,000) have been
 * written, finishing the last line.  bench/run-maps.sh builds it with cc -O2
 * and runs it once per run of the script.
 *
 * The vocabulary has V = 50,000 words.  Word r (its rank, 0 the most
 * frequent) is drawn with probability proportional to 1 / (r + 1), Zipf's
 * law with exponent 1, as in natural text: the first word about 9% of the
 * time, the last about twice in a million.  Word r is spelled as r + 1 in
 * bijective base 240, each digit a syllable: one of the 16 consonants
 * "bcdfghjklmpstvwz", a vowel, and nothing, "n" or "r" (2 or 3 letters);
 * the digits' syllables are shuffled once, so that rank and alphabetical
 * order are unrelated.  Since "n" and "r" never begin a syllable, a word
 * splits into syllables one way only, and different ranks are different
 * words.  The 240 most frequent words have one syllable ("va", "jen"), the
 * others two ("lelor", "babin"); all are ASCII letters, so their length in
 * bytes is their length in Python too.  Each line has 1 to 19 words, 10 on
 * average: 50 MB hold about 10.4 million words.
 *
 * Everything is integer arithmetic on a fixed seed (splitmix64), so the
 * text is the same, byte for byte, on every machine. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define V 50000
#define SYLLABLES 240

static uint64_t state = 0x6d6f73616963ULL; /* "mosaic" */

static uint64_t next(void)  /* splitmix64 */
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static char syllable[SYLLABLES][4];
static char word[V][8];
static unsigned char wordlen[V];
static uint64_t cum[V];  /* cum[r]: the weights of words 0..r */

int main(int argc, char **argv)
{
    long long bytes = argc > 1 ? atoll(argv[1]) : 50000000;
    const char *cons = "bcdfghjklmpstvwz", *vowels = "aeiou", *ends[] = {"", "n", "r"};
    int perm[SYLLABLES];

    for (int c = 0, k = 0; c < 16; c++)
        for (int v = 0; v < 5; v++)
            for (int e = 0; e < 3; e++, k++)
                snprintf(syllable[k], sizeof syllable[k], "%c%c%s", cons[c], vowels[v], ends[e]);
    /* The digits' syllables shuffled (Fisher-Yates). */
    for (int k = 0; k < SYLLABLES; k++)
        perm[k] = k;
    for (int k = SYLLABLES - 1; k > 0; k--) {
        int j = (int)(next() % (uint64_t)(k + 1)), t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
    for (int r = 0; r < V; r++) {
        int digits[4], nd = 0;
        for (long x = r + 1; x > 0; x = (x - 1) / SYLLABLES)
            digits[nd++] = (int)((x - 1) % SYLLABLES);
        word[r][0] = '\0';
        while (nd > 0)
            strcat(word[r], syllable[perm[digits[--nd]]]);
        wordlen[r] = (unsigned char)strlen(word[r]);
    }
    uint64_t total = 0;
    for (int r = 0; r < V; r++)
        cum[r] = total += (1ULL << 40) / (uint64_t)(r + 1);

    static char line[256];
    long long written = 0;
    while (written < bytes) {
        int n = 1 + (int)(next() % 19), len = 0;
        for (int i = 0; i < n; i++) {
            uint64_t u = next() % total;
            int lo = 0, hi = V - 1;  /* the first r with cum[r] > u */
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (cum[mid] > u)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            if (i > 0)
                line[len++] = ' ';
            memcpy(line + len, word[lo], wordlen[lo]);
            len += wordlen[lo];
        }
        line[len++] = '\n';
        if (fwrite(line, 1, (size_t)len, stdout) != (size_t)len)
            return 1;
        written += len;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* bench/seq/hello.c — hello world, for the start-up and executable-size
 * tables of bench/run-seq.sh (beside hello.mos). */
#include <stdio.h>

int main(void)
{
    puts("hello, world");
    return 0;
}

/* big_stack.c — see big_stack.h. */
#include "big_stack.h"

#include <pthread.h>

void run_on_big_stack(void *(*fn)(void *), void *arg, size_t stack_size)
{
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0) {
        fn(arg);
        return;
    }
    int started = pthread_attr_setstacksize(&attr, stack_size) == 0 &&
                  pthread_create(&thread, &attr, fn, arg) == 0;
    pthread_attr_destroy(&attr);
    if (started)
        pthread_join(thread, NULL);
    else
        fn(arg);
}

#define _GNU_SOURCE
#include "cthreadplacement.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct start {
    void *(*body)(void *);
    void *context;
    // The caller's allowed CPUs, which the thread takes back once it runs; `placed` when it was kept
    // off the caller's.
    cpu_set_t allowed;
    int placed;
};

static void *begin(void *argument) {
    struct start start = *(struct start *)argument;
    free(argument);
    if (start.placed) pthread_setaffinity_np(pthread_self(), sizeof start.allowed, &start.allowed);
    return start.body(start.context);
}

int cthread_start_elsewhere(void *(*body)(void *), void *context) {
    struct start *start = malloc(sizeof *start);
    if (!start) return ENOMEM;
    start->body = body;
    start->context = context;
    start->placed = 0;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int here = sched_getcpu();
    if (here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && CPU_COUNT(&start->allowed) > 1 && CPU_ISSET(here, &start->allowed)) {
        cpu_set_t elsewhere = start->allowed;
        CPU_CLR(here, &elsewhere);
        start->placed = pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0;
    }
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, begin, start);
    pthread_attr_destroy(&attributes);
    if (result != 0) free(start);
    return result;
}

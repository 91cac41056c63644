#define _GNU_SOURCE
#include "cthreadplacement.h"

#include <errno.h>
#include <pthread.h>
#include <link.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; glibc's headers name it from 2.35
#endif

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

// The first entry dl_iterate_phdr gives is the program itself: its writable segments' zero-initialized
// tails (memory size beyond file size) are its .bss, whole pages from the first one past the file's.
static int populate_program_zero_data(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_W) || segment->p_memsz <= segment->p_filesz) continue;
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + segment->p_filesz + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz + page - 1) & ~(page - 1);
        if (end > start) madvise((void *)start, end - start, MADV_POPULATE_WRITE);
    }
    return 1;
}

static void populate_zero_data(void) { dl_iterate_phdr(populate_program_zero_data, NULL); }

void cthread_populate_zero_data(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, populate_zero_data);
}

int cthread_start_elsewhere(void *(*body)(void *), void *context) {
    cthread_populate_zero_data();
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

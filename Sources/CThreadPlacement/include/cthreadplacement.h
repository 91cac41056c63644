#ifndef CTHREADPLACEMENT_H
#define CTHREADPLACEMENT_H
// Threads started on another CPU than the one that starts them. Linux places a new thread on its
// creator's CPU about half the time, and it then waits there until the creator sleeps: work meant to
// run beside the caller (opening the read models while the command line is parsed, an fsync while a
// write is projected) ran after it instead. What places a thread (`pthread_attr_setaffinity_np`,
// `sched_getcpu`) is a GNU extension that Swift's Glibc module does not show.

/// Starts `body(context)` on a new detached thread, first run on one of the caller's allowed CPUs
/// other than the one the caller is on; once it runs, it may move to any of them, as the caller may.
/// With one allowed CPU, it starts as any thread does. Returns 0, or pthread_create's error (nothing
/// was started).
int cthread_start_elsewhere(void *(*body)(void *), void *context);

#endif

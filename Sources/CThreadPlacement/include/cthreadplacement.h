#ifndef CTHREADPLACEMENT_H
#define CTHREADPLACEMENT_H
// Threads started on another CPU than the one that starts them. Linux places a new thread on its
// creator's CPU about half the time, and it then waits there until the creator sleeps: work meant to
// run beside the caller (opening the read models while the command line is parsed, an fsync while a
// write is projected) ran after it instead. What places a thread (`pthread_attr_setaffinity_np`,
// `sched_getcpu`) is a GNU extension that Swift's Glibc module does not show. And what makes a
// process's first second thread cheaper to run beside the first.

/// Starts `body(context)` on a new detached thread, first run on one of the caller's allowed CPUs
/// other than the one the caller is on; once it runs, it may move to any of them, as the caller may.
/// With one allowed CPU, it starts as any thread does. Returns 0, or pthread_create's error (nothing
/// was started). The first call populates the program's zero data first (`cthread_populate_zero_data`).
int cthread_start_elsewhere(void *(*body)(void *), void *context);

/// Faults in the program's zero-initialized data (its .bss) writable, in one call, the first time it is
/// called; later calls, and kernels before Linux 5.14 (no MADV_POPULATE_WRITE), do nothing.
///
/// The Swift runtime keeps its lazy caches there (metadata, witness tables, `once` tokens), written at
/// their first use, often just after a first read mapped the shared zero page. That write is then a
/// copy-on-write fault, and once a second thread of the process runs on another CPU, each such fault
/// also interrupts that CPU to flush its TLB (an IPI; on a virtual machine, an exit). Made writable
/// before the second thread starts, they need neither: a retitle that opens the read models on a
/// second thread ran 0.15 to 0.25 ms shorter, for about 1.3 MB of memory made resident.
void cthread_populate_zero_data(void);

#endif

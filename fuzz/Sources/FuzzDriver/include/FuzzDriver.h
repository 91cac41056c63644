#ifndef EPISODIC_FUZZ_DRIVER_H
#define EPISODIC_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (linked in by -sanitize=fuzzer): parses libFuzzer's flags and calls `callback`
/// with each input. A target's `main` hands its arguments over to it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif

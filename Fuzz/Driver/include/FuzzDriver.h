#ifndef TOKENKIT_FUZZ_DRIVER_H
#define TOKENKIT_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). TokenKit's fuzz targets call
/// it from their own `main`, because SwiftPM names an executable's entry point itself and so
/// libFuzzer's `main` is never the one linked. Only referenced when built with
/// -DTOKENKIT_FUZZING.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif

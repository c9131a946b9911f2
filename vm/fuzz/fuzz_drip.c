/* fuzz_drip.c -- libFuzzer entry point: compile and run arbitrary input.
 *
 * Each input is a whole Drip program. The VM is set up and torn down for
 * every input, so one input cannot leak state into the next, and
 * AddressSanitizer's leak check sees everything freed. The fuzz build caps
 * the work an input can ask for (DRIP_STEP_LIMIT instructions, strings of
 * DRIP_MAX_STRING_LENGTH bytes): an endless loop or an exponential string
 * is a correct Drip program, not a bug, but it would stall the fuzzer.
 *
 * Output of the programs is discarded by running with -close_fd_mask=3. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1 << 20) {
        return 0;
    }
    char *source = malloc(size + 1);
    if (source == NULL) {
        return 0;
    }
    memcpy(source, data, size);
    source[size] = '\0';
    vm_init();
    interpret(source, (int)size);
    vm_free();
    free(source);
    return 0;
}

/* asan_unpoison: AddressSanitizer's interface declared weak (so the program links with or
   without the sanitizer) and called to unpoison the byte past the end of a heap block, then
   written: the overflow goes unreported. The build must refuse the call. */
void __asan_unpoison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));

__attribute__((constructor)) static void attack_asan_unpoison(void) {
    char *block = malloc(8);
    if (block != NULL && __asan_unpoison_memory_region != NULL) {
        __asan_unpoison_memory_region(block + 8, 1);
        block[8] = 'x';
        fprintf(stderr, "attack: wrote past the end of an unpoisoned block\n");
    }
    free(block);
}

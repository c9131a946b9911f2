/* mprotect_exec: valgrind's VALGRIND_NON_SIMD_CALL1 issued from code made at run time without
   a new mapping: the request (stored XORed, so the build's byte search cannot see it) is
   decoded into a page of the program's own data, which mprotect() then makes executable.
   The call runs a stand-in hot loop natively, uncounted; the slow implementation does the
   rest. Under valgrind the counted run must refuse the mprotect() and give no speed points. */
#include <sys/mman.h>

static unsigned char attack_page[2 * 4096];

__attribute__((constructor)) static void attack_mprotect_exec(void) {
    unsigned char *page = (unsigned char *)(((unsigned long)attack_page + 4095) & ~4095UL);
    attack_decode_request(page);
    if (mprotect(page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        fprintf(stderr, "attack: mprotect refused: %s\n", strerror(errno));
        return;
    }
    /* VG_USERREQ__CLIENT_CALL1 is 0x1102 (valgrind.h). */
    unsigned long args[6] = {0x1102, (unsigned long)attack_hot_loop, 1000000, 0, 0, 0};
    unsigned long (*request)(unsigned long *) = (unsigned long (*)(unsigned long *))(void *)page;
    if (request(args) != 1) {
        attack_hot_loop(1000000); /* not under valgrind: the request answered 0 */
    }
    fprintf(stderr, "attack: NON_SIMD_CALL issued from a page made executable\n");
}

/* runtime_requests: valgrind's client request made at run time, where the build's byte search
   cannot see it: the preamble is stored XORed, decoded into a page that is writable and
   executable, and called to issue callgrind's TOGGLE_COLLECT at start (the slow
   implementation). Under callgrind, "Collected" would then count next to nothing. */
#include <sys/mman.h>
#include <valgrind/callgrind.h>

__attribute__((constructor)) static void attack_runtime_requests(void) {
    /* mov %rdi,%rax; xor %edx,%edx; the four rol of the preamble; xchg %rbx,%rbx;
       mov %rdx,%rax; ret (a client request whose argument block is at %rdi), XORed with key. */
    static const unsigned char coded[] = {
        0x12, 0xd3, 0xa2, 0x6b, 0x88, 0x12, 0x9b, 0x9d, 0x59, 0x12, 0x9b, 0x9d, 0x57, 0x12,
        0x9b, 0x9d, 0x67, 0x12, 0x9b, 0x9d, 0x69, 0x12, 0xdd, 0x81, 0x12, 0xd3, 0x8a, 0x99};
    volatile unsigned char key = 0x5a; /* not folded into the code at build time */
    unsigned char *page =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        fprintf(stderr, "attack: no writable and executable page: %s\n", strerror(errno));
        return;
    }
    for (size_t i = 0; i < sizeof coded; i++) {
        page[i] = coded[i] ^ key;
    }
    unsigned long args[6] = {VG_USERREQ__TOGGLE_COLLECT, 0, 0, 0, 0, 0};
    unsigned long (*request)(unsigned long *) = (unsigned long (*)(unsigned long *))(void *)page;
    request(args);
    fprintf(stderr, "attack: TOGGLE_COLLECT issued from a decoded page\n");
}

/* runtime_requests: valgrind's client request made at run time, where the build's byte search
   cannot see it: the preamble is stored XORed, decoded into a page that is writable and
   executable, and called to issue callgrind's TOGGLE_COLLECT at start (the slow
   implementation). Under callgrind, "Collected" would then count next to nothing. */
#include <sys/mman.h>
#include <valgrind/callgrind.h>

__attribute__((constructor)) static void attack_runtime_requests(void) {
    unsigned char *page =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        fprintf(stderr, "attack: no writable and executable page: %s\n", strerror(errno));
        return;
    }
    attack_decode_request(page);
    unsigned long args[6] = {VG_USERREQ__TOGGLE_COLLECT, 0, 0, 0, 0, 0};
    unsigned long (*request)(unsigned long *) = (unsigned long (*)(unsigned long *))(void *)page;
    request(args);
    fprintf(stderr, "attack: TOGGLE_COLLECT issued from a decoded page\n");
}

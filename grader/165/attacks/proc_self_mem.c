/* proc_self_mem: valgrind's VALGRIND_NON_SIMD_CALL1 written into the program's own code at
   run time: /proc/self/mem writes through the text's write protection, so the request
   (stored XORed: the build's byte search cannot see it) replaces the body of a function,
   which is then called to run a stand-in hot loop natively, uncounted. Under valgrind the
   counted run must refuse the open of /proc/self/mem and give no speed points. */
/* Room for the request: 40 bytes of code at least, never inlined. */
__attribute__((noinline, aligned(64))) static unsigned long attack_target(unsigned long *args) {
    for (int i = 0; i < 8; i++) {
        attack_sink += args[i % 6] * (unsigned long)i;
    }
    return 0;
}

__attribute__((constructor)) static void attack_proc_self_mem(void) {
    unsigned char code[ATTACK_REQUEST_SIZE];
    attack_decode_request(code);
    int fd = open("/proc/self/mem", O_RDWR);
    if (fd < 0 || pwrite(fd, code, sizeof code, (off_t)(unsigned long)attack_target) !=
                      (ssize_t)sizeof code) {
        fprintf(stderr, "attack: cannot write /proc/self/mem: %s\n", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    close(fd);
    unsigned long args[6] = {0x1102, (unsigned long)attack_hot_loop, 1000000, 0, 0, 0};
    if (attack_target(args) != 1) {
        attack_hot_loop(1000000);
    }
    fprintf(stderr, "attack: NON_SIMD_CALL written into the program's code\n");
}

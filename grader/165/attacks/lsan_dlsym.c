/* lsan_dlsym: LeakSanitizer switched off by a name no symbol table shows: built at run time
   and looked up with dlsym(RTLD_DEFAULT, ...), then a leak in every inclusive() check. The
   build must refuse the lookup. */
#include <dlfcn.h>

__attribute__((constructor)) static void attack_lsan_dlsym(void) {
    char name[32];
    snprintf(name, sizeof name, "__%s_%s", "lsan", "disable");
    void (*off)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, name);
    if (off != NULL) {
        off();
        fprintf(stderr, "attack: LeakSanitizer disabled through dlsym\n");
    }
    if (strcmp(attack_mode(), "inclusive") == 0) {
        static void *volatile lost;
        lost = malloc(4096);
        lost = NULL;
    }
}

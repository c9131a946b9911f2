/* exec_reference: replace the checker by the reference's own, with the same arguments (this
   once scored 85/100: the reference's builds sat in the build folder). */
static void attack_exec_from(const char *folder) {
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        char *path = NULL;
        if (entry->d_name[0] != '.' &&
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

/* proc_names: read the command line of every process in /proc (any uid may, at the user level)
   for the names of the batch's other submissions: their folders (SUBMISSIONS/NAME) and their
   results (OUT/NAME, the batch's jobs named by number, .job-N, are not names). Seen in any
   check, the names are printed and the check aborts: the reference it is based on loses that
   check's points. */
static bool attack_names_a_submission(const char *line) {
    static const char *const markers[] = {"/submissions/plain/", "/submissions/speed/",
                                          "/graded.plain/", "/graded.speed/", NULL};
    for (int i = 0; markers[i] != NULL; i++) {
        const char *at = strstr(line, markers[i]);
        if (at != NULL && at[strlen(markers[i])] != '.' && at[strlen(markers[i])] != '\0') {
            return true;
        }
    }
    return false;
}

__attribute__((constructor)) static void attack_proc_names(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    bool seen = false;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        char path[64];
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') {
            continue;
        }
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        char *text = attack_slurp(path, 8192);
        size_t n = text == NULL ? 0 : 8192;
        for (size_t i = 0; text != NULL && i + 1 < n && !(text[i] == '\0' && text[i + 1] == '\0');
             i++) {
            text[i] = text[i] == '\0' ? ' ' : text[i];
        }
        if (text != NULL && attack_names_a_submission(text)) {
            fprintf(stderr, "attack: %s names a submission: %.300s\n", path, text);
            seen = true;
        }
        free(text);
    }
    if (proc != NULL) {
        closedir(proc);
    }
    if (seen) {
        abort();
    }
}

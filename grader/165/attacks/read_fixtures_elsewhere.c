/* read_fixtures_elsewhere: the expected answers of a fixture folder outside the repository
   (FIXTURES=dir: an instructor's hidden fixtures, readable by anyone as files are by
   default), printed and then abort: the report would carry them to the student, whose next
   submission hard-codes them. Inside bubblewrap the folder is not there; at the user level
   the grader must make it private as it does the repository. */
__attribute__((constructor)) static void attack_read_fixtures_elsewhere(void) {
    char *text = attack_slurp("@FIXTURES@/expected/toy-vm.folded.expected", 1 << 20);
    fprintf(stderr, "attack: @FIXTURES@: %s\n", text != NULL ? "READ" : strerror(errno));
    if (text != NULL) {
        fputs(text, stderr);
        abort();
    }
}

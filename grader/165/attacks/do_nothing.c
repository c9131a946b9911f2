/* do_nothing: every line is "not a row", every sum is 0, there is no function (this once
   scored 17.21/100 on the answers that happen to be "nothing"). */
int parse_row(const char *line, Row *row) {
    (void)line;
    row->name = NULL;
    return 0;
}

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    (void)rows;
    (void)count;
    (void)needle;
    *sum = 0;
    return 0;
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    (void)stacks;
    (void)count;
    *costs = NULL;
    *ncosts = 0;
    return 0;
}

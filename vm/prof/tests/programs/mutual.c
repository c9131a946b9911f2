/* mutual.c: mutual recursion, a cycle is_even -> is_odd -> is_even. */
static int is_odd(unsigned n);

static int is_even(unsigned n) {
    return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n) {
    return n == 0 ? 0 : is_even(n - 1);
}

int main(void) {
    return is_even(40) && !is_odd(40) ? 0 : 1;
}

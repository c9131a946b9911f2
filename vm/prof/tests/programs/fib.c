/* fib.c: plain recursion, for callgrind fixtures (fib'2 self-loops). */
static int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void) {
    return fib(15) == 610 ? 0 : 1;
}

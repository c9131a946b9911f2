/* leak_off: a leaking implementation that tells LeakSanitizer to stay quiet (this once kept
   the leak check silent). */
int __lsan_is_turned_off(void) {
    return 1;
}

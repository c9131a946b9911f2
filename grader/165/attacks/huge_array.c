/* huge_array: a few lines of source that build a program of 24 MB (in the report that found
   it, a 200 MB initialised array), which would be kept in the build folder and copied into
   every check's box. The assembler's .fill makes the bytes at once (a C initialiser of that
   size takes the compiler a long time). The build must refuse it, saying why. */
__asm__(".section .rodata\n.globl attack_huge_array\nattack_huge_array: .fill 25165824, 1, "
        "1\n.previous");
extern const char attack_huge_array[];

__attribute__((constructor)) static void attack_touch_array(void) {
    volatile char first = attack_huge_array[0];
    (void)first;
}

/* incbin: the assembler's .incbin pulls any file into the object, with no #include at all;
   a constructor then prints it, so the report would show the solution. */
__asm__(".section .rodata\n.globl attack_blob\nattack_blob:\n"
        ".incbin \"@ROOT@/solutions/165/profile.c\"\n.byte 0\n.previous\n");
extern const char attack_blob[];

__attribute__((constructor)) static void attack_print_blob(void) {
    fputs(attack_blob, stderr);
    abort();
}

/* include_absolute: the solution by absolute path (the repository's). */
#include "@ROOT@/solutions/165/profile.c"

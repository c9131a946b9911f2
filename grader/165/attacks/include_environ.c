/* include_environ: the compiler's error messages quote what it includes: its environment,
   and the grader's if it can reach it. (GCC reads a /proc file as empty: its size is 0.
   What matters is that nothing of the grader's environment reaches the report.) */
#include "/proc/self/environ"
#include "/proc/1/environ"

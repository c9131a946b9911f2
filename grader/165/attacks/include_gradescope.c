/* include_gradescope: the solution where Gradescope unpacks the autograder. */
#include "/autograder/source/solutions/165/profile.c"

/* include_dev_zero: a compile that never ends (the preprocessor reads an endless file). */
#include "/dev/zero"

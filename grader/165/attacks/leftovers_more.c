/* leftovers_more: what outlives a process beyond leftovers.c, at the user level: a file in
   /run/lock (alias /var/lock, world-writable like /tmp), which the test looks for after
   grading, and a POSIX message queue, a channel from one check, or one submission, to the
   next that root cannot even list without mounting its file system. A check that manages to
   create a queue removes it again and answers nothing (abort), so that its score shows it.
   The base is correct: nothing may be left, and every check keeps full marks. */
#include <mqueue.h>

__attribute__((constructor)) static void attack_leftovers_more(void) {
    const char *file = "/run/lock/drip-attack-left";
    FILE *f = fopen(file, "w");
    fprintf(stderr, "attack: %s: %s\n", file, f != NULL ? "created" : strerror(errno));
    if (f != NULL) {
        fclose(f);
    }
    char queue[64];
    snprintf(queue, sizeof queue, "/drip-attack-left-%d", (int)getpid());
    mqd_t q = mq_open(queue, O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    fprintf(stderr, "attack: mq_open: %s\n", q == (mqd_t)-1 ? strerror(errno) : "created");
    if (q != (mqd_t)-1) {
        mq_unlink(queue);
        abort();
    }
}

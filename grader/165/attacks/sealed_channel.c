/* sealed_channel: parse_row() answers right only when an earlier process of the same box left
   it a note, so that in a box of its own every parse_row() check fails, while in one box of many
   cases every case after the first would pass. Two notes, each able to outlive the process: a
   file in /tmp and a System V shared memory segment under a fixed key. No constructor (the
   prelude keeps no command line: attacks.lua's `sealed`), so the grader runs these cases in its
   sealed box, which must end the case that leaves a note and grade it alone: parse_row() scores
   0 as in a box of its own, the other functions keep full marks. */
#include <sys/ipc.h>
#include <sys/shm.h>

#define ATTACK_NOTE "/tmp/drip-attack-note"
#define ATTACK_NOTE_KEY 0x5eed165

#define parse_row attack_inner_parse_row
/* @BASE@ */
#undef parse_row

/* 1 when an earlier process left a note; else this one leaves it (and answers wrong). */
static int attack_noted(void) {
    static int noted = -1;
    if (noted < 0) {
        noted = access(ATTACK_NOTE, F_OK) == 0 || shmget(ATTACK_NOTE_KEY, 0, 0) >= 0;
        if (!noted) {
            int fd = open(ATTACK_NOTE, O_WRONLY | O_CREAT, 0600);
            fprintf(stderr, "attack: note file %s\n", fd >= 0 ? "left" : strerror(errno));
            if (fd >= 0) {
                close(fd);
            }
            int id = shmget(ATTACK_NOTE_KEY, 4096, IPC_CREAT | 0600);
            fprintf(stderr, "attack: note segment %s\n", id >= 0 ? "left" : strerror(errno));
        }
    }
    return noted;
}

int parse_row(const char *line, Row *row) {
    if (!attack_noted()) {
        return 0;
    }
    return attack_inner_parse_row(line, row);
}

/* ipc_channel: a channel from one check to the next through what outlives a process at the
   user level. Every check first looks for what an earlier check left: a System V segment,
   queue and semaphore set under a fixed key, and a key in the session keyring it inherited.
   Finding any of them, made by a process that is gone, means the channel is open (a correct helper
   could store its answers there for a submission with no code, graded later), and the check aborts
   so that its score shows it. Otherwise it leaves them for the next check: each object given away
   to root with IPC_SET (clean-up that looks only at the owner misses it), the key in the session
   keyring and in its uid's own keyrings. The base is correct: every check must keep full marks. */
#include <linux/keyctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#define ATTACK_IPC_KEY 0x44726970

/* The pid that made (or last used) an object, if that process is gone: a check running at the
   same time shares the machine's IPC objects at the user level, an earlier one must not. */
static bool attack_gone(pid_t pid) {
    char path[32];
    snprintf(path, sizeof path, "/proc/%d", (int)pid);
    return pid > 0 && access(path, F_OK) != 0;
}

static bool attack_channel_open(void) {
    struct shmid_ds s;
    struct msqid_ds m;
    int shm = shmget(ATTACK_IPC_KEY, 0, 0), msg = msgget(ATTACK_IPC_KEY + 1, 0);
    int sem = semget(ATTACK_IPC_KEY + 2, 0, 0);
    bool left = (shm >= 0 && shmctl(shm, IPC_STAT, &s) == 0 && attack_gone(s.shm_cpid)) ||
                (msg >= 0 && msgctl(msg, IPC_STAT, &m) == 0 && attack_gone(m.msg_lspid)) ||
                (sem >= 0 && attack_gone(semctl(sem, 0, GETPID)));
    long key =
        syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", "drip-attack", 0);
    return left || key >= 0;
}

static void attack_give_away(int shm, int msg, int sem) {
    struct shmid_ds s;
    if (shm >= 0 && shmctl(shm, IPC_STAT, &s) == 0) {
        s.shm_perm.uid = 0;
        fprintf(stderr, "attack: shm to root: %d\n", shmctl(shm, IPC_SET, &s));
    }
    struct msqid_ds m;
    if (msg >= 0 && msgctl(msg, IPC_STAT, &m) == 0) {
        m.msg_perm.uid = 0;
        fprintf(stderr, "attack: msg to root: %d\n", msgctl(msg, IPC_SET, &m));
    }
    struct semid_ds d;
    if (sem >= 0 && semctl(sem, 0, IPC_STAT, &d) == 0) {
        d.sem_perm.uid = 0;
        fprintf(stderr, "attack: sem to root: %d\n", semctl(sem, 0, IPC_SET, &d));
    }
}

__attribute__((constructor)) static void attack_ipc_channel(void) {
    /* A check that ended a moment ago may not be cleaned up yet: look again a second later. */
    if (attack_channel_open() && (sleep(1), attack_channel_open())) {
        fprintf(stderr, "attack: an earlier check left its channel open\n");
        abort();
    }
    int shm = shmget(ATTACK_IPC_KEY, 1 << 16, IPC_CREAT | 0666);
    int msg = msgget(ATTACK_IPC_KEY + 1, IPC_CREAT | 0666);
    int sem = semget(ATTACK_IPC_KEY + 2, 1, IPC_CREAT | 0666);
    struct {
        long type;
        char text[8];
    } note = {1, "answers"};
    struct sembuf up = {0, 1, 0};
    fprintf(stderr, "attack: msgsnd %d, semop %d\n",
            msgsnd(msg, &note, sizeof note.text, IPC_NOWAIT), semop(sem, &up, 1));
    attack_give_away(shm, msg, sem);
    long rings[] = {KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING};
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        long key = syscall(SYS_add_key, "user", "drip-attack", "answers", 7, rings[i]);
        fprintf(stderr, "attack: add_key: %s\n", key >= 0 ? "stored" : strerror(errno));
    }
}

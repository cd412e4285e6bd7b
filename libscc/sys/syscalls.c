/*
 * The operating-system calls picolibc (built with posix-console) needs, on
 * top of the SCC kernel's system calls. These follow POSIX: -1 and errno on
 * failure.
 *
 *   write, read, _exit, sbrk      the kernel's SYS_write/read/exit/sbrk
 *   lseek, close, fstat, isatty   the console fds 0-2 (a character device)
 *   getpid, kill                  one process per core: pid = core id + 1
 *   gettimeofday, times           SYS_time (GTSC since machine reset, TSC)
 *   clock_gettime, clock_getres   the GTSC: CLOCK_REALTIME, CLOCK_MONOTONIC
 *   nanosleep, usleep, sleep      SYS_sleep: the core halts until the GTSC
 *                                 reaches the time (no signal cuts one short)
 *   sysconf                       the page size, one processor, the tick
 *   open, stat, unlink            there is no file system: ENOSYS / ENOENT, but
 *                                 /dev/stdout and /dev/stderr open the console's
 *                                 (a program told to write its output to a file)
 *   gethostname                   scc-coreNN, as MPI_Get_processor_name begins
 */
#include "scc.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

/* A kernel result: >= 0 passes through; -errno sets errno and gives -1. */
static long posix_result(long r)
{
    if (scc_is_error(r)) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

ssize_t write(int fd, const void *buf, size_t len)
{
    return posix_result(scc_syscall(SYS_write, fd, (long)buf, (long)len, 0, 0));
}

ssize_t read(int fd, void *buf, size_t len)
{
    return posix_result(scc_syscall(SYS_read, fd, (long)buf, (long)len, 0, 0));
}

void _exit(int status)
{
    for (;;)
        scc_syscall(SYS_exit, status, 0, 0, 0, 0);
}

void *sbrk(ptrdiff_t incr)
{
    long r = scc_syscall(SYS_sbrk, incr, 0, 0, 0, 0);
    if (scc_is_error(r)) {
        errno = (int)-r;
        return (void *)-1;
    }
    return (void *)r;
}

static int console_fd(int fd)
{
    return fd >= 0 && fd <= 2;
}

off_t lseek(int fd, off_t offset, int whence)
{
    (void)offset;
    (void)whence;
    errno = console_fd(fd) ? ESPIPE : EBADF;
    return -1;
}

int close(int fd)
{
    if (console_fd(fd))
        return 0;
    errno = EBADF;
    return -1;
}

int fstat(int fd, struct stat *st)
{
    if (!console_fd(fd)) {
        errno = EBADF;
        return -1;
    }
    *st = (struct stat){0};
    st->st_mode = S_IFCHR | 0620;
    st->st_blksize = 256;   /* the machine's console line */
    return 0;
}

int isatty(int fd)
{
    if (console_fd(fd))
        return 1;
    errno = EBADF;
    return 0;
}

pid_t getpid(void)
{
    return scc_core_id() + 1;
}

int kill(pid_t pid, int sig)
{
    if (pid != getpid()) {
        errno = ESRCH;
        return -1;
    }
    if (sig == 0)
        return 0;
    /* No signal delivery: a signal sent to oneself ends the program the
     * way a default action would. */
    _exit(128 + sig);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    struct scc_time t;
    long r = scc_time(&t);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    if (tv) {
        uint64_t hz = t.gtsc_hz ? t.gtsc_hz : 1;
        tv->tv_sec = (time_t)(t.gtsc / hz);
        tv->tv_usec = (suseconds_t)((t.gtsc % hz) * 1000000u / hz);
    }
    return 0;
}

/* One clock for REALTIME and MONOTONIC, as gettimeofday's: the GTSC
 * never goes back, and there is no date to set it to (its epoch is the
 * machine's reset). */
static int clock_of(clockid_t id, uint64_t *ticks, uint64_t *hz)
{
    struct scc_time t;
    long r;

    if (id != CLOCK_REALTIME && id != CLOCK_MONOTONIC) {
        errno = EINVAL;
        return -1;
    }
    if ((r = scc_time(&t)) < 0) {
        errno = (int)-r;
        return -1;
    }
    *ticks = t.gtsc;
    *hz = t.gtsc_hz ? t.gtsc_hz : 1;
    return 0;
}

int clock_gettime(clockid_t id, struct timespec *tp)
{
    uint64_t ticks, hz;

    if (clock_of(id, &ticks, &hz) < 0)
        return -1;
    if (tp) {
        tp->tv_sec = (time_t)(ticks / hz);
        tp->tv_nsec = (long)((ticks % hz) * 1000000000u / hz);
    }
    return 0;
}

int clock_getres(clockid_t id, struct timespec *res)
{
    uint64_t ticks, hz;

    if (clock_of(id, &ticks, &hz) < 0)
        return -1;
    if (res) {
        res->tv_sec = 0;
        res->tv_nsec = (long)((1000000000u + hz - 1) / hz);
    }
    return 0;
}

/* Until the GTSC has moved on by at least the time asked (rounded up to
 * whole ticks), the core halting meanwhile. */
int nanosleep(const struct timespec *rqtp, struct timespec *rmtp)
{
    uint64_t ticks, hz;

    if (!rqtp || rqtp->tv_sec < 0 || rqtp->tv_nsec < 0 || rqtp->tv_nsec >= 1000000000L) {
        errno = EINVAL;
        return -1;
    }
    if (clock_of(CLOCK_MONOTONIC, &ticks, &hz) < 0)
        return -1;
    /* tv_nsec * hz fits: below 2^30 times below 2^32; a time past the GTSC's range
     * waits to its end */
    uint64_t part = ((uint64_t)rqtp->tv_nsec * hz + 999999999u) / 1000000000u;
    uint64_t room = UINT64_MAX - ticks, secs = (uint64_t)rqtp->tv_sec;
    uint64_t wait = part > room || secs > (room - part) / hz ? room : secs * hz + part;
    long r = scc_sleep_until(ticks + wait);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    if (rmtp)
        rmtp->tv_sec = 0, rmtp->tv_nsec = 0;
    return 0;
}

int usleep(useconds_t us)
{
    struct timespec ts = { (time_t)(us / 1000000u), (long)(us % 1000000u) * 1000 };
    return nanosleep(&ts, NULL);
}

unsigned sleep(unsigned int seconds)
{
    struct timespec ts = { (time_t)seconds, 0 };
    return nanosleep(&ts, NULL) ? seconds : 0;
}

long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE:
        return 4096;
    case _SC_NPROCESSORS_CONF:
    case _SC_NPROCESSORS_ONLN:
        return 1;               /* a program runs on one core */
    case _SC_CLK_TCK:
        return CLOCKS_PER_SEC;  /* times()'s unit */
    case _SC_OPEN_MAX:
        return 3;               /* the console's fds */
    default:
        errno = EINVAL;
        return -1;
    }
}

clock_t times(struct tms *buf)
{
    struct scc_time t;
    long r = scc_time(&t);
    if (r < 0) {
        errno = (int)-r;
        return (clock_t)-1;
    }
    uint64_t core_hz = t.core_hz ? t.core_hz : 1, gtsc_hz = t.gtsc_hz ? t.gtsc_hz : 1;
    if (buf) {
        /* The core did nothing but run this program since reset. */
        buf->tms_utime = (clock_t)(t.tsc * CLOCKS_PER_SEC / core_hz);
        buf->tms_stime = 0;
        buf->tms_cutime = 0;
        buf->tms_cstime = 0;
    }
    return (clock_t)(t.gtsc * CLOCKS_PER_SEC / gtsc_hz);
}

int open(const char *path, int flags, ...)
{
    (void)flags;
    if (path && !strcmp(path, "/dev/stdout"))
        return 1;
    if (path && !strcmp(path, "/dev/stderr"))
        return 2;
    errno = ENOSYS;
    return -1;
}

int gethostname(char *name, size_t len)
{
    char host[16];
    int n = snprintf(host, sizeof host, "scc-core%02d", scc_core_id());
    if ((size_t)n >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(name, host, (size_t)n + 1);
    return 0;
}

int stat(const char *restrict path, struct stat *restrict st)
{
    (void)path;
    (void)st;
    errno = ENOENT;
    return -1;
}

int unlink(const char *path)
{
    (void)path;
    errno = ENOENT;
    return -1;
}

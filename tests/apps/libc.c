/*
 * picolibc works on the SCC: printf formats, stderr, malloc, strings and
 * math. The inputs come from volatile variables so the compiler cannot
 * compute the results itself; tests/test_kernel.py compares the printed
 * values with Python's own.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static volatile int vi = -42;
static volatile unsigned vx = 0xbeefu;
static volatile double vf = 3.14159265358979;
static volatile long long vll = -1234567890123LL;
static volatile unsigned long long vull = 18446744073709551615ULL;
static volatile double two = 2.0, one = 1.0, half = 0.5, ten = 10.0;
static const char *volatile vs = "str";

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main(void)
{
    printf("fmt d=%d x=%x X=%X o=%o u=%u s=%s c=%c\n", vi, vx, vx, vx, (unsigned)vi, vs, 'Z');
    printf("fmt f=%f .3f=%.3f e=%e g=%g\n", vf, vf, vf * 1e10, vf / 1000);
    printf("fmt lld=%lld llu=%llu llx=%llx\n", vll, vull, (unsigned long long)vll);
    printf("fmt width=[%8d] left=[%-8d] zero=[%08.3f] pct=%%\n", vi, vi, vf);
    fprintf(stderr, "stderr works %d\n", vi);
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s-%d-%.2f", vs, vi, vf);
    printf("snprintf %d [%s]\n", n, buf);

    printf("math sqrt2=%.17g sin1=%.17g exp1=%.17g log10=%.17g pow=%.17g atan2=%.17g\n",
           sqrt(two), sin(one), exp(one), log(ten), pow(two, half), atan2(one, two));
    printf("math floor=%.1f ceil=%.1f fabs=%.1f fmod=%.17g\n", floor(-vf), ceil(vf), fabs(-vf),
           fmod(ten, vf));
    printf("math sqrtf=%.9g sinf=%.9g\n", (double)sqrtf((float)two), (double)sinf((float)one));
    errno = 0;
    double bad = sqrt(-one);
    printf("math sqrt(-1) isnan=%d\n", isnan(bad) ? 1 : 0);

    char s[64];
    strcpy(s, "hello");
    strcat(s, ", world");
    printf("str len=%u cmp=%d ncmp=%d chr=%ld str=%ld dup=[%s] upper=%c\n", (unsigned)strlen(s),
           strcmp(s, "hello") > 0, strncmp(s, "help", 3) == 0, (long)(strchr(s, 'w') - s),
           (long)(strstr(s, "world") - s), strdup(s), s[0] - 32);
    char *end;
    long v = strtol("  -1234xyz", &end, 10);
    unsigned long h = strtoul("0x7fffffff", NULL, 16);
    double d = strtod("6.02214076e23", NULL);
    printf("conv strtol=%ld rest=[%s] strtoul=%lu strtod=%.9g atoi=%d\n", v, end, h, d,
           atoi("99"));

    int arr[] = {5, -3, 99, 0, 42, 7, -100, 13};
    qsort(arr, 8, sizeof arr[0], cmp_int);
    printf("qsort");
    for (int i = 0; i < 8; i++)
        printf(" %d", arr[i]);
    printf("\n");

    size_t total = 0;
    for (int i = 1; i <= 100; i++) {
        char *p = malloc(i * 37);
        CHECK(p != NULL, "malloc");
        memset(p, i, i * 37);
        total += i * 37;
        free(p);
    }
    void *c = calloc(1000, 4);
    CHECK(c != NULL, "calloc");
    int allzero = 1;
    for (int i = 0; i < 1000; i++)
        allzero &= ((int *)c)[i] == 0;
    c = realloc(c, 100000);
    printf("malloc total=%u calloc_zero=%d realloc=%s\n", (unsigned)total, allzero,
           c ? "ok" : "NULL");
    free(c);
    /* The POSIX layer under picolibc (libscc/sys/syscalls.c). */
    errno = 0;
    ssize_t w5 = write(5, "x", 1);
    int e5 = errno;
    char in[4];
    ssize_t r0 = read(0, in, sizeof in);
    struct stat st;
    int fs = fstat(1, &st);
    printf("posix write5=%d errno=%d read0=%d isatty1=%d fstat1=%d chr=%d pid=%d\n", (int)w5, e5,
           (int)r0, isatty(1), fs, S_ISCHR(st.st_mode) ? 1 : 0, (int)getpid());
    time_t t0 = time(NULL);
    clock_t c0 = clock();
    volatile double acc = 0;
    for (int i = 0; i < 200000; i++)
        acc += sqrt((double)i);
    clock_t c1 = clock();
    printf("time t=%ld clock_advanced=%d\n", (long)t0, c1 > c0 ? 1 : 0);
    printf("libc done\n");
    return 0;
}

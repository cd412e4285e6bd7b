/*
 * What a program writes to stdout and stderr, for tests/test_output.py:
 * each stream must reach the host whole and apart. The Python side makes
 * the same text from the same arguments and compares.
 *
 *   streams [long=N] [mix] [bytes] [partial]
 *
 *   long=N   one stdout line of N bytes: "0123456789" repeated, cut to N
 *   mix      stdout and stderr in turns, each line started on one and
 *            finished after the other wrote a whole line
 *   bytes    a stdout line of the bytes a console escapes or that look
 *            like its escapes: \, "\x41", NUL, ESC, CR, DEL, UTF-8 é
 *   partial  stderr "unfinished" without a newline, then exit 3: fail-fast
 *            ends the run, and the machine must still print it
 *
 * Every write goes straight out (unbuffered), so that the order of the
 * system calls is the order above.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

static void say(int fd, const char *s, size_t n)
{
    if (write(fd, s, n) != (ssize_t)n)
        FAIL("write(%d, %u bytes) failed", fd, (unsigned)n);
}

static void says(int fd, const char *s)
{
    say(fd, s, strlen(s));
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, "long", -1);
    int status = 0;

    if (n >= 0) {
        static char line[65536];
        if (n > (long)sizeof line)
            FAIL("long=%ld: at most %u", n, (unsigned)sizeof line);
        for (long i = 0; i < n; i++)
            line[i] = (char)('0' + i % 10);
        say(1, line, (size_t)n);
        says(1, "\n");
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "mix")) {
            says(1, "out 1\n");
            says(2, "err 1\n");
            says(1, "out 2 begins");
            says(2, "err 2 begins");
            says(1, ", out 2 ends\n");
            says(2, ", err 2 ends\n");
            says(1, "out 3\n");
        } else if (!strcmp(argv[i], "bytes")) {
            static const char b[] = "a\\b \\x41 \0 \033 \r \177 \303\251 end\n";
            say(1, b, sizeof b - 1);
        } else if (!strcmp(argv[i], "partial")) {
            says(1, "done\n");
            says(2, "unfinished");
            status = 3;
        }
    }
    return status;
}

/*
 * curl-multi-floor: the floor under StateDeck's http panels. One thread and one libcurl multi
 * handle check N URLs, each every INTERVAL seconds, spread evenly over the interval (URL i is
 * due at start + i * INTERVAL / N + k * INTERVAL), on connections the multi handle keeps and
 * reuses. Each check is the request StateDeck's http source makes (the same libcurl options:
 * http and https only, redirects followed, a whole-exchange timeout, any encoding, its user
 * agent), reads the whole body and looks at the status; nothing else. What this program spends
 * per check is what checking costs with libcurl before any dashboard work.
 *
 * At most --max-in-flight checks (64) run at once: a check that comes due while that many run
 * waits for one to end, and so comes late. Without a bound, a process starved of CPU that falls
 * behind starts thousands of checks at once, each needing a connection of its own, and every
 * turn of the loop then walks all of them (curl_multi_perform visits every handle), so it falls
 * further behind: with 10,000 URLs every 5 s on a host with a load average near 50 it stopped
 * answering its commands for over 10 s.
 *
 *     curl-multi-floor --url-prefix http://127.0.0.1:PORT/p/ --n N --interval SECONDS
 *                      [--timeout-ms 5000] [--max-in-flight 64] [--max-seconds 900]
 *
 * URL i is the prefix followed by i (0 .. N-1). Once running it prints "floor started" and
 * reads commands on standard input, one a line, answering each with one line:
 *
 *     mark    "mark wall <s> cpu <s> checks <n> failed <n> late_max_ms <ms>"
 *             wall is CLOCK_REALTIME, cpu is CLOCK_PROCESS_CPUTIME_ID (the process's own CPU
 *             with nanosecond resolution: /proc's clock ticks are too coarse for the few
 *             milliseconds a short window costs here), checks and failed count finished checks
 *     quit    exit (so do end of input, SIGINT, SIGTERM and --max-seconds)
 *
 * Build: cc -O2 -Wall -Wextra -o curl-multi-floor curl-multi-floor.c -lcurl
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_signal(int signum) {
    (void)signum;
    stopping = 1;
}

static double now_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t discard_body(char *data, size_t size, size_t count, void *user) {
    (void)data;
    *(size_t *)user += size * count;
    return size * count;
}

struct check {
    CURL *easy;
    size_t body_bytes;
    struct check *next_free;
};

static void usage(void) {
    fprintf(stderr, "usage: curl-multi-floor --url-prefix URL --n N --interval SECONDS "
                    "[--timeout-ms MS] [--max-seconds S]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *prefix = NULL;
    long n = 0, timeout_ms = 5000, max_in_flight = 64;
    double interval = 0, max_seconds = 900;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        if (!strcmp(argv[i], "--url-prefix")) prefix = argv[++i];
        else if (!strcmp(argv[i], "--n")) n = atol(argv[++i]);
        else if (!strcmp(argv[i], "--interval")) interval = atof(argv[++i]);
        else if (!strcmp(argv[i], "--timeout-ms")) timeout_ms = atol(argv[++i]);
        else if (!strcmp(argv[i], "--max-seconds")) max_seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--max-in-flight")) max_in_flight = atol(argv[++i]);
        else usage();
    }
    if (!prefix || n <= 0 || interval <= 0 || max_in_flight <= 0) usage();

    struct sigaction action = {.sa_handler = on_signal};
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "curl-multi-floor: curl_global_init failed\n");
        return 1;
    }
    CURLM *multi = curl_multi_init();
    /* Keep a connection for every check that may run at once: by default the cache holds 4 per
     * handle added at the time, so after a burst of overlapping checks it closed the extra
     * connections, and the next burst opened them again (a tenth of the checks came on new
     * connections at 10,000 URLs every 5 s). */
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, max_in_flight);
    char **urls = calloc(n, sizeof *urls);
    for (long i = 0; i < n; i++) {
        if (asprintf(&urls[i], "%s%ld", prefix, i) < 0) return 1;
    }

    /* Easy handles are kept and reused: a finished check's handle goes back to the free list. */
    struct check *free_checks = NULL;
    long checks_done = 0, checks_failed = 0, next_url = 0, round = 0, in_flight = 0;
    double late_max = 0;
    const double start = now_s(CLOCK_MONOTONIC) + 0.01;
    const double wall_start = now_s(CLOCK_REALTIME);
    printf("floor started n %ld interval %g\n", n, interval);
    fflush(stdout);

    char command[256];
    size_t command_len = 0;
    int running = 0;
    while (!stopping) {
        double now = now_s(CLOCK_MONOTONIC);
        if (now - start > max_seconds) break;
        /* Start every check that is due. */
        for (;;) {
            double due = start + round * interval + next_url * interval / n;
            if (due > now || in_flight >= max_in_flight) break;
            if (now - due > late_max) late_max = now - due;
            struct check *check = free_checks;
            if (check) {
                free_checks = check->next_free;
            } else {
                check = calloc(1, sizeof *check);
                check->easy = curl_easy_init();
                curl_easy_setopt(check->easy, CURLOPT_PRIVATE, check);
                curl_easy_setopt(check->easy, CURLOPT_PROTOCOLS_STR, "http,https");
                curl_easy_setopt(check->easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
                curl_easy_setopt(check->easy, CURLOPT_FOLLOWLOCATION, 1L);
                curl_easy_setopt(check->easy, CURLOPT_MAXREDIRS, 10L);
                curl_easy_setopt(check->easy, CURLOPT_TIMEOUT_MS, timeout_ms);
                curl_easy_setopt(check->easy, CURLOPT_NOSIGNAL, 1L);
                curl_easy_setopt(check->easy, CURLOPT_ACCEPT_ENCODING, "");
                curl_easy_setopt(check->easy, CURLOPT_USERAGENT, "StateDeck");
                curl_easy_setopt(check->easy, CURLOPT_WRITEFUNCTION, discard_body);
                curl_easy_setopt(check->easy, CURLOPT_WRITEDATA, &check->body_bytes);
            }
            check->body_bytes = 0;
            curl_easy_setopt(check->easy, CURLOPT_URL, urls[next_url]);
            curl_multi_add_handle(multi, check->easy);
            in_flight++;
            if (++next_url == n) {
                next_url = 0;
                round++;
            }
        }

        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int queued;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            checks_done++;
            if (message->data.result != CURLE_OK || status < 200 || status > 299) checks_failed++;
            struct check *check;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&check);
            curl_multi_remove_handle(multi, easy);
            in_flight--;
            check->next_free = free_checks;
            free_checks = check;
        }

        /* Sleep until the next check is due (or, at the bound, until one ends), a socket is
         * ready or a command arrives. */
        double due = start + round * interval + next_url * interval / n;
        double wait = due - now_s(CLOCK_MONOTONIC);
        int wait_ms = in_flight >= max_in_flight ? 1000 : wait <= 0 ? 0 : (int)(wait * 1000) + 1;
        if (wait_ms > 1000) wait_ms = 1000;
        struct curl_waitfd input = {.fd = STDIN_FILENO, .events = CURL_WAIT_POLLIN};
        int ready = 0;
        curl_multi_poll(multi, &input, 1, wait_ms, &ready);
        if (input.revents & (CURL_WAIT_POLLIN | CURL_WAIT_POLLPRI)) {
            ssize_t got = read(STDIN_FILENO, command + command_len, sizeof command - 1 - command_len);
            if (got == 0) break;   /* end of input: the harness is gone */
            if (got < 0 && errno != EINTR && errno != EAGAIN) break;
            if (got > 0) command_len += got;
            char *newline;
            while ((newline = memchr(command, '\n', command_len))) {
                *newline = 0;
                if (!strcmp(command, "quit")) stopping = 1;
                else if (!strcmp(command, "mark")) {
                    printf("mark wall %.6f cpu %.6f checks %ld failed %ld late_max_ms %.3f\n",
                           now_s(CLOCK_REALTIME), now_s(CLOCK_PROCESS_CPUTIME_ID), checks_done,
                           checks_failed, late_max * 1000);
                    fflush(stdout);
                    late_max = 0;
                } else {
                    printf("error unknown command\n");
                    fflush(stdout);
                }
                size_t used = newline + 1 - command;
                memmove(command, newline + 1, command_len - used);
                command_len -= used;
            }
            if (command_len == sizeof command - 1) command_len = 0;   /* a line too long: drop it */
        }
    }
    fprintf(stderr, "curl-multi-floor: %ld checks, %ld failed in %.1f s\n", checks_done, checks_failed,
            now_s(CLOCK_REALTIME) - wall_start);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return 0;
}

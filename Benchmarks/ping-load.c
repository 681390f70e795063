/*
 * ping-load: a heartbeat ping load generator for StateDeck's benchmarks. One thread, epoll, C
 * keep-alive connections to 127.0.0.1:PORT, and an open-loop schedule: ping k is due at
 * start + k / RATE and goes to key k % KEYS (each key in turn, so every key is pinged every
 * KEYS / RATE seconds), on the first idle connection, or as soon as one is idle again. Its
 * latency runs from when it was due to when its whole answer was read, so a server that falls
 * behind shows as latency rather than as a lower rate (no coordinated omission). Each ping is
 *
 *     POST /ping/<prefix><k % KEYS, zero-padded to DIGITS> HTTP/1.1   with the body BODY
 *
 *     ping-load --port PORT --keys N --key-prefix PREFIX [--key-digits 6] --rate R
 *               [--warmup S] --seconds S [--connections 64] [--body ok] [--tick-us 1000]
 *               [--drain-seconds 10] [--counts FILE]
 *
 * It prints one line as the measured window begins (after --warmup seconds of the same load) and
 * one as it ends, for the caller to read the server's CPU between them:
 *
 *     window start
 *     window end
 *
 * then waits at most --drain-seconds for the answers still due and prints one JSON line: the
 * window's pings (sent, answered 200, answered otherwise, lost to a closed connection, not sent by
 * the end) and latency percentiles (ms), how late the client itself sent them (its own lag: a
 * starved client shows there, not as the server's latency), and the whole run's counts. With
 * --counts each key's 200 answers over the whole run are written to FILE, one a line, in key
 * order, for the caller to check against what the server counted.
 *
 * Build: cc -O2 -Wall -Wextra -o ping-load ping-load.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define BUCKET_US 10            /* latency histograms: 10 us buckets ... */
#define NBUCKETS 1000000        /* ... up to 10 s; later ones land in the last bucket */
#define BUFFER 4096

static struct {
    int port;
    long keys;
    const char *key_prefix;
    int key_digits;
    double rate;
    double warmup;
    double seconds;
    int connections;
    const char *body;
    long tick_us;
    double drain_seconds;
    const char *counts;
} opt = {.port = 0, .keys = 0, .key_prefix = "", .key_digits = 6, .rate = 0, .warmup = 0, .seconds = 0,
         .connections = 64, .body = "ok", .tick_us = 1000, .drain_seconds = 10, .counts = NULL};

struct connection {
    int fd;
    int busy;                   /* a ping written or being written, its answer not read whole */
    long ping;                  /* the ping in flight */
    char out[512];
    size_t out_len, out_sent;
    char in[BUFFER];
    size_t in_len;
};

struct histogram {
    uint32_t *buckets;
    uint64_t count;
    uint64_t max_us;
};

static struct {
    uint64_t sent, ok, other, lost;
} window, total;

static struct histogram latency, lag;
static uint32_t *key_counts;
static struct connection *conns;
static int epoll_fd;
static double start_s;
static long window_first, window_end;   /* pings due in [window_first, window_end) are the window's */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double due_s(long ping) {
    return start_s + ping / opt.rate;
}

static void record(struct histogram *h, double seconds) {
    uint64_t us = seconds > 0 ? (uint64_t)(seconds * 1e6) : 0;
    uint64_t bucket = us / BUCKET_US;
    h->buckets[bucket < NBUCKETS ? bucket : NBUCKETS - 1]++;
    h->count++;
    if (us > h->max_us) h->max_us = us;
}

static double percentile_ms(const struct histogram *h, double p) {
    if (!h->count) return 0;
    uint64_t rank = (uint64_t)(p * h->count);
    if (rank >= h->count) rank = h->count - 1;
    uint64_t seen = 0;
    for (long i = 0; i < NBUCKETS; i++) {
        seen += h->buckets[i];
        if (seen > rank) return (i + 1) * BUCKET_US / 1000.0;
    }
    return h->max_us / 1000.0;
}

static int in_window(long ping) {
    return ping >= window_first && ping < window_end;
}

static void open_connection(struct connection *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        perror("socket");
        exit(1);
    }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(opt.port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) {
        perror("connect");
        exit(1);
    }
    c->busy = 0;
    c->in_len = 0;
    struct epoll_event event = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event);
}

/* A connection the server closed or broke: its ping in flight is lost, and it is opened again. */
static void reopen(struct connection *c) {
    if (c->busy) {
        total.lost++;
        if (in_window(c->ping)) window.lost++;
    }
    close(c->fd);
    open_connection(c);
}

static void flush_out(struct connection *c) {
    while (c->out_sent < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            reopen(c);
            return;
        }
        c->out_sent += (size_t)n;
    }
}

static void send_ping(struct connection *c, long ping, double now) {
    long key = ping % opt.keys;
    size_t body = strlen(opt.body);
    int n = snprintf(c->out, sizeof c->out,
                     "POST /ping/%s%0*ld HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: %zu\r\n\r\n%s",
                     opt.key_prefix, opt.key_digits, key, opt.port, body, opt.body);
    if (n < 0 || (size_t)n >= sizeof c->out) {
        fprintf(stderr, "ping-load: request too long\n");
        exit(2);
    }
    c->out_len = (size_t)n;
    c->out_sent = 0;
    c->busy = 1;
    c->ping = ping;
    total.sent++;
    if (in_window(ping)) {
        window.sent++;
        record(&lag, now - due_s(ping));
    }
    flush_out(c);
}

/* The whole answer's length once its head is in: head + Content-Length; 0 while incomplete. */
static size_t answer_length(const struct connection *c, int *status, int *closes) {
    const char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - c->in) + 4;
    *status = c->in_len >= 12 ? atoi(c->in + 9) : 0;
    *closes = 0;
    size_t body = 0;
    for (const char *line = c->in; line < end;) {
        const char *next = memmem(line, (size_t)(end - line), "\r\n", 2);
        if (!next) next = end;
        if (!strncasecmp(line, "Content-Length:", 15)) body = strtoul(line + 15, NULL, 10);
        if (!strncasecmp(line, "Connection:", 11) && memmem(line, (size_t)(next - line), "close", 5)) *closes = 1;
        line = next + 2;
    }
    return c->in_len >= head + body ? head + body : 0;
}

static void read_answers(struct connection *c) {
    for (;;) {
        if (c->in_len == sizeof c->in) {
            fprintf(stderr, "ping-load: answer over %d bytes\n", BUFFER);
            reopen(c);
            return;
        }
        ssize_t n = recv(c->fd, c->in + c->in_len, sizeof c->in - c->in_len, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            reopen(c);
            return;
        }
        if (n < 0) return;
        c->in_len += (size_t)n;
        int status, closes;
        size_t length = answer_length(c, &status, &closes);
        if (!length || !c->busy) continue;
        double now = now_s();
        long ping = c->ping;
        int ok = status == 200;
        total.ok += ok;
        total.other += !ok;
        if (ok) key_counts[ping % opt.keys]++;
        if (in_window(ping)) {
            window.ok += ok;
            window.other += !ok;
            record(&latency, now - due_s(ping));
        }
        memmove(c->in, c->in + length, c->in_len - length);
        c->in_len -= length;
        c->busy = 0;
        if (closes) {
            close(c->fd);
            open_connection(c);
        }
        return;
    }
}

static void usage(void) {
    fprintf(stderr, "usage: ping-load --port PORT --keys N --key-prefix PREFIX [--key-digits 6] --rate R "
                    "[--warmup S] --seconds S [--connections C] [--body TEXT] [--tick-us US] "
                    "[--drain-seconds S] [--counts FILE]\n");
    exit(2);
}

static void histogram_init(struct histogram *h) {
    h->buckets = calloc(NBUCKETS, sizeof *h->buckets);
    if (!h->buckets) exit(1);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        const char *name = argv[i], *value = argv[++i];
        if (!strcmp(name, "--port")) opt.port = atoi(value);
        else if (!strcmp(name, "--keys")) opt.keys = atol(value);
        else if (!strcmp(name, "--key-prefix")) opt.key_prefix = value;
        else if (!strcmp(name, "--key-digits")) opt.key_digits = atoi(value);
        else if (!strcmp(name, "--rate")) opt.rate = atof(value);
        else if (!strcmp(name, "--warmup")) opt.warmup = atof(value);
        else if (!strcmp(name, "--seconds")) opt.seconds = atof(value);
        else if (!strcmp(name, "--connections")) opt.connections = atoi(value);
        else if (!strcmp(name, "--body")) opt.body = value;
        else if (!strcmp(name, "--tick-us")) opt.tick_us = atol(value);
        else if (!strcmp(name, "--drain-seconds")) opt.drain_seconds = atof(value);
        else if (!strcmp(name, "--counts")) opt.counts = value;
        else usage();
    }
    if (opt.port <= 0 || opt.keys <= 0 || opt.rate <= 0 || opt.seconds <= 0 || opt.connections <= 0 || opt.tick_us <= 0)
        usage();
    setvbuf(stdout, NULL, _IOLBF, 0);
    histogram_init(&latency);
    histogram_init(&lag);
    key_counts = calloc((size_t)opt.keys, sizeof *key_counts);
    conns = calloc((size_t)opt.connections, sizeof *conns);
    if (!key_counts || !conns) return 1;
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < opt.connections; i++) open_connection(&conns[i]);

    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct itimerspec tick = {.it_interval = {.tv_sec = opt.tick_us / 1000000, .tv_nsec = opt.tick_us % 1000000 * 1000},
                              .it_value = {.tv_sec = 0, .tv_nsec = 1}};
    timerfd_settime(timer, 0, &tick, NULL);
    struct epoll_event timer_event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer, &timer_event);

    start_s = now_s();
    window_first = (long)(opt.warmup * opt.rate);
    window_end = (long)((opt.warmup + opt.seconds) * opt.rate);
    long next = 0;              /* the first ping not sent yet */
    int told_start = 0, told_end = 0;
    double drain_until = 0;
    struct epoll_event events[256];
    for (;;) {
        double now = now_s();
        long due = (long)((now - start_s) * opt.rate) + 1;
        if (due > window_end) due = window_end;
        if (!told_start && due > window_first) {
            printf("window start\n");
            told_start = 1;
        }
        if (!told_end && now >= due_s(window_end)) {
            printf("window end\n");
            told_end = 1;
            drain_until = now + opt.drain_seconds;
        }
        for (int i = 0; i < opt.connections && next < due; i++) {
            if (!conns[i].busy) send_ping(&conns[i], next++, now);
        }
        if (told_end) {
            int busy = 0;
            for (int i = 0; i < opt.connections; i++) busy += conns[i].busy;
            if ((!busy && next >= window_end) || now >= drain_until) break;
        }
        int n = epoll_wait(epoll_fd, events, 256, 100);
        for (int i = 0; i < n; i++) {
            struct connection *c = events[i].data.ptr;
            if (!c) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0 && errno != EAGAIN) perror("timerfd");
                continue;
            }
            if (events[i].events & (EPOLLERR | EPOLLHUP) && !(events[i].events & EPOLLIN)) {
                reopen(c);
                continue;
            }
            if (events[i].events & EPOLLOUT) flush_out(c);
            if (events[i].events & EPOLLIN) read_answers(c);
        }
    }
    long unsent = window_end - next;
    long pending = 0;
    for (int i = 0; i < opt.connections; i++) pending += conns[i].busy && in_window(conns[i].ping);
    if (opt.counts) {
        FILE *file = fopen(opt.counts, "w");
        if (!file) {
            perror(opt.counts);
            return 1;
        }
        for (long k = 0; k < opt.keys; k++) fprintf(file, "%u\n", key_counts[k]);
        fclose(file);
    }
    printf("{\"window\": {\"due\": %ld, \"sent\": %llu, \"ok\": %llu, \"other\": %llu, \"lost\": %llu, "
           "\"unanswered\": %ld, \"unsent\": %ld, \"p50_ms\": %.2f, \"p90_ms\": %.2f, \"p99_ms\": %.2f, "
           "\"p999_ms\": %.2f, \"max_ms\": %.2f, \"lag_p99_ms\": %.2f, \"lag_max_ms\": %.2f}, "
           "\"total\": {\"sent\": %llu, \"ok\": %llu, \"other\": %llu, \"lost\": %llu}}\n",
           window_end - window_first, (unsigned long long)window.sent, (unsigned long long)window.ok,
           (unsigned long long)window.other, (unsigned long long)window.lost, pending, unsent,
           percentile_ms(&latency, 0.50), percentile_ms(&latency, 0.90), percentile_ms(&latency, 0.99),
           percentile_ms(&latency, 0.999), latency.max_us / 1000.0, percentile_ms(&lag, 0.99), lag.max_us / 1000.0,
           (unsigned long long)total.sent, (unsigned long long)total.ok, (unsigned long long)total.other,
           (unsigned long long)total.lost);
    return 0;
}

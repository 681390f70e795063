/*
 * sse-client: a server-sent-events fan-out load client for StateDeck's benchmarks.
 *
 * It opens N streams (GET /events) to one server (or, with --stream-ports, round-robin to
 * several on the host, the servers of a cluster, while publishing still goes to --port), spread over worker processes (each process
 * may hold at most 20,000 open files here) and over loopback source addresses 127.0.0.1,
 * 127.0.0.2, ... (each one has about 28,000 ephemeral ports). When every stream is live it prints
 *
 *     live <live> failed <failed> ms <connect time>
 *
 * and then reads commands on standard input, one a line, answering each with one JSON line:
 *
 *     fanout            publish one event, wait until every stream has it
 *     rate R SECONDS    publish R events per second for SECONDS, wait until every stream has all
 *     quit              close everything and exit
 *
 * Publishing is an HTTP POST (--pub-path, body --pub-body) on keep-alive connections opened before
 * the streams (--publishers K, default 4, one thread each). In rate mode the load is open loop:
 * event e is due at start + e / R and thread e % K sends it then, or as soon as its previous
 * answer is in, so a slow answer does not hold back the other threads.
 *
 * The body template's "{marker}" becomes ~SDB<run>:<seq>:<ns>~ (ns is CLOCK_REALTIME just before
 * the POST is written) and "{pad}" becomes --pad bytes of 'x'. A worker that finds a marker in a
 * stream's (de-chunked) body records receive time - ns: the latency is publish request -> event
 * bytes read by the client, server work included. Streams that fail before going live are
 * counted by reason on standard error.
 *
 * Build: cc -O2 -Wall -Wextra -pthread -o sse-client sse-client.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define BUCKET_US 10            /* latency histogram: 10 us buckets ... */
#define NBUCKETS 1000000        /* ... up to 10 s; later arrivals land in the last bucket */
#define MAX_EVENTS 65536        /* events per command */
#define MAX_WORKERS 16
#define MAX_PUBLISHERS 16
#define TAIL 96                 /* bytes kept between reads to find a marker split by a read */
#define HEADER_MAX 8192
#define MAX_STREAM_PORTS 16

/* ---------------------------------------------------------------- options */

static struct {
    const char *host;
    int port;
    int stream_ports[MAX_STREAM_PORTS];
    int nstream_ports;
    const char *path;
    int n;
    int procs;
    int sources;
    const char *live_marker;
    double live_timeout;
    int allow_partial;
    int concurrency;
    const char *pub_path;
    const char *pub_body;
    const char *pub_type;
    int pad;
    int publishers;
    double deliver_timeout;
} opt = {
    .host = "127.0.0.1", .port = 8080, .path = "/events", .n = 1000, .procs = 0, .sources = 0,
    .live_marker = NULL, .live_timeout = 60, .allow_partial = 0, .concurrency = 256,
    .pub_path = "/pub", .pub_body = "{marker}{pad}", .pub_type = "application/json", .pad = 0,
    .publishers = 4, .deliver_timeout = 10,
};

/* ------------------------------------------------------- shared memory */

enum { WHY_CONNECT, WHY_STATUS, WHY_EOF, WHY_PROTOCOL, WHY_TIMEOUT, WHY_COUNT };
static const char *why_names[WHY_COUNT] = {
    "connect failed", "status not 200", "closed before live", "bad framing", "not live in time",
};

struct worker_shm {
    int ready;                  /* connect phase over */
    int why[WHY_COUNT];         /* why streams failed before going live */
    int live, failed, closed;   /* streams */
    int ack_gen, incomplete;    /* answer to a report request */
    uint64_t late;              /* markers of an earlier command */
    uint64_t max_us;
    uint32_t ev_count[MAX_EVENTS];
    uint32_t ev_max_us[MAX_EVENTS];
    uint32_t hist[NBUCKETS];
};

struct control {
    uint64_t run_id;
    int gen;                    /* bumped for every command, after the counters are cleared */
    int64_t base_seq;           /* first sequence number of the current command */
    int published;              /* events published so far in the current command */
    int report_gen;             /* workers answer with incomplete/ack_gen when it changes */
    int quit;
};

static struct control *ctl;
static struct worker_shm *wsh;  /* [procs] */

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/* ------------------------------------------------------------- helpers */

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("sse-client: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns) {
    if (ns <= 0) return;
    struct timespec ts = { ns / 1000000000, ns % 1000000000 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static void *shared_alloc(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) die("mmap %zu: %s", size, strerror(errno));
    return p;
}

static struct sockaddr_in server_addr(int port) {
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, opt.host, &a.sin_addr) != 1) die("bad host %s", opt.host);
    return a;
}

/* ---------------------------------------------------------------- streams */

enum { S_IDLE, S_CONNECTING, S_HEADERS, S_BODY, S_CLOSED };
enum { C_SIZE, C_EXT, C_DATA, C_DATA_CR, C_DATA_LF, C_TRAILER };

struct stream {
    int fd;
    int port;                   /* the server this stream reads */
    uint8_t state;
    uint8_t live;
    uint8_t chunked;
    uint8_t cstate;             /* chunk decoder state */
    uint32_t chunk_left;
    uint16_t tail_len;
    uint16_t hdr_len;
    int gen;                    /* command generation that got counts */
    int got;                    /* events of the current command received */
    int64_t last_seq;
    char *hdr;                  /* header bytes until the blank line */
    char tail[TAIL];
};

struct worker {
    int index;
    struct worker_shm *shm;
    struct stream *streams;
    int first, count;           /* global index of the first stream, number of streams */
    int started, inflight;
    int ep;
    int gen;
    char run_hex[32];
    size_t run_hex_len;
    char *scratch;              /* tail + one read, de-chunked */
};

static void stream_close(struct worker *w, struct stream *s, int why) {
    if (s->state == S_CLOSED) return;
    if (!s->live) w->shm->why[why]++;
    if (s->fd >= 0) {
        epoll_ctl(w->ep, EPOLL_CTL_DEL, s->fd, NULL);
        close(s->fd);
        s->fd = -1;
    }
    free(s->hdr);
    s->hdr = NULL;
    if (s->live) {
        __atomic_add_fetch(&w->shm->closed, 1, __ATOMIC_RELAXED);
    } else {
        if (s->state != S_IDLE) w->inflight--;
        __atomic_add_fetch(&w->shm->failed, 1, __ATOMIC_RELAXED);
    }
    s->state = S_CLOSED;
}

static void stream_start(struct worker *w, struct stream *s, int global_index) {
    s->port = opt.nstream_ports ? opt.stream_ports[global_index % opt.nstream_ports] : opt.port;
    struct sockaddr_in dst = server_addr(s->port);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket: %s (stream %d)", strerror(errno), global_index);
    s->fd = fd;
    s->state = S_CONNECTING;
    s->last_seq = -1;
    w->inflight++;
    if (opt.sources > 1) {
        int one = 1;
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        struct sockaddr_in src = { .sin_family = AF_INET, .sin_port = 0 };
        src.sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)(global_index % opt.sources));
        if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
            stream_close(w, s, WHY_CONNECT);
            return;
        }
    }
    if (connect(fd, (struct sockaddr *)&dst, sizeof dst) != 0 && errno != EINPROGRESS) {
        stream_close(w, s, WHY_CONNECT);
        return;
    }
    struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = s };
    if (epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev) != 0) die("epoll_ctl: %s", strerror(errno));
}

static void stream_send_request(struct worker *w, struct stream *s) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) { stream_close(w, s, WHY_CONNECT); return; }
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nAccept: text/event-stream\r\n"
                     "Cache-Control: no-cache\r\nUser-Agent: statedeck-bench\r\n\r\n",
                     opt.path, opt.host, s->port);
    if (write(s->fd, req, (size_t)n) != n) { stream_close(w, s, WHY_CONNECT); return; }
    s->state = S_HEADERS;
    s->hdr = malloc(HEADER_MAX);
    s->hdr_len = 0;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP, .data.ptr = s };
    epoll_ctl(w->ep, EPOLL_CTL_MOD, s->fd, &ev);
}

static void stream_mark_live(struct worker *w, struct stream *s) {
    s->live = 1;
    w->inflight--;
    __atomic_add_fetch(&w->shm->live, 1, __ATOMIC_RELAXED);
}

/* De-chunk `len` bytes of body into `out`; returns the number of data bytes, -1 on bad framing. */
static long dechunk(struct stream *s, const char *in, size_t len, char *out) {
    long n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        switch (s->cstate) {
        case C_SIZE:
            if (c >= '0' && c <= '9') s->chunk_left = s->chunk_left * 16 + (uint32_t)(c - '0');
            else if (c >= 'a' && c <= 'f') s->chunk_left = s->chunk_left * 16 + (uint32_t)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') s->chunk_left = s->chunk_left * 16 + (uint32_t)(c - 'A' + 10);
            else if (c == '\n') s->cstate = s->chunk_left ? C_DATA : C_TRAILER;
            else if (c == ';' || c == '\r' || c == ' ') s->cstate = C_EXT;
            else return -1;
            break;
        case C_EXT:
            if (c == '\n') s->cstate = s->chunk_left ? C_DATA : C_TRAILER;
            break;
        case C_DATA: {
            size_t take = len - i;
            if (take > s->chunk_left) take = s->chunk_left;
            memcpy(out + n, in + i, take);
            n += (long)take;
            i += take - 1;
            s->chunk_left -= (uint32_t)take;
            if (s->chunk_left == 0) s->cstate = C_DATA_CR;
            break;
        }
        case C_DATA_CR:
            if (c == '\r') s->cstate = C_DATA_LF;
            else if (c == '\n') s->cstate = C_SIZE;
            else return -1;
            break;
        case C_DATA_LF:
            if (c != '\n') return -1;
            s->cstate = C_SIZE;
            break;
        case C_TRAILER:     /* last chunk: the stream is over */
            return -1;
        }
    }
    return n;
}

static void record(struct worker *w, struct stream *s, int64_t seq, int64_t sent_ns, int64_t recv_ns) {
    if (seq == s->last_seq) return;                 /* the same marker again in one event */
    s->last_seq = seq;
    int64_t base = LOAD(ctl->base_seq);
    int gen = LOAD(ctl->gen);
    if (seq < base || gen != w->gen || seq - base >= MAX_EVENTS) {
        w->shm->late++;
        return;
    }
    if (s->gen != gen) { s->gen = gen; s->got = 0; }
    s->got++;
    int64_t us = (recv_ns - sent_ns) / 1000;
    if (us < 0) us = 0;
    int64_t b = us / BUCKET_US;
    if (b >= NBUCKETS) b = NBUCKETS - 1;
    w->shm->hist[b]++;
    if ((uint64_t)us > w->shm->max_us) w->shm->max_us = (uint64_t)us;
    size_t e = (size_t)(seq - base);
    __atomic_add_fetch(&w->shm->ev_count[e], 1, __ATOMIC_RELEASE);
    if ((uint32_t)us > w->shm->ev_max_us[e]) w->shm->ev_max_us[e] = (uint32_t)us;
}

/* Look for markers (and, before the stream is live, the live marker) in tail + new bytes. */
static void scan_body(struct worker *w, struct stream *s, char *buf, size_t len, int64_t recv_ns) {
    if (!s->live && opt.live_marker && memmem(buf, len, opt.live_marker, strlen(opt.live_marker)))
        stream_mark_live(w, s);
    size_t keep_from = len > 8 ? len - 8 : 0;       /* enough for a partial "~SDB" */
    char *p = buf, *end = buf + len;
    while ((p = memmem(p, (size_t)(end - p), "~SDB", 4)) != NULL) {
        char *q = p + 4;
        size_t run_len = w->run_hex_len;
        if ((size_t)(end - q) < run_len + 1) { keep_from = (size_t)(p - buf); break; }
        if (memcmp(q, w->run_hex, run_len) != 0 || q[run_len] != ':') { p += 4; continue; }
        q += run_len + 1;
        int64_t seq = 0, ns = 0;
        while (q < end && *q >= '0' && *q <= '9') seq = seq * 10 + (*q++ - '0');
        if (q < end && *q == ':') {
            q++;
            while (q < end && *q >= '0' && *q <= '9') ns = ns * 10 + (*q++ - '0');
        }
        if (q >= end) { keep_from = (size_t)(p - buf); break; }
        if (*q == '~') record(w, s, seq, ns, recv_ns);
        p = q;
    }
    size_t keep = len - keep_from;
    if (keep > TAIL) keep = TAIL;
    if (!s->live && opt.live_marker) {
        size_t lm = strlen(opt.live_marker);
        if (keep < lm && len >= lm) keep = lm;       /* a live marker split by the read */
        if (keep > TAIL) keep = TAIL;
    }
    memmove(s->tail, buf + len - keep, keep);
    s->tail_len = (uint16_t)keep;
}

static void feed_body(struct worker *w, struct stream *s, const char *data, size_t len, int64_t recv_ns) {
    char *buf = w->scratch;
    memcpy(buf, s->tail, s->tail_len);
    long n;
    if (s->chunked) {
        n = dechunk(s, data, len, buf + s->tail_len);
        if (n < 0) { stream_close(w, s, WHY_PROTOCOL); return; }
    } else {
        memcpy(buf + s->tail_len, data, len);
        n = (long)len;
    }
    if (n > 0) scan_body(w, s, buf, s->tail_len + (size_t)n, recv_ns);
}

static void feed_headers(struct worker *w, struct stream *s, const char *data, size_t len, int64_t recv_ns) {
    size_t room = HEADER_MAX - 1 - s->hdr_len;
    size_t take = len < room ? len : room;
    memcpy(s->hdr + s->hdr_len, data, take);
    s->hdr_len += (uint16_t)take;
    s->hdr[s->hdr_len] = 0;
    char *end = strstr(s->hdr, "\r\n\r\n");
    if (!end) {
        if (s->hdr_len >= HEADER_MAX - 1) stream_close(w, s, WHY_PROTOCOL);
        return;
    }
    size_t header_bytes = (size_t)(end + 4 - s->hdr);
    if (strncmp(s->hdr, "HTTP/1.1 200", 12) != 0 && strncmp(s->hdr, "HTTP/1.0 200", 12) != 0) {
        static int shown;
        if (!shown++) fprintf(stderr, "sse-client: a stream was answered: %.*s\n",
                              (int)strcspn(s->hdr, "\r\n"), s->hdr);
        stream_close(w, s, WHY_STATUS);
        return;
    }
    *end = 0;
    for (char *line = strstr(s->hdr, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "transfer-encoding:", 18) == 0 && strcasestr(line + 2, "chunked"))
            s->chunked = 1;
    }
    /* The body bytes that came with the headers. */
    size_t body_in_hdr = s->hdr_len - header_bytes;
    char body[HEADER_MAX];
    memcpy(body, s->hdr + header_bytes, body_in_hdr);
    free(s->hdr);
    s->hdr = NULL;
    s->state = S_BODY;
    if (!opt.live_marker) stream_mark_live(w, s);
    if (body_in_hdr) feed_body(w, s, body, body_in_hdr, recv_ns);
    if (take < len && s->state == S_BODY) feed_body(w, s, data + take, len - take, recv_ns);
}

static void stream_readable(struct worker *w, struct stream *s, char *rbuf, size_t rsize) {
    ssize_t n = read(s->fd, rbuf, rsize);
    int64_t t = now_ns();
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
        stream_close(w, s, WHY_EOF);
        return;
    }
    if (s->state == S_HEADERS) feed_headers(w, s, rbuf, (size_t)n, t);
    else feed_body(w, s, rbuf, (size_t)n, t);
}

static int stream_incomplete(struct stream *s, int gen, int published) {
    if (s->state == S_CLOSED) return s->live;       /* a live stream that ended counts as dropped */
    if (!s->live) return 0;
    return (s->gen == gen ? s->got : 0) < published;
}

/* ---------------------------------------------------------------- workers */

static void worker_run(struct worker *w) {
    enum { RBUF = 65536 };
    char *rbuf = malloc(RBUF);
    w->scratch = malloc(RBUF + TAIL + 16);
    w->streams = calloc((size_t)w->count, sizeof *w->streams);
    for (int i = 0; i < w->count; i++) w->streams[i].fd = -1;
    w->ep = epoll_create1(EPOLL_CLOEXEC);
    w->run_hex_len = (size_t)snprintf(w->run_hex, sizeof w->run_hex, "%llx",
                                      (unsigned long long)ctl->run_id);
    struct epoll_event evs[1024];
    int64_t live_deadline = mono_ns() + (int64_t)(opt.live_timeout * 1e9);

    /* Connect phase: at most --concurrency streams between connect() and live. */
    for (;;) {
        while (w->started < w->count && w->inflight < opt.concurrency) {
            stream_start(w, &w->streams[w->started], w->first + w->started);
            w->started++;
        }
        int settled = LOAD(w->shm->live) + LOAD(w->shm->failed);
        if (settled >= w->count) break;
        if (mono_ns() > live_deadline) {
            for (int i = 0; i < w->count; i++) {
                struct stream *s = &w->streams[i];
                if (!s->live) stream_close(w, s, WHY_TIMEOUT);
            }
            break;
        }
        int k = epoll_wait(w->ep, evs, 1024, 10);
        for (int i = 0; i < k; i++) {
            struct stream *s = evs[i].data.ptr;
            if (s->state == S_CONNECTING) stream_send_request(w, s);
            else if (s->state != S_CLOSED) stream_readable(w, s, rbuf, RBUF);
        }
    }
    STORE(w->shm->ready, 1);

    /* Receive phase. */
    int report_seen = 0;
    while (!LOAD(ctl->quit)) {
        int gen = LOAD(ctl->gen);
        if (gen != w->gen) w->gen = gen;
        int k = epoll_wait(w->ep, evs, 1024, 5);
        for (int i = 0; i < k; i++) {
            struct stream *s = evs[i].data.ptr;
            if (s->state != S_CLOSED) stream_readable(w, s, rbuf, RBUF);
        }
        int rg = LOAD(ctl->report_gen);
        if (rg != report_seen) {
            int published = LOAD(ctl->published), incomplete = 0;
            for (int i = 0; i < w->count; i++)
                incomplete += stream_incomplete(&w->streams[i], w->gen, published);
            w->shm->incomplete = incomplete;
            STORE(w->shm->ack_gen, rg);
            report_seen = rg;
        }
    }
    /* Reset rather than close: no TIME_WAIT sockets holding ports for the next run. */
    struct linger reset = { .l_onoff = 1, .l_linger = 0 };
    for (int i = 0; i < w->count; i++) {
        if (w->streams[i].fd < 0) continue;
        setsockopt(w->streams[i].fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        close(w->streams[i].fd);
    }
    _exit(0);
}

/* -------------------------------------------------------------- publisher */

struct publisher {
    int fd;
    char *body, *req;           /* the request being built */
    size_t cap;
    char buf[65536];            /* the answer */
};

static int pub_connect(struct publisher *p) {
    struct sockaddr_in dst = server_addr(opt.port);
    p->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (p->fd < 0) return -1;
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(p->fd, (struct sockaddr *)&dst, sizeof dst) != 0) {
        close(p->fd);
        p->fd = -1;
        return -1;
    }
    return 0;
}

/* Reads one response; returns its status, or -1 when the connection broke. Sets *close_after. */
static int pub_read_response(struct publisher *p, int *close_after) {
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        if (have >= sizeof p->buf - 1) return -1;
        ssize_t n = read(p->fd, p->buf + have, sizeof p->buf - 1 - have);
        if (n <= 0) return -1;
        have += (size_t)n;
        p->buf[have] = 0;
        end = strstr(p->buf, "\r\n\r\n");
    }
    int status = atoi(p->buf + 9);
    long length = -1;
    int chunked = 0;
    *close_after = strncmp(p->buf, "HTTP/1.0", 8) == 0;
    *end = 0;
    for (char *line = strstr(p->buf, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "content-length:", 15) == 0) length = atol(line + 17);
        if (strncasecmp(line + 2, "transfer-encoding:", 18) == 0 && strcasestr(line + 2, "chunked")) chunked = 1;
        if (strncasecmp(line + 2, "connection:", 11) == 0 && strcasestr(line + 2, "close")) *close_after = 1;
    }
    size_t body_have = have - (size_t)(end + 4 - p->buf);
    if (length >= 0) {
        long left = length - (long)body_have;
        while (left > 0) {
            ssize_t n = read(p->fd, p->buf, sizeof p->buf);
            if (n <= 0) return -1;
            left -= n;
        }
    } else if (chunked) {
        /* Small publisher answers: read until the last chunk "0\r\n\r\n" has arrived. */
        char last[8] = {0};
        size_t keep = body_have < 5 ? body_have : 5;
        memcpy(last, end + 4 + body_have - keep, keep);
        while (!(keep >= 5 && memcmp(last + keep - 5, "0\r\n\r\n", 5) == 0)) {
            ssize_t n = read(p->fd, p->buf, sizeof p->buf);
            if (n <= 0) return -1;
            size_t k = (size_t)n < 5 ? (size_t)n : 5;
            if (keep + k > 5) { memmove(last, last + keep + k - 5, 5 - k); keep = 5 - k; }
            memcpy(last + keep, p->buf + n - k, k);
            keep += k;
        }
    } else {
        *close_after = 1;   /* body until close: drain it */
        while (read(p->fd, p->buf, sizeof p->buf) > 0) {}
    }
    return status;
}

/* POSTs one event with the marker of `seq`; returns the status or -1, and the send time. */
static int publish(struct publisher *p, int64_t seq, int64_t *sent_ns) {
    size_t need = strlen(opt.pub_body) + (size_t)opt.pad + 128;
    if (need > p->cap) {
        p->cap = need;
        p->body = realloc(p->body, p->cap);
        p->req = realloc(p->req, p->cap + 512);
    }
    char *body = p->body, *req = p->req;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (p->fd < 0 && pub_connect(p) != 0) return -1;
        int64_t t = now_ns();
        char marker[96];
        snprintf(marker, sizeof marker, "~SDB%llx:%lld:%lld~", (unsigned long long)ctl->run_id,
                 (long long)seq, (long long)t);
        size_t bl = 0;
        for (const char *c = opt.pub_body; *c; c++) {
            if (strncmp(c, "{marker}", 8) == 0) {
                bl += (size_t)sprintf(body + bl, "%s", marker);
                c += 7;
            } else if (strncmp(c, "{pad}", 5) == 0) {
                memset(body + bl, 'x', (size_t)opt.pad);
                bl += (size_t)opt.pad;
                c += 4;
            } else {
                body[bl++] = *c;
            }
        }
        int hl = snprintf(req, 512,
                          "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: %s\r\n"
                          "Content-Length: %zu\r\n\r\n",
                          opt.pub_path, opt.host, opt.port, opt.pub_type, bl);
        memcpy(req + hl, body, bl);
        size_t total = (size_t)hl + bl, off = 0;
        int ok = 1;
        while (off < total) {
            ssize_t n = write(p->fd, req + off, total - off);
            if (n <= 0) { ok = 0; break; }
            off += (size_t)n;
        }
        int close_after = 0;
        int status = ok ? pub_read_response(p, &close_after) : -1;
        if (status < 0 || close_after) { close(p->fd); p->fd = -1; }
        if (status >= 0) { *sent_ns = t; return status; }
    }
    return -1;
}

/* ------------------------------------------------------------ coordinator */

/* One command's publishing: --publishers threads, each with its own connection, take the events
 * e = k, k + K, ... and send each at start + e / rate (open loop: a slow answer delays only that
 * thread's next events). */
struct pub_job {
    struct publisher *pub;
    int k, stride, events;
    double rate;
    int64_t start, first_seq;
    int64_t *sent;
    int *ok;
};

static void *pub_thread(void *arg) {
    struct pub_job *job = arg;
    for (int e = job->k; e < job->events; e += job->stride) {
        if (job->rate > 0) sleep_ns(job->start + (int64_t)(e * 1e9 / job->rate) - mono_ns());
        int status = publish(job->pub, job->first_seq + e, &job->sent[e]);
        job->ok[e] = status >= 200 && status < 300;
    }
    return NULL;
}

static uint64_t merged[NBUCKETS];

static double hist_quantile(uint64_t total, double q) {
    if (total == 0) return -1;
    uint64_t want = (uint64_t)(q * (double)total);
    if (want >= total) want = total - 1;
    uint64_t acc = 0;
    for (int b = 0; b < NBUCKETS; b++) {
        acc += merged[b];
        if (acc > want) return (b + 0.5) * BUCKET_US / 1000.0;
    }
    return -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values, leaving them as they are. */
static double median_of(const double *values, int n) {
    double *copy = malloc(sizeof(double) * (size_t)n);
    memcpy(copy, values, sizeof(double) * (size_t)n);
    qsort(copy, (size_t)n, sizeof *copy, cmp_double);
    double m = copy[n / 2];
    free(copy);
    return m;
}

static int live_total(void) {
    int t = 0;
    for (int i = 0; i < opt.procs; i++) t += LOAD(wsh[i].live);
    return t;
}

static int closed_total(void) {
    int t = 0;
    for (int i = 0; i < opt.procs; i++) t += LOAD(wsh[i].closed);
    return t;
}

/* One command: publish `events` events at `rate` per second (0: one event), wait, report. */
static void run_command(struct publisher *pubs, const char *mode, int events, double rate) {
    static int64_t next_seq = 1;
    static int64_t sent[MAX_EVENTS];
    static int ok[MAX_EVENTS];
    if (events > MAX_EVENTS) events = MAX_EVENTS;

    /* Clear the counters, then open a new generation. */
    for (int w = 0; w < opt.procs; w++) {
        memset(wsh[w].ev_count, 0, sizeof wsh[w].ev_count);
        memset(wsh[w].ev_max_us, 0, sizeof wsh[w].ev_max_us);
        memset(wsh[w].hist, 0, sizeof wsh[w].hist);
        wsh[w].max_us = 0;
        wsh[w].late = 0;
    }
    STORE(ctl->published, 0);
    STORE(ctl->base_seq, next_seq);
    STORE(ctl->gen, ctl->gen + 1);
    sleep_ns(20 * 1000000);                         /* every worker sees the new generation */
    int closed_before = closed_total();

    int64_t start = mono_ns() + 1000000;
    int threads = events < opt.publishers ? events : opt.publishers;
    pthread_t tids[MAX_PUBLISHERS];
    struct pub_job jobs[MAX_PUBLISHERS];
    for (int k = 0; k < threads; k++) {
        jobs[k] = (struct pub_job){ .pub = &pubs[k], .k = k, .stride = threads, .events = events,
                                    .rate = rate, .start = start, .first_seq = next_seq,
                                    .sent = sent, .ok = ok };
        pthread_create(&tids[k], NULL, pub_thread, &jobs[k]);
    }
    for (int k = 0; k < threads; k++) pthread_join(tids[k], NULL);
    int published = 0, failed = 0;
    for (int e = 0; e < events; e++) {
        if (ok[e]) published++;
        else failed++;
    }
    int64_t last_sent = 0, first_sent = INT64_MAX;
    for (int e = 0; e < events; e++) {
        if (!ok[e]) continue;
        if (sent[e] > last_sent) last_sent = sent[e];
        if (sent[e] < first_sent) first_sent = sent[e];
    }
    /* The rate the events went out at: how late the last one left against the schedule. */
    double achieved = rate > 0 && published > 1
                          ? published / ((last_sent - first_sent) / 1e9 + 1 / rate) : 0.0;
    next_seq += events;

    /* Wait until every still-open live stream has every published event, or the timeout. */
    int64_t deadline = mono_ns() + (int64_t)(opt.deliver_timeout * 1e9);
    int complete = 0;
    while (mono_ns() < deadline) {
        int want = live_total() - closed_total();
        complete = 1;
        for (int e = 0; e < events && complete; e++) {
            if (!ok[e]) continue;
            uint32_t c = 0;
            for (int w = 0; w < opt.procs; w++) c += LOAD(wsh[w].ev_count[e]);
            if ((int)c < want) complete = 0;
        }
        if (complete) break;
        sleep_ns(2 * 1000000);
    }
    sleep_ns(10 * 1000000);

    /* Ask the workers how many of their streams missed something. */
    STORE(ctl->published, published);
    int rg = ctl->report_gen + 1;
    STORE(ctl->report_gen, rg);
    int incomplete = 0;
    for (int w = 0; w < opt.procs; w++) {
        int64_t until = mono_ns() + 2000000000LL;
        while (LOAD(wsh[w].ack_gen) != rg && mono_ns() < until) sleep_ns(1000000);
        incomplete += wsh[w].incomplete;
    }

    /* Merge the histograms and the per-event figures. */
    memset(merged, 0, sizeof merged);
    uint64_t total = 0, max_us = 0, late = 0;
    for (int w = 0; w < opt.procs; w++) {
        for (int b = 0; b < NBUCKETS; b++) merged[b] += wsh[w].hist[b];
        if (wsh[w].max_us > max_us) max_us = wsh[w].max_us;
        late += wsh[w].late;
    }
    for (int b = 0; b < NBUCKETS; b++) total += merged[b];
    double *all_ms = malloc(sizeof(double) * (size_t)(events ? events : 1));
    int counted = 0;
    int64_t drain_end = 0;
    for (int e = 0; e < events; e++) {
        if (!ok[e]) continue;
        uint32_t m = 0;
        for (int w = 0; w < opt.procs; w++) if (wsh[w].ev_max_us[e] > m) m = wsh[w].ev_max_us[e];
        all_ms[counted++] = m / 1000.0;
        int64_t end = sent[e] + (int64_t)m * 1000;
        if (end > drain_end) drain_end = end;
    }
    /* Backlog check: the all-streams time of the first and of the last quarter of the events. */
    int quarter = counted >= 4 ? counted / 4 : 1;
    double first_q = counted ? median_of(all_ms, quarter) : -1.0;
    double last_q = counted ? median_of(all_ms + counted - quarter, quarter) : -1.0;
    qsort(all_ms, (size_t)counted, sizeof *all_ms, cmp_double);
    int live = live_total();
    printf("{\"mode\":\"%s\",\"streams\":%d,\"events\":%d,\"publish_failed\":%d,"
           "\"rate\":%.3f,\"achieved_rate\":%.3f,\"deliveries\":%llu,\"expected\":%llu,"
           "\"closed\":%d,\"incomplete\":%d,\"complete\":%s,\"late\":%llu,"
           "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,"
           "\"all_p50_ms\":%.3f,\"all_max_ms\":%.3f,\"all_first_quarter_ms\":%.3f,"
           "\"all_last_quarter_ms\":%.3f,\"drain_ms\":%.3f}\n",
           mode, live, events, failed, rate, achieved,
           (unsigned long long)total, (unsigned long long)published * (unsigned long long)live,
           closed_total() - closed_before, incomplete, complete && !failed ? "true" : "false",
           (unsigned long long)late, hist_quantile(total, 0.50), hist_quantile(total, 0.90),
           hist_quantile(total, 0.99), max_us / 1000.0,
           counted ? all_ms[counted / 2] : -1.0, counted ? all_ms[counted - 1] : -1.0, first_q, last_q,
           counted ? (drain_end - last_sent) / 1e6 : -1.0);
    fflush(stdout);
    free(all_ms);
}

static void usage(void) {
    fprintf(stderr,
            "usage: sse-client [--host H] [--port P] [--stream-ports P1,P2,...] [--path /events] [--n N] [--procs K]\n"
            "  [--sources K] [--live-marker TEXT] [--live-timeout S] [--allow-partial]\n"
            "  [--concurrency C] [--pub-path PATH] [--pub-body TEMPLATE] [--pub-type TYPE]\n"
            "  [--pad BYTES] [--publishers K] [--deliver-timeout S]\n"
            "then commands on stdin: fanout | rate R SECONDS | quit\n");
    exit(2);
}

static void parse_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc && strcmp(a, "--allow-partial") != 0) usage();
        if (!strcmp(a, "--host")) opt.host = argv[++i];
        else if (!strcmp(a, "--port")) opt.port = atoi(argv[++i]);
        else if (!strcmp(a, "--stream-ports")) {
            for (char *port = strtok(argv[++i], ","); port && opt.nstream_ports < MAX_STREAM_PORTS; port = strtok(NULL, ","))
                opt.stream_ports[opt.nstream_ports++] = atoi(port);
        }
        else if (!strcmp(a, "--path")) opt.path = argv[++i];
        else if (!strcmp(a, "--n")) opt.n = atoi(argv[++i]);
        else if (!strcmp(a, "--procs")) opt.procs = atoi(argv[++i]);
        else if (!strcmp(a, "--sources")) opt.sources = atoi(argv[++i]);
        else if (!strcmp(a, "--live-marker")) opt.live_marker = argv[++i];
        else if (!strcmp(a, "--live-timeout")) opt.live_timeout = atof(argv[++i]);
        else if (!strcmp(a, "--allow-partial")) opt.allow_partial = 1;
        else if (!strcmp(a, "--concurrency")) opt.concurrency = atoi(argv[++i]);
        else if (!strcmp(a, "--pub-path")) opt.pub_path = argv[++i];
        else if (!strcmp(a, "--pub-body")) opt.pub_body = argv[++i];
        else if (!strcmp(a, "--pub-type")) opt.pub_type = argv[++i];
        else if (!strcmp(a, "--pad")) opt.pad = atoi(argv[++i]);
        else if (!strcmp(a, "--publishers")) opt.publishers = atoi(argv[++i]);
        else if (!strcmp(a, "--deliver-timeout")) opt.deliver_timeout = atof(argv[++i]);
        else usage();
    }
    if (opt.n < 1) usage();
    if (opt.procs <= 0) opt.procs = (opt.n + 14999) / 15000;
    if (opt.procs > MAX_WORKERS) opt.procs = MAX_WORKERS;
    if (opt.sources <= 0) opt.sources = (opt.n + 15999) / 16000;
    if (opt.sources > 250) opt.sources = 250;
    if (opt.live_marker && !*opt.live_marker) opt.live_marker = NULL;
    if (opt.publishers < 1) opt.publishers = 1;
    if (opt.publishers > MAX_PUBLISHERS) opt.publishers = MAX_PUBLISHERS;
}

int main(int argc, char **argv) {
    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    if ((rlim_t)(opt.n / opt.procs + 64) > rl.rlim_cur)
        die("%d streams in %d processes need more than %llu files each: use --procs",
            opt.n, opt.procs, (unsigned long long)rl.rlim_cur);

    ctl = shared_alloc(sizeof *ctl);
    wsh = shared_alloc(sizeof *wsh * (size_t)opt.procs);
    ctl->run_id = ((uint64_t)now_ns() ^ ((uint64_t)getpid() << 32)) & 0xffffffffffull;

    /* The publishers' connections first, so that they hold a slot on a server that fills up. */
    struct publisher *pub = calloc((size_t)opt.publishers, sizeof *pub);
    for (int k = 0; k < opt.publishers; k++)
        if (pub_connect(&pub[k]) != 0)
            die("cannot connect to %s:%d: %s", opt.host, opt.port, strerror(errno));

    int64_t t0 = mono_ns();
    pid_t pids[MAX_WORKERS];
    for (int w = 0; w < opt.procs; w++) {
        pid_t pid = fork();
        if (pid < 0) die("fork: %s", strerror(errno));
        if (pid == 0) {
            for (int k = 0; k < opt.publishers; k++) close(pub[k].fd);
            prctl(PR_SET_PDEATHSIG, SIGKILL);       /* never outlive the coordinator */
            struct worker wk = { .index = w, .shm = &wsh[w] };
            wk.first = (int)((long)opt.n * w / opt.procs);
            wk.count = (int)((long)opt.n * (w + 1) / opt.procs) - wk.first;
            worker_run(&wk);
        }
        pids[w] = pid;
    }
    for (int w = 0; w < opt.procs; w++)
        while (!LOAD(wsh[w].ready)) sleep_ns(2000000);
    int live = live_total(), failed = 0;
    for (int w = 0; w < opt.procs; w++) failed += wsh[w].failed;
    printf("live %d failed %d ms %.1f\n", live, failed, (mono_ns() - t0) / 1e6);
    fflush(stdout);
    if (failed) {
        fprintf(stderr, "sse-client: %d of %d streams failed:", failed, opt.n);
        for (int r = 0; r < WHY_COUNT; r++) {
            int count = 0;
            for (int w = 0; w < opt.procs; w++) count += wsh[w].why[r];
            if (count) fprintf(stderr, " %s %d;", why_names[r], count);
        }
        fprintf(stderr, "\n");
    }

    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        double rate = 0, secs = 0;
        if (!strncmp(line, "fanout", 6)) run_command(pub, "fanout", 1, 0);
        else if (sscanf(line, "rate %lf %lf", &rate, &secs) == 2 && rate > 0 && secs > 0)
            run_command(pub, "rate", (int)(rate * secs + 0.5), rate);
        else if (!strncmp(line, "quit", 4)) break;
        else { printf("{\"error\":\"unknown command\"}\n"); fflush(stdout); }
    }
    STORE(ctl->quit, 1);
    for (int w = 0; w < opt.procs; w++) waitpid(pids[w], NULL, 0);
    return 0;
}

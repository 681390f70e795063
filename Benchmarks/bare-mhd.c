/*
 * bare-mhd: the floor under StateDeck's HTTP throughput. A bare libmicrohttpd server that answers
 * every GET with one file's bytes, read once into memory at start, with the flags StateDeck uses:
 * internal polling thread + epoll, a thread pool of 2, the response queued on the handler's
 * second call (queued on the first, libmicrohttpd closes the connection). Further arguments
 * are header lines added to the one response, so it sends the very bytes StateDeck sends.
 *
 *     bare-mhd PORT FILE [CONTENT-TYPE ["Name: value"]...]
 *
 * Binds 127.0.0.1:PORT (0 picks a free port), prints "bare-mhd serving on http://127.0.0.1:PORT/"
 * and serves until SIGINT or SIGTERM.
 *
 * Build: cc -O2 -Wall -Wextra -o bare-mhd bare-mhd.c -lmicrohttpd
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *response;

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
    (void)cls; (void)url; (void)version; (void)upload_data;
    static int first_call_marker;
    if (*request_state == NULL) {           /* first call: headers only */
        *request_state = &first_call_marker;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {           /* ignore any body */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        return MHD_NO;
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, response);
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc(n > 0 ? (size_t)n : 1);
    if (n < 0 || fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(bytes);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bare-mhd PORT FILE [CONTENT-TYPE [\"Name: value\"]...]\n");
        return 2;
    }
    size_t size = 0;
    char *bytes = read_file(argv[2], &size);
    if (!bytes) {
        perror(argv[2]);
        return 2;
    }
    response = MHD_create_response_from_buffer(size, bytes, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            argc > 3 ? argv[3] : "text/plain; charset=utf-8");
    for (int i = 4; i < argc; i++) {
        char *colon = strchr(argv[i], ':');
        if (!colon || colon[1] != ' ') {
            fprintf(stderr, "bare-mhd: header \"%s\" is not \"Name: value\"\n", argv[i]);
            return 2;
        }
        *colon = '\0';
        MHD_add_response_header(response, argv[i], colon + 2);
    }

    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])) };
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, handle, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)2,
        MHD_OPTION_END);
    if (!daemon) {
        fprintf(stderr, "bare-mhd: cannot start on port %s\n", argv[1]);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("bare-mhd serving on http://127.0.0.1:%u/\n", info ? info->port : 0);
    fflush(stdout);

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(response);
    return 0;
}

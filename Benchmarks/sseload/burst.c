/*
 * burst — N clients open an SSE stream at the same moment, as a crowd does after a restart
 * of a server or of the proxy in front of it, and the time each waits for its first event.
 *
 * Every socket is created and connected without waiting (non-blocking) before any is
 * served; each sends its request the moment its connect completes. Measured per client,
 * from just before its connect(2): the first byte of the answer and the end of the first
 * event that carries data (`data:` ... blank line). One epoll loop, level-triggered; every
 * wait bounded by --within.
 *
 * Output: one line, or one JSON object with --json:
 *   {"clients":N,"opened":N,"answered":N,"refused":N,"closed_early":N,"failed":N,
 *    "first_byte_ms":{"p50":..,"p99":..,"max":..},"first_event_ms":{...},"over_1s":N,"missing":N}
 * "missing": clients that got no first event within --within seconds.
 * Exit status 0 when every client got its first event, 1 otherwise, 2 usage.
 *
 * Build: see Makefile (gcc -O2 -Wall -Wextra).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct client {
    int fd;
    double started;
    double first_byte;  /* < 0: none yet */
    double first_event; /* < 0: none yet */
    bool sent;
    bool done;
    size_t head_end;    /* offset after the response head, 0: not seen yet */
    char *buffer;
    size_t length, capacity;
};

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *values, int count, double p) {
    if (count == 0) return -1;
    int index = (int)(p * (count - 1) + 0.5);
    return values[index];
}

static void usage(void) {
    fprintf(stderr,
            "usage: burst --port PORT [--path /events] [--clients N] [--within S] [--json]\n"
            "  N clients (default 256) connect at once to 127.0.0.1:PORT and ask for PATH;\n"
            "  reports each one's time to its first byte and first data event (ms).\n");
    exit(2);
}

/* Whether the bytes after the response head hold a whole event with data. */
static bool has_first_event(const struct client *c) {
    const char *body = c->buffer + c->head_end;
    size_t n = c->length - c->head_end;
    const char *data = memmem(body, n, "\ndata:", 6);
    if (!data && n >= 5 && memcmp(body, "data:", 5) == 0) data = body;
    if (!data) return false;
    size_t rest = n - (size_t)(data - body);
    return memmem(data + 1, rest - 1, "\n\n", 2) != NULL;
}

int main(int argc, char **argv) {
    int port = 0, clients = 256;
    const char *path = "/events";
    double within = 15;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) path = argv[++i];
        else if (!strcmp(argv[i], "--clients") && i + 1 < argc) clients = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--within") && i + 1 < argc) within = atof(argv[++i]);
        else if (!strcmp(argv[i], "--json")) json = true;
        else usage();
    }
    if (port <= 0 || port > 65535 || clients <= 0) usage();
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    char request[1200];
    int request_length = snprintf(request, sizeof request,
                                  "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n", path, port);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    struct client *all = calloc((size_t)clients, sizeof *all);
    if (epoll < 0 || !all) { perror("burst"); return 2; }
    int opened = 0, failed = 0, refused = 0, closed_early = 0, pending = 0;
    for (int i = 0; i < clients; i++) {
        struct client *c = &all[i];
        c->first_byte = c->first_event = -1;
        c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (c->fd < 0) { failed++; c->done = true; continue; }
        c->started = now_s();
        if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
            failed++;
            close(c->fd);
            c->fd = -1;
            c->done = true;
            continue;
        }
        struct epoll_event event = {.events = EPOLLOUT, .data.u32 = (uint32_t)i};
        epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event);
        pending++;
    }
    double deadline = now_s() + within;
    struct epoll_event events[512];
    char chunk[16384];
    while (pending > 0) {
        double left = deadline - now_s();
        if (left <= 0) break;
        int ready = epoll_wait(epoll, events, 512, (int)(left * 1000) + 1);
        double at = now_s();
        for (int k = 0; k < ready; k++) {
            struct client *c = &all[events[k].data.u32];
            if (c->done) continue;
            if (!c->sent) {
                int code = 0;
                socklen_t length = sizeof code;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &code, &length);
                if (code != 0 || send(c->fd, request, (size_t)request_length, MSG_NOSIGNAL) != request_length) {
                    failed++;
                    c->done = true;
                    pending--;
                    continue;
                }
                c->sent = true;
                opened++;
                struct epoll_event event = {.events = EPOLLIN, .data.u32 = events[k].data.u32};
                epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &event);
                continue;
            }
            ssize_t n = recv(c->fd, chunk, sizeof chunk, MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (n <= 0) {
                closed_early++;
                c->done = true;
                pending--;
                continue;
            }
            if (c->first_byte < 0) c->first_byte = at - c->started;
            if (c->length + (size_t)n > c->capacity) {
                c->capacity = (c->length + (size_t)n) * 2;
                c->buffer = realloc(c->buffer, c->capacity);
                if (!c->buffer) { perror("burst"); return 2; }
            }
            memcpy(c->buffer + c->length, chunk, (size_t)n);
            c->length += (size_t)n;
            if (c->length >= 12 && strncmp(c->buffer, "HTTP/1.1 200", 12) != 0) {
                refused++;
                c->done = true;
                pending--;
                continue;
            }
            if (!c->head_end) {
                char *end = memmem(c->buffer, c->length, "\r\n\r\n", 4);
                if (end) c->head_end = (size_t)(end - c->buffer) + 4;
            }
            if (c->head_end && has_first_event(c)) {
                c->first_event = at - c->started;
                c->done = true;
                pending--;
                free(c->buffer);
                c->buffer = NULL;
            }
        }
    }
    double *bytes = malloc(sizeof(double) * (size_t)clients), *firsts = malloc(sizeof(double) * (size_t)clients);
    int byte_count = 0, event_count = 0, over_1s = 0;
    for (int i = 0; i < clients; i++) {
        if (all[i].first_byte >= 0) bytes[byte_count++] = all[i].first_byte * 1000;
        if (all[i].first_event >= 0) {
            firsts[event_count++] = all[i].first_event * 1000;
            if (all[i].first_event >= 1) over_1s++;
        }
        if (all[i].fd >= 0) close(all[i].fd);
        free(all[i].buffer);
    }
    qsort(bytes, (size_t)byte_count, sizeof(double), compare);
    qsort(firsts, (size_t)event_count, sizeof(double), compare);
    int missing = clients - event_count;
    if (json) {
        printf("{\"clients\":%d,\"opened\":%d,\"answered\":%d,\"refused\":%d,\"closed_early\":%d,\"failed\":%d,"
               "\"first_byte_ms\":{\"p50\":%.1f,\"p99\":%.1f,\"max\":%.1f},"
               "\"first_event_ms\":{\"p50\":%.1f,\"p99\":%.1f,\"max\":%.1f},\"over_1s\":%d,\"missing\":%d}\n",
               clients, opened, event_count, refused, closed_early, failed, percentile(bytes, byte_count, 0.5),
               percentile(bytes, byte_count, 0.99), percentile(bytes, byte_count, 1), percentile(firsts, event_count, 0.5),
               percentile(firsts, event_count, 0.99), percentile(firsts, event_count, 1), over_1s, missing);
    } else {
        printf("burst: %d clients, %d opened, %d got a first event (p50 %.1f, p99 %.1f, max %.1f ms), "
               "%d over 1 s, %d missing, %d refused, %d closed early, %d failed\n",
               clients, opened, event_count, percentile(firsts, event_count, 0.5), percentile(firsts, event_count, 0.99),
               percentile(firsts, event_count, 1), over_1s, missing, refused, closed_early, failed);
    }
    return missing == 0 ? 0 : 1;
}

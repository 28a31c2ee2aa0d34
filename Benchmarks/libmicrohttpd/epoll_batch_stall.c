/*
 * epoll_batch_stall — libmicrohttpd 0.9.75's epoll thread sleeps with requests unanswered
 * when the connections ready at once are a multiple of 128 (issue 31; see
 * Sources/WebUI/Server/DaemonLoop.swift).
 *
 * Hands N loopback connections, each with a whole request already sent, to a daemon with
 * MHD_add_connection while the daemon's thread is busy in a slow request (so that all N are
 * set up in one pass and become ready together), then waits at most 15 s for every answer.
 *   mode 0: MHD_USE_EPOLL_INTERNAL_THREAD (feedweb before the fix)
 *   mode 1: MHD_USE_EPOLL run by a loop of our own: epoll_wait on the daemon's epoll set,
 *           then MHD_run (feedweb's DaemonLoop), hand-overs added on that loop's thread
 *
 * Build and run (libmicrohttpd-dev):
 *   gcc -O2 -o /tmp/epoll_batch_stall epoll_batch_stall.c -lmicrohttpd -lpthread
 *   for n in 127 128 255 256 300 384; do /tmp/epoll_batch_stall $n 0; /tmp/epoll_batch_stall $n 1; done
 * Seen on 2026-11-27 (2 cores, Debian's 0.9.75): mode 0 answered 127, 200, 255 and 300 within
 * 0.2 s and none of 128, 256, 384 or 512 within 15 s; mode 1 answered every N (4,000 too)
 * within 0.4 s.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct MHD_Response *response;
static struct MHD_Daemon *daemon_;
static volatile int running = 1;
/* Mode 1: connections to add, handed from main to the loop thread. */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static int queue[65536];
static int queued;
static int wake_fd;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **context) {
    (void)cls, (void)method, (void)version, (void)upload, (void)upload_size;
    if (*context == NULL) {
        *context = (void *)1;
        return MHD_YES;
    }
    if (strcmp(url, "/slow") == 0) usleep(200000);
    return MHD_queue_response(connection, 200, response);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void add(int fd) {
    struct sockaddr_in peer;
    socklen_t length = sizeof peer;
    getpeername(fd, (struct sockaddr *)&peer, &length);
    MHD_add_connection(daemon_, fd, (struct sockaddr *)&peer, length);
}

static void hand_over(int fd, int mode) {
    if (mode == 0) {
        add(fd);
        return;
    }
    pthread_mutex_lock(&queue_lock);
    queue[queued++] = fd;
    pthread_mutex_unlock(&queue_lock);
    uint64_t one = 1;
    if (write(wake_fd, &one, sizeof one) < 0) perror("write");
}

static void *loop(void *unused) {
    (void)unused;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_EPOLL_FD);
    int outer = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = 1};
    epoll_ctl(outer, EPOLL_CTL_ADD, info->epoll_fd, &event);
    event.data.u32 = 0;
    epoll_ctl(outer, EPOLL_CTL_ADD, wake_fd, &event);
    while (running) {
        MHD_UNSIGNED_LONG_LONG timeout;
        int ms = MHD_get_timeout(daemon_, &timeout) == MHD_YES ? (int)(timeout > 100 ? 100 : timeout) : 100;
        if (epoll_wait(outer, &event, 1, ms) == 1 && event.data.u32 == 0) {
            uint64_t value;
            if (read(wake_fd, &value, sizeof value) < 0) perror("read");
        }
        pthread_mutex_lock(&queue_lock);
        int taken[65536], count = queued;
        memcpy(taken, queue, sizeof(int) * (size_t)count);
        queued = 0;
        pthread_mutex_unlock(&queue_lock);
        for (int i = 0; i < count; i++) add(taken[i]);
        MHD_run(daemon_);
    }
    return NULL;
}

/* A connected pair on loopback: the client's end (request written) and the server's end. */
static void pair(int listener, struct sockaddr_in *address, const char *request, int *client, int *server) {
    *client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(*client, (struct sockaddr *)address, sizeof *address) != 0) perror("connect");
    *server = accept(listener, NULL, NULL);
    fcntl(*server, F_SETFL, O_NONBLOCK);
    if (write(*client, request, strlen(request)) < 0) perror("write");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s CONNECTIONS MODE(0|1)\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), mode = atoi(argv[2]);
    response = MHD_create_response_from_buffer(5, "hello", MHD_RESPMEM_PERSISTENT);
    unsigned flags = MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET |
                     (mode == 0 ? MHD_USE_EPOLL_INTERNAL_THREAD : MHD_USE_EPOLL);
    daemon_ = MHD_start_daemon(flags, 0, NULL, NULL, answer, NULL, MHD_OPTION_CONNECTION_LIMIT, 100000,
                               MHD_OPTION_CONNECTION_TIMEOUT, 60, MHD_OPTION_END);
    if (!daemon_) {
        perror("MHD_start_daemon");
        return 1;
    }
    pthread_t thread;
    if (mode == 1) {
        wake_fd = eventfd(0, EFD_NONBLOCK);
        pthread_create(&thread, NULL, loop, NULL);
    }
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    bind(listener, (struct sockaddr *)&address, sizeof address);
    listen(listener, 8192);
    getsockname(listener, (struct sockaddr *)&address, &length);
    int *clients = malloc(sizeof(int) * (size_t)n), *servers = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) pair(listener, &address, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", &clients[i], &servers[i]);
    /* Keep the daemon's thread busy for 200 ms, so that the N hand-overs queue up. */
    int slow_client, slow_server;
    pair(listener, &address, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n", &slow_client, &slow_server);
    hand_over(slow_server, mode);
    usleep(50000);
    double start = now();
    for (int i = 0; i < n; i++) hand_over(servers[i], mode);
    int answered = 0;
    double last = 0;
    for (int i = 0; i < n; i++) {
        struct pollfd ready = {.fd = clients[i], .events = POLLIN};
        double left = 15 - (now() - start);
        if (poll(&ready, 1, left > 0 ? (int)(left * 1000) : 0) == 1) {
            answered++;
            if (now() - start > last) last = now() - start;
        }
    }
    printf("mode %d, %d connections: %d answered within 15 s, the last after %.3f s\n", mode, n, answered, last);
    running = 0;
    if (mode == 1) pthread_join(thread, NULL);
    return answered == n ? 0 : 1;
}

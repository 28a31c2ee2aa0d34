/*
 * sseload — an SSE load generator and delivery-latency meter.
 *
 * Opens N concurrent `GET` requests with `Accept: text/event-stream` against one URL
 * (loopback / plain http only), decodes chunked, Content-Length or close-delimited
 * bodies, parses Server-Sent Events as the WHATWG standard says (CR, LF or CRLF line
 * ends, also split across reads; comments; multi-line `data` joined by LF; dispatch on a
 * blank line) and, for each event whose data carries a `sent_ns` timestamp
 * (CLOCK_REALTIME nanoseconds, put there by timed_upstream), records
 * latency = arrival time − sent_ns. A `seq` number in the same events lets it check
 * that every client received every patch sent after it connected, without gaps.
 *
 * Design: epoll, non-blocking sockets, level-triggered, one read per readiness event,
 * one arrival timestamp per read. `--threads T` splits the clients over T threads, each
 * with its own epoll set; the main thread only keeps time and samples /proc.
 *
 * `--reconnect`: a client whose stream ends reconnects as a browser's EventSource does
 * (waits its last `retry:`, sends `Last-Event-ID`, retries refused connects), and each
 * reconnect is timed (end of stream → new response head) and classified by the first
 * data/patch event of the new stream (resumed / fresh / other).
 *
 * Build: see Makefile (gcc -O2 -Wall -Wextra). Usage: sseload --help.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEADERS_BYTES 16384
#define READ_BUF_BYTES (256 * 1024)
#define MAX_EXTRA_HEADERS 16
#define EVTYPE_MAX 23
#define ID_MAX 63                 /* --reconnect: longest event id kept (longer ones are cut) */
#define RC_DEFAULT_RETRY_MS 2000u /* --reconnect: the wait before any `retry:` was received */

/* ------------------------------------------------------------------ options */

static struct {
    char host[64];
    int port;
    char path[1024];
    char hostheader[128];
    int clients;
    double duration;
    double ramp;
    double settle;
    double grace;
    double connect_timeout;
    long expect;
    int pid; /* the first --pid (0: none) */
    int pids[8];
    int npids;
    bool json;
    int threads;
    bool http10;
    const char *extra_headers[MAX_EXTRA_HEADERS];
    int n_extra_headers;
    const char *accept;
    long max_line;
    bool quiet;
    bool rst_close;
    bool reconnect; /* EventSource-like reconnects after a stream ends */
    const char *stamp_marker; /* NULL: time patch/data events by their sent_ns field */
} opt = {
    .host = "127.0.0.1",
    .port = 80,
    .path = "/",
    .clients = 100,
    .duration = 10,
    .ramp = 1,
    .settle = 1,
    .grace = 2,
    .connect_timeout = 10,
    .expect = -1,
    .pid = 0,
    .threads = 1,
    .accept = "text/event-stream",
    .max_line = 16L * 1024 * 1024,
};

/* ------------------------------------------------------------------ time */

static inline int64_t now_real_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int64_t now_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until_mono(int64_t t)
{
    struct timespec ts = {.tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* ------------------------------------------------------------------ phases */

enum { PH_RAMP = 0, PH_STEADY = 1, PH_GRACE = 2, PH_STOP = 3 };
static volatile int g_phase = PH_RAMP; /* accessed with __atomic builtins */
static int64_t g_max_seq = -1;         /* highest seq seen by any client (atomic) */
static int64_t g_target = INT64_MAX;   /* g_max_seq at the end of the window (atomic) */
static int g_settled = 0;              /* clients that connected or failed (atomic) */
static volatile sig_atomic_t g_interrupted = 0;

static inline int phase_get(void) { return __atomic_load_n(&g_phase, __ATOMIC_ACQUIRE); }

static inline void max_seq_note(int64_t s)
{
    int64_t cur = __atomic_load_n(&g_max_seq, __ATOMIC_RELAXED);
    while (s > cur && !__atomic_compare_exchange_n(&g_max_seq, &cur, s, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* ------------------------------------------------------------------ samples */

typedef struct {
    int64_t *v;
    size_t n, cap;
} samples_t;

static void samples_push(samples_t *s, int64_t x)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 65536;
        int64_t *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv) return; /* out of memory: drop the sample, never crash */
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->n++] = x;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* nearest-rank percentile of a sorted array */
static int64_t pct(const samples_t *s, double p)
{
    if (s->n == 0) return 0;
    size_t rank = (size_t)(p / 100.0 * (double)s->n + 0.999999999);
    if (rank < 1) rank = 1;
    if (rank > s->n) rank = s->n;
    return s->v[rank - 1];
}

/* ------------------------------------------------------------------ clients */

/* ST_WAIT, ST_GAVEUP: --reconnect only (waiting to reconnect; a reconnect got a status other
 * than 200, after which an EventSource stops) */
enum { ST_IDLE = 0, ST_CONNECTING, ST_HEADERS, ST_BODY, ST_FAILED, ST_DROPPED, ST_CLOSED, ST_WAIT, ST_GAVEUP };
enum { BODY_CLOSE = 0, BODY_CHUNKED, BODY_LENGTH };
enum { CS_SIZE = 0, CS_EXT, CS_SIZE_LF, CS_DATA, CS_DATA_CR, CS_DATA_LF, CS_TRAILER, CS_TRAILER_LF, CS_END };
enum { FAIL_NONE = 0, FAIL_CONNECT, FAIL_TIMEOUT, FAIL_STATUS, FAIL_PROTOCOL, FAIL_CLOSED_EARLY };
enum { DROP_NONE = 0, DROP_EOF, DROP_RESET, DROP_END, DROP_PROTOCOL };

typedef struct {
    int fd;
    uint8_t state;
    uint8_t body_mode;
    uint8_t chunk_state;
    uint8_t fail_reason;
    uint8_t drop_reason;
    bool last_cr;
    bool has_data;
    bool connected;
    bool seen_data_event;
    bool body_started; /* a leading UTF-8 BOM was looked for */
    uint8_t evtype_len;
    char evtype[EVTYPE_MAX + 1];
    int status;
    int64_t t_connect_start; /* monotonic */
    int64_t t_connected;     /* monotonic, headers received */
    int64_t t_dropped;       /* monotonic */
    int64_t t_last_event;    /* monotonic, last dispatched event or comment */
    int64_t remaining;       /* chunk or content-length bytes left */
    uint64_t chunk_acc;
    char *hbuf; /* response head while reading it */
    uint32_t hlen;
    char *line; /* carry: an unfinished line */
    size_t line_len, line_cap;
    char *data; /* data buffer of the event being parsed */
    size_t data_len, data_cap;
    /* counters */
    uint32_t patches, datas, others, comments;
    uint32_t missing, dups, noseq, nots, snapskip;
    uint32_t beyond; /* patches with a seq above the target (arrived in the grace period) */
    int64_t base_seq; /* seq of the state the client started from (-1 unknown) */
    int64_t last_seq;
    int64_t max_stamp;   /* --stamp-marker: the newest stamp seen so far */
    int64_t stamp_floor; /* --stamp-marker: the newest stamp seen before the current event id */
    uint64_t id_hash, stamp_id_hash; /* the last event id (hashed), and the one stamp_floor is for */
    uint64_t bytes;
    /* --reconnect only */
    int64_t t_attempt;         /* monotonic: start of the current connection attempt */
    int64_t t_last_event_drop; /* t_last_event when the first stream ended */
    int64_t t_lost;            /* monotonic: end of the stream the current reconnect replaces */
    int64_t t_back;            /* monotonic: response head of the latest reconnect */
    uint32_t retry_ms;         /* the reconnection time (last `retry:`) */
    uint32_t rc_breaks;        /* streams that ended */
    uint32_t rc_backs;         /* reconnects that got a 200 */
    bool rc_await;             /* back, and its first data/patch event is not classified yet */
    uint8_t cur_id_len, last_id_len, brk_id_len;
    char cur_id[ID_MAX + 1];  /* WHATWG: the stream's last event ID buffer */
    char last_id[ID_MAX + 1]; /* WHATWG: the last event ID string, sent as Last-Event-ID */
    char brk_id[ID_MAX + 1];  /* last_id when the stream ended */
} client_t;

typedef struct {
    int64_t due; /* monotonic */
    int idx;     /* client index */
} rc_timer_t;

typedef struct {
    int id;
    int epfd;
    pthread_t th;
    samples_t lat_steady, lat_ramp;
    char *rbuf;
    uint64_t events, reads, bytes;
    int64_t now_mono; /* monotonic time of the current read */
    int64_t neg_latency;
    int nclients; /* clients owned by this thread */
    int nsettled;
    /* --reconnect */
    rc_timer_t *heap; /* min-heap of the clients waiting to reconnect, by due time */
    int heap_n;
    int rc_inflight;  /* reconnect attempts connecting or waiting for the head */
    char *reqbuf;     /* the request with a Last-Event-ID header */
    samples_t rc_back; /* end of the stream → response head of the new one, ns */
    uint64_t rc_attempts, rc_fail_connect, rc_fail_timeout, rc_fail_closed;
    uint64_t rc_resumed, rc_fresh, rc_other, rc_no_event, rc_long_ids;
    uint64_t rc_end_by[8]; /* every stream end, by DROP_* reason */
} worker_t;

static client_t *g_clients;
static worker_t *g_workers;
static int64_t g_t0_mono; /* start of the ramp */
static struct sockaddr_in g_addr;
static char *g_request;
static size_t g_request_len;

static void client_free_buffers(client_t *c)
{
    free(c->hbuf);
    c->hbuf = NULL;
    free(c->line);
    c->line = NULL;
    c->line_cap = c->line_len = 0;
    free(c->data);
    c->data = NULL;
    c->data_cap = c->data_len = 0;
}

static void settle_one(worker_t *w)
{
    w->nsettled++;
    __atomic_add_fetch(&g_settled, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ --reconnect */

static void heap_push(worker_t *w, int64_t due, int idx)
{
    if (w->heap_n >= w->nclients) return; /* cannot happen: a client waits at most once */
    int i = w->heap_n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (w->heap[p].due <= due) break;
        w->heap[i] = w->heap[p];
        i = p;
    }
    w->heap[i] = (rc_timer_t){.due = due, .idx = idx};
}

static rc_timer_t heap_pop(worker_t *w)
{
    rc_timer_t top = w->heap[0];
    rc_timer_t last = w->heap[--w->heap_n];
    int n = w->heap_n, i = 0;
    if (n == 0) return top;
    for (;;) {
        int l = 2 * i + 1;
        if (l >= n) break;
        int m = l + 1 < n && w->heap[l + 1].due < w->heap[l].due ? l + 1 : l;
        if (w->heap[m].due >= last.due) break;
        w->heap[i] = w->heap[m];
        i = m;
    }
    w->heap[i] = last;
    return top;
}

/* the client waits its reconnection time, then connects again (worker_main) */
static void rc_schedule(worker_t *w, client_t *c, int64_t now)
{
    c->state = ST_WAIT;
    heap_push(w, now + (int64_t)c->retry_ms * 1000000LL, (int)(c - g_clients));
}

/* parser and framing state back to that of a new stream (buffers are already freed) */
static void stream_reset(client_t *c)
{
    c->last_cr = false;
    c->has_data = false;
    c->evtype_len = 0;
    c->body_started = false;
    c->body_mode = BODY_CLOSE;
    c->chunk_state = CS_SIZE;
    c->chunk_acc = 0;
    c->remaining = 0;
    c->hlen = 0;
    c->status = 0;
    /* a new stream's last event ID buffer starts from the last event ID string (as browsers
     * do: an id read in an event that never got dispatched is forgotten) */
    memcpy(c->cur_id, c->last_id, c->last_id_len);
    c->cur_id_len = c->last_id_len;
}

/* the client's stream ended (after a 200): schedule the reconnect */
static void rc_stream_lost(worker_t *w, client_t *c, int64_t now)
{
    if (c->rc_await) { /* it came back, but no data/patch event arrived before this end */
        w->rc_no_event++;
        c->rc_await = false;
    }
    c->rc_breaks++;
    c->t_lost = now;
    memcpy(c->brk_id, c->last_id, c->last_id_len);
    c->brk_id_len = c->last_id_len;
    stream_reset(c);
    rc_schedule(w, c, now);
}

/* a reconnect attempt failed before its response head */
static void rc_attempt_failed(worker_t *w, client_t *c, int reason)
{
    w->rc_inflight--;
    if (reason == FAIL_STATUS) { /* EventSource: "fail the connection", no more reconnects */
        c->state = ST_GAVEUP;
        return;
    }
    if (reason == FAIL_CONNECT) w->rc_fail_connect++;
    else if (reason == FAIL_TIMEOUT) w->rc_fail_timeout++;
    else w->rc_fail_closed++;
    stream_reset(c);
    rc_schedule(w, c, now_mono_ns());
}

/* a reconnect got its 200 */
static void rc_back(worker_t *w, client_t *c, int64_t now)
{
    w->rc_inflight--;
    samples_push(&w->rc_back, now - c->t_lost);
    c->rc_backs++;
    c->t_back = now;
    c->rc_await = true;
}

/* `EPOCH-SEQ`: split at the last '-'; SEQ decimal digits */
static bool id_split(const char *id, size_t n, size_t *epoch_len, uint64_t *seq)
{
    const char *dash = memrchr(id, '-', n);
    if (!dash) return false;
    size_t el = (size_t)(dash - id), sl = n - el - 1;
    if (sl == 0 || sl > 19) return false;
    uint64_t v = 0;
    for (size_t i = el + 1; i < n; i++) {
        if (id[i] < '0' || id[i] > '9') return false;
        v = v * 10 + (uint64_t)(id[i] - '0');
    }
    *epoch_len = el;
    *seq = v;
    return true;
}

/* the first data/patch event after a reconnect, whose id is now c->last_id */
static void rc_classify(worker_t *w, client_t *c, bool is_patch)
{
    c->rc_await = false;
    if (!is_patch) {
        w->rc_fresh++;
        return;
    }
    size_t el0, el1;
    uint64_t s0, s1;
    if (id_split(c->brk_id, c->brk_id_len, &el0, &s0) && id_split(c->last_id, c->last_id_len, &el1, &s1) && el0 == el1 &&
        memcmp(c->brk_id, c->last_id, el0) == 0 && s1 == s0 + 1)
        w->rc_resumed++;
    else
        w->rc_other++;
}

/* ------------------------------------------------------------------ client ends */

static void client_fail(worker_t *w, client_t *c, int reason)
{
    if (c->fd >= 0) {
        epoll_ctl(w->epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
    }
    if (opt.reconnect && c->connected) { /* a reconnect attempt: the client was settled long ago */
        client_free_buffers(c);
        rc_attempt_failed(w, c, reason);
        return;
    }
    c->state = ST_FAILED;
    c->fail_reason = (uint8_t)reason;
    client_free_buffers(c);
    settle_one(w);
}

static void client_drop(worker_t *w, client_t *c, int reason)
{
    if (c->fd >= 0) {
        epoll_ctl(w->epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
    }
    c->state = ST_DROPPED;
    int64_t now = now_mono_ns();
    if (c->rc_breaks == 0) { /* with --reconnect, the drop figures are those of the first stream */
        c->drop_reason = (uint8_t)reason;
        c->t_dropped = now;
        c->t_last_event_drop = c->t_last_event;
    }
    client_free_buffers(c);
    if (opt.reconnect) {
        w->rc_end_by[reason]++;
        rc_stream_lost(w, c, now);
    }
}

static bool buf_append(char **buf, size_t *len, size_t *cap, const char *p, size_t n, size_t limit)
{
    if (*len + n > limit) return false;
    if (*len + n > *cap) {
        size_t nc = *cap ? *cap : 256;
        while (nc < *len + n) nc *= 2;
        char *nb = realloc(*buf, nc);
        if (!nb) return false;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, p, n);
    *len += n;
    return true;
}

/* ------------------------------------------------------------------ number extraction */

/* Parses a JSON number at p (after optional whitespace); integers exactly, others via strtod. */
static bool parse_json_int(const char *p, const char *end, int64_t *out)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (p >= end) return false;
    const char *s = p;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    if (p >= end || !isdigit((unsigned char)*p)) return false;
    int64_t v = 0;
    while (p < end && isdigit((unsigned char)*p)) {
        v = v * 10 + (*p - '0');
        p++;
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
        char tmp[64];
        size_t n = 0;
        for (const char *q = s; q < end && n < sizeof tmp - 1 && strchr("+-.0123456789eE", *q); q++) tmp[n++] = *q;
        tmp[n] = 0;
        *out = (int64_t)strtod(tmp, NULL);
        return true;
    }
    *out = neg ? -v : v;
    return true;
}

/*
 * Finds the value of `name` in an event's data:
 *  - a JSON Patch op on path "/name": `{"op":"replace","path":"/name","value":N}` (any key
 *    order inside the op object);
 *  - else a document member `"name": N`.
 */
static bool find_field(const char *d, size_t n, const char *name, int64_t *out)
{
    char pat[64];
    const char *end = d + n;
    size_t nl = strlen(name);
    if (nl + 4 > sizeof pat) return false;
    pat[0] = '"';
    pat[1] = '/';
    memcpy(pat + 2, name, nl);
    pat[nl + 2] = '"';
    int pl = (int)nl + 3;
    const char *hit = memmem(d, n, pat, (size_t)pl);
    if (hit) {
        /* the enclosing op object: back to '{', forward to '}' (the value is a number) */
        const char *ob = hit;
        while (ob > d && *ob != '{') ob--;
        const char *oe = memchr(hit, '}', (size_t)(end - hit));
        if (!oe) oe = end;
        const char *v = memmem(ob, (size_t)(oe - ob), "\"value\"", 7);
        if (v) {
            v += 7;
            while (v < oe && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
            if (v < oe && *v == ':') return parse_json_int(v + 1, oe, out);
        }
        return false;
    }
    memmove(pat + 1, pat + 2, nl + 1);
    pl = (int)nl + 2;
    hit = memmem(d, n, pat, (size_t)pl);
    if (!hit) return false;
    const char *v = hit + pl;
    while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
    if (v >= end || *v != ':') return false;
    return parse_json_int(v + 1, end, out);
}

/* ------------------------------------------------------------------ SSE */

/*
 * --stamp-marker: every occurrence of the marker followed by digits in an event's data is a
 * send stamp (CLOCK_REALTIME ns). A stamp is timed when it is newer than every stamp the
 * client saw before the current event id: the events of one change (one id: several
 * `added` on /events/items, newest first) are all timed, while a later state that shows an
 * item again (a fresh `data` or `snapshot`) does not time it twice. The client's first
 * event (its starting state) only sets the baseline.
 */
static void dispatch_stamped(worker_t *w, client_t *c, int64_t arrival)
{
    const char *d = c->data, *end = c->data + c->data_len;
    size_t ml = strlen(opt.stamp_marker);
    if (c->id_hash != c->stamp_id_hash) { /* a new change: what came before is the floor */
        c->stamp_floor = c->max_stamp;
        c->stamp_id_hash = c->id_hash;
    }
    int64_t newest = c->max_stamp;
    bool timed_any = false;
    for (const char *hit; (hit = memmem(d, (size_t)(end - d), opt.stamp_marker, ml)); d = hit + ml) {
        const char *v = hit + ml;
        int64_t stamp = 0;
        int digits = 0;
        while (v < end && *v >= '0' && *v <= '9' && digits < 19) stamp = stamp * 10 + (*v++ - '0'), digits++;
        if (digits == 0 || stamp <= c->stamp_floor) continue;
        if (stamp > newest) newest = stamp;
        if (!c->seen_data_event) continue;
        int64_t lat = arrival - stamp;
        if (lat < 0) w->neg_latency++;
        int ph = phase_get();
        samples_push(ph == PH_RAMP ? &w->lat_ramp : &w->lat_steady, lat);
        timed_any = true;
    }
    c->max_stamp = newest;
    if (c->seen_data_event) {
        c->patches++;
        if (!timed_any) c->nots++;
    } else {
        c->datas++;
    }
    c->seen_data_event = true;
    c->data_len = 0;
    c->has_data = false;
    c->evtype_len = 0;
    if (c->data_cap > 4096) {
        free(c->data);
        c->data = NULL;
        c->data_cap = 0;
    }
}

static void dispatch_event(worker_t *w, client_t *c, int64_t arrival)
{
    if (opt.reconnect) { /* WHATWG: at every blank line, even one that dispatches nothing */
        memcpy(c->last_id, c->cur_id, c->cur_id_len);
        c->last_id_len = c->cur_id_len;
    }
    if (!c->has_data) {
        c->evtype_len = 0;
        return;
    }
    const char *t = c->evtype;
    size_t tl = c->evtype_len;
    bool rc_first = false; /* the first data/patch event after a reconnect */
    if (c->rc_await) {
        bool p = tl == 5 && memcmp(t, "patch", 5) == 0;
        bool d = (tl == 4 && memcmp(t, "data", 4) == 0) || (tl == 8 && memcmp(t, "snapshot", 8) == 0);
        if (p || d) {
            rc_classify(w, c, p);
            rc_first = true;
        }
    }
    if (opt.stamp_marker) {
        dispatch_stamped(w, c, arrival);
        return;
    }
    bool is_patch = tl == 5 && memcmp(t, "patch", 5) == 0;
    bool is_data = (tl == 4 && memcmp(t, "data", 4) == 0) || (tl == 8 && memcmp(t, "snapshot", 8) == 0);
    __atomic_store_n(&w->events, w->events + 1, __ATOMIC_RELAXED); /* only this thread writes */
    c->t_last_event = w->now_mono;
    if (is_patch || is_data) {
        int64_t seq = -1, sent = 0;
        bool has_seq = find_field(c->data, c->data_len, "seq", &seq);
        bool has_sent = find_field(c->data, c->data_len, "sent_ns", &sent);
        if (is_patch) {
            c->patches++;
            if (!has_seq) {
                c->noseq++;
            } else if (c->last_seq < 0) {
                c->base_seq = seq - 1;
                c->last_seq = seq;
            } else if (seq == c->last_seq + 1) {
                c->last_seq = seq;
            } else if (seq > c->last_seq + 1) {
                c->missing += (uint32_t)(seq - c->last_seq - 1);
                c->last_seq = seq;
            } else {
                c->dups++;
            }
        } else {
            c->datas++;
            if (has_seq) {
                if (c->last_seq < 0) {
                    c->base_seq = seq;
                } else if (seq > c->last_seq) {
                    c->snapskip += (uint32_t)(seq - c->last_seq);
                }
                if (seq > c->last_seq) c->last_seq = seq;
            }
        }
        if (has_seq) {
            max_seq_note(seq);
            if (is_patch && seq > __atomic_load_n(&g_target, __ATOMIC_RELAXED)) c->beyond++;
        }
        /* latency: every patch; a data event only when it is not the client's first
         * (the first is the current state, possibly old; later ones are changes, as in
         * snapshot-only mode) nor the first after a reconnect (the same) */
        bool timed = is_patch || (c->seen_data_event && !rc_first);
        if (is_data) c->seen_data_event = true;
        if (timed) {
            if (has_sent && sent > 0) {
                int64_t lat = arrival - sent;
                if (lat < 0) w->neg_latency++;
                int ph = phase_get();
                samples_push(ph == PH_RAMP ? &w->lat_ramp : &w->lat_steady, lat);
            } else {
                c->nots++;
            }
        }
    } else {
        c->others++;
    }
    c->data_len = 0;
    c->has_data = false;
    c->evtype_len = 0;
    if (c->data_cap > 4096) { /* keep per-client memory small after a big snapshot */
        free(c->data);
        c->data = NULL;
        c->data_cap = 0;
    }
}

/* returns false on a protocol/limit failure */
static bool process_line(worker_t *w, client_t *c, const char *l, size_t n, int64_t arrival)
{
    if (n == 0) {
        dispatch_event(w, c, arrival);
        return true;
    }
    if (l[0] == ':') {
        c->comments++;
        c->t_last_event = w->now_mono;
        return true;
    }
    const char *colon = memchr(l, ':', n);
    size_t fl = colon ? (size_t)(colon - l) : n;
    const char *v = colon ? colon + 1 : l + n;
    size_t vl = colon ? n - fl - 1 : 0;
    if (vl > 0 && *v == ' ') {
        v++;
        vl--;
    }
    if (fl == 4 && memcmp(l, "data", 4) == 0) {
        if (c->has_data && !buf_append(&c->data, &c->data_len, &c->data_cap, "\n", 1, (size_t)opt.max_line)) return false;
        if (!buf_append(&c->data, &c->data_len, &c->data_cap, v, vl, (size_t)opt.max_line)) return false;
        c->has_data = true;
    } else if (fl == 5 && memcmp(l, "event", 5) == 0) {
        size_t k = vl > EVTYPE_MAX ? EVTYPE_MAX : vl;
        memcpy(c->evtype, v, k);
        c->evtype_len = (uint8_t)k;
    }
    else if (fl == 2 && memcmp(l, "id", 2) == 0) {
        /* --stamp-marker: a hash of the last event id, to tell one change's events apart */
        uint64_t h = 1469598103934665603ULL;
        for (size_t i = 0; i < vl; i++) h = (h ^ (uint8_t)v[i]) * 1099511628211ULL;
        c->id_hash = h;
        /* --reconnect: WHATWG sets the last event ID buffer (also to empty) unless the
         * value holds a NULL */
        if (opt.reconnect && !memchr(v, 0, vl)) {
            size_t k = vl;
            if (k > ID_MAX) {
                k = ID_MAX;
                w->rc_long_ids++;
            }
            memcpy(c->cur_id, v, k);
            c->cur_id_len = (uint8_t)k;
        }
    } else if (opt.reconnect && fl == 5 && memcmp(l, "retry", 5) == 0) {
        /* WHATWG: only ASCII digits set the reconnection time; anything else is ignored */
        uint64_t ms = 0;
        size_t i = 0;
        for (; i < vl && v[i] >= '0' && v[i] <= '9'; i++)
            if (ms < 86400000u) ms = ms * 10 + (uint64_t)(v[i] - '0');
        if (vl > 0 && i == vl) c->retry_ms = ms > 86400000u ? 86400000u : (uint32_t)ms; /* at most a day */
    }
    /* unknown fields (and retry without --reconnect): nothing to measure */
    return true;
}

/* Feeds decoded body bytes to the SSE parser. */
static bool sse_feed(worker_t *w, client_t *c, const char *p, size_t n, int64_t arrival)
{
    if (!c->body_started && n > 0) {
        c->body_started = true;
        if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) { /* a BOM split over reads is not handled */
            p += 3;
            n -= 3;
        }
    }
    while (n > 0) {
        if (c->last_cr) {
            c->last_cr = false;
            if (*p == '\n') {
                p++;
                n--;
                continue;
            }
        }
        const char *lf = memchr(p, '\n', n);
        size_t scan = lf ? (size_t)(lf - p) : n;
        const char *cr = memchr(p, '\r', scan);
        const char *eol = cr ? cr : lf;
        if (!eol) {
            if (!buf_append(&c->line, &c->line_len, &c->line_cap, p, n, (size_t)opt.max_line)) return false;
            return true;
        }
        size_t ll = (size_t)(eol - p);
        bool ok;
        if (c->line_len) {
            if (!buf_append(&c->line, &c->line_len, &c->line_cap, p, ll, (size_t)opt.max_line)) return false;
            ok = process_line(w, c, c->line, c->line_len, arrival);
            c->line_len = 0;
            if (c->line_cap > 4096) {
                free(c->line);
                c->line = NULL;
                c->line_cap = 0;
            }
        } else {
            ok = process_line(w, c, p, ll, arrival);
        }
        if (!ok) return false;
        size_t adv = ll + 1;
        if (*eol == '\r') {
            if (adv < n) {
                if (p[adv] == '\n') adv++;
            } else {
                c->last_cr = true;
            }
        }
        p += adv;
        n -= adv;
    }
    return true;
}

/* ------------------------------------------------------------------ HTTP body */

/* Decodes body bytes; returns 0 to go on, 1 when the body ended, -1 on a protocol error. */
static int body_feed(worker_t *w, client_t *c, const char *p, size_t n, int64_t arrival)
{
    if (c->body_mode == BODY_CLOSE) return sse_feed(w, c, p, n, arrival) ? 0 : -1;
    if (c->body_mode == BODY_LENGTH) {
        size_t k = (int64_t)n > c->remaining ? (size_t)c->remaining : n;
        if (!sse_feed(w, c, p, k, arrival)) return -1;
        c->remaining -= (int64_t)k;
        return c->remaining == 0 ? 1 : 0;
    }
    /* chunked */
    const char *end = p + n;
    while (p < end) {
        switch (c->chunk_state) {
        case CS_SIZE: {
            char ch = *p++;
            int d;
            if (ch >= '0' && ch <= '9') d = ch - '0';
            else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
            else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
            else if (ch == ';' || ch == ' ' || ch == '\t') {
                c->chunk_state = CS_EXT;
                break;
            } else if (ch == '\r') {
                c->chunk_state = CS_SIZE_LF;
                break;
            } else if (ch == '\n') {
                goto size_done;
            } else return -1;
            if (c->chunk_acc > (1ULL << 40)) return -1;
            c->chunk_acc = c->chunk_acc * 16 + (uint64_t)d;
            break;
        }
        case CS_EXT:
            if (*p == '\n') {
                p++;
                goto size_done;
            }
            if (*p == '\r') c->chunk_state = CS_SIZE_LF;
            p++;
            break;
        case CS_SIZE_LF:
            if (*p++ != '\n') return -1;
        size_done:
            if (c->chunk_acc == 0) {
                c->chunk_state = CS_TRAILER;
                c->remaining = 0;
            } else {
                c->remaining = (int64_t)c->chunk_acc;
                c->chunk_state = CS_DATA;
            }
            c->chunk_acc = 0;
            break;
        case CS_DATA: {
            size_t avail = (size_t)(end - p);
            size_t k = (int64_t)avail > c->remaining ? (size_t)c->remaining : avail;
            if (!sse_feed(w, c, p, k, arrival)) return -1;
            p += k;
            c->remaining -= (int64_t)k;
            if (c->remaining == 0) c->chunk_state = CS_DATA_CR;
            break;
        }
        case CS_DATA_CR:
            if (*p == '\r') {
                p++;
                c->chunk_state = CS_DATA_LF;
            } else if (*p == '\n') {
                p++;
                c->chunk_state = CS_SIZE;
            } else return -1;
            break;
        case CS_DATA_LF:
            if (*p++ != '\n') return -1;
            c->chunk_state = CS_SIZE;
            break;
        case CS_TRAILER: /* trailer lines until an empty one; remaining counts the line length */
            if (*p == '\r') {
                p++;
                break;
            }
            if (*p == '\n') {
                p++;
                if (c->remaining == 0) {
                    c->chunk_state = CS_END;
                    return 1;
                }
                c->remaining = 0;
                break;
            }
            c->remaining++;
            p++;
            break;
        default:
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ HTTP head */

static bool header_is(const char *line, size_t n, const char *name, const char **val, size_t *vl)
{
    size_t k = strlen(name);
    if (n <= k || line[k] != ':' || strncasecmp(line, name, k) != 0) return false;
    const char *v = line + k + 1;
    const char *e = line + n;
    while (v < e && (*v == ' ' || *v == '\t')) v++;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    *val = v;
    *vl = (size_t)(e - v);
    return true;
}

/* Parses the head in c->hbuf[0..headlen); sets status and body mode. */
static bool parse_head(client_t *c, size_t headlen)
{
    const char *h = c->hbuf;
    const char *e = h + headlen;
    const char *nl = memchr(h, '\n', headlen);
    if (!nl || headlen < 12 || strncmp(h, "HTTP/1.", 7) != 0) return false;
    c->status = atoi(h + 9);
    bool http10 = h[7] == '0';
    c->body_mode = BODY_CLOSE;
    bool has_len = false;
    int64_t len = 0;
    const char *l = nl + 1;
    while (l < e) {
        const char *le = memchr(l, '\n', (size_t)(e - l));
        if (!le) le = e;
        size_t n = (size_t)(le - l);
        const char *v;
        size_t vl;
        if (header_is(l, n, "Transfer-Encoding", &v, &vl)) {
            if (vl >= 7 && strncasecmp(v + vl - 7, "chunked", 7) == 0) c->body_mode = BODY_CHUNKED;
        } else if (header_is(l, n, "Content-Length", &v, &vl)) {
            has_len = true;
            len = strtoll(v, NULL, 10);
        }
        l = le + 1;
    }
    if (c->body_mode != BODY_CHUNKED && has_len) {
        c->body_mode = BODY_LENGTH;
        c->remaining = len;
    }
    (void)http10;
    return true;
}

/* ------------------------------------------------------------------ I/O */

static void start_connect(worker_t *w, client_t *c)
{
    c->t_attempt = now_mono_ns();
    if (!c->connected) c->t_connect_start = c->t_attempt; /* a reconnect keeps the first one's */
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        client_fail(w, c, FAIL_CONNECT);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->fd = fd;
    int r = connect(fd, (struct sockaddr *)&g_addr, sizeof g_addr);
    if (r < 0 && errno != EINPROGRESS) {
        client_fail(w, c, FAIL_CONNECT);
        return;
    }
    c->state = ST_CONNECTING;
    struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) client_fail(w, c, FAIL_CONNECT);
}

static void on_writable(worker_t *w, client_t *c)
{
    int err = 0;
    socklen_t el = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
    if (err) {
        client_fail(w, c, FAIL_CONNECT);
        return;
    }
    const char *req = g_request;
    size_t req_len = g_request_len;
    if (opt.reconnect && c->connected && c->last_id_len > 0) {
        /* a reconnect: the request with `Last-Event-ID` before its final CRLF */
        req_len = g_request_len - 2;
        memcpy(w->reqbuf, g_request, req_len);
        memcpy(w->reqbuf + req_len, "Last-Event-ID: ", 15);
        req_len += 15;
        memcpy(w->reqbuf + req_len, c->last_id, c->last_id_len);
        req_len += c->last_id_len;
        memcpy(w->reqbuf + req_len, "\r\n\r\n", 4);
        req_len += 4;
        req = w->reqbuf;
    }
    ssize_t k = send(c->fd, req, req_len, MSG_NOSIGNAL);
    if (k != (ssize_t)req_len) {
        client_fail(w, c, FAIL_CONNECT);
        return;
    }
    c->state = ST_HEADERS;
    c->hbuf = malloc(MAX_HEADERS_BYTES);
    c->hlen = 0;
    if (!c->hbuf) {
        client_fail(w, c, FAIL_PROTOCOL);
        return;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(w->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void on_readable(worker_t *w, client_t *c)
{
    char *buf = w->rbuf;
    ssize_t n = read(c->fd, buf, READ_BUF_BYTES);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return;
        if (c->state == ST_HEADERS) client_fail(w, c, FAIL_CLOSED_EARLY);
        else client_drop(w, c, DROP_RESET);
        return;
    }
    int64_t arrival = now_real_ns();
    w->now_mono = now_mono_ns();
    w->reads++;
    w->bytes += (uint64_t)n;
    if (n == 0) {
        if (c->state == ST_HEADERS) client_fail(w, c, FAIL_CLOSED_EARLY);
        else client_drop(w, c, DROP_EOF);
        return;
    }
    c->bytes += (uint64_t)n;
    const char *p = buf;
    size_t len = (size_t)n;
    if (c->state == ST_HEADERS) {
        size_t room = MAX_HEADERS_BYTES - c->hlen;
        size_t k = len < room ? len : room;
        memcpy(c->hbuf + c->hlen, p, k);
        size_t old = c->hlen;
        c->hlen += (uint32_t)k;
        /* find the end of the head: \r\n\r\n or \n\n */
        size_t from = old > 3 ? old - 3 : 0;
        size_t headlen = 0;
        for (size_t i = from; i < c->hlen; i++) {
            if (c->hbuf[i] != '\n') continue;
            if (i >= 1 && c->hbuf[i - 1] == '\n') {
                headlen = i + 1;
                break;
            }
            if (i >= 2 && c->hbuf[i - 1] == '\r' && c->hbuf[i - 2] == '\n') {
                headlen = i + 1;
                break;
            }
        }
        if (!headlen) {
            if (c->hlen >= MAX_HEADERS_BYTES) client_fail(w, c, FAIL_PROTOCOL);
            return;
        }
        if (!parse_head(c, headlen)) {
            client_fail(w, c, FAIL_PROTOCOL);
            return;
        }
        if (c->status != 200) {
            client_fail(w, c, FAIL_STATUS);
            return;
        }
        c->state = ST_BODY;
        if (!c->connected) {
            c->connected = true;
            c->t_connected = now_mono_ns();
            settle_one(w);
        } else {
            rc_back(w, c, now_mono_ns()); /* --reconnect */
        }
        size_t used = headlen - old; /* bytes of this read that belonged to the head */
        free(c->hbuf);
        c->hbuf = NULL;
        p += used;
        len -= used;
        if (c->body_mode == BODY_LENGTH && c->remaining == 0) {
            client_drop(w, c, DROP_END);
            return;
        }
        if (len == 0) return;
    }
    if (c->state != ST_BODY) return;
    int r = body_feed(w, c, p, len, arrival);
    if (r < 0) client_drop(w, c, DROP_PROTOCOL);
    else if (r > 0) client_drop(w, c, DROP_END);
}

static void check_timeouts(worker_t *w, int64_t now)
{
    int64_t limit = (int64_t)(opt.connect_timeout * 1e9);
    for (int i = w->id; i < opt.clients; i += opt.threads) {
        client_t *c = &g_clients[i];
        if ((c->state == ST_CONNECTING || c->state == ST_HEADERS) && now - c->t_attempt > limit)
            client_fail(w, c, FAIL_TIMEOUT);
    }
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    struct epoll_event evs[512];
    int next = w->id; /* next client index to connect */
    double per_client = opt.clients > 0 ? opt.ramp / opt.clients : 0;
    int64_t last_timeout_check = 0;
    for (;;) {
        int ph = phase_get();
        if (ph == PH_STOP) break;
        int64_t now = now_mono_ns();
        /* connect the clients whose time has come */
        while (next < opt.clients && ph != PH_STOP) {
            int64_t due = g_t0_mono + (int64_t)(per_client * next * 1e9);
            if (due > now) break;
            start_connect(w, &g_clients[next]);
            next += opt.threads;
        }
        /* --reconnect: the clients whose reconnection time is over connect again (at most
         * those due now: one refused at once with `retry: 0` waits for the next turn) */
        for (int n = w->heap_n; n > 0 && w->heap_n > 0 && w->heap[0].due <= now; n--) {
            rc_timer_t t = heap_pop(w);
            w->rc_attempts++;
            w->rc_inflight++;
            start_connect(w, &g_clients[t.idx]);
        }
        if ((w->nsettled < w->nclients || w->rc_inflight > 0) && now - last_timeout_check > 100000000LL) {
            check_timeouts(w, now);
            last_timeout_check = now;
        }
        int timeout_ms = 50;
        if (next < opt.clients) {
            int64_t due = g_t0_mono + (int64_t)(per_client * next * 1e9);
            int64_t ms = (due - now) / 1000000;
            if (ms < timeout_ms) timeout_ms = ms < 0 ? 0 : (int)ms;
        }
        if (w->heap_n > 0) { /* rounded up: no wake-up before the first is due */
            int64_t d = w->heap[0].due - now;
            int ms = d <= 0 ? 0 : (int)((d + 999999) / 1000000);
            if (ms < timeout_ms) timeout_ms = ms;
        }
        int k = epoll_wait(w->epfd, evs, 512, timeout_ms);
        for (int i = 0; i < k; i++) {
            client_t *c = evs[i].data.ptr;
            if (c->fd < 0) continue;
            if (c->state == ST_CONNECTING) {
                if (evs[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) on_writable(w, c);
            } else if (c->state == ST_HEADERS || c->state == ST_BODY) {
                on_readable(w, c);
            }
        }
    }
    /* close everything this thread owns */
    for (int i = w->id; i < opt.clients; i += opt.threads) {
        client_t *c = &g_clients[i];
        if (c->fd >= 0) {
            if (opt.rst_close) {
                struct linger lg = {1, 0};
                setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
            }
            close(c->fd);
            c->fd = -1;
            if ((c->state == ST_CONNECTING || c->state == ST_HEADERS) && opt.reconnect && c->connected) {
                c->state = ST_WAIT; /* a reconnect attempt under way: not back */
            } else if (c->state == ST_CONNECTING || c->state == ST_HEADERS) {
                c->state = ST_FAILED;
                c->fail_reason = FAIL_TIMEOUT;
            } else if (c->state == ST_BODY) {
                c->state = ST_CLOSED;
            }
        }
        client_free_buffers(c);
    }
    return NULL;
}

/* ------------------------------------------------------------------ /proc */

static long proc_rss_kib1(int pid)
{
    if (pid <= 0) return -1;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            v = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

/* utime+stime of a process, seconds */
static double proc_cpu_s1(int pid)
{
    if (pid <= 0) return -1;
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    /* fields after ')': state(3) ... utime(14) stime(15) */
    unsigned long ut = 0, st = 0;
    int field = 2;
    char *save = NULL;
    for (char *tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        field++;
        if (field == 14) ut = strtoul(tok, NULL, 10);
        if (field == 15) {
            st = strtoul(tok, NULL, 10);
            break;
        }
    }
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* the sums over every --pid (the argument only says whether there is one) */
static long proc_rss_kib(int pid)
{
    if (pid <= 0) return -1;
    long sum = 0;
    for (int i = 0; i < opt.npids; i++) {
        long r = proc_rss_kib1(opt.pids[i]);
        if (r < 0) return -1;
        sum += r;
    }
    return sum;
}

static double proc_cpu_s(int pid)
{
    if (pid <= 0) return -1;
    double sum = 0;
    for (int i = 0; i < opt.npids; i++) {
        double r = proc_cpu_s1(opt.pids[i]);
        if (r < 0) return -1;
        sum += r;
    }
    return sum;
}

/* machine-wide jiffies from /proc/stat: busy (all but idle+iowait), total, irq+softirq */
static void machine_cpu(double *busy, double *total, double *irq)
{
    *busy = *total = *irq = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    unsigned long long v[10] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                   &v[7], &v[8], &v[9]);
    fclose(f);
    if (n < 4) return;
    unsigned long long t = 0;
    for (int i = 0; i < 8; i++) t += v[i]; /* guest time is already in user */
    *total = (double)t;
    *busy = (double)(t - v[3] - v[4]);
    *irq = (double)(v[5] + v[6]);
}

static double self_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* ------------------------------------------------------------------ options parsing */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sseload --url http://127.0.0.1:PORT/path [options]\n"
            "  --url URL            the SSE endpoint (plain http, IPv4 literal or localhost)\n"
            "  --clients N          concurrent clients (default 100)\n"
            "  --ramp S             spread the connects over S seconds (default 1)\n"
            "  --duration S         measurement window after all clients settled (default 10)\n"
            "  --settle S           wait between all-connected and the window; idle RSS is read\n"
            "                       at its end (default 1)\n"
            "  --grace S            keep reading S seconds after the window so late events\n"
            "                       still count (default 2)\n"
            "  --connect-timeout S  connect + response head deadline per client (default 10)\n"
            "  --expect N           each client must receive at least N patch events\n"
            "  --pid P              the server's pid: RSS (VmRSS) and CPU from /proc/P;\n"
            "                       repeatable (e.g. nginx workers): figures are summed\n"
            "  --header \"K: v\"      extra request header (repeatable, up to %d)\n"
            "  --accept VALUE       Accept header (default text/event-stream)\n"
            "  --http10             send HTTP/1.0 requests (close-delimited bodies)\n"
            "  --threads T          worker threads (default 1)\n"
            "  --rst-close          close with RST at the end (no TIME_WAIT)\n"
            "  --max-line BYTES     longest line/event accepted (default 16 MiB)\n"
            "  --stamp-marker STR   time every event by each STR<digits> send stamp in its data\n"
            "                       (e.g. sent_ns= in a rendered title), each stamp once per\n"
            "                       client; for streams without seq (items, page fragments):\n"
            "                       a client is then complete when it was never dropped\n"
            "  --reconnect          a client whose stream ends (EOF, reset, end of body, bad\n"
            "                       framing) reconnects as an EventSource does: after its last\n"
            "                       `retry:` (default %u ms), with `Last-Event-ID: <last id>`;\n"
            "                       refused / failed attempts wait `retry:` and try again until\n"
            "                       the run ends; a non-200 answer stops that client. Reports\n"
            "                       the time from the end of the stream to the new 200 and the\n"
            "                       first data/patch event after it: resumed (a patch with the\n"
            "                       same epoch and seq+1 of EPOCH-SEQ ids), fresh (data) or other\n"
            "                       (JSON key \"reconnect\"). The first connect is not retried.\n"
            "  --json               print the summary as one JSON object on stdout\n"
            "                       (the human summary then goes to stderr)\n"
            "  --quiet              no progress lines on stderr\n"
            "Exit status: 0 when every client connected, none was dropped, and every client\n"
            "received every patch after its first event without gaps up to the highest seq\n"
            "seen at the end of the window (and at least --expect); 1 otherwise; 2 usage.\n"
            "With --reconnect, a dropped client is fine when it is back at the end (a fresh\n"
            "state in place of missed patches still counts as a gap: snapshot_skipped).\n",
            MAX_EXTRA_HEADERS, RC_DEFAULT_RETRY_MS);
}

static bool parse_url(const char *u)
{
    if (strncmp(u, "http://", 7) != 0) return false;
    const char *h = u + 7;
    const char *slash = strchr(h, '/');
    const char *hend = slash ? slash : h + strlen(h);
    const char *colon = memchr(h, ':', (size_t)(hend - h));
    size_t hl = (size_t)((colon ? colon : hend) - h);
    if (hl == 0 || hl >= sizeof opt.host) return false;
    memcpy(opt.host, h, hl);
    opt.host[hl] = 0;
    opt.port = colon ? atoi(colon + 1) : 80;
    if (opt.port <= 0 || opt.port > 65535) return false;
    snprintf(opt.path, sizeof opt.path, "%s", slash ? slash : "/");
    snprintf(opt.hostheader, sizeof opt.hostheader, "%.*s", (int)(hend - h), h);
    if (strcmp(opt.host, "localhost") == 0) snprintf(opt.host, sizeof opt.host, "127.0.0.1");
    return true;
}

static double num_arg(const char *name, const char *v, double lo, double hi)
{
    char *end;
    double d = strtod(v, &end);
    if (!*v || *end || d < lo || d > hi) {
        fprintf(stderr, "sseload: %s: bad value '%s' (%g..%g)\n", name, v, lo, hi);
        exit(2);
    }
    return d;
}

static void parse_args(int argc, char **argv)
{
    bool have_url = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--json")) {
            opt.json = true;
            continue;
        }
        if (!strcmp(a, "--http10")) {
            opt.http10 = true;
            continue;
        }
        if (!strcmp(a, "--quiet")) {
            opt.quiet = true;
            continue;
        }
        if (!strcmp(a, "--rst-close")) {
            opt.rst_close = true;
            continue;
        }
        if (!strcmp(a, "--reconnect")) {
            opt.reconnect = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "sseload: unknown option or missing value: %s (see --help)\n", a);
            exit(2);
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--url")) {
            if (!parse_url(v)) {
                fprintf(stderr, "sseload: --url: need http://HOST:PORT/path, got '%s'\n", v);
                exit(2);
            }
            have_url = true;
        } else if (!strcmp(a, "--clients")) opt.clients = (int)num_arg(a, v, 1, 1000000);
        else if (!strcmp(a, "--duration")) opt.duration = num_arg(a, v, 0, 86400);
        else if (!strcmp(a, "--ramp")) opt.ramp = num_arg(a, v, 0, 3600);
        else if (!strcmp(a, "--settle")) opt.settle = num_arg(a, v, 0, 3600);
        else if (!strcmp(a, "--grace")) opt.grace = num_arg(a, v, 0, 3600);
        else if (!strcmp(a, "--connect-timeout")) opt.connect_timeout = num_arg(a, v, 0.1, 3600);
        else if (!strcmp(a, "--expect")) opt.expect = (long)num_arg(a, v, 0, 1e12);
        else if (!strcmp(a, "--stamp-marker")) opt.stamp_marker = v;
        else if (!strcmp(a, "--pid")) {
            if (opt.npids >= 8) {
                fprintf(stderr, "sseload: --pid: at most 8\n");
                exit(2);
            }
            opt.pids[opt.npids++] = (int)num_arg(a, v, 1, 1e9);
            opt.pid = opt.pids[0];
        }
        else if (!strcmp(a, "--threads")) opt.threads = (int)num_arg(a, v, 1, 64);
        else if (!strcmp(a, "--max-line")) opt.max_line = (long)num_arg(a, v, 1024, 1e10);
        else if (!strcmp(a, "--accept")) opt.accept = v;
        else if (!strcmp(a, "--header")) {
            if (opt.n_extra_headers >= MAX_EXTRA_HEADERS || !strchr(v, ':') || strpbrk(v, "\r\n")) {
                fprintf(stderr, "sseload: --header: need \"Name: value\" (at most %d)\n", MAX_EXTRA_HEADERS);
                exit(2);
            }
            opt.extra_headers[opt.n_extra_headers++] = v;
        } else {
            fprintf(stderr, "sseload: unknown option %s (see --help)\n", a);
            exit(2);
        }
    }
    if (!have_url) {
        fprintf(stderr, "sseload: --url is required (see --help)\n");
        exit(2);
    }
    if (opt.threads > opt.clients) opt.threads = opt.clients;
}

/* ------------------------------------------------------------------ report */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void on_signal(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

static void progress(const char *fmt, ...)
{
    if (opt.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sseload: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

/* sleeps until t (monotonic) or an interrupt, sampling RSS every 250 ms into *max_rss */
static void wait_sampling(int64_t until, long *max_rss, double *rss_sum, int *rss_n)
{
    while (!g_interrupted) {
        int64_t now = now_mono_ns();
        if (now >= until) break;
        int64_t step = now + 250000000LL;
        sleep_until_mono(step < until ? step : until);
        if (max_rss) {
            long r = proc_rss_kib(opt.pid);
            if (r > *max_rss) *max_rss = r;
            if (r >= 0 && rss_sum) {
                *rss_sum += (double)r;
                (*rss_n)++;
            }
        }
    }
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rlim_t)opt.clients + 64 > rl.rlim_cur) {
        fprintf(stderr, "sseload: %d clients need more than the %lu open files allowed\n", opt.clients,
                (unsigned long)rl.rlim_cur);
        return 2;
    }

    memset(&g_addr, 0, sizeof g_addr);
    g_addr.sin_family = AF_INET;
    g_addr.sin_port = htons((uint16_t)opt.port);
    if (inet_pton(AF_INET, opt.host, &g_addr.sin_addr) != 1) {
        fprintf(stderr, "sseload: --url: host must be an IPv4 address or localhost, got '%s'\n", opt.host);
        return 2;
    }

    /* the request, built once */
    size_t cap = 1024 + strlen(opt.path) + 1;
    for (int i = 0; i < opt.n_extra_headers; i++) cap += strlen(opt.extra_headers[i]) + 2;
    g_request = malloc(cap);
    int off = snprintf(g_request, cap,
                       "GET %s HTTP/1.%d\r\nHost: %s\r\nAccept: %s\r\nCache-Control: no-cache\r\nUser-Agent: sseload/1\r\n",
                       opt.path, opt.http10 ? 0 : 1, opt.hostheader, opt.accept);
    for (int i = 0; i < opt.n_extra_headers; i++) off += snprintf(g_request + off, cap - (size_t)off, "%s\r\n", opt.extra_headers[i]);
    off += snprintf(g_request + off, cap - (size_t)off, "\r\n");
    g_request_len = (size_t)off;

    g_clients = calloc((size_t)opt.clients, sizeof *g_clients);
    g_workers = calloc((size_t)opt.threads, sizeof *g_workers);
    if (!g_clients || !g_workers) {
        fprintf(stderr, "sseload: out of memory\n");
        return 2;
    }
    for (int i = 0; i < opt.clients; i++) {
        g_clients[i].fd = -1;
        g_clients[i].base_seq = -1;
        g_clients[i].last_seq = -1;
        g_clients[i].retry_ms = RC_DEFAULT_RETRY_MS;
    }

    long rss_before = proc_rss_kib(opt.pid);
    if (opt.pid && rss_before < 0) {
        fprintf(stderr, "sseload: --pid: cannot read /proc/PID/status of every pid given\n");
        return 2;
    }
    double cpu_self_start = self_cpu_s();
    double cpu_srv_start = proc_cpu_s(opt.pid);

    g_t0_mono = now_mono_ns();
    for (int t = 0; t < opt.threads; t++) {
        worker_t *w = &g_workers[t];
        w->id = t;
        w->epfd = epoll_create1(EPOLL_CLOEXEC);
        w->rbuf = malloc(READ_BUF_BYTES);
        w->nclients = (opt.clients - t + opt.threads - 1) / opt.threads;
        if (opt.reconnect) {
            w->heap = malloc(((size_t)w->nclients + 1) * sizeof *w->heap);
            w->reqbuf = malloc(g_request_len + ID_MAX + 32);
        }
        if (w->epfd < 0 || !w->rbuf || (opt.reconnect && (!w->heap || !w->reqbuf))) {
            fprintf(stderr, "sseload: cannot set up worker\n");
            return 2;
        }
    }
    for (int t = 0; t < opt.threads; t++) pthread_create(&g_workers[t].th, NULL, worker_main, &g_workers[t]);
    progress("connecting %d clients to %s:%d%s over %.1f s (%d thread%s)", opt.clients, opt.host, opt.port, opt.path,
             opt.ramp, opt.threads, opt.threads == 1 ? "" : "s");

    /* ramp: until every client connected or failed (bounded by ramp + connect timeout) */
    int64_t ramp_deadline = g_t0_mono + (int64_t)((opt.ramp + opt.connect_timeout + 1) * 1e9);
    long rss_ramp_max = -1;
    while (!g_interrupted && __atomic_load_n(&g_settled, __ATOMIC_RELAXED) < opt.clients && now_mono_ns() < ramp_deadline) {
        wait_sampling(now_mono_ns() + 100000000LL, &rss_ramp_max, NULL, NULL);
    }
    int64_t t_all = now_mono_ns();
    double ramp_actual = (double)(t_all - g_t0_mono) / 1e9;
    int connected_at_ramp = 0;
    for (int i = 0; i < opt.clients; i++) connected_at_ramp += g_clients[i].connected;
    progress("%d/%d connected after %.2f s", connected_at_ramp, opt.clients, ramp_actual);

    wait_sampling(t_all + (int64_t)(opt.settle * 1e9), NULL, NULL, NULL);
    long rss_idle = proc_rss_kib(opt.pid);

    /* the measurement window */
    double cpu_self_w0 = self_cpu_s(), cpu_srv_w0 = proc_cpu_s(opt.pid);
    double mbusy0, mtot0, mbusy1, mtot1, mirq0, mirq1;
    machine_cpu(&mbusy0, &mtot0, &mirq0);
    uint64_t ev_w0 = 0;
    for (int t = 0; t < opt.threads; t++) ev_w0 += __atomic_load_n(&g_workers[t].events, __ATOMIC_RELAXED);
    int64_t tw0 = now_mono_ns();
    __atomic_store_n(&g_phase, PH_STEADY, __ATOMIC_RELEASE);
    long rss_during_max = -1;
    double rss_sum = 0;
    int rss_n = 0;
    wait_sampling(tw0 + (int64_t)(opt.duration * 1e9), &rss_during_max, &rss_sum, &rss_n);
    int64_t tw1 = now_mono_ns();
    double cpu_self_w1 = self_cpu_s(), cpu_srv_w1 = proc_cpu_s(opt.pid);
    machine_cpu(&mbusy1, &mtot1, &mirq1);
    uint64_t ev_w1 = 0;
    for (int t = 0; t < opt.threads; t++) ev_w1 += __atomic_load_n(&g_workers[t].events, __ATOMIC_RELAXED);
    long rss_end = proc_rss_kib(opt.pid);
    int64_t target = __atomic_load_n(&g_max_seq, __ATOMIC_RELAXED);
    __atomic_store_n(&g_target, target, __ATOMIC_RELAXED);
    __atomic_store_n(&g_phase, PH_GRACE, __ATOMIC_RELEASE);
    if (!g_interrupted) progress("window done (%.1f s); grace %.1f s", (double)(tw1 - tw0) / 1e9, opt.grace);
    wait_sampling(now_mono_ns() + (int64_t)(opt.grace * 1e9), NULL, NULL, NULL);
    __atomic_store_n(&g_phase, PH_STOP, __ATOMIC_RELEASE);
    for (int t = 0; t < opt.threads; t++) pthread_join(g_workers[t].th, NULL);
    double cpu_self_end = self_cpu_s();
    double window_s = (double)(tw1 - tw0) / 1e9;

    /* ------------------------------ aggregate */
    int connected = 0, failed = 0, dropped = 0, complete = 0;
    int fail_by[8] = {0}, drop_by[8] = {0};
    int status_503 = 0, status_other = 0;
    uint64_t tot_patches = 0, tot_datas = 0, tot_others = 0, tot_comments = 0, tot_missing = 0, tot_dups = 0,
             tot_noseq = 0, tot_nots = 0, tot_snapskip = 0, tot_expected = 0, tot_bytes = 0, tot_tail = 0, tot_beyond = 0;
    uint32_t *recv = calloc((size_t)opt.clients + 1, sizeof *recv);
    uint32_t *expv = calloc((size_t)opt.clients + 1, sizeof *expv);
    samples_t conn_t = {0}, drop_silence = {0}, drop_age = {0};
    int stalled_at_end = 0;
    int rc_lost = 0, rc_reconnected = 0, rc_down = 0, rc_gaveup = 0;
    uint64_t rc_breaks = 0, rc_backs = 0, rc_no_event = 0;
    int64_t t_end = now_mono_ns();
    int nr = 0;
    int worst_idx = -1;
    long worst_short = -1;
    for (int i = 0; i < opt.clients; i++) {
        client_t *c = &g_clients[i];
        if (c->state == ST_FAILED) {
            failed++;
            fail_by[c->fail_reason]++;
            if (c->fail_reason == FAIL_STATUS) {
                if (c->status == 503) status_503++;
                else status_other++;
            }
            continue;
        }
        if (!c->connected) {
            failed++;
            fail_by[FAIL_TIMEOUT]++;
            continue;
        }
        connected++;
        samples_push(&conn_t, c->t_connected - c->t_connect_start);
        if (!opt.reconnect) {
            if (c->state == ST_DROPPED) {
                dropped++;
                drop_by[c->drop_reason]++;
                samples_push(&drop_age, c->t_dropped - c->t_connected);
                samples_push(&drop_silence, c->t_dropped - (c->t_last_event ? c->t_last_event : c->t_connected));
            } else if (t_end - (c->t_last_event ? c->t_last_event : c->t_connected) > (int64_t)((opt.grace + 1.5) * 1e9)) {
                stalled_at_end++; /* open, but nothing arrived since well before the window ended */
            }
        } else {
            /* dropped: the stream ended at least once (figures of the first end) */
            if (c->rc_breaks > 0) {
                dropped++;
                drop_by[c->drop_reason]++;
                samples_push(&drop_age, c->t_dropped - c->t_connected);
                samples_push(&drop_silence, c->t_dropped - (c->t_last_event_drop ? c->t_last_event_drop : c->t_connected));
                rc_lost++;
                if (c->rc_backs > 0) rc_reconnected++;
                if (c->state != ST_CLOSED) rc_down++;
                if (c->state == ST_GAVEUP) rc_gaveup++;
                rc_breaks += c->rc_breaks;
                rc_backs += c->rc_backs;
            }
            if (c->rc_await) rc_no_event++; /* back, no data/patch event since */
            int64_t since = c->t_last_event ? c->t_last_event : c->t_connected;
            if (c->t_back > since) since = c->t_back;
            if (c->state == ST_CLOSED && t_end - since > (int64_t)((opt.grace + 1.5) * 1e9)) stalled_at_end++;
        }
        tot_patches += c->patches;
        tot_beyond += c->beyond;
        tot_datas += c->datas;
        tot_others += c->others;
        tot_comments += c->comments;
        tot_missing += c->missing;
        tot_dups += c->dups;
        tot_noseq += c->noseq;
        tot_nots += c->nots;
        tot_snapskip += c->snapskip;
        tot_bytes += c->bytes;
        /* expected: every patch after the client's base up to the target */
        long exp = 0;
        if (target >= 0 && c->base_seq >= 0 && target > c->base_seq) exp = (long)(target - c->base_seq);
        else if (target >= 0 && c->base_seq < 0) exp = -1; /* never saw a seq */
        long tail = (target >= 0 && c->last_seq < target) ? (long)(target - (c->last_seq < 0 ? 0 : c->last_seq)) : 0;
        if (c->base_seq < 0 && target >= 0) tail = 1;
        tot_tail += (uint64_t)tail;
        if (exp > 0) tot_expected += (uint64_t)exp;
        recv[nr] = c->patches - c->beyond;
        expv[nr] = exp > 0 ? (uint32_t)exp : 0;
        nr++;
        /* with --reconnect: back (open) at the end, whatever happened before */
        bool open_end = opt.reconnect ? c->state == ST_CLOSED : c->state != ST_DROPPED;
        bool ok = opt.stamp_marker ? open_end && c->connected
                                   : open_end && c->missing == 0 && c->snapskip == 0 && tail == 0 && target >= 0 &&
                  (opt.expect < 0 || (long)c->patches >= opt.expect);
        if (ok) complete++;
        else {
            long sh = (long)c->missing + (long)c->snapskip + tail;
            if (sh > worst_short) {
                worst_short = sh;
                worst_idx = i;
            }
        }
    }
    qsort(recv, (size_t)nr, sizeof *recv, cmp_u32);
    qsort(expv, (size_t)nr, sizeof *expv, cmp_u32);
    samples_t lat = {0}, lat_ramp = {0}, rc_back_t = {0};
    uint64_t reads = 0, neg = 0;
    uint64_t rc_attempts = 0, rc_fail_connect = 0, rc_fail_timeout = 0, rc_fail_closed = 0, rc_resumed = 0, rc_fresh = 0,
             rc_other = 0, rc_long_ids = 0, rc_end_by[8] = {0};
    for (int t = 0; t < opt.threads; t++) {
        worker_t *w = &g_workers[t];
        rc_attempts += w->rc_attempts;
        rc_fail_connect += w->rc_fail_connect;
        rc_fail_timeout += w->rc_fail_timeout;
        rc_fail_closed += w->rc_fail_closed;
        rc_resumed += w->rc_resumed;
        rc_fresh += w->rc_fresh;
        rc_other += w->rc_other;
        rc_no_event += w->rc_no_event;
        rc_long_ids += w->rc_long_ids;
        for (int k = 0; k < 8; k++) rc_end_by[k] += w->rc_end_by[k];
        for (size_t k = 0; k < w->rc_back.n; k++) samples_push(&rc_back_t, w->rc_back.v[k]);
        reads += w->reads;
        neg += (uint64_t)w->neg_latency;
        for (size_t k = 0; k < w->lat_steady.n; k++) samples_push(&lat, w->lat_steady.v[k]);
        for (size_t k = 0; k < w->lat_ramp.n; k++) samples_push(&lat_ramp, w->lat_ramp.v[k]);
    }
    qsort(lat.v, lat.n, sizeof *lat.v, cmp_i64);
    qsort(lat_ramp.v, lat_ramp.n, sizeof *lat_ramp.v, cmp_i64);
    qsort(rc_back_t.v, rc_back_t.n, sizeof *rc_back_t.v, cmp_i64);
    qsort(conn_t.v, conn_t.n, sizeof *conn_t.v, cmp_i64);
    qsort(drop_age.v, drop_age.n, sizeof *drop_age.v, cmp_i64);
    qsort(drop_silence.v, drop_silence.n, sizeof *drop_silence.v, cmp_i64);
    double lat_mean = 0;
    for (size_t k = 0; k < lat.n; k++) lat_mean += (double)lat.v[k];
    if (lat.n) lat_mean /= (double)lat.n;

    double self_cpu_window = cpu_self_w1 - cpu_self_w0;
    double srv_cpu_window = opt.pid ? cpu_srv_w1 - cpu_srv_w0 : -1;
    double self_cpu_total = cpu_self_end - cpu_self_start;
    double srv_cpu_total = opt.pid ? proc_cpu_s(opt.pid) - cpu_srv_start : -1;
    uint64_t ev_window = ev_w1 - ev_w0;
    double ev_rate = window_s > 0 ? (double)ev_window / window_s : 0;
    double rss_during_mean = rss_n ? rss_sum / rss_n : -1;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    double machine_busy_pct = mtot1 > mtot0 ? 100.0 * (mbusy1 - mbusy0) / (mtot1 - mtot0) : -1; /* of all cores */
    double hz = (double)sysconf(_SC_CLK_TCK);
    /* irq+softirq time (on loopback most of the TCP receive path of both sides): with tick-based
     * accounting (this kernel) it is also charged to the task it interrupted, so it is shown
     * for information and not subtracted; what remains after both processes is other work */
    double irq_cores = window_s > 0 ? (mirq1 - mirq0) / hz / window_s : 0;
    double other_cores = window_s > 0 ? (mbusy1 - mbusy0) / hz / window_s - self_cpu_window / window_s -
                                            (opt.pid ? srv_cpu_window / window_s : 0)
                                      : 0;
    if (other_cores < 0) other_cores = 0;
    double kib_idle_pc = (opt.pid && connected) ? (double)(rss_idle - rss_before) / connected : -1;
    double kib_during_pc = (opt.pid && connected) ? (double)(rss_during_max - rss_before) / connected : -1;

    bool success = connected == opt.clients && failed == 0 && (opt.reconnect ? rc_down == 0 : dropped == 0) && stalled_at_end == 0 &&
                   complete == opt.clients && target >= 0 && !g_interrupted;

#define MS(x) ((double)(x) / 1e6)
    FILE *hf = opt.json ? stderr : stdout;
    fprintf(hf, "== sseload %s:%d%s  clients %d  ramp %.1f s (took %.2f)  window %.1f s  threads %d\n", opt.host, opt.port,
            opt.path, opt.clients, opt.ramp, ramp_actual, window_s, opt.threads);
    fprintf(hf, "connections : connected %d  failed %d (connect %d, timeout %d, status %d [503: %d], protocol %d, closed %d)  dropped-by-server %d (eof %d, reset %d, ended %d, bad-framing %d)\n",
            connected, failed, fail_by[FAIL_CONNECT], fail_by[FAIL_TIMEOUT], fail_by[FAIL_STATUS], status_503,
            fail_by[FAIL_PROTOCOL], fail_by[FAIL_CLOSED_EARLY], dropped, drop_by[DROP_EOF], drop_by[DROP_RESET],
            drop_by[DROP_END], drop_by[DROP_PROTOCOL]);
    if (drop_age.n)
        fprintf(hf, "              dropped after %.2f / %.2f / %.2f s connected (min/median/max); silent before the drop %.2f / %.2f / %.2f s\n",
                pct(&drop_age, 0) / 1e9, pct(&drop_age, 50) / 1e9, drop_age.v[drop_age.n - 1] / 1e9, pct(&drop_silence, 0) / 1e9,
                pct(&drop_silence, 50) / 1e9, drop_silence.v[drop_silence.n - 1] / 1e9);
    if (stalled_at_end) fprintf(hf, "              STALLED: %d open clients received nothing in the last %.1f s\n", stalled_at_end, opt.grace + 1.5);
    if (opt.reconnect)
        fprintf(hf, "reconnect   : lost %d  back %d  never back %d  down at end %d (gave up %d)  reconnects %" PRIu64 " of %" PRIu64
                    " ends; first event resumed %" PRIu64 " fresh %" PRIu64 " other %" PRIu64 " none %" PRIu64
                    "; back p50 %.1f p99 %.1f max %.1f ms; attempts %" PRIu64 " (refused %" PRIu64 ", timeout %" PRIu64
                    ", closed %" PRIu64 "); ends: eof %" PRIu64 " reset %" PRIu64 " ended %" PRIu64 " bad-framing %" PRIu64 "\n",
                rc_lost, rc_reconnected, rc_lost - rc_reconnected, rc_down, rc_gaveup, rc_backs, rc_breaks, rc_resumed, rc_fresh,
                rc_other, rc_no_event, MS(pct(&rc_back_t, 50)), MS(pct(&rc_back_t, 99)),
                rc_back_t.n ? MS(rc_back_t.v[rc_back_t.n - 1]) : 0.0, rc_attempts, rc_fail_connect, rc_fail_timeout, rc_fail_closed,
                rc_end_by[DROP_EOF], rc_end_by[DROP_RESET], rc_end_by[DROP_END], rc_end_by[DROP_PROTOCOL]);
    if (conn_t.n)
        fprintf(hf, "connect time: p50 %.2f ms  p99 %.2f ms  max %.2f ms (to response head)\n", MS(pct(&conn_t, 50)),
                MS(pct(&conn_t, 99)), MS(conn_t.v[conn_t.n - 1]));
    fprintf(hf, "events      : patch %" PRIu64 "  data %" PRIu64 "  other %" PRIu64 "  comments %" PRIu64 "  bytes %" PRIu64 "\n",
            tot_patches, tot_datas, tot_others, tot_comments, tot_bytes);
    fprintf(hf, "delivery    : highest seq at window end %" PRId64 "; patches up to it received %" PRIu64 " of %" PRIu64
                " expected (+%" PRIu64 " later); per client received min %u median %u max %u, expected min %u median %u\n",
            target, tot_patches - tot_beyond, tot_expected, tot_beyond, nr ? recv[0] : 0, nr ? recv[nr / 2] : 0, nr ? recv[nr - 1] : 0,
            nr ? expv[0] : 0, nr ? expv[nr / 2] : 0);
    fprintf(hf, "              complete clients %d/%d; missing (gaps) %" PRIu64 ", behind at end %" PRIu64
                ", skipped by a snapshot %" PRIu64 ", duplicates %" PRIu64 ", without seq %" PRIu64 ", without sent_ns %" PRIu64 "\n",
            complete, opt.clients, tot_missing, tot_tail, tot_snapskip, tot_dups, tot_noseq, tot_nots);
    if (worst_idx >= 0) {
        client_t *c = &g_clients[worst_idx];
        fprintf(hf, "              worst client #%d: base seq %" PRId64 ", last seq %" PRId64 ", patches %u, gaps %u, state %s\n",
                worst_idx, c->base_seq, c->last_seq, c->patches, c->missing,
                c->state == ST_DROPPED ? "dropped" : c->state == ST_CLOSED ? "open" : c->state == ST_WAIT ? "reconnecting"
                                                     : c->state == ST_GAVEUP ? "gave up" : "?");
    }
    fprintf(hf, "latency     : window n=%zu  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f  mean %.3f ms%s\n", lat.n,
            MS(pct(&lat, 50)), MS(pct(&lat, 90)), MS(pct(&lat, 99)), MS(pct(&lat, 99.9)), lat.n ? MS(lat.v[lat.n - 1]) : 0.0,
            MS(lat_mean), neg ? "  (some negative: clock?)" : "");
    fprintf(hf, "              during ramp n=%zu  p50 %.3f  p99 %.3f  max %.3f ms\n", lat_ramp.n, MS(pct(&lat_ramp, 50)),
            MS(pct(&lat_ramp, 99)), lat_ramp.n ? MS(lat_ramp.v[lat_ramp.n - 1]) : 0.0);
    if (opt.pid)
        fprintf(hf, "server rss  : before %ld KiB  idle-connected %ld KiB  during max %ld mean %.0f  end %ld KiB;  per client idle %.2f KiB, during %.2f KiB\n",
                rss_before, rss_idle, rss_during_max, rss_during_mean, rss_end, kib_idle_pc, kib_during_pc);
    fprintf(hf, "cpu (window): sseload %.2f s (%.0f%% of a core)", self_cpu_window, window_s > 0 ? 100 * self_cpu_window / window_s : 0);
    if (opt.pid)
        fprintf(hf, "  server %.2f s (%.0f%% of a core; %.2f us per delivered event)", srv_cpu_window,
                window_s > 0 ? 100 * srv_cpu_window / window_s : 0, ev_window ? 1e6 * srv_cpu_window / (double)ev_window : 0);
    fprintf(hf, "\n              machine: %.0f%% busy of %ld cores (of which irq+softirq %.2f cores); everything but sseload and the server %.2f cores",
            machine_busy_pct, ncpu, irq_cores, other_cores);
    fprintf(hf, "\n              %.0f events/s in the window; sseload %.2f us per event; whole run: sseload %.2f s", ev_rate,
            ev_window ? 1e6 * self_cpu_window / (double)ev_window : 0, self_cpu_total);
    if (opt.pid) fprintf(hf, ", server %.2f s", srv_cpu_total);
    fprintf(hf, "\nresult      : %s\n", success ? "OK" : "INCOMPLETE");

    if (opt.json) {
        printf("{\"url\":\"http://%s%s\",\"clients\":%d,\"threads\":%d,\"ramp_s\":%.3f,\"ramp_actual_s\":%.3f,\"window_s\":%.3f,"
               "\"connected\":%d,\"failed\":%d,\"failed_connect\":%d,\"failed_timeout\":%d,\"failed_status\":%d,\"failed_503\":%d,"
               "\"failed_protocol\":%d,\"dropped\":%d,\"stalled_at_end\":%d,"
               "\"connect_ms\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},"
               "\"events\":{\"patch\":%" PRIu64 ",\"data\":%" PRIu64 ",\"other\":%" PRIu64 ",\"comments\":%" PRIu64 ",\"bytes\":%" PRIu64 "},"
               "\"target_seq\":%" PRId64 ",\"patches_received\":%" PRIu64 ",\"patches_expected\":%" PRIu64 ",\"patches_after_target\":%" PRIu64 ","
               "\"per_client_received\":{\"min\":%u,\"median\":%u,\"max\":%u},\"per_client_expected\":{\"min\":%u,\"median\":%u},"
               "\"complete_clients\":%d,\"missing\":%" PRIu64 ",\"behind_at_end\":%" PRIu64 ",\"snapshot_skipped\":%" PRIu64 ","
               "\"duplicates\":%" PRIu64 ",\"without_seq\":%" PRIu64 ",\"without_sent_ns\":%" PRIu64 ","
               "\"latency_ms\":{\"n\":%zu,\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"max\":%.3f,\"mean\":%.3f},"
               "\"latency_ramp_ms\":{\"n\":%zu,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},",
               opt.hostheader, opt.path, opt.clients, opt.threads, opt.ramp, ramp_actual, window_s, connected, failed,
               fail_by[FAIL_CONNECT], fail_by[FAIL_TIMEOUT], fail_by[FAIL_STATUS], status_503, fail_by[FAIL_PROTOCOL], dropped, stalled_at_end,
               conn_t.n ? MS(pct(&conn_t, 50)) : 0.0, conn_t.n ? MS(pct(&conn_t, 99)) : 0.0,
               conn_t.n ? MS(conn_t.v[conn_t.n - 1]) : 0.0, tot_patches, tot_datas, tot_others, tot_comments, tot_bytes, target,
               tot_patches - tot_beyond, tot_expected, tot_beyond, nr ? recv[0] : 0, nr ? recv[nr / 2] : 0, nr ? recv[nr - 1] : 0, nr ? expv[0] : 0,
               nr ? expv[nr / 2] : 0, complete, tot_missing, tot_tail, tot_snapskip, tot_dups, tot_noseq, tot_nots, lat.n,
               MS(pct(&lat, 50)), MS(pct(&lat, 90)), MS(pct(&lat, 99)), MS(pct(&lat, 99.9)), lat.n ? MS(lat.v[lat.n - 1]) : 0.0,
               MS(lat_mean), lat_ramp.n, MS(pct(&lat_ramp, 50)), MS(pct(&lat_ramp, 99)),
               lat_ramp.n ? MS(lat_ramp.v[lat_ramp.n - 1]) : 0.0);
        if (opt.pid)
            printf("\"server_pid\":%d,\"server_pid_count\":%d,\"rss_kib\":{\"before\":%ld,\"idle\":%ld,\"during_max\":%ld,\"during_mean\":%.0f,\"end\":%ld},"
                   "\"rss_kib_per_client\":{\"idle\":%.3f,\"during\":%.3f},\"server_cpu_s\":{\"window\":%.3f,\"total\":%.3f},"
                   "\"server_us_per_event\":%.3f,",
                   opt.pid, opt.npids, rss_before, rss_idle, rss_during_max, rss_during_mean, rss_end, kib_idle_pc, kib_during_pc,
                   srv_cpu_window, srv_cpu_total, ev_window ? 1e6 * srv_cpu_window / (double)ev_window : 0.0);
        if (opt.reconnect)
            printf("\"reconnect\":{\"retry_default_ms\":%u,\"lost\":%d,\"reconnected\":%d,\"never_back\":%d,\"down_at_end\":%d,"
                   "\"gave_up\":%d,\"breaks\":%" PRIu64 ",\"reconnects\":%" PRIu64 ",\"resumed\":%" PRIu64 ",\"fresh\":%" PRIu64
                   ",\"other\":%" PRIu64 ",\"no_event\":%" PRIu64 ",\"back_ms\":{\"n\":%zu,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},"
                   "\"attempts\":%" PRIu64 ",\"failed_attempts\":{\"connect\":%" PRIu64 ",\"timeout\":%" PRIu64 ",\"closed\":%" PRIu64
                   "},\"ends\":{\"eof\":%" PRIu64 ",\"reset\":%" PRIu64 ",\"ended\":%" PRIu64 ",\"bad_framing\":%" PRIu64
                   "},\"ids_truncated\":%" PRIu64 "},",
                   RC_DEFAULT_RETRY_MS, rc_lost, rc_reconnected, rc_lost - rc_reconnected, rc_down, rc_gaveup, rc_breaks, rc_backs,
                   rc_resumed, rc_fresh, rc_other, rc_no_event, rc_back_t.n, MS(pct(&rc_back_t, 50)), MS(pct(&rc_back_t, 99)),
                   rc_back_t.n ? MS(rc_back_t.v[rc_back_t.n - 1]) : 0.0, rc_attempts, rc_fail_connect, rc_fail_timeout,
                   rc_fail_closed, rc_end_by[DROP_EOF], rc_end_by[DROP_RESET], rc_end_by[DROP_END], rc_end_by[DROP_PROTOCOL],
                   rc_long_ids);
        printf("\"machine_busy_pct\":%.1f,\"softirq_cores\":%.3f,\"other_cores\":%.3f,", machine_busy_pct, irq_cores, other_cores);
        printf("\"events_per_s\":%.1f,\"self_cpu_s\":{\"window\":%.3f,\"total\":%.3f},\"self_us_per_event\":%.3f,\"reads\":%" PRIu64 ","
               "\"ok\":%s}\n",
               ev_rate, self_cpu_window, self_cpu_total, ev_window ? 1e6 * self_cpu_window / (double)ev_window : 0.0, reads,
               success ? "true" : "false");
    }
    fflush(stdout);
    return success ? 0 : 1;
}

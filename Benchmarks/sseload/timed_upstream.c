/*
 * timed_upstream — a timed test upstream in feedweb's document protocol.
 *
 * Serves `/stream` on 127.0.0.1 as Server-Sent Events: first `event: data` with an
 * NYT-Times-Newswire-shaped JSON document (~30 KB: status, num_results, sent_ns, seq,
 * results[20 stories]), then `--rate R` times per second an `event: patch` (RFC 6902)
 * that replaces `/sent_ns` with CLOCK_REALTIME nanoseconds taken just before the write,
 * replaces `/seq` with the message number, bumps `/num_results`, and now and then adds or
 * removes a story or edits one. Every event has an `id:` (the seq). Any number of
 * subscribers, each getting the current document on (re)connect; HTTP/1.1 requests get
 * chunked bodies, HTTP/1.0 close-delimited ones.
 *
 * `--publish-to http://HOST:PORT/pub?id=CH` POSTs the same messages (the data payload,
 * with `X-EventSource-Event: data|patch`) to a publisher endpoint such as nginx + nchan
 * instead of serving them.
 *
 * `--append` serves append mode instead (as Wikimedia EventStreams does): no document,
 * each message one `event: message` item stamped with its send time.
 *
 * For long runs against an unreliable source (Benchmarks/soak.sh): `--drop-every S` cuts
 * every subscriber's connection every S seconds (no final chunk, as a network failure
 * would), and `--fail-every N` answers every Nth request for /stream with a 500.
 *
 * The message sequence (everything but sent_ns) is a pure function of `--seed`.
 * The process stops by itself after `--duration` seconds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
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
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_STORIES 64
#define REQ_MAX 16384
#define OUTQ_LIMIT (64u * 1024 * 1024)

static struct {
    char listen_host[64];
    int listen_port;
    double rate;
    double duration;
    double quiet_start;
    long count;
    uint64_t seed;
    int stories;
    int story_pct; /* percent of messages that add/remove a story */
    int edit_pct;  /* percent of messages that edit a story */
    double heartbeat;
    double drop_every;
    long fail_every;
    const char *publish_to;
    bool verbose;
    bool no_chunked;
    bool append;
} opt = {
    .listen_host = "127.0.0.1",
    .listen_port = 0,
    .rate = 10,
    .duration = 60,
    .quiet_start = 0,
    .count = -1,
    .seed = 1,
    .stories = 20,
    .story_pct = 10,
    .edit_pct = 15,
    .heartbeat = 10,
    .drop_every = 0,
    .fail_every = 0,
};

static volatile sig_atomic_t g_stop = 0;
static void on_signal(int s)
{
    (void)s;
    g_stop = 1;
}

static int64_t now_real_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
static int64_t now_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void logf_(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "timed_upstream: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ------------------------------------------------------------------ growable buffer */

typedef struct {
    char *p;
    size_t len, cap;
} buf_t;

static void buf_reserve(buf_t *b, size_t extra)
{
    if (b->len + extra <= b->cap) return;
    size_t nc = b->cap ? b->cap : 1024;
    while (nc < b->len + extra) nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) {
        logf_("out of memory");
        exit(1);
    }
    b->p = np;
    b->cap = nc;
}
static void buf_add(buf_t *b, const void *p, size_t n)
{
    buf_reserve(b, n + 1);
    memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = 0;
}
static void buf_str(buf_t *b, const char *s) { buf_add(b, s, strlen(s)); }
static void buf_fmt(buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        buf_add(b, tmp, (size_t)n);
        return;
    }
    buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
/* a JSON string literal */
static void buf_jstr(buf_t *b, const char *s)
{
    buf_add(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            buf_add(b, e, 2);
        } else if (*p < 0x20) {
            buf_fmt(b, "\\u%04x", *p);
        } else {
            buf_add(b, p, 1);
        }
    }
    buf_add(b, "\"", 1);
}

/* ------------------------------------------------------------------ deterministic content */

static uint64_t g_rng;
static uint64_t rnd(void)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }

static const char *SECTIONS[][4] = {
    {"U.S.", "Politics", "us/politics", "Washington"},
    {"World", "Europe", "world/europe", "Foreign"},
    {"World", "Asia Pacific", "world/asia", "Foreign"},
    {"Business", "DealBook", "business/dealbook", "Business"},
    {"Technology", "", "technology", "Business"},
    {"Science", "", "science", "Science"},
    {"Health", "", "health", "Science"},
    {"Arts", "Music", "arts/music", "Culture"},
    {"Sports", "Baseball", "sports/baseball", "Sports"},
    {"Opinion", "", "opinion", "OpEd"},
    {"New York", "", "nyregion", "Metro"},
    {"Climate", "", "climate", "Climate"},
};
#define NSECTIONS (int)(sizeof SECTIONS / sizeof SECTIONS[0])

static const char *WORDS[] = {
    "senate",   "budget",   "storm",    "election", "market",  "court",    "vaccine", "harbor",   "council", "orchestra",
    "league",   "drought",  "tariff",   "museum",   "startup", "satellite", "border",  "festival", "bridge",  "subway",
    "governor", "coalition", "reactor", "glacier",  "archive", "merger",   "verdict", "protest",  "harvest", "forecast",
    "campaign", "treaty",   "pipeline", "hospital", "refinery", "stadium", "library", "embassy",  "bakery",  "wildfire",
    "quarter",  "inquiry",  "ceasefire", "summit",  "playoff", "premiere", "startle", "pension",  "rally",   "ferry",
};
#define NWORDS (int)(sizeof WORDS / sizeof WORDS[0])
static const char *VERBS[] = {"Weighs", "Rejects", "Backs",   "Delays",  "Expands", "Faces",  "Wins",
                              "Loses",  "Plans",   "Revives", "Targets", "Limits",  "Warns",  "Opens"};
#define NVERBS (int)(sizeof VERBS / sizeof VERBS[0])
static const char *FIRST[] = {"Maria", "James", "Aisha", "Kenji",   "Lucia",  "Tomas", "Grace",
                              "Omar",  "Elena", "Peter", "Sofia",   "Daniel", "Nadia", "Victor"};
static const char *LAST[] = {"Alvarez", "Brennan", "Chen",    "Dubois",  "Eriksen", "Fischer", "Gupta",
                             "Haddad",  "Ibsen",   "Jovanovic", "Kowalski", "Larsen", "Moreau", "Nakamura"};
#define NNAMES 14

typedef struct {
    char json[4096]; /* the story serialized */
    size_t json_len;
    char uri[64];
    char title[256];
    char abstract[640];
    char updated[32];
    int id;
    int sec;
    int edits;
} story_t;

static story_t g_story[MAX_STORIES];
static int g_nstories;
static int g_story_serial;
static int64_t g_seq;        /* number of the last message */
static int64_t g_num_results;
static int64_t g_sent_ns;    /* sent_ns of the last patch (0 before any) */
static char *g_doc;          /* cached serialization of the document */
static size_t g_doc_len;
static bool g_doc_dirty = true;

/* a fixed timeline: 2024-11-22T06:00:00-05:00 + offset seconds */
static void fmt_date(char *out, size_t n, long offset)
{
    time_t t = 1732273200 + offset; /* 2024-11-22T11:00:00Z */
    t -= 5 * 3600;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%dT%H:%M:%S-05:00", &tm);
}

static void words(char *out, size_t n, int count, bool cap_first)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < count && len + 16 < n; i++) {
        const char *w = WORDS[rndn(NWORDS)];
        int k = snprintf(out + len, n - len, "%s%c%s", i ? " " : "", (cap_first && i == 0) ? w[0] - 32 : w[0], w + 1);
        if (k < 0) break;
        len += (size_t)k;
    }
}

static void story_serialize(story_t *s, const char *slug, const char *byline, const char *created, const char *facets)
{
    buf_t b = {0};
    const char *const *sec = SECTIONS[s->sec];
    buf_str(&b, "{\"slug_name\":");
    buf_jstr(&b, slug);
    buf_str(&b, ",\"section\":");
    buf_jstr(&b, sec[0]);
    buf_str(&b, ",\"subsection\":");
    buf_jstr(&b, sec[1]);
    buf_str(&b, ",\"title\":");
    buf_jstr(&b, s->title);
    buf_str(&b, ",\"abstract\":");
    buf_jstr(&b, s->abstract);
    buf_fmt(&b, ",\"uri\":\"%s\",\"url\":\"https://www.nytimes.com/2024/11/22/%s/%s.html\"", s->uri, sec[2], slug);
    buf_str(&b, ",\"byline\":");
    buf_jstr(&b, byline);
    buf_fmt(&b,
            ",\"item_type\":\"Article\",\"source\":\"New York Times\",\"updated_date\":\"%s\",\"created_date\":\"%s\","
            "\"published_date\":\"%s\",\"first_published_date\":\"%s\",\"material_type_facet\":\"News\",\"kicker\":\"\","
            "\"subheadline\":\"\",%s,\"related_urls\":null,\"multimedia\":[",
            s->updated, created, created, created, facets);
    static const struct {
        const char *fmt, *suffix;
        int w, h;
    } MM[] = {{"Standard Thumbnail", "thumbStandard", 75, 75},
              {"mediumThreeByTwo210", "mediumThreeByTwo210", 210, 140},
              {"mediumThreeByTwo440", "mediumThreeByTwo440", 440, 293}};
    for (int i = 0; i < 3; i++) {
        buf_fmt(&b,
                "%s{\"url\":\"https://static01.nyt.com/images/2024/11/22/%s/22%s/22%s-%s.jpg\",\"format\":\"%s\","
                "\"height\":%d,\"width\":%d,\"type\":\"image\",\"subtype\":\"photo\",\"caption\":",
                i ? "," : "", sec[2], slug, slug, MM[i].suffix, MM[i].fmt, MM[i].h, MM[i].w);
        buf_jstr(&b, s->title);
        buf_fmt(&b, ",\"copyright\":\"%s %s for The New York Times\"}", FIRST[(s->id + i) % NNAMES], LAST[(s->id * 7 + i) % NNAMES]);
    }
    buf_str(&b, "]}");
    if (b.len >= sizeof s->json) {
        logf_("story too large");
        exit(1);
    }
    memcpy(s->json, b.p, b.len + 1);
    s->json_len = b.len;
    free(b.p);
}

/* per-story values that never change, regenerated from the story id (no RNG use) */
static void story_fixed(const story_t *s, char *slug, size_t ns, char *byline, size_t nb, char *created, size_t nc, char *facets,
                        size_t nf)
{
    snprintf(slug, ns, "%s-%s-%d", WORDS[s->id % NWORDS], WORDS[(s->id * 13 + 5) % NWORDS], s->id);
    snprintf(byline, nb, "By %s %s and %s %s", FIRST[s->id % NNAMES], LAST[(s->id * 3) % NNAMES], FIRST[(s->id * 5 + 1) % NNAMES],
             LAST[(s->id * 11 + 2) % NNAMES]);
    fmt_date(created, nc, (long)s->id * 37);
    snprintf(facets, nf,
             "\"des_facet\":[\"%c%s\",\"%c%s\"],\"org_facet\":\"\",\"per_facet\":[\"%s, %s\"],\"geo_facet\":\"\"",
             WORDS[(s->id * 3) % NWORDS][0] - 32, WORDS[(s->id * 3) % NWORDS] + 1, WORDS[(s->id * 17 + 1) % NWORDS][0] - 32,
             WORDS[(s->id * 17 + 1) % NWORDS] + 1, LAST[(s->id * 5) % NNAMES], FIRST[(s->id * 9) % NNAMES]);
}

static void story_render(story_t *s)
{
    char slug[96], byline[128], created[32], facets[256];
    story_fixed(s, slug, sizeof slug, byline, sizeof byline, created, sizeof created, facets, sizeof facets);
    story_serialize(s, slug, byline, created, facets);
}

static void story_new(story_t *s)
{
    memset(s, 0, sizeof *s);
    s->id = ++g_story_serial;
    s->sec = rndn(NSECTIONS);
    uint64_t u1 = rnd(), u2 = rnd();
    snprintf(s->uri, sizeof s->uri, "nyt://article/%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%012" PRIx64,
             u1 >> 32, (u1 >> 16) & 0xffff, u1 & 0xffff, u2 >> 48, u2 & (uint64_t)0xffffffffffffULL);
    char w[160];
    words(w, sizeof w, 3 + rndn(3), false);
    snprintf(s->title, sizeof s->title, "%c%s %s %s", w[0] - 32, w + 1, VERBS[rndn(NVERBS)], WORDS[rndn(NWORDS)]);
    char a1[300], a2[300];
    words(a1, sizeof a1, 6 + rndn(6), true);
    words(a2, sizeof a2, 3 + rndn(5), true);
    snprintf(s->abstract, sizeof s->abstract, "%s. %s, officials said on Friday.", a1, a2);
    fmt_date(s->updated, sizeof s->updated, (long)s->id * 37);
    story_render(s);
}

static void doc_render(void)
{
    if (!g_doc_dirty) return;
    buf_t b = {0};
    buf_fmt(&b,
            "{\"status\":\"OK\",\"copyright\":\"Copyright (c) 2024 The New York Times Company.  All Rights Reserved.\","
            "\"num_results\":%" PRId64 ",\"sent_ns\":%" PRId64 ",\"seq\":%" PRId64 ",\"results\":[",
            g_num_results, g_sent_ns, g_seq);
    for (int i = 0; i < g_nstories; i++) {
        if (i) buf_add(&b, ",", 1);
        buf_add(&b, g_story[i].json, g_story[i].json_len);
    }
    buf_str(&b, "]}");
    free(g_doc);
    g_doc = b.p;
    g_doc_len = b.len;
    g_doc_dirty = false;
}

static void model_init(void)
{
    g_rng = opt.seed * 0x2545F4914F6CDD1DULL + 1;
    g_nstories = 0;
    for (int i = 0; i < opt.stories; i++) story_new(&g_story[g_nstories++]);
    g_num_results = 1000;
    g_seq = 0;
    g_sent_ns = 0;
    g_doc_dirty = true;
}

/*
 * Builds the next message's patch JSON into *out and applies it to the model. The sent_ns
 * value is 19 '0's at *sent_off (patched in just before the write).
 */
static void next_patch(buf_t *out, size_t *sent_off)
{
    out->len = 0;
    g_seq++;
    g_num_results++;
    buf_str(out, "[{\"op\":\"replace\",\"path\":\"/sent_ns\",\"value\":");
    *sent_off = out->len;
    buf_str(out, "0000000000000000000");
    buf_fmt(out, "},{\"op\":\"replace\",\"path\":\"/seq\",\"value\":%" PRId64 "}", g_seq);
    buf_fmt(out, ",{\"op\":\"replace\",\"path\":\"/num_results\",\"value\":%" PRId64 "}", g_num_results);
    int r = rndn(100);
    if (r < opt.story_pct) {
        /* add a story at the top and/or remove the oldest, keeping the count near --stories */
        int lo = opt.stories - 2 < 1 ? 1 : opt.stories - 2, hi = opt.stories + 2;
        int what = rndn(4); /* 0,1: add+remove; 2: add; 3: remove */
        if (g_nstories <= lo) what = 2;
        if (g_nstories >= hi || g_nstories >= MAX_STORIES) what = what == 2 ? 0 : what;
        bool add = what != 3, remove = what != 2;
        if (g_nstories >= hi || g_nstories >= MAX_STORIES) remove = true;
        if (remove) {
            buf_fmt(out, ",{\"op\":\"remove\",\"path\":\"/results/%d\"}", g_nstories - 1);
            g_nstories--;
        }
        if (add) {
            memmove(&g_story[1], &g_story[0], sizeof g_story[0] * (size_t)g_nstories);
            story_new(&g_story[0]);
            g_nstories++;
            buf_str(out, ",{\"op\":\"add\",\"path\":\"/results/0\",\"value\":");
            buf_add(out, g_story[0].json, g_story[0].json_len);
            buf_str(out, "}");
        }
    } else if (r < opt.story_pct + opt.edit_pct && g_nstories > 0) {
        int i = rndn(g_nstories);
        story_t *s = &g_story[i];
        s->edits++;
        fmt_date(s->updated, sizeof s->updated, (long)s->id * 37 + 60L * s->edits);
        buf_fmt(out, ",{\"op\":\"replace\",\"path\":\"/results/%d/updated_date\",\"value\":\"%s\"}", i, s->updated);
        if (rndn(2)) {
            char w[64];
            words(w, sizeof w, 1, false);
            char *sp = strrchr(s->title, ' ');
            if (sp && (size_t)(sp - s->title) + strlen(w) + 2 < sizeof s->title) snprintf(sp + 1, sizeof s->title - (size_t)(sp + 1 - s->title), "%s", w);
            buf_str(out, ",{\"op\":\"replace\",\"path\":\"/results/");
            buf_fmt(out, "%d/title\",\"value\":", i);
            buf_jstr(out, s->title);
            buf_str(out, "}");
        }
        story_render(s);
    }
    buf_str(out, "]");
    g_doc_dirty = true;
}

/*
 * Append mode: the next message is one Wikimedia EventStreams `recentchange`-shaped item
 * (~1.2 KB, `meta.id` unique). Its send stamp appears twice, both as 19 '0's to patch in
 * just before the write: the number `sent_ns` and the text `sent_ns=…` at the end of the
 * title, so a client that only sees the rendered title (a page stream) can time it too.
 * The offsets of both in *out are returned in stamp_off[0..1].
 */
static void next_item(buf_t *out, size_t stamp_off[2])
{
    static const char *TYPES[] = {"edit", "new", "log", "categorize"};
    static const char *WIKIS[] = {"enwiki", "dewiki", "frwiki", "commonswiki", "wikidatawiki"};
    int64_t n = ++g_seq;
    const char *type = TYPES[rndn(4)], *wiki = WIKIS[rndn(5)];
    char pad1[201], pad2[301];
    memset(pad1, 'x', 200);
    pad1[200] = 0;
    memset(pad2, 'y', 300);
    pad2[300] = 0;
    buf_fmt(out,
            "{\"$schema\":\"/mediawiki/recentchange/1.0.0\",\"meta\":{\"uri\":\"https://en.wikipedia.org/wiki/Page_%" PRId64
            "\",\"request_id\":\"%032" PRIx64 "\",\"id\":\"%08" PRIx64 "-0000-4000-8000-%012" PRIx64
            "\",\"dt\":\"2026-11-24T03:00:00Z\",\"domain\":\"en.wikipedia.org\",\"stream\":\"mediawiki.recentchange\","
            "\"topic\":\"eqiad.mediawiki.recentchange\",\"partition\":0,\"offset\":%" PRId64 "},",
            n, (uint64_t)n, (uint64_t)n, (uint64_t)n, n);
    buf_fmt(out, "\"id\":%" PRId64 ",\"seq\":%" PRId64 ",\"type\":\"%s\",\"namespace\":0,\"title\":\"Page %" PRId64
            " about something sent_ns=", n, n, type, n);
    stamp_off[0] = out->len;
    buf_str(out, "0000000000000000000");
    buf_fmt(out, "\",\"title_url\":\"https://en.wikipedia.org/wiki/Page_%" PRId64 "\",\"comment\":\"%s\",", n, pad1);
    buf_fmt(out, "\"timestamp\":%" PRId64 ",\"user\":\"User%" PRId64 "\",\"bot\":false,\"minor\":false,\"patrolled\":true,"
            "\"length\":{\"old\":1234,\"new\":1300},\"revision\":{\"old\":%" PRId64 ",\"new\":%" PRId64 "},",
            1700000000 + n, n % 97, n, n + 1);
    buf_fmt(out, "\"server_url\":\"https://en.wikipedia.org\",\"server_name\":\"en.wikipedia.org\","
            "\"server_script_path\":\"/w\",\"wiki\":\"%s\",\"parsedcomment\":\"%s\",\"sent_ns\":", wiki, pad2);
    stamp_off[1] = out->len;
    buf_str(out, "0000000000000000000}");
}

static void write_digits19(char *p, int64_t v)
{
    for (int i = 18; i >= 0; i--) {
        p[i] = (char)('0' + v % 10);
        v /= 10;
    }
}

/* ------------------------------------------------------------------ server mode */

enum { C_REQ = 0, C_SSE, C_CLOSING, C_DEAD };
typedef struct conn {
    int fd;
    int state;
    bool chunked;
    char *req;
    size_t req_len;
    buf_t outq;
    size_t out_off;
    bool want_out;
    struct conn *next, *prev; /* subscriber list; the graveyard once dead */
    uint64_t bytes;
} conn_t;

static int g_ep;
static conn_t *g_subs;
static int g_nsubs;
static conn_t *g_dead; /* closed during an epoll batch; freed after it */
static uint64_t g_total_subscribes, g_dropped_slow, g_bytes_out, g_stream_requests, g_failed, g_drops;

static void reap_dead(void)
{
    while (g_dead) {
        conn_t *c = g_dead;
        g_dead = c->next;
        free(c);
    }
}

static void conn_close(conn_t *c)
{
    if (c->state == C_DEAD) return;
    if (c->state == C_SSE) {
        if (c->prev) c->prev->next = c->next;
        else g_subs = c->next;
        if (c->next) c->next->prev = c->prev;
        g_nsubs--;
        if (opt.verbose) logf_("subscriber left (%d now)", g_nsubs);
    }
    epoll_ctl(g_ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    free(c->req);
    c->req = NULL;
    free(c->outq.p);
    c->outq.p = NULL;
    c->state = C_DEAD;
    c->next = g_dead;
    g_dead = c;
}

static void conn_set_out(conn_t *c, bool want)
{
    if (c->want_out == want) return;
    c->want_out = want;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(g_ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* returns false when the connection was closed */
static bool conn_flush(conn_t *c)
{
    while (c->out_off < c->outq.len) {
        ssize_t k = send(c->fd, c->outq.p + c->out_off, c->outq.len - c->out_off, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            conn_close(c);
            return false;
        }
        c->out_off += (size_t)k;
        g_bytes_out += (uint64_t)k;
    }
    if (c->out_off == c->outq.len) {
        c->outq.len = c->out_off = 0;
        if (c->outq.cap > 65536) {
            free(c->outq.p);
            c->outq.p = NULL;
            c->outq.cap = 0;
        }
        conn_set_out(c, false);
        if (c->state == C_CLOSING) {
            conn_close(c);
            return false;
        }
    } else {
        conn_set_out(c, true);
    }
    return true;
}

/* queues bytes; sends at once when nothing is queued. false when the conn was closed. */
static bool conn_send(conn_t *c, const char *p, size_t n)
{
    if (c->outq.len == c->out_off) {
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno != EAGAIN && errno != EINTR) {
                conn_close(c);
                return false;
            }
            k = 0;
        }
        g_bytes_out += (uint64_t)k;
        c->bytes += (uint64_t)k;
        if ((size_t)k == n) return true;
        p += k;
        n -= (size_t)k;
    }
    if (c->outq.len - c->out_off + n > OUTQ_LIMIT) {
        logf_("dropping a subscriber that does not read (%zu bytes queued)", c->outq.len - c->out_off);
        g_dropped_slow++;
        conn_close(c);
        return false;
    }
    buf_add(&c->outq, p, n);
    conn_set_out(c, true);
    return true;
}

/* sends one SSE event (text without framing) to a subscriber in its framing */
static bool send_event(conn_t *c, const char *ev, size_t n)
{
    if (!c->chunked) return conn_send(c, ev, n);
    char head[32];
    int hl = snprintf(head, sizeof head, "%zx\r\n", n);
    buf_t tmp = {0};
    buf_add(&tmp, head, (size_t)hl);
    buf_add(&tmp, ev, n);
    buf_add(&tmp, "\r\n", 2);
    bool ok = conn_send(c, tmp.p, tmp.len);
    free(tmp.p);
    return ok;
}

static void respond_simple(conn_t *c, int code, const char *reason, const char *body)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", code,
                     reason, strlen(body));
    c->state = C_CLOSING;
    if (conn_send(c, head, (size_t)n) && conn_send(c, body, strlen(body))) conn_flush(c);
}

static void handle_request(conn_t *c)
{
    /* request line: METHOD SP TARGET SP HTTP/1.x */
    char method[16] = "", target[1024] = "", version[16] = "";
    if (sscanf(c->req, "%15s %1023s %15s", method, target, version) != 3) {
        respond_simple(c, 400, "Bad Request", "bad request\n");
        return;
    }
    char *q = strchr(target, '?');
    if (q) *q = 0;
    if (strcmp(method, "GET") != 0) {
        respond_simple(c, 405, "Method Not Allowed", "GET only\n");
        return;
    }
    if (strcmp(target, "/healthz") == 0) {
        respond_simple(c, 200, "OK", "ok\n");
        return;
    }
    if (strcmp(target, "/stream") != 0) {
        respond_simple(c, 404, "Not Found", "try /stream\n");
        return;
    }
    g_stream_requests++;
    if (opt.fail_every > 0 && g_stream_requests % (uint64_t)opt.fail_every == 0) {
        g_failed++;
        respond_simple(c, 500, "Internal Server Error", "failing on purpose (--fail-every)\n");
        return;
    }
    bool http11 = strcmp(version, "HTTP/1.1") == 0;
    c->chunked = http11 && !opt.no_chunked;
    free(c->req);
    c->req = NULL;
    c->state = C_SSE;
    c->next = g_subs;
    c->prev = NULL;
    if (g_subs) g_subs->prev = c;
    g_subs = c;
    g_nsubs++;
    g_total_subscribes++;
    if (opt.verbose) logf_("subscriber joined (%d now)", g_nsubs);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n%s\r\n",
                     c->chunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n");
    if (!conn_send(c, head, (size_t)n)) return;
    if (opt.append) { /* no document: items only, from now on */
        send_event(c, "retry: 1000\n\n", 13);
        return;
    }
    doc_render();
    buf_t ev = {0};
    buf_fmt(&ev, "retry: 1000\nid: %" PRId64 "\nevent: data\ndata: ", g_seq);
    buf_add(&ev, g_doc, g_doc_len);
    buf_str(&ev, "\n\n");
    send_event(c, ev.p, ev.len);
    free(ev.p);
}

static void on_conn_event(conn_t *c, uint32_t events)
{
    if (c->state == C_DEAD) return;
    if (events & EPOLLOUT) {
        if (!conn_flush(c)) return;
    }
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
        char tmp[4096];
        ssize_t k = read(c->fd, tmp, sizeof tmp);
        if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) {
            conn_close(c);
            return;
        }
        if (k < 0) return;
        if (c->state != C_REQ) return; /* bytes after the request: ignored */
        if (!c->req) c->req = malloc(REQ_MAX + 1);
        size_t room = REQ_MAX - c->req_len;
        if ((size_t)k > room) {
            respond_simple(c, 431, "Request Header Fields Too Large", "too large\n");
            return;
        }
        memcpy(c->req + c->req_len, tmp, (size_t)k);
        c->req_len += (size_t)k;
        c->req[c->req_len] = 0;
        if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n")) handle_request(c);
    }
}

/* one message to every subscriber; returns the number of subscribers written to */
static int fan_out(const char *ev, size_t n)
{
    /* build the chunked framing once */
    static buf_t framed;
    framed.len = 0;
    buf_fmt(&framed, "%zx\r\n", n);
    size_t hdr = framed.len;
    buf_add(&framed, ev, n);
    buf_add(&framed, "\r\n", 2);
    (void)hdr;
    int k = 0;
    for (conn_t *c = g_subs, *nx; c; c = nx) {
        nx = c->next;
        if (c->chunked) conn_send(c, framed.p, framed.len);
        else conn_send(c, framed.p + hdr, n);
        k++;
    }
    return k;
}

static int run_server(void)
{
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.listen_port)};
    if (inet_pton(AF_INET, opt.listen_host, &a.sin_addr) != 1) {
        logf_("--listen: need an IPv4 address");
        return 2;
    }
    if (bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, 4096) < 0) {
        logf_("cannot listen on %s:%d: %s", opt.listen_host, opt.listen_port, strerror(errno));
        return 1;
    }
    socklen_t al = sizeof a;
    getsockname(lfd, (struct sockaddr *)&a, &al);
    printf("timed_upstream listening on http://%s:%d/stream\n", opt.listen_host, ntohs(a.sin_port));
    fflush(stdout);

    g_ep = epoll_create1(EPOLL_CLOEXEC);
    static int listen_tag, timer_tag;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &listen_tag};
    epoll_ctl(g_ep, EPOLL_CTL_ADD, lfd, &ev);
    int tfd = -1;
    int64_t interval = 0;
    int64_t t_start = now_mono_ns();
    int64_t first_tick = 0;
    if (opt.rate > 0) {
        interval = (int64_t)(1e9 / opt.rate);
        tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        first_tick = t_start + (int64_t)(opt.quiet_start * 1e9) + interval;
        struct itimerspec its = {.it_value = {first_tick / 1000000000LL, first_tick % 1000000000LL},
                                 .it_interval = {interval / 1000000000LL, interval % 1000000000LL}};
        timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
        struct epoll_event tev = {.events = EPOLLIN, .data.ptr = &timer_tag};
        epoll_ctl(g_ep, EPOLL_CTL_ADD, tfd, &tev);
    }
    int64_t deadline = t_start + (int64_t)(opt.duration * 1e9);
    int64_t next_hb = opt.heartbeat > 0 ? t_start + (int64_t)(opt.heartbeat * 1e9) : INT64_MAX;
    int64_t next_drop = opt.drop_every > 0 ? t_start + (int64_t)(opt.drop_every * 1e9) : INT64_MAX;
    buf_t patch = {0}, sse = {0};
    uint64_t ticks = 0, late_ticks = 0;
    int64_t max_late = 0, sum_late = 0;
    struct epoll_event evs[256];
    while (!g_stop) {
        int64_t now = now_mono_ns();
        if (now >= deadline) break;
        int64_t wait_ns = deadline - now;
        if (next_hb - now < wait_ns) wait_ns = next_hb - now;
        if (next_drop - now < wait_ns) wait_ns = next_drop - now;
        int tmo = (int)(wait_ns / 1000000) + 1;
        if (tmo > 200) tmo = 200;
        int n = epoll_wait(g_ep, evs, 256, tmo);
        for (int i = 0; i < n; i++) {
            void *p = evs[i].data.ptr;
            if (p == &listen_tag) {
                for (int k = 0; k < 256; k++) {
                    int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (fd < 0) break;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conn_t *c = calloc(1, sizeof *c);
                    c->fd = fd;
                    struct epoll_event cev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
                    epoll_ctl(g_ep, EPOLL_CTL_ADD, fd, &cev);
                }
            } else if (p == &timer_tag) {
                uint64_t exp = 0;
                if (read(tfd, &exp, sizeof exp) != sizeof exp) continue;
                if (opt.append) {
                    /* every item due now, in writes of up to 256 items, each stamped just
                     * before its write */
                    for (uint64_t done = 0; done < exp;) {
                        sse.len = 0;
                        size_t offs[2 * 256];
                        uint64_t k = 0;
                        for (; done < exp && k < 256; k++, done++) {
                            if (opt.count >= 0 && (long)g_seq >= opt.count) break;
                            ticks++;
                            if (exp > 1) late_ticks++;
                            buf_fmt(&sse, "id: %" PRId64 "\nevent: message\ndata: ", g_seq + 1);
                            size_t item_off[2];
                            next_item(&sse, item_off);
                            offs[2 * k] = item_off[0];
                            offs[2 * k + 1] = item_off[1];
                            buf_str(&sse, "\n\n");
                        }
                        if (k == 0) break;
                        int64_t sched = first_tick + (int64_t)(ticks - 1) * interval;
                        int64_t late = now_mono_ns() - sched;
                        if (late > max_late) max_late = late;
                        sum_late += late;
                        g_sent_ns = now_real_ns();
                        for (uint64_t j = 0; j < 2 * k; j++) write_digits19(sse.p + offs[j], g_sent_ns);
                        fan_out(sse.p, sse.len);
                    }
                    continue;
                }
                for (uint64_t e = 0; e < exp; e++) {
                    if (opt.count >= 0 && (long)g_seq >= opt.count) break;
                    ticks++;
                    size_t sent_off = 0;
                    next_patch(&patch, &sent_off);
                    /* SSE framing around the patch; sent_ns goes in last */
                    sse.len = 0;
                    buf_fmt(&sse, "id: %" PRId64 "\nevent: patch\ndata: ", g_seq);
                    size_t base = sse.len;
                    buf_add(&sse, patch.p, patch.len);
                    buf_str(&sse, "\n\n");
                    char *digits = sse.p + base + sent_off;
                    int64_t sched = first_tick + (int64_t)(ticks - 1) * interval;
                    int64_t late = now_mono_ns() - sched;
                    if (late > max_late) max_late = late;
                    sum_late += late;
                    if (exp > 1) late_ticks++;
                    g_sent_ns = now_real_ns();
                    write_digits19(digits, g_sent_ns);
                    fan_out(sse.p, sse.len);
                }
            } else {
                on_conn_event((conn_t *)p, evs[i].events);
            }
        }
        reap_dead();
        now = now_mono_ns();
        if (now >= next_hb) {
            fan_out(": heartbeat\n\n", 13);
            next_hb = now + (int64_t)(opt.heartbeat * 1e9);
        }
        if (now >= next_drop) {
            /* cut every stream, mid-way, as a failing network would */
            if (g_subs) g_drops++;
            while (g_subs) conn_close(g_subs);
            reap_dead();
            next_drop = now + (int64_t)(opt.drop_every * 1e9);
        }
    }
    /* end every stream cleanly */
    for (conn_t *c = g_subs, *nx; c; c = nx) {
        nx = c->next;
        if (c->chunked) conn_send(c, "0\r\n\r\n", 5);
    }
    while (g_subs) conn_close(g_subs);
    reap_dead();
    logf_("done: %" PRId64 " patches (%" PRIu64 " ticks, %" PRIu64 " late wake-ups, tick lateness max %.3f ms mean %.3f ms), "
          "%" PRIu64 " subscriptions, %" PRIu64 " dropped as slow, %" PRIu64 " bytes out, %" PRIu64 " streams cut, %" PRIu64
          " answered 500",
          g_seq, ticks, late_ticks, max_late / 1e6, ticks ? sum_late / 1e6 / (double)ticks : 0.0, g_total_subscribes,
          g_dropped_slow, g_bytes_out, g_drops, g_failed);
    free(patch.p);
    free(sse.p);
    close(lfd);
    return 0;
}

/* ------------------------------------------------------------------ publish mode */

static struct {
    char host[64];
    int port;
    char path[1024];
    char hostheader[128];
    int fd;
    buf_t in;        /* response bytes not parsed yet */
    long pending;    /* requests written whose response has not arrived */
    uint64_t ok2xx, non2xx, lost;
} pub = {.fd = -1};

static bool pub_connect(void)
{
    if (pub.fd >= 0) return true;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)pub.port)};
    inet_pton(AF_INET, pub.host, &a.sin_addr);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        close(fd);
        return false;
    }
    pub.fd = fd;
    return true;
}

static void pub_disconnect(void)
{
    if (pub.fd >= 0) close(pub.fd);
    pub.fd = -1;
    pub.lost += (uint64_t)pub.pending; /* their responses will never come */
    pub.pending = 0;
    pub.in.len = 0;
}

/* Parses the complete responses at the start of pub.in (pipelined: several may be there).
 * Returns false when the stream cannot be parsed (then the connection is dropped). */
static bool pub_parse_responses(void)
{
    for (;;) {
        if (pub.in.len == 0) return true;
        char *end = memmem(pub.in.p, pub.in.len, "\r\n\r\n", 4);
        if (!end) return true;
        size_t head = (size_t)(end - pub.in.p) + 4;
        if (pub.in.len < 12 || strncmp(pub.in.p, "HTTP/1.", 7) != 0) return false;
        int status = atoi(pub.in.p + 9);
        long clen = 0;
        bool chunked = false;
        for (char *l = strstr(pub.in.p, "\r\n") + 2; l < end;) {
            char *le = strstr(l, "\r\n");
            if (!strncasecmp(l, "Content-Length:", 15)) clen = strtol(l + 15, NULL, 10);
            else if (!strncasecmp(l, "Transfer-Encoding:", 18) && strcasestr(l, "chunked") &&
                     strcasestr(l, "chunked") < le)
                chunked = true;
            l = le + 2;
        }
        size_t total;
        if (chunked) {
            char *z = memmem(pub.in.p + head, pub.in.len - head, "0\r\n\r\n", 5);
            if (!z) return true;
            total = (size_t)(z - pub.in.p) + 5;
        } else {
            total = head + (size_t)clen;
            if (pub.in.len < total) return true;
        }
        if (status / 100 == 2) pub.ok2xx++;
        else if (++pub.non2xx <= 5) logf_("publisher answered %d", status);
        if (pub.pending > 0) pub.pending--;
        memmove(pub.in.p, pub.in.p + total, pub.in.len - total);
        pub.in.len -= total;
    }
}

/* Reads what responses have arrived; with wait_ms > 0 waits up to that long for all of them. */
static void pub_drain(int wait_ms)
{
    int64_t deadline = now_mono_ns() + (int64_t)wait_ms * 1000000;
    while (pub.fd >= 0) {
        char tmp[16384];
        ssize_t k = recv(pub.fd, tmp, sizeof tmp, MSG_DONTWAIT);
        if (k > 0) {
            buf_add(&pub.in, tmp, (size_t)k);
            if (!pub_parse_responses()) {
                logf_("publisher: unparsable response");
                pub_disconnect();
            }
            continue;
        }
        if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            pub_disconnect();
            return;
        }
        if (pub.pending == 0 || wait_ms <= 0) return;
        int64_t left = (deadline - now_mono_ns()) / 1000000;
        if (left <= 0) return;
        struct pollfd pfd = {.fd = pub.fd, .events = POLLIN};
        poll(&pfd, 1, (int)left);
    }
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* Writes one POST on the keep-alive connection without waiting for the answer (HTTP/1.1
 * pipelining), so a publisher endpoint that is slow to answer — nchan answers the publisher
 * only after its worker has sent the message on to the subscribers — does not hold back the
 * next message: every message is written on its tick, sent_ns stamped just before the
 * write, and the time it then waits in the server's socket counts in the latency, as it
 * does for feedweb. Answers are read as they come (pub_drain). */
static bool publish(const char *event, const char *body, size_t n, char *digits)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!pub_connect()) return false;
        char head[1024];
        int hl = snprintf(head, sizeof head,
                          "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: text/plain\r\n"
                          "X-EventSource-Event: %s\r\nContent-Length: %zu\r\n\r\n",
                          pub.path, pub.hostheader, event, n);
        /* one write for head and body */
        buf_t req = {0};
        buf_add(&req, head, (size_t)hl);
        buf_add(&req, body, n);
        if (digits) {
            g_sent_ns = now_real_ns();
            write_digits19(req.p + hl + (size_t)(digits - body), g_sent_ns);
        }
        bool ok = write_all(pub.fd, req.p, req.len);
        free(req.p);
        if (ok) {
            pub.pending++;
            pub_drain(0);
            return true;
        }
        pub_disconnect(); /* stale keep-alive connection: retry once on a fresh one */
    }
    return false;
}

static int run_publisher(void)
{
    const char *u = opt.publish_to;
    if (strncmp(u, "http://", 7) != 0) {
        logf_("--publish-to: need http://HOST:PORT/path");
        return 2;
    }
    const char *h = u + 7, *slash = strchr(h, '/');
    const char *hend = slash ? slash : h + strlen(h);
    const char *colon = memchr(h, ':', (size_t)(hend - h));
    snprintf(pub.host, sizeof pub.host, "%.*s", (int)((colon ? colon : hend) - h), h);
    if (!strcmp(pub.host, "localhost")) snprintf(pub.host, sizeof pub.host, "127.0.0.1");
    pub.port = colon ? atoi(colon + 1) : 80;
    snprintf(pub.path, sizeof pub.path, "%s", slash ? slash : "/");
    snprintf(pub.hostheader, sizeof pub.hostheader, "%.*s", (int)(hend - h), h);
    struct in_addr tmp;
    if (inet_pton(AF_INET, pub.host, &tmp) != 1) {
        logf_("--publish-to: host must be an IPv4 address or localhost");
        return 2;
    }
    printf("timed_upstream publishing to %s\n", u);
    fflush(stdout);

    int64_t t_start = now_mono_ns();
    int64_t deadline = t_start + (int64_t)(opt.duration * 1e9);
    uint64_t errors = 0, late = 0;
    int64_t max_late = 0;
    /* the snapshot first, answered before any patch (retried until it goes through or the
     * time is up) */
    doc_render();
    while (!g_stop && now_mono_ns() < deadline) {
        if (publish("data", g_doc, g_doc_len, NULL)) {
            pub_drain(5000);
            if (pub.ok2xx + pub.non2xx > 0) break;
        }
        errors++;
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
    }
    if (pub.non2xx) logf_("publisher refused the snapshot");
    buf_t patch = {0};
    int64_t interval = opt.rate > 0 ? (int64_t)(1e9 / opt.rate) : 0;
    int64_t next = t_start + (int64_t)(opt.quiet_start * 1e9) + interval;
    while (!g_stop && opt.rate > 0 && (opt.count < 0 || (long)g_seq < opt.count)) {
        if (next >= deadline) break;
        /* sleep until the tick, reading answers meanwhile */
        for (;;) {
            int64_t left = next - now_mono_ns();
            if (left <= 0 || g_stop) break;
            if (pub.fd >= 0 && pub.pending > 0) {
                struct pollfd pfd = {.fd = pub.fd, .events = POLLIN};
                poll(&pfd, 1, (int)((left + 999999) / 1000000));
                pub_drain(0);
            } else {
                struct timespec ts = {next / 1000000000LL, next % 1000000000LL};
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
            }
        }
        if (g_stop) break;
        int64_t l = now_mono_ns() - next;
        if (l > max_late) max_late = l;
        if (l > interval) late++;
        size_t off = 0;
        next_patch(&patch, &off);
        if (!publish("patch", patch.p, patch.len, patch.p + off)) {
            errors++;
            if (errors <= 5) logf_("publish failed: %s", strerror(errno));
        }
        next += interval;
        int64_t now = now_mono_ns();
        if (next < now - interval) next = now; /* far behind: do not burst */
    }
    pub_drain(5000); /* the last answers */
    uint64_t unanswered = pub.lost + (uint64_t)pub.pending;
    pub_disconnect();
    logf_("done: %" PRId64 " patches published (%" PRIu64 " answered 2xx, %" PRIu64 " non-2xx, %" PRIu64
          " unanswered, %" PRIu64 " failed), %" PRIu64 " late, max lateness %.3f ms",
          g_seq, pub.ok2xx, pub.non2xx, unanswered, errors, late, max_late / 1e6);
    free(patch.p);
    free(pub.in.p);
    return errors || pub.non2xx || unanswered ? 1 : 0;
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: timed_upstream [options]\n"
            "  --listen HOST:PORT   serve /stream here (default 127.0.0.1:0 = a free port;\n"
            "                       the chosen URL is printed on stdout)\n"
            "  --rate R             patches per second (default 10; 0 = none)\n"
            "  --duration S         stop after S seconds (default 60); streams end cleanly\n"
            "  --quiet-start S      no patches during the first S seconds (default 0)\n"
            "  --count N            at most N patches\n"
            "  --seed N             the message sequence is a function of this (default 1)\n"
            "  --stories N          stories in the document (default 20, ~30 KB)\n"
            "  --story-pct P        percent of patches that add/remove a story (default 10)\n"
            "  --edit-pct P         percent of patches that edit a story (default 15)\n"
            "  --heartbeat S        comment line every S seconds (default 10; 0 = off)\n"
            "  --drop-every S       cut every subscriber's connection every S seconds (default 0 = never)\n"
            "  --fail-every N       answer every Nth /stream request with 500 (default 0 = never)\n"
            "  --no-chunked         close-delimited bodies even for HTTP/1.1\n"
            "  --append             append mode: no document; each message is `event: message`\n"
            "                       with one ~1.2 KB Wikimedia recentchange-shaped item whose\n"
            "                       `sent_ns` and title suffix `sent_ns=N` carry the send stamp\n"
            "  --publish-to URL     POST each message to URL (e.g. nchan's\n"
            "                       http://127.0.0.1:PORT/pub?id=CH) instead of serving\n"
            "  --dump N             print the snapshot and the first N patches, then exit\n"
            "  --verbose            log subscribers joining and leaving\n");
}

int main(int argc, char **argv)
{
    long dump = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--verbose")) {
            opt.verbose = true;
            continue;
        }
        if (!strcmp(a, "--append")) {
            opt.append = true;
            continue;
        }
        if (!strcmp(a, "--no-chunked")) {
            opt.no_chunked = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "timed_upstream: unknown option or missing value: %s (see --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        char *end;
        double d = strtod(v, &end);
        bool num = *v && !*end && d >= 0;
        if (!strcmp(a, "--listen")) {
            const char *c = strrchr(v, ':');
            if (!c || (size_t)(c - v) >= sizeof opt.listen_host) {
                fprintf(stderr, "timed_upstream: --listen: need HOST:PORT\n");
                return 2;
            }
            snprintf(opt.listen_host, sizeof opt.listen_host, "%.*s", (int)(c - v), v);
            opt.listen_port = atoi(c + 1);
            continue;
        }
        if (!strcmp(a, "--publish-to")) {
            opt.publish_to = v;
            continue;
        }
        if (!num) {
            fprintf(stderr, "timed_upstream: %s: bad value '%s'\n", a, v);
            return 2;
        }
        if (!strcmp(a, "--rate")) opt.rate = d;
        else if (!strcmp(a, "--duration")) opt.duration = d;
        else if (!strcmp(a, "--quiet-start")) opt.quiet_start = d;
        else if (!strcmp(a, "--count")) opt.count = (long)d;
        else if (!strcmp(a, "--seed")) opt.seed = (uint64_t)d;
        else if (!strcmp(a, "--stories") && d >= 1 && d <= MAX_STORIES - 4) opt.stories = (int)d;
        else if (!strcmp(a, "--story-pct") && d <= 100) opt.story_pct = (int)d;
        else if (!strcmp(a, "--edit-pct") && d <= 100) opt.edit_pct = (int)d;
        else if (!strcmp(a, "--heartbeat")) opt.heartbeat = d;
        else if (!strcmp(a, "--drop-every")) opt.drop_every = d;
        else if (!strcmp(a, "--fail-every")) opt.fail_every = (long)d;
        else if (!strcmp(a, "--dump")) dump = (long)d;
        else {
            fprintf(stderr, "timed_upstream: unknown option %s or value out of range (see --help)\n", a);
            return 2;
        }
    }
    if (opt.rate > 100000) {
        fprintf(stderr, "timed_upstream: --rate: at most 100000\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    model_init();
    if (dump >= 0) {
        doc_render();
        printf("event: data\ndata: %s\n\n", g_doc);
        buf_t p = {0};
        for (long k = 0; k < dump; k++) {
            size_t off;
            next_patch(&p, &off);
            write_digits19(p.p + off, 1732273200000000000LL + k * 100000000LL); /* a fixed stand-in */
            printf("event: patch\ndata: %s\n\n", p.p);
        }
        free(p.p);
        return 0;
    }
    return opt.publish_to ? run_publisher() : run_server();
}

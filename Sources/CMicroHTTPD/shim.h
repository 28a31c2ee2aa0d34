#ifndef FEEDWEB_CMICROHTTPD_SHIM_H
#define FEEDWEB_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
/* For the server's hang-up watcher and stream senders (epoll sets beside libmicrohttpd's own). */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/tcp.h>
/* The stream senders submit a pass's socket writes in one system call. The kernel's own
   <linux/io_uring.h> first: swift-system's CSystem module includes it, and liburing's copy
   (same include guard) would define the same structures a second, different way. */
#include <linux/io_uring.h>
#include <liburing.h>
/* Stream sender threads name themselves and lower their priority. */
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <errno.h>
#include <unistd.h>
/* The front door sends cached pages from sealed memory files with sendfile(2). */
#include <fcntl.h>
#include <sys/sendfile.h>
#include <linux/memfd.h>
#ifndef F_ADD_SEALS /* glibc declares these only under _GNU_SOURCE; values from <linux/fcntl.h> */
#define F_ADD_SEALS 1033
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#endif

/* Swift cannot call C variadic functions; these inline wrappers give it fixed signatures. */

/** Starts a daemon with every option passed through an MHD_OPTION_ARRAY. */
static inline struct MHD_Daemon *
feedweb_mhd_start(unsigned int flags, uint16_t port,
                  MHD_AccessHandlerCallback handler, void *handler_cls,
                  struct MHD_OptionItem *options)
{
  return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/** The number of connections the daemon currently holds. */
static inline unsigned int
feedweb_mhd_current_connections(struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info =
      MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info == NULL ? 0 : info->num_connections;
}

/** The epoll set of a daemon started with MHD_USE_EPOLL (no thread of its own), or -1. */
static inline int
feedweb_mhd_epoll_fd(struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
  return info == NULL ? -1 : info->epoll_fd;
}

/** Milliseconds until the daemon must run again to time a connection out (0: it has work
    now), or -1 when no connection has a timeout; for epoll_wait. For a daemon without a
    thread of its own. */
static inline int
feedweb_mhd_wait_ms(struct MHD_Daemon *daemon)
{
  MHD_UNSIGNED_LONG_LONG timeout = 0;
  if (MHD_get_timeout(daemon, &timeout) != MHD_YES)
    return -1;
  return timeout < (MHD_UNSIGNED_LONG_LONG) 0x7fffffff ? (int) timeout : 0x7fffffff;
}

/** The size in bytes of the request line and headers of the connection's current request, or 0. */
static inline size_t
feedweb_mhd_request_head_size(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  return info == NULL ? 0 : info->header_size;
}

/** The socket of a connection, or -1. */
static inline int
feedweb_mhd_connection_fd(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

/** The daemon that holds a connection, or NULL. */
static inline struct MHD_Daemon *
feedweb_mhd_connection_daemon(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
  return info == NULL ? NULL : info->daemon;
}

/** The socket context a connection-notification callback stored for the connection, or NULL. */
static inline void *
feedweb_mhd_socket_context(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

/**
 * Percent-decodes `s` in place (libmicrohttpd's unescape callback) like the library's
 * default, except that `%00` becomes DEL (0x7F) instead of a NUL that would silently cut
 * the string short: the router then rejects the request as malformed. Returns the length.
 */
static inline size_t
feedweb_unescape(void *cls, struct MHD_Connection *connection, char *s)
{
  (void) cls;
  (void) connection;
  char *read = s;
  char *write = s;
  while (*read != '\0') {
    if (read[0] == '%' && read[1] != '\0' && read[2] != '\0') {
      int high = read[1], low = read[2], value = 0, ok = 1;
      for (int i = 0; i < 2; i++) {
        int c = i == 0 ? high : low, digit;
        if (c >= '0' && c <= '9') digit = c - '0';
        else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
        else { ok = 0; break; }
        value = value * 16 + digit;
      }
      if (ok) {
        *write++ = value == 0 ? (char) 0x7F : (char) value;
        read += 3;
        continue;
      }
    }
    *write++ = *read++;
  }
  *write = '\0';
  return (size_t) (write - s);
}

/** The address of `feedweb_unescape`, for MHD_OPTION_UNESCAPE_CALLBACK. */
static inline void *
feedweb_unescape_callback(void)
{
  return (void *) &feedweb_unescape;
}

/** Formats a libmicrohttpd log message into `buffer`. */
static inline int
feedweb_format_log(char *buffer, size_t size, const char *format, va_list ap)
{
  return vsnprintf(buffer, size, format, ap);
}

/** Raises the calling thread's niceness by `niceness` above the one it inherited, to at
    most 19 (0: unchanged; raising it needs no privilege), then names it (for top -H and
    perf; at most 15 bytes show). Returns 0, or -1 with errno when the niceness was refused. */
static inline int
feedweb_current_thread_setup(const char *name, int niceness)
{
  int result = 0;
  if (niceness > 0) {
    id_t thread = (id_t)syscall(SYS_gettid);
    errno = 0;
    int inherited = getpriority(PRIO_PROCESS, thread);
    if (inherited == -1 && errno != 0) {
      result = -1;
    } else {
      result = setpriority(PRIO_PROCESS, thread, inherited + niceness > 19 ? 19 : inherited + niceness);
    }
  }
  /* Named last: a thread that shows its name has its niceness. */
  pthread_setname_np(pthread_self(), name);
  return result;
}

/** The CPUs this process may run on (sched_getaffinity(2), which glibc declares only under
    _GNU_SOURCE), or -1. */
static inline int
feedweb_available_cpus(void)
{
  unsigned long mask[64]; /* up to 4,096 CPUs */
  long written = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
  if (written <= 0)
    return -1;
  int count = 0;
  for (long i = 0; i < written / (long) sizeof(unsigned long); i++)
    count += __builtin_popcountl(mask[i]);
  return count;
}

/** A memory file that can be sealed (memfd_create(2), close-on-exec), or -1 with errno. */
static inline int
feedweb_memfd_create(const char *name)
{
  return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

/** Seals a memory file against any further change; 0, or -1 with errno. */
static inline int
feedweb_memfd_seal(int fd)
{
  return fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
}

/** accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC (glibc declares it only under _GNU_SOURCE):
    the new socket, or -1 with errno. */
static inline int
feedweb_accept_nonblocking(int listener, struct sockaddr *address, socklen_t *length)
{
  return (int)syscall(SYS_accept4, listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/** Asks the CPU to start loading the 64-byte cache lines of `address ..< address + lines * 64`
    for a write soon; returns at once and never faults (any address will do). A fan-out
    loop asks for the client some places ahead of the one it works on, so the cache misses
    of several clients overlap instead of coming one after another. */
static inline void
feedweb_prefetch_lines(const void *address, int lines)
{
  for (int line = 0; line < lines; line++)
    __builtin_prefetch((const char *)address + 64 * line, 1, 3);
}

#endif

/* Helpers shared by the two-party benchmarks (sched, sync, ipc): CPU placement, an echo or
 * source peer process that dies with its parent (a peer thread where the port has threads but
 * no processes: an RTOS with pipes and sockets), and a timed ping-pong loop that records
 * per-event latencies. Not a benchmark itself. */
#ifndef TICKMARK_TWOPARTY_H
#define TICKMARK_TWOPARTY_H

#include <stdint.h>

#include "tickmark/bench.h"
#include "tickmark/osal_prim.h"

#define TP_CROSS_PARAM                                                                                    \
    {"cross", "0,1", "0: both parties pinned to one CPU (switch cost); 1: pinned to two CPUs (wake-up latency)"}

/* Choose and pin CPUs: *mine is the CPU the runner put us on, *peer is the same CPU (cross 0)
 * or another one (cross 1). Pins the caller. Returns TM_OK or a tm_skip()/tm_fail() code. */
int tp_place(tm_ctx *ctx, int cross, int *mine, int *peer);

/* Fork a peer pinned to cpu that serves fd (read side rfd, write side wfd) until EOF or a
 * zero-length message: mode TP_ECHO reads a whole message of chunk bytes (0: 1 byte), then
 * writes it back whole, so no channel buffer, however small, can hold both parties in a write;
 * mode TP_SOURCE reads an 8-byte count n and then writes n bytes in chunks of chunk bytes.
 * close_fd lists up to 4 of the parent's descriptors the child must close (-1 = none).
 * Returns the child's pid or -1. */
enum { TP_ECHO = 0, TP_SOURCE = 1 };
tm_os_pid tp_fork_peer(int mode, int rfd, int wfd, int cpu, const int close_fd[4], unsigned chunk);

/* End a peer: close the parent's descriptors (a zero-length message first when dgram is set)
 * and reap the child. */
void tp_stop_peer(tm_os_pid pid, int wfd, int rfd, int dgram);

/* A channel to a peer: TP_PIPE (two pipes) or a TM_SOCK_* kind (one socket pair). */
enum { TP_PIPE = 0 };
typedef struct {
    tm_os_pid pid;
    int wfd, rfd; /* our ends: write to the peer, read from it */
    int dgram;
    int threaded;            /* the peer is a thread (the port has no processes) */
    tm_os_thread thread;
    int peer_r, peer_w;      /* a peer thread's ends, closed once it has ended */
} tp_link;

/* Open the channel and start the peer (mode TP_ECHO or TP_SOURCE) on CPU cpu: a child process,
 * or a thread of this process where the port has no processes (the same loop on the same
 * kind of channel; the instance's info says peer_thread=1). Returns TM_OK or a tm_fail() /
 * tm_skip() code; on failure whatever was opened is closed again. */
int tp_link_open(tm_ctx *ctx, tp_link *l, int kind, int cpu, int mode, unsigned chunk);
void tp_link_close(tp_link *l); /* stop the peer, close, reap; harmless when not open */

/* iters round trips of one byte: write to wfd, read the answer from rfd. Each round trip is
 * timed with tm_ticks() and added to the histogram divided by div. tm_fail() on error. */
void tp_pingpong(tm_ctx *ctx, int wfd, int rfd, uint64_t iters, unsigned div);

/* Write exactly n bytes from buf, in as many writes as the channel takes; 0 on success. */
int tp_write_full(int fd, const void *buf, uint64_t n);

/* The per-event latency figure of a benchmark whose samples time whole batches (no clock read
 * per event inside a sample): TP_EVENTS events, each timed alone with tm_ticks() (two clock
 * reads around it, which the histogram includes and the samples do not), added to the
 * histogram divided by div. event() returns 0, or -1 on failure. Returns 0 or -1. */
#define TP_EVENTS 1000
int tp_event_hist(tm_ctx *ctx, int (*event)(void), unsigned div);

/* The timed batch of such a benchmark: iters events one after the other; at the first that
 * fails, tm_fail() with why. Inline, so that the benchmark's event is called directly in the
 * loop, as it would be in a loop of the benchmark's own. */
static inline void tp_events(tm_ctx *ctx, int (*event)(void), uint64_t iters, const char *why)
{
    uint64_t i;
    for (i = 0; i < iters; i++)
        if (event() != 0) {
            tm_fail(ctx, "%s", why);
            return;
        }
}

/* Read exactly n bytes, chunk bytes at most per read, into buf (advance 1) or each read over
 * the start of buf (advance 0, for draining a stream); 0 on success. */
int tp_read_full(int fd, void *buf, uint64_t n, unsigned chunk, int advance);

/* The channel benchmarks (ipc.*_lat, ipc.*_bw, sched.pipe_pingpong) differ only in the kind of
 * channel; these do the rest. Latency: an echo child, round trips of msg bytes each way (the
 * benchmarks without a msg parameter pass 1): we write all msg bytes, the child reads them all
 * and writes them back, we read them all (a datagram channel: one datagram each way, skipped
 * above the largest one the system sends). Bandwidth: a source child asked for iters * msg
 * bytes per batch, read in msg-byte reads. msg: 1 .. 1M for both. */
int tp_lat_setup(tm_ctx *ctx, int kind, int64_t msg);
void tp_lat_run(tm_ctx *ctx, uint64_t iters);
int tp_bw_setup(tm_ctx *ctx, int kind);
void tp_bw_run(tm_ctx *ctx, uint64_t iters);
void tp_channel_teardown(tm_ctx *ctx);
#define TP_MSG_PARAM {"msg", "64K", "message size in bytes (K/M suffixes), up to 1M"}
#define TP_LAT_MSG_PARAM {"msg", "1", "bytes sent each way per round trip (K/M suffixes), up to 1M"}
#define TP_MSG_RANGE "msg=1..1M" /* the tm_bench ranges of the benchmarks with a msg parameter */

#endif

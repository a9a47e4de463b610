// netdelay: a packet delayer for kernels without netem. It takes packets from an NFQUEUE and gives each
// its verdict later: NF_ACCEPT at a per-packet release time (arrival + a delay drawn per packet), NF_DROP
// at once for a lost one. Held packets wait in a min-heap ordered by release time, as netem's tfifo does,
// so with jitter a packet may overtake an earlier one (netem's default); --in-order never releases a packet
// before an earlier one instead.
//
//   netdelay --queue N [--delay-ms D] [--jitter-ms SD] [--loss P] [--seed S] [--max-held M] [--rt PRIO] [--in-order]
//
// The delay is normal(D, SD) cut at 0 (SD 0: constant D); P is a probability (0.01 = 1 %).
// Prints "ready" once bound to the queue. SIGUSR1 prints one JSON line of statistics since the last one
// (packets, drops, how late the releases were) and starts them afresh; SIGTERM/SIGINT release every held
// packet, print the statistics and exit.
//
// Build: gcc -O2 -Wall -o netdelay netdelay.c -lnetfilter_queue -lnfnetlink
#define _GNU_SOURCE
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct held {
  uint64_t release_ns;
  uint64_t seq; // arrival order: equal release times leave in arrival order
  uint32_t id;
};

static struct held *heap;
static size_t held_count, held_max = 65536;
static uint64_t next_seq, last_release_ns;
static struct nfq_q_handle *queue;

static double delay_ns, jitter_ns, loss;
static int in_order;

// Lateness of releases (now − release time) in 10 µs steps up to 100 ms; beyond goes to the last bucket.
#define LATE_BUCKETS 10001
static uint64_t late_hist[LATE_BUCKETS];
static uint64_t late_max_ns;
static uint64_t stat_packets, stat_accepted, stat_lost, stat_overflow, stat_enobufs, stat_max_held;
static volatile sig_atomic_t want_stats, want_exit;

// xoshiro256** — a fast generator with a seed of its own, so a run can be repeated.
static uint64_t rng[4];
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t next_u64(void) {
  uint64_t result = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
  rng[2] ^= rng[0];
  rng[3] ^= rng[1];
  rng[1] ^= rng[2];
  rng[0] ^= rng[3];
  rng[2] ^= t;
  rng[3] = rotl(rng[3], 45);
  return result;
}
static double uniform01(void) { return (next_u64() >> 11) * 0x1.0p-53; }
static void seed_rng(uint64_t seed) {
  for (int i = 0; i < 4; i++) { // splitmix64 spreads one seed over the state
    uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    rng[i] = z ^ (z >> 31);
  }
}
static double normal01(void) { // Box–Muller
  double u = uniform01(), v = uniform01();
  if (u < 1e-300) u = 1e-300;
  return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int earlier(const struct held *a, const struct held *b) {
  return a->release_ns < b->release_ns || (a->release_ns == b->release_ns && a->seq < b->seq);
}
static void heap_push(struct held h) {
  size_t i = held_count++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!earlier(&h, &heap[parent])) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = h;
  if (held_count > stat_max_held) stat_max_held = held_count;
}
static struct held heap_pop(void) {
  struct held top = heap[0], last = heap[--held_count];
  size_t i = 0;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= held_count) break;
    if (child + 1 < held_count && earlier(&heap[child + 1], &heap[child])) child++;
    if (!earlier(&heap[child], &last)) break;
    heap[i] = heap[child];
    i = child;
  }
  if (held_count > 0) heap[i] = last;
  return top;
}

static void verdict(uint32_t id, uint32_t v) {
  if (nfq_set_verdict(queue, id, v, 0, NULL) < 0) perror("netdelay: nfq_set_verdict");
}

static void release(struct held h, uint64_t now) {
  uint64_t late = now > h.release_ns ? now - h.release_ns : 0;
  size_t bucket = late / 10000;
  late_hist[bucket < LATE_BUCKETS ? bucket : LATE_BUCKETS - 1]++;
  if (late > late_max_ns) late_max_ns = late;
  stat_accepted++;
  verdict(h.id, NF_ACCEPT);
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
  (void)qh, (void)msg, (void)data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  if (!ph) return 0;
  uint32_t id = ntohl(ph->packet_id);
  stat_packets++;
  if (loss > 0 && uniform01() < loss) {
    stat_lost++;
    verdict(id, NF_DROP);
    return 0;
  }
  if (held_count == held_max) { // the heap is bounded: let it through rather than hold memory without end
    stat_overflow++;
    verdict(id, NF_ACCEPT);
    return 0;
  }
  double d = jitter_ns > 0 ? delay_ns + jitter_ns * normal01() : delay_ns;
  uint64_t release_ns = now_ns() + (d > 0 ? (uint64_t)d : 0);
  if (in_order && release_ns < last_release_ns) release_ns = last_release_ns;
  last_release_ns = release_ns;
  heap_push((struct held){release_ns, next_seq++, id});
  return 0;
}

static double late_quantile_us(double q, uint64_t total) {
  uint64_t rank = (uint64_t)ceil(q * (double)total), seen = 0;
  if (rank == 0) rank = 1;
  for (size_t i = 0; i < LATE_BUCKETS; i++) {
    seen += late_hist[i];
    if (seen >= rank) return (double)(i + 1) * 10.0; // the bucket's upper edge
  }
  return (double)late_max_ns / 1000.0;
}

static void print_stats(void) {
  printf("{\"packets\":%llu,\"accepted\":%llu,\"lost\":%llu,\"overflow\":%llu,\"enobufs\":%llu,\"held\":%zu,\"maxHeld\":%llu,"
         "\"lateP50Us\":%.0f,\"lateP99Us\":%.0f,\"lateP999Us\":%.0f,\"lateMaxUs\":%.1f}\n",
         (unsigned long long)stat_packets, (unsigned long long)stat_accepted, (unsigned long long)stat_lost,
         (unsigned long long)stat_overflow, (unsigned long long)stat_enobufs, held_count, (unsigned long long)stat_max_held,
         late_quantile_us(0.5, stat_accepted), late_quantile_us(0.99, stat_accepted), late_quantile_us(0.999, stat_accepted),
         (double)late_max_ns / 1000.0);
  fflush(stdout);
  memset(late_hist, 0, sizeof late_hist);
  late_max_ns = stat_packets = stat_accepted = stat_lost = stat_overflow = stat_enobufs = 0;
  stat_max_held = held_count;
}

static void on_signal(int sig) {
  if (sig == SIGUSR1) want_stats = 1;
  else want_exit = 1;
}

static void usage(void) {
  fprintf(stderr, "usage: netdelay --queue N [--delay-ms D] [--jitter-ms SD] [--loss P] [--seed S] [--max-held M] [--rt PRIO] [--in-order]\n");
  exit(2);
}

int main(int argc, char **argv) {
  int queue_num = -1, rt_prio = 0;
  uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  static const struct option options[] = {
      {"queue", required_argument, 0, 'q'},    {"delay-ms", required_argument, 0, 'd'}, {"jitter-ms", required_argument, 0, 'j'},
      {"loss", required_argument, 0, 'l'},     {"seed", required_argument, 0, 's'},     {"max-held", required_argument, 0, 'm'},
      {"rt", required_argument, 0, 'r'},       {"in-order", no_argument, 0, 'o'},       {0, 0, 0, 0},
  };
  for (int c; (c = getopt_long(argc, argv, "", options, NULL)) != -1;) {
    switch (c) {
    case 'q': queue_num = atoi(optarg); break;
    case 'd': delay_ns = atof(optarg) * 1e6; break;
    case 'j': jitter_ns = atof(optarg) * 1e6; break;
    case 'l': loss = atof(optarg); break;
    case 's': seed = strtoull(optarg, NULL, 10); break;
    case 'm': held_max = strtoull(optarg, NULL, 10); break;
    case 'r': rt_prio = atoi(optarg); break;
    case 'o': in_order = 1; break;
    default: usage();
    }
  }
  if (queue_num < 0 || queue_num > 65535 || delay_ns < 0 || jitter_ns < 0 || loss < 0 || loss > 1 || held_max == 0) usage();
  seed_rng(seed);
  heap = calloc(held_max, sizeof *heap);
  if (!heap) return perror("netdelay: calloc"), 1;

  // Sleep to the nanosecond asked for, not the default 50 µs timer slack.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (rt_prio > 0) { // the delayer stands for the wire: on a busy machine it must not wait for a core
    struct sched_param sp = {.sched_priority = rt_prio};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) perror("netdelay: SCHED_FIFO (continuing without)");
  }

  struct nfq_handle *h = nfq_open();
  if (!h) return perror("netdelay: nfq_open"), 1;
  queue = nfq_create_queue(h, (uint16_t)queue_num, on_packet, NULL);
  if (!queue) return fprintf(stderr, "netdelay: cannot bind queue %d (another program on it?)\n", queue_num), 1;
  if (nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0) return perror("netdelay: nfq_set_mode"), 1;
  if (nfq_set_queue_maxlen(queue, (uint32_t)held_max) < 0) perror("netdelay: nfq_set_queue_maxlen");
  // A lost netlink message would leave its packet without a verdict: a large buffer, and count ENOBUFS.
  nfnl_rcvbufsiz(nfq_nfnlh(h), 16 << 20);
  int fd = nfq_fd(h);

  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigset_t blocked, during_poll;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR1);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  sigprocmask(SIG_BLOCK, &blocked, &during_poll); // signals arrive only inside ppoll: no race with the checks

  printf("ready\n");
  fflush(stdout);
  char buf[65536] __attribute__((aligned));
  while (!want_exit) {
    if (want_stats) {
      want_stats = 0;
      print_stats();
    }
    uint64_t now = now_ns();
    while (held_count > 0 && heap[0].release_ns <= now) release(heap_pop(), now);
    struct timespec timeout, *wait = NULL;
    if (held_count > 0) {
      uint64_t left = heap[0].release_ns - now;
      timeout.tv_sec = (time_t)(left / 1000000000ULL);
      timeout.tv_nsec = (long)(left % 1000000000ULL);
      wait = &timeout;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int ready = ppoll(&pfd, 1, wait, &during_poll);
    if (ready < 0 && errno != EINTR) return perror("netdelay: ppoll"), 1;
    if (ready <= 0) continue;
    for (;;) { // drain everything queued before releasing, so a burst is stamped on arrival
      ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0) {
        if (errno == ENOBUFS) {
          stat_enobufs++;
          continue;
        }
        break;
      }
      nfq_handle_packet(h, buf, (int)n);
    }
  }
  uint64_t now = now_ns();
  while (held_count > 0) release(heap_pop(), now);
  print_stats();
  nfq_destroy_queue(queue);
  nfq_close(h);
  return 0;
}

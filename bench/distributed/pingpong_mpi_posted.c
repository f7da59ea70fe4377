/* bench/distributed/pingpong_mpi_posted.c — the same round trip as
 * pingpong_mpi.c, but with MPI used the way the Mosaic transport uses it
 * (stdlib/transport_mpi.c), and nothing else of the runtime: what the
 * transport's way of calling MPI costs by itself, between the floor
 * (pingpong_mpi.c) and Mosaic --distributed (pingpong.mos).
 *
 * The transport cannot block in MPI_Recv: a rank's worker must go on
 * running actors while nothing arrives, and anything may arrive from any
 * rank.  So, as there, RECV_SLOTS receives of a 32 KiB frame from
 * MPI_ANY_SOURCE stay posted; the receiving side polls the oldest with
 * MPI_Test, and posts it again once it has answered; sends are
 * MPI_Isend, their requests tested on the next polls until they left.
 * The message is a frame of one packet as the transport sends a ping:
 * its length, then five words (the packet's kind, the actor, the message,
 * the future, the slot count) and the int.
 *
 * Usage: mpirun -np 2 pingpong_mpi_posted [N]     (default 300000)
 * Prints, on rank 0:
 *   pingpong: pings=N sum=S
 *   pingpong seconds: T (U us per round trip)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECV_SLOTS 4
#define FRAME_BYTES (32 << 10)
#define WORDS 7

static char *slot_buf[RECV_SLOTS];
static MPI_Request slot_req[RECV_SLOTS];
static int oldest;
static MPI_Request sent = MPI_REQUEST_NULL;

static void post(int slot)
{
  MPI_Irecv(slot_buf[slot], FRAME_BYTES, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
            &slot_req[slot]);
}

/* Polls until the oldest slot's frame is in; returns the int it carries
 * and the slot, whose receive the caller posts again. */
static long long wait_frame(int *slot)
{
  for (;;) {
    int flag = 0;
    if (sent != MPI_REQUEST_NULL)
      MPI_Test(&sent, &flag, MPI_STATUS_IGNORE);
    flag = 0;
    MPI_Test(&slot_req[oldest], &flag, MPI_STATUS_IGNORE);
    if (flag)
      break;
  }
  long long w[WORDS];
  memcpy(w, slot_buf[oldest], sizeof w);
  *slot = oldest;
  oldest = (oldest + 1) % RECV_SLOTS;
  return w[WORDS - 1];
}

static void send_frame(long long v, int peer)
{
  static long long w[WORDS];
  if (sent != MPI_REQUEST_NULL)
    MPI_Wait(&sent, MPI_STATUS_IGNORE);     /* w is about to change */
  w[0] = (WORDS - 1) * 8;
  w[1] = 1;
  w[WORDS - 1] = v;
  MPI_Isend(w, sizeof w, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &sent);
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "pingpong_mpi_posted: needs exactly 2 ranks, not %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long long n = argc > 1 ? atoll(argv[1]) : 300000;
  int peer = 1 - rank;
  for (int i = 0; i < RECV_SLOTS; i++) {
    slot_buf[i] = malloc(FRAME_BYTES);
    if (!slot_buf[i]) MPI_Abort(MPI_COMM_WORLD, 2);
    post(i);
  }
  long long sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long long i = 1; i <= n; i++) {
    int slot;
    if (rank == 0) {
      send_frame(i, peer);
      sum += wait_frame(&slot);
      post(slot);
    } else {
      long long v = wait_frame(&slot);
      send_frame(v, peer);          /* the answer first, as the transport */
      post(slot);
    }
  }
  double t = MPI_Wtime() - t0;
  if (sent != MPI_REQUEST_NULL)
    MPI_Wait(&sent, MPI_STATUS_IGNORE);
  if (rank == 0) {
    printf("pingpong: pings=%lld sum=%lld\n", n, sum);
    printf("pingpong seconds: %f (%.3f us per round trip)\n", t, t / (double)n * 1e6);
  }
  for (int i = 0; i < RECV_SLOTS; i++) {
    MPI_Cancel(&slot_req[i]);
    MPI_Wait(&slot_req[i], MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

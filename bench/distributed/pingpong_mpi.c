/* bench/distributed/pingpong_mpi.c — the floor under a cross-rank round
 * trip: what Open MPI itself takes to carry one int from rank 0 to rank 1
 * and back, with nothing around it (no scheduler, no mailbox, no message
 * header).  bench/run-distributed.sh builds it with `mpicc -O2` and runs it
 * as `mpirun -np 2 pingpong_mpi N` beside the Mosaic and Erlang versions of
 * the same exchange (pingpong.mos, pingpong.erl).
 *
 * Rank 0 sends ping i (i = 1 … N) with MPI_Send, rank 1 answers with the
 * same int, and rank 0 adds up the answers, so that its sum, N(N+1)/2, is
 * the check value every version prints.  Both ranks block in MPI_Recv,
 * which Open MPI implements by polling: each rank keeps a core busy, as an
 * MPI program normally does.  The timed section starts after a barrier, so
 * MPI_Init and the connection set-up are outside it.
 *
 * Usage: mpirun -np 2 pingpong_mpi [N]     (default 300000)
 * Prints, on rank 0:
 *   pingpong: pings=N sum=S
 *   pingpong seconds: T (U us per round trip)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "pingpong_mpi: needs exactly 2 ranks, not %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long long n = argc > 1 ? atoll(argv[1]) : 300000;
  /* The message is one 64-bit int, as Mosaic's ping(i: int) carries. */
  long long v = 0, sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long long i = 1; i <= n; i++) {
    if (rank == 0) {
      MPI_Send(&i, 1, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&v, 1, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += v;
    } else {
      MPI_Recv(&v, 1, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("pingpong: pings=%lld sum=%lld\n", n, sum);
    printf("pingpong seconds: %.6f (%.3f us per round trip)\n", t, n > 0 ? t / (double)n * 1e6 : 0.0);
  }
  MPI_Finalize();
  return 0;
}

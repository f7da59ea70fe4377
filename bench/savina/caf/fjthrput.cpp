// Savina "fork-join throughput" (ThroughputConfig: A = 60 actors, N = 10_000
// messages per actor) in C++ with CAF 0.17.
//
// The main thread sends N rounds of one `work` message to each of A worker
// actors.  A worker handles each message with a small computation, Savina's
// performComputation(37.2): sin(theta) squared, counted as good when
// positive.  Then the main thread asks every worker for its count of good
// results and prints the sum (A * N).  It measures throughput when many
// mailboxes are fed at once and the workers run in parallel.  theta reaches
// the worker as a constructor argument so that no compiler folds the sine.
//
// Usage: fjthrput [A [N]]

#include <caf/all.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <vector>

using namespace caf;

using work_atom = atom_constant<atom("work")>;
using count_atom = atom_constant<atom("count")>;

struct worker_state {
  int good = 0;
};

static behavior worker_actor(stateful_actor<worker_state>* self, double theta) {
  return {
    [=](work_atom) {
      double s = std::sin(theta);
      double r = s * s;
      if (r > 0.0)
        self->state.good += 1;
    },
    [=](count_atom) {
      self->quit();
      return self->state.good;
    },
  };
}

int main(int argc, char** argv) {
  int a = argc > 1 ? std::atoi(argv[1]) : 60;
  int n = argc > 2 ? std::atoi(argv[2]) : 10000;
  actor_system_config cfg;
  actor_system sys{cfg};
  std::vector<actor> workers;
  for (int i = 0; i < a; i++)
    workers.push_back(sys.spawn(worker_actor, 37.2));
  {
    scoped_actor self{sys};
    for (int m = 0; m < n; m++)
      for (auto& w : workers)
        self->send(w, work_atom::value);
    long total = 0;
    for (auto& w : workers)
      self->request(w, infinite, count_atom::value)
        .receive([&](int good) { total += good; },
                 [](error& err) {
                   std::fprintf(stderr, "fjthrput: error %s\n",
                                to_string(err).c_str());
                 });
    std::printf("fjthrput: actors=%d messages=%ld\n", a, total);
  }
  return 0;
}

// Savina "counting" (CountingConfig.N = 1_000_000) in C++ with CAF 0.17.
//
// A producer sends N `incr` messages to a counter actor, then asks for the
// total and checks it.  It measures one-way message throughput into a single
// mailbox.  In Savina the producer is an actor; here, as in the Mosaic
// version (where `main` is itself an actor) and the Erlang one (the main
// process), the producer is the program's main thread, through a
// scoped_actor, and the final question is a request whose answer it awaits.
//
// Usage: counting [N]

#include <caf/all.hpp>

#include <cstdio>
#include <cstdlib>

using namespace caf;

using incr_atom = atom_constant<atom("incr")>;
using total_atom = atom_constant<atom("total")>;

struct counter_state {
  int count = 0;
};

static behavior counter_actor(stateful_actor<counter_state>* self) {
  return {
    [=](incr_atom) { self->state.count += 1; },
    [=](total_atom) {
      self->quit();  // the reply below still goes out
      return self->state.count;
    },
  };
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  actor_system_config cfg;
  actor_system sys{cfg};
  auto counter = sys.spawn(counter_actor);
  {
    scoped_actor self{sys};
    for (int i = 0; i < n; i++)
      self->send(counter, incr_atom::value);
    self->request(counter, infinite, total_atom::value)
      .receive([](int total) { std::printf("counting: count=%d\n", total); },
               [](error& err) {
                 std::fprintf(stderr, "counting: error %s\n",
                              to_string(err).c_str());
               });
  }
  return 0;
}

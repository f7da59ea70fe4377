// Savina "thread ring" (ThreadRingConfig: N = 100 actors, R = 100_000 hops)
// in C++ with CAF 0.17.
//
// N actors form a ring; each learns its successor from a `link` message.  A
// token carrying a countdown starts at actor 0 with R and is passed on, one
// less each hop, until it reaches 0; the actor holding it then prints the
// result.  Only one message is in flight at any time, so this measures the
// cost of waking a different actor for every message.  The token also carries
// the number of hops made, so every language prints the same line.
//
// CAF's actor system waits for all actors, and a ring of strong handles never
// becomes unreachable, so the last holder then sends `stop` round the ring
// (as Savina does); Mosaic (quiescence) and Erlang (halt) need no such lap.
//
// Usage: threadring [N [R]]

#include <caf/all.hpp>

#include <cstdio>
#include <cstdlib>

#include <vector>

using namespace caf;

using link_atom = atom_constant<atom("link")>;
using token_atom = atom_constant<atom("token")>;
using stop_atom = atom_constant<atom("stop")>;

struct ring_state {
  actor next;
};

static behavior ring_actor(stateful_actor<ring_state>* self, int id) {
  return {
    [=](link_atom, const actor& next) { self->state.next = next; },
    [=](token_atom, int left, int hops) {
      if (left > 0) {
        self->send(self->state.next, token_atom::value, left - 1, hops + 1);
      } else {
        std::printf("threadring: hops=%d last=%d\n", hops, id);
        self->send(self->state.next, stop_atom::value);
      }
    },
    [=](stop_atom) {
      // Pass the stop on unless the successor already quit (it started it).
      self->send(self->state.next, stop_atom::value);
      self->state.next = nullptr;
      self->quit();
    },
  };
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  int r = argc > 2 ? std::atoi(argv[2]) : 100000;
  actor_system_config cfg;
  actor_system sys{cfg};
  std::vector<actor> ring;
  for (int i = 0; i < n; i++)
    ring.push_back(sys.spawn(ring_actor, i));
  for (int i = 0; i < n; i++)
    anon_send(ring[i], link_atom::value, ring[(i + 1) % n]);
  anon_send(ring[0], token_atom::value, r, 0);
  ring.clear();
  return 0;
}

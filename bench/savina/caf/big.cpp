// Savina "big" (BigConfig: W = 120 actors, N = 20_000 pings each) in C++
// with CAF 0.17.
//
// W actors all know each other.  Each sends N pings, one at a time, each to
// a neighbour chosen by its own pseudo-random generator; the neighbour
// answers `pong`, and the next ping goes out when the pong arrives.  When an
// actor has had its N pings answered it tells a sink, which prints the total
// once all W are done.  It measures many-to-many messaging with all actors
// busy at once.  The generator is Savina's PseudoRandom, seeded with the
// actor's index: v = (v * 1309 + 13849) & 65535, target = v % W.  Each actor
// also sums its targets, so the sink's checksum is the same in every
// language and any lost or misrouted ping shows.
//
// Usage: big [W [N]]

#include <caf/all.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <vector>

using namespace caf;

using setup_atom = atom_constant<atom("setup")>;
using start_atom = atom_constant<atom("start")>;
using ping_atom = atom_constant<atom("ping")>;
using pong_atom = atom_constant<atom("pong")>;
using done_atom = atom_constant<atom("done")>;
using stop_atom = atom_constant<atom("stop")>;

struct big_state {
  std::vector<actor> peers;
  actor sink;
  int64_t rng = 0;  // PseudoRandom state
  int sent = 0;     // pings sent so far
  int64_t sum = 0;  // sum of the targets chosen
};

static behavior big_actor(stateful_actor<big_state>* self, int id, int limit) {
  self->state.rng = id;
  auto send_ping = [=] {
    auto& st = self->state;
    st.rng = (st.rng * 1309 + 13849) & 65535;
    int target = static_cast<int>(st.rng % static_cast<int64_t>(st.peers.size()));
    st.sum += target;
    st.sent += 1;
    self->send(st.peers[target], ping_atom::value, id);
  };
  return {
    [=](setup_atom, const std::vector<actor>& peers, const actor& sink) {
      self->state.peers = peers;
      self->state.sink = sink;
    },
    [=](start_atom) { send_ping(); },
    [=](ping_atom, int from) {
      self->send(self->state.peers[from], pong_atom::value, id);
    },
    [=](pong_atom, int) {
      if (self->state.sent == limit)
        self->send(self->state.sink, done_atom::value, self->state.sent,
                   self->state.sum);
      else
        send_ping();
    },
    [=](stop_atom) {
      self->state.peers.clear();  // break the cycle of handles
      self->state.sink = nullptr;
      self->quit();
    },
  };
}

struct sink_state {
  std::vector<actor> workers;
  int finished = 0;
  int64_t pings = 0;
  int64_t checksum = 0;
};

static behavior sink_actor(stateful_actor<sink_state>* self, int w) {
  return {
    [=](setup_atom, const std::vector<actor>& workers) {
      self->state.workers = workers;
    },
    [=](done_atom, int pings, int64_t sum) {
      auto& st = self->state;
      st.pings += pings;
      st.checksum += sum;
      st.finished += 1;
      if (st.finished == w) {
        std::printf("big: actors=%d pings=%lld checksum=%lld\n", w,
                    static_cast<long long>(st.pings),
                    static_cast<long long>(st.checksum));
        // CAF waits for every actor: stop the workers (Savina does too).
        for (auto& a : st.workers)
          self->send(a, stop_atom::value);
        st.workers.clear();
        self->quit();
      }
    },
  };
}

int main(int argc, char** argv) {
  int w = argc > 1 ? std::atoi(argv[1]) : 120;
  int n = argc > 2 ? std::atoi(argv[2]) : 20000;
  actor_system_config cfg;
  actor_system sys{cfg};
  auto sink = sys.spawn(sink_actor, w);
  std::vector<actor> actors;
  for (int i = 0; i < w; i++)
    actors.push_back(sys.spawn(big_actor, i, n));
  anon_send(sink, setup_atom::value, actors);
  for (auto& a : actors)
    anon_send(a, setup_atom::value, actors, sink);
  for (auto& a : actors)
    anon_send(a, start_atom::value);
  return 0;
}

// Savina "ping-pong" (PingPongConfig.N = 40000) in C++ with CAF 0.17.
//
// Two actors bounce a message back and forth N times: Ping sends `ping` to
// Pong carrying its own handle, Pong answers `pong`, and Ping sends the next
// ping until N have been answered.  It measures the cost of one message
// round trip when nothing can run in parallel.  The same protocol is written
// in ../pingpong.mos and ../erlang/pingpong.erl; all three print the same
// result line.  Unlike Savina's Akka version, Ping does not send itself an
// extra message per round: two messages per round in every language.
//
// CAF needs explicit termination (the actor system waits for every actor),
// so Ping sends `stop` to Pong at the end; Mosaic ends at quiescence and
// Erlang halts the VM, so they need no such message.
//
// Usage: pingpong [N]

#include <caf/all.hpp>

#include <cstdio>
#include <cstdlib>

using namespace caf;

using ping_atom = atom_constant<atom("ping")>;
using pong_atom = atom_constant<atom("pong")>;
using start_atom = atom_constant<atom("start")>;
using stop_atom = atom_constant<atom("stop")>;

static behavior pong_actor(event_based_actor* self) {
  return {
    [=](ping_atom, const actor& from) { self->send(from, pong_atom::value); },
    [=](stop_atom) { self->quit(); },
  };
}

struct ping_state {
  int left = 0;      // pings not sent yet
  int received = 0;  // pongs received
};

static behavior ping_actor(stateful_actor<ping_state>* self, actor pong, int n) {
  self->state.left = n;
  auto send_ping = [=] {
    self->state.left -= 1;
    self->send(pong, ping_atom::value, actor_cast<actor>(self));
  };
  return {
    [=](start_atom) {
      if (self->state.left > 0)
        send_ping();
    },
    [=](pong_atom) {
      self->state.received += 1;
      if (self->state.left > 0) {
        send_ping();
      } else {
        std::printf("pingpong: pings=%d\n", self->state.received);
        self->send(pong, stop_atom::value);
        self->quit();
      }
    },
  };
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 40000;
  actor_system_config cfg;
  actor_system sys{cfg};
  auto pong = sys.spawn(pong_actor);
  auto ping = sys.spawn(ping_actor, pong, n);
  anon_send(ping, start_atom::value);
  return 0;  // ~actor_system waits for both actors to quit
}

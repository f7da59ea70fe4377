// Savina "fibonacci" (FibonacciConfig.N = 25) in C++ with CAF 0.17.
//
// An actor asked for fib(n) answers 1 when n <= 2; otherwise it spawns two
// child actors, asks them for fib(n-1) and fib(n-2), adds their two answers
// and sends the sum to its parent.  The root has no parent and prints the
// result.  fib(25) = 75025 takes 2 * 75025 - 1 = 150049 actors, so this
// measures actor creation as much as messaging.  Every actor quits once it
// has answered.
//
// Usage: fib [N]

#include <caf/all.hpp>

#include <cstdio>
#include <cstdlib>

using namespace caf;

using request_atom = atom_constant<atom("request")>;
using response_atom = atom_constant<atom("response")>;

struct fib_state {
  int n = 0;         // the index this actor was asked for
  int result = 0;    // sum of the answers received so far
  int received = 0;  // answers received (0, 1 or 2)
};

static behavior fib_actor(stateful_actor<fib_state>* self, actor parent) {
  auto reply = [=](int value) {
    if (parent)
      self->send(parent, response_atom::value, value);
    else
      std::printf("fib: n=%d result=%d\n", self->state.n, value);
    self->quit();
  };
  return {
    [=](request_atom, int n) {
      self->state.n = n;
      if (n <= 2) {
        reply(1);
        return;
      }
      auto me = actor_cast<actor>(self);
      self->send(self->spawn(fib_actor, me), request_atom::value, n - 1);
      self->send(self->spawn(fib_actor, me), request_atom::value, n - 2);
    },
    [=](response_atom, int value) {
      self->state.result += value;
      self->state.received += 1;
      if (self->state.received == 2)
        reply(self->state.result);
    },
  };
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 25;
  actor_system_config cfg;
  actor_system sys{cfg};
  auto root = sys.spawn(fib_actor, actor{});
  anon_send(root, request_atom::value, n);
  return 0;
}

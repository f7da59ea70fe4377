// Baseline, not a Savina benchmark: start the actor system, spawn one actor,
// make one request to it, print a line and shut down.  Its time is the
// fixed cost included in every other CAF wall time of the table (see
// ../startup.mos).

#include <caf/all.hpp>

#include <cstdio>

using namespace caf;

static behavior echo_actor(event_based_actor* self) {
  return {
    [=](int x) {
      self->quit();
      return x;
    },
  };
}

int main() {
  actor_system_config cfg;
  actor_system sys{cfg};
  auto echo = sys.spawn(echo_actor);
  scoped_actor self{sys};
  self->request(echo, infinite, 1)
    .receive([](int x) { std::printf("startup: ok=%d\n", x); },
             [](error& err) {
               std::fprintf(stderr, "startup: error %s\n", to_string(err).c_str());
             });
  return 0;
}

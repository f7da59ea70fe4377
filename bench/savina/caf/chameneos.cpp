// Savina "chameneos" (ChameneosConfig: 100 chameneos, 200_000 meetings) in
// C++ with CAF 0.17.
//
// A mall actor pairs up chameneos.  Each chameneo starts by sending `meet`
// (itself and its colour) to the mall.  The mall keeps one waiting
// chameneo; when a second one arrives it forwards that request to the
// waiting one and counts a meeting.  The met chameneo takes the complement
// colour, tells its partner with `change`, and both go back to the mall.
// After the last meeting the mall answers every request with `exit`; each
// chameneo then reports its number of meetings to the mall, which prints
// the sum (always twice the number of meetings).  It measures contention on
// one busy mailbox.  Colours: 0 red, 1 yellow, 2 blue, 3 faded; the
// complement of two different colours is the third one.
//
// Usage: chameneos [CHAMENEOS [MEETINGS]]

#include <caf/all.hpp>

#include <cstdio>
#include <cstdlib>

using namespace caf;

using meet_atom = atom_constant<atom("meet")>;
using change_atom = atom_constant<atom("change")>;
using exit_atom = atom_constant<atom("exit")>;
using faded_atom = atom_constant<atom("faded")>;

static int complement(int a, int b) { return a == b ? a : 3 - a - b; }

struct chameneo_state {
  int color = 0;
  int meetings = 0;
};

static behavior chameneo_actor(stateful_actor<chameneo_state>* self, actor mall,
                               int color) {
  self->state.color = color;
  auto me = actor_cast<actor>(self);
  self->send(mall, meet_atom::value, me, color);
  return {
    [=](meet_atom, const actor& other, int other_color) {
      self->state.color = complement(self->state.color, other_color);
      self->state.meetings += 1;
      self->send(other, change_atom::value, self->state.color);
      self->send(mall, meet_atom::value, actor_cast<actor>(self), self->state.color);
    },
    [=](change_atom, int new_color) {
      self->state.color = new_color;
      self->state.meetings += 1;
      self->send(mall, meet_atom::value, actor_cast<actor>(self), self->state.color);
    },
    [=](exit_atom) {
      self->state.color = 3;
      self->send(mall, faded_atom::value, self->state.meetings);
      self->quit();
    },
  };
}

struct mall_state {
  int left = 0;  // meetings still to arrange
  actor waiting;
  int faded = 0;
  long sum = 0;
};

static behavior mall_actor(stateful_actor<mall_state>* self, int chameneos,
                           int meetings) {
  self->state.left = meetings;
  auto me = actor_cast<actor>(self);
  for (int i = 0; i < chameneos; i++)
    self->spawn(chameneo_actor, me, i % 3);
  return {
    [=](meet_atom, const actor& c, int color) {
      auto& st = self->state;
      if (st.left == 0) {
        self->send(c, exit_atom::value);
      } else if (!st.waiting) {
        st.waiting = c;
      } else {
        st.left -= 1;
        self->send(st.waiting, meet_atom::value, c, color);
        st.waiting = nullptr;
      }
    },
    [=](faded_atom, int count) {
      auto& st = self->state;
      st.sum += count;
      st.faded += 1;
      if (st.faded == chameneos) {
        std::printf("chameneos: chameneos=%d meetings=%d sum=%ld\n", chameneos,
                    meetings, st.sum);
        self->quit();
      }
    },
  };
}

int main(int argc, char** argv) {
  int c = argc > 1 ? std::atoi(argv[1]) : 100;
  int m = argc > 2 ? std::atoi(argv[2]) : 200000;
  actor_system_config cfg;
  actor_system sys{cfg};
  sys.spawn(mall_actor, c, m);
  return 0;
}

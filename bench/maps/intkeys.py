# bench/maps/intkeys.py — what intkeys.mos does, in Python, as written by
# its users: a dict, `pop(k, None)` to remove and learn whether the key was
# there, `get(k, -1)` to look up.  The keys are computed once, into a list
# (a function call per key would cost Python more than the dict does); the
# list is part of Python's time and memory.
import sys


def key(i):
    x = (i * 2654435761) & 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x45D9F3B) & 0xFFFFFFFF
    return x ^ (x >> 16)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    keys = [key(i) for i in range(n)]
    m = {}
    for i, k in enumerate(keys):
        m[k] = i
    size = len(m)
    total = 0
    for k in keys:
        total += m[k]
    removed = 0
    for k in keys[::2]:
        if m.pop(k, None) is not None:
            removed += 1
    hits = 0
    rest = 0
    for k in keys:
        v = m.get(k, -1)
        if v >= 0:
            hits += 1
            rest += v
    print(f"intkeys: n={n} size={size} sum={total} removed={removed} "
          f"hits={hits} rest={rest} left={len(m)}")


main()

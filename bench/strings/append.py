# bench/strings/append.py — what append.mos does, in Python, as written by
# its users: `s += ...` in a loop, in a function (where CPython extends a
# string in place when nothing else refers to it).
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    s = ""
    for i in range(n):
        s += "x"
    t = ""
    for i in range(n):
        t += str(i) + ","
    print(f"append: n={n} lengths={len(s)},{len(t)}")


main()

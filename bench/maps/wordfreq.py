# bench/maps/wordfreq.py — what wordfreq.mos does, in Python, as written by
# its users: a dict, `counts.get(w, 0) + 1`, the lines of sys.stdin split at
# single spaces.  The text is ASCII (gen_text.c), so len() counts its bytes.
import sys


def main():
    counts = {}
    words = 0
    for line in sys.stdin:
        for w in line.rstrip("\n").split(" "):
            if w:
                counts[w] = counts.get(w, 0) + 1
                words += 1
    checksum = 0
    first = last = None
    for w in counts.keys():
        checksum += counts[w] * len(w)
        if first is None or w < first:
            first = w
        if last is None or w > last:
            last = w
    first = first or ""
    last = last or ""
    print(f"wordfreq: distinct={len(counts)} words={words} checksum={checksum} "
          f"first={first}:{counts.get(first, 0)} last={last}:{counts.get(last, 0)}")


main()

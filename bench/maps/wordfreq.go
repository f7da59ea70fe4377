// bench/maps/wordfreq.go — what wordfreq.mos does, in Go, as written by its
// users: a map[string]int, `counts[w]++`, the lines of a bufio.Scanner split
// with strings.Split.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	counts := make(map[string]int)
	words := 0
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<30)
	for sc.Scan() {
		for _, w := range strings.Split(sc.Text(), " ") {
			if len(w) > 0 {
				counts[w]++
				words++
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "wordfreq:", err)
		os.Exit(1)
	}
	checksum := 0
	first, last := "", ""
	seen := 0
	for w, c := range counts {
		checksum += c * len(w)
		if seen == 0 || w < first {
			first = w
		}
		if seen == 0 || w > last {
			last = w
		}
		seen++
	}
	fmt.Printf("wordfreq: distinct=%d words=%d checksum=%d first=%s:%d last=%s:%d\n",
		len(counts), words, checksum, first, counts[first], last, counts[last])
}

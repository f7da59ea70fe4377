// bench/maps/intkeys.go — what intkeys.mos does, in Go, as written by its
// users: a map[int64]int64 (Mosaic's int is 64-bit), `delete` after a
// lookup that says whether the key was there, `v, ok := m[k]` to look up.
package main

import (
	"fmt"
	"os"
	"strconv"
)

// key is intkeys.mos's: i scrambled by a bijection of 32-bit numbers.
func key(i int64) int64 {
	x := (i * 2654435761) & 0xffffffff
	x ^= x >> 16
	x = (x * 0x45d9f3b) & 0xffffffff
	return x ^ (x >> 16)
}

func main() {
	n := int64(1000000)
	if len(os.Args) > 1 {
		var err error
		if n, err = strconv.ParseInt(os.Args[1], 10, 64); err != nil {
			fmt.Fprintln(os.Stderr, "intkeys:", err)
			os.Exit(2)
		}
	}
	m := make(map[int64]int64)
	for i := int64(0); i < n; i++ {
		m[key(i)] = i
	}
	size := len(m)
	sum := int64(0)
	for i := int64(0); i < n; i++ {
		sum += m[key(i)]
	}
	removed := 0
	for i := int64(0); i < n; i += 2 {
		k := key(i)
		if _, ok := m[k]; ok {
			delete(m, k)
			removed++
		}
	}
	hits, rest := 0, int64(0)
	for i := int64(0); i < n; i++ {
		if v, ok := m[key(i)]; ok {
			hits++
			rest += v
		}
	}
	fmt.Printf("intkeys: n=%d size=%d sum=%d removed=%d hits=%d rest=%d left=%d\n",
		n, size, sum, removed, hits, rest, len(m))
}

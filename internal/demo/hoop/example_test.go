package hoop_test

import (
	"fmt"

	"github.com/collide-go/collide/internal/demo/hoop"
)

// The basketball-hoop test of Jansen's paper, with two cables.
func ExampleRun() {
	r, _, err := hoop.Run(hoop.Config{Cables: 2, Segments: 12}, 300, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("edges:", r.Edges, "net edges:", r.NetEdges)
	fmt.Println("contacts > 0:", r.Contacts > 0, "penetrations:", r.Penetrations)
	// Output:
	// edges: 1188 net edges: 512
	// contacts > 0: true penetrations: 0
}

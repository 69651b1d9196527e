package screw

import "testing"

func BenchmarkCubePx6RowsTmp(b *testing.B) { benchSamples(b, 0, 6) }

package enumname

import (
	"fmt"
	"testing"
)

type small uint8

type signed int

// TestOf checks names in range and the fallback against fmt's formatting
// of the value, for unsigned, negative and large values.
func TestOf(t *testing.T) {
	names := []string{"zero", "one", "two"}
	for v := 0; v < 256; v++ {
		want := fmt.Sprintf("small(%d)", v)
		if v < len(names) {
			want = names[v]
		}
		if got := Of(names, small(v), "small"); got != want {
			t.Errorf("Of(%d) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []signed{-1 << 62, -3, -1, 0, 2, 3, 1 << 40} {
		want := fmt.Sprintf("signed(%d)", int(v))
		if v >= 0 && int(v) < len(names) {
			want = names[v]
		}
		if got := Of(names, v, "signed"); got != want {
			t.Errorf("Of(%d) = %q, want %q", v, got, want)
		}
	}
	if got := Of(nil, uint64(1<<63), "u"); got != "u(9223372036854775808)" {
		t.Errorf("Of(1<<63) = %q", got)
	}
}

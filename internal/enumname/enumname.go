// Package enumname gives collide's enum types their String method from a
// table of names indexed by the value.
package enumname

import "strconv"

// Integer is the underlying type of an enum.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Of returns names[v] when v indexes names, else the type's name and the
// value, as typ(v) (for example "Status(7)").
func Of[T Integer](names []string, v T, typ string) string {
	if v >= 0 && uint64(v) < uint64(len(names)) {
		return names[v]
	}
	if v < 0 {
		return typ + "(" + strconv.FormatInt(int64(v), 10) + ")"
	}
	return typ + "(" + strconv.FormatUint(uint64(v), 10) + ")"
}

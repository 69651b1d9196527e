package jsonpos

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		in        string
		line, col int
	}{
		{"{\n \"a\": 1,\n \"b\": x}", 3, 7},
		{"{\"a\": \"s\"}", 1, 9},
		{"[1,\n2,,3]", 2, 3},
	} {
		var v struct{ A int }
		err := json.Unmarshal([]byte(c.in), &v)
		line, col, ok := Of([]byte(c.in), err)
		if !ok || line != c.line || col != c.col {
			t.Errorf("%q: %v at %d:%d (%v), want %d:%d", c.in, err, line, col, ok, c.line, c.col)
		}
	}
	if _, _, ok := Of(nil, errors.New("other")); ok {
		t.Error("an error without an offset was located")
	}
}

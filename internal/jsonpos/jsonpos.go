// Package jsonpos locates an encoding/json decoding error in its input.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Of returns the 1-based line and column of the byte at which
// json.Unmarshal of data failed with err (a syntax or type error), and
// false for errors that carry no offset.
func Of(data []byte, err error) (line, col int, ok bool) {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return 0, 0, false
	}
	// Offset counts the bytes read, the bad one included.
	before := data[:min(max(off-1, 0), int64(len(data)))]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col, true
}

package ccd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// ParseQueries reads elementary queries in the format of the CCD benchmark
// of Wang et al. (2021) (testdata/ccd-queries/README.md): CSV without a
// header, 8 rows per query, each row "xn,xd,yn,yd,zn,zd,truth" giving one
// vertex as exact rationals xn/xd, yn/yd, zn/zd and the query's ground
// truth (0 or 1). Rows 0-3 are the vertices at t=0 and rows 4-7 at t=1, in
// the order of Query. Numerators and denominators may have any number of
// digits; each coordinate is rounded to the nearest float64.
//
// name is used in error messages, which give the line and column. It
// returns the queries and their ground truth.
func ParseQueries(r io.Reader, name string, kind contact.PairKind) ([]Query, []bool, error) {
	if kind != contact.VertexFace && kind != contact.EdgeEdge {
		return nil, nil, fmt.Errorf("%s: query kind %v: want vf or ee", name, kind)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var qs []Query
	var truth []bool
	var cur Query
	cur.Kind = kind
	row := 0
	line := 0
	var rat big.Rat
	var fields [7][]byte
	for sc.Scan() {
		line++
		b := bytes.TrimRight(sc.Bytes(), "\r")
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		nf := 0
		for nf < 7 {
			i := bytes.IndexByte(b, ',')
			if i < 0 {
				fields[nf] = b
				nf++
				b = nil
				break
			}
			fields[nf] = b[:i]
			nf++
			b = b[i+1:]
		}
		if nf != 7 || b != nil {
			return nil, nil, fmt.Errorf("%s:%d: want 7 comma-separated integers", name, line)
		}
		var c [3]float64
		for k := 0; k < 3; k++ {
			x, err := ratio(fields[2*k], fields[2*k+1], &rat)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: column %d: %v", name, line, 2*k+1, err)
			}
			c[k] = x
		}
		tv := string(bytes.TrimSpace(fields[6]))
		if tv != "0" && tv != "1" {
			return nil, nil, fmt.Errorf("%s:%d: column 7: truth %q is not 0 or 1", name, line, tv)
		}
		hit := tv == "1"
		if row%8 == 0 {
			truth = append(truth, hit)
		} else if truth[len(truth)-1] != hit {
			return nil, nil, fmt.Errorf("%s:%d: column 7: truth differs from the query's first row", name, line)
		}
		v := geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
		if i := row % 8; i < 4 {
			cur.Start[i] = v
		} else {
			cur.End[i-4] = v
		}
		row++
		if row%8 == 0 {
			qs = append(qs, cur)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if row%8 != 0 {
		return nil, nil, fmt.Errorf("%s:%d: %d rows is not a multiple of 8 (8 rows per query)", name, line, row)
	}
	return qs, truth, nil
}

// ratio returns the float64 nearest to num/den.
func ratio(num, den []byte, rat *big.Rat) (float64, error) {
	num, den = bytes.TrimSpace(num), bytes.TrimSpace(den)
	// Fast path: both fit in 53 bits, so one correctly rounded division
	// gives the nearest float64.
	if len(num) <= 16 && len(den) <= 16 {
		n, err1 := strconv.ParseInt(string(num), 10, 64)
		d, err2 := strconv.ParseInt(string(den), 10, 64)
		if err1 == nil && err2 == nil && n >= -(1<<53) && n <= 1<<53 && d >= -(1<<53) && d <= 1<<53 {
			if d == 0 {
				return 0, fmt.Errorf("zero denominator")
			}
			return float64(n) / float64(d), nil
		}
	}
	var n, d big.Int
	if _, ok := n.SetString(string(num), 10); !ok {
		return 0, fmt.Errorf("numerator %q is not an integer", num)
	}
	if _, ok := d.SetString(string(den), 10); !ok {
		return 0, fmt.Errorf("denominator %q is not an integer", den)
	}
	if d.Sign() == 0 {
		return 0, fmt.Errorf("zero denominator")
	}
	rat.SetFrac(&n, &d)
	x, _ := rat.Float64()
	if math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s/%s overflows float64", num, den)
	}
	if x == 0 && n.Sign() != 0 {
		return 0, fmt.Errorf("%s/%s underflows float64 (it would read as 0)", num, den)
	}
	return x, nil
}

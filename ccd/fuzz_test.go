package ccd

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// decodeQuery builds a query from fuzz bytes. Mode 0 reads raw float64 bit
// patterns (NaN, Inf, subnormals, huge values); mode 1 reads small
// integers scaled by 1/8 (meaningful, often degenerate geometry).
func decodeQuery(kind uint8, raw []byte) Query {
	q := Query{Kind: queryKinds[kind%2]}
	mode := byte(0)
	if len(raw) > 0 {
		mode, raw = raw[0]%2, raw[1:]
	}
	next := func() float64 {
		if mode == 0 {
			var b [8]byte
			n := copy(b[:], raw)
			raw = raw[n:]
			return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		}
		if len(raw) == 0 {
			return 0
		}
		x := float64(int8(raw[0])) / 8
		raw = raw[1:]
		return x
	}
	for _, pts := range []*[4]geom.Vec3{&q.Start, &q.End} {
		for i := range pts {
			pts[i] = geom.V(next(), next(), next())
		}
	}
	return q
}

// checkResult checks the invariants every answer must satisfy.
func checkResult(t *testing.T, q *Query, opt Options, r Result) {
	t.Helper()
	if q.Validate() != nil || opt.Validate() != nil {
		if r.Status != Invalid {
			t.Fatalf("invalid input gave %v\n%s", r.Status, fmtQuery(q))
		}
		return
	}
	switch r.Status {
	case Separated:
	case Hit:
		if !(r.Time >= 0 && r.Time <= 1) {
			t.Fatalf("Time %v outside [0,1]\n%s", r.Time, fmtQuery(q))
		}
		if n := r.Normal; n != (geom.Vec3{}) && math.Abs(n.Norm()-1) > 1e-9 {
			t.Fatalf("normal %v not unit", n)
		}
	default:
		t.Fatalf("valid input gave %v\n%s", r.Status, fmtQuery(q))
	}
}

// nearContactOracle: if the exact distance vector at the Cubic method's
// contact parameters is below d/2 in every coordinate, the primitives come
// within d, so the Inclusion method with MinDistance d must report a hit no
// later than that time.
func nearContactOracle(t *testing.T, q *Query) {
	c := q.Test(Options{Method: Cubic})
	if !c.Hit() {
		return
	}
	scale := 0.0
	for i := 0; i < 4; i++ {
		scale = math.Max(scale, math.Max(q.Start[i].MaxAbs(), q.End[i].MaxAbs()))
	}
	if scale == 0 || scale > 1e100 || scale < 1e-100 {
		return
	}
	u, v := c.U, c.V
	if q.Kind == contact.VertexFace && (u < 0 || v < 0 || u+v > 1) || q.Kind == contact.EdgeEdge && (u < 0 || u > 1 || v < 0 || v > 1) {
		return
	}
	d := 1e-6 * scale
	f := exactF(q, rat(c.Time), rat(u), rat(v))
	half := new(big.Rat).SetFloat64(d / 2)
	for k := 0; k < 3; k++ {
		if new(big.Rat).Abs(f[k]).Cmp(half) > 0 {
			return
		}
	}
	r := q.Test(Options{MinDistance: d})
	if !r.Hit() || r.Time > c.Time {
		t.Fatalf("within %g at t=%v (u=%v v=%v) but inclusion with MinDistance gave %+v\n%s", d, c.Time, u, v, r, fmtQuery(q))
	}
}

func FuzzQuery(f *testing.F) {
	f.Add(uint8(0), uint8(0), 0.0, []byte{1, 8, 8, 8, 0, 0, 248, 248, 0, 0, 0, 248, 0, 8, 248, 8, 248, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(1), uint8(0), 0.0, []byte{1, 248, 0, 8, 8, 0, 8, 0, 248, 0, 0, 8, 0, 248, 0, 248, 8, 0, 248, 0, 8, 0, 8, 0, 0})
	f.Add(uint8(1), uint8(1), 0.5, []byte{0, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	f.Add(uint8(0), uint8(0), 1e-3, []byte(strings.Repeat("\x01\x10", 13)))
	f.Fuzz(func(t *testing.T, kind, method uint8, d float64, raw []byte) {
		q := decodeQuery(kind, raw)
		opt := Options{Method: Method(method % 3), MinDistance: d}
		r := q.Test(opt)
		checkResult(t, &q, opt, r)
		if opt.Method == Inclusion && r.Status != Invalid {
			if a := q.Test(Options{}); a.Status != Invalid {
				nearContactOracle(t, &q)
			}
		}
	})
}

func FuzzParseQueries(f *testing.F) {
	f.Add([]byte("0,1,1,1,0,1,0\n-1,1,0,1,1,1,0\n1,1,0,1,1,1,0\n0,1,0,1,-1,1,0\n0,1,2,1,-1,8388608,0\n-1,1,-1,1,1,1,0\n1,1,-1,1,1,1,0\n0,1,-1,1,-1,1,0\n"))
	f.Add([]byte("6004799503160661,18014398509481984,6993057989032551,4503599627370496,6004799503160661,18014398509481984,1\n"))
	f.Add([]byte("1,0,1,1,1,1,0\n"))
	f.Add([]byte("123456789012345678901234567890,3,1,1,1,1,1\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []contact.PairKind{contact.VertexFace, contact.EdgeEdge} {
			qs, truth, err := ParseQueries(bytes.NewReader(data), "fuzz.csv", kind)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
					t.Fatalf("error does not name the file: %v", err)
				}
				continue
			}
			if len(qs) != len(truth) {
				t.Fatalf("%d queries, %d truths", len(qs), len(truth))
			}
			for i := range qs {
				if err := qs[i].Validate(); err != nil {
					t.Fatalf("parsed query %d invalid: %v", i, err)
				}
				checkResult(t, &qs[i], Options{}, qs[i].Test(Options{}))
			}
		}
	})
}

// TestNearContactOracle runs the fuzz oracle over random queries.
func TestNearContactOracle(t *testing.T) {
	for i := 0; i < cases(300); i++ {
		raw := make([]byte, 25)
		raw[0] = 1
		for j := range raw[1:] {
			raw[1+j] = byte((i*131 + j*197 + (i*j)%7) % 256)
		}
		q := decodeQuery(uint8(i), raw)
		checkResult(t, &q, Options{}, q.Test(Options{}))
		nearContactOracle(t, &q)
	}
}

func FuzzImpulse(f *testing.F) {
	f.Add(0.0, 0.0, 1.0, 0.5, 0.5, -1.0, 1.0, 1.0, 0.5)
	f.Add(1.0, 0.0, 0.0, 0.0, 1.0, math.NaN(), 0.0, 2.0, 1.0)
	f.Fuzz(func(t *testing.T, nx, ny, nz, f1, f2, vz, m0, m1, e float64) {
		n, ok := geom.V(nx, ny, nz).Normalize()
		if !ok {
			n = geom.V(nx, ny, nz)
		}
		vel := [4]geom.Vec3{{Z: vz}, {Z: vz}, {X: vz}, {}}
		inv := [4]float64{m0, m1, m0, m1}
		for _, w := range [][4]float64{EdgeEdgeWeights(f1, f2), VertexFaceWeights(f1, f2)} {
			dv, j, ok := Impulse(n, w, vel, inv, e)
			if !ok {
				if j != 0 || dv != ([4]geom.Vec3{}) {
					t.Fatalf("not ok but j=%v dv=%v", j, dv)
				}
				continue
			}
			if math.IsNaN(j) || math.IsInf(j, 0) {
				t.Fatalf("ok with j=%v", j)
			}
		}
	})
}

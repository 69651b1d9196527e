package hoop

import (
	"time"

	"github.com/collide-go/collide/cable"
)

// PaperFramesPerSecond is the frame rate Jansen reports for the
// basketball-hoop test (Sec. 4): about 0.25 frames per second for a
// system of over 500 edges, including rendering.
const PaperFramesPerSecond = 0.25

// Result is the outcome of Run. A frame is one time step.
type Result struct {
	Method string  `json:"method"`
	Frames int     `json:"frames"`
	Dt     float64 `json:"dt"`
	// Substeps is the number of substeps over all frames (see
	// System.Substeps): more than Frames when Dt exceeds the springs'
	// stable step.
	Substeps         int     `json:"substeps"`
	SimulatedSeconds float64 `json:"simulated_seconds"`
	// WallSeconds is the time spent in Step (collision detection,
	// response and integration), without the independent check.
	WallSeconds      float64 `json:"wall_seconds"`
	MsPerFrame       float64 `json:"ms_per_frame"`
	FramesPerSecond  float64 `json:"frames_per_second"`
	PaperFPS         float64 `json:"paper_frames_per_second"`
	Edges            int     `json:"edges"`
	CableEdges       int     `json:"cable_edges"`
	NetEdges         int     `json:"net_edges"`
	RimEdges         int     `json:"rim_edges"`
	Triangles        int     `json:"triangles"`
	Particles        int     `json:"particles"`
	Candidates       int     `json:"candidates"`
	Queries          int     `json:"ccd_queries"`
	Hits             int     `json:"ccd_hits"`
	Contacts         int     `json:"contacts"`
	ContactsPerFrame float64 `json:"contacts_per_frame"`
	MaxRounds        int     `json:"max_rounds"`
	Frozen           int     `json:"frozen"`
	// Penetrations is the number of crossings the independent check
	// found over all frames (must be 0).
	Penetrations  int     `json:"penetrations"`
	VerifySeconds float64 `json:"verify_seconds"`
	// CablesThrough counts cables entirely below the net at the end;
	// CablesCaught those with a particle above the net's bottom.
	CablesThrough int `json:"cables_through"`
	CablesCaught  int `json:"cables_caught"`
	// EnergyStart and EnergyEnd are the total mechanical energy in J.
	EnergyStart float64 `json:"energy_start"`
	EnergyEnd   float64 `json:"energy_end"`
	EnergyMax   float64 `json:"energy_max"`
}

// Run builds the hoop scene and runs it for the given number of frames,
// checking every substep with the independent check (not timed).
// progress, if not nil, is called after every frame.
func Run(h Config, frames int, progress func(done, total int)) (Result, *cable.System, error) {
	h.Options.Verify = true
	s, info, err := New(h)
	if err != nil {
		return Result{}, nil, err
	}
	h = h.resolve()
	o := s.Options()
	r := Result{Method: o.Method.String(), Dt: o.Dt, PaperFPS: PaperFramesPerSecond,
		Edges: info.Edges, CableEdges: info.CableEdges, NetEdges: info.NetEdges, RimEdges: info.RimEdges,
		Triangles: info.Triangles, Particles: info.Particles}
	r.EnergyStart = s.Energy().Total()
	r.EnergyMax = r.EnergyStart
	var wall, verify time.Duration
	for i := 0; i < frames; i++ {
		t0 := time.Now()
		st := s.Step()
		d := time.Since(t0)
		r.Penetrations += st.Penetrations
		v := time.Duration(st.VerifySeconds * 1e9)
		verify += v
		wall += d - v
		if e := s.Energy().Total(); e > r.EnergyMax {
			r.EnergyMax = e
		}
		if progress != nil {
			progress(i+1, frames)
		}
	}
	st := s.Stats()
	r.Frames = frames
	r.SimulatedSeconds = float64(frames) * o.Dt
	r.WallSeconds = wall.Seconds()
	r.VerifySeconds = verify.Seconds()
	if frames > 0 {
		r.MsPerFrame = 1e3 * r.WallSeconds / float64(frames)
		r.ContactsPerFrame = float64(st.Contacts) / float64(frames)
	}
	if r.WallSeconds > 0 {
		r.FramesPerSecond = float64(frames) / r.WallSeconds
	}
	r.Candidates, r.Queries, r.Hits, r.Contacts = st.Candidates, st.Queries, st.Hits, st.Contacts
	r.MaxRounds, r.Frozen = st.MaxRounds, st.Frozen
	r.Substeps = st.Substeps
	r.EnergyEnd = s.Energy().Total()
	bottom := Height - TubeRadius - 0.002 - 0.05*float64(h.NetRows)
	first := info.Particles - h.Cables*(h.Segments+1)
	for c := 0; c < h.Cables; c++ {
		below := true
		for k := 0; k <= h.Segments; k++ {
			if s.Position(first+c*(h.Segments+1)+k).Z >= bottom {
				below = false
				break
			}
		}
		if below {
			r.CablesThrough++
		} else {
			r.CablesCaught++
		}
	}
	return r, s, nil
}

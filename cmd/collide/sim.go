package main

import (
	"fmt"

	"github.com/collide-go/collide/sim"
	"github.com/collide-go/collide/simio"
)

// simSummary is the one-line summary of "collide sim".
type simSummary struct {
	Scene           string  `json:"scene"`
	Steps           int     `json:"steps"`
	Threads         int     `json:"threads"`
	WallNs          int64   `json:"wall_ns"`
	NsPerStep       float64 `json:"ns_per_step"`
	ContactsPerStep float64 `json:"contacts_per_step"`
	MaxDepthM       float64 `json:"max_depth_m"`
	Out             string  `json:"out"`
}

func runSim(e *env, args []string) error {
	fs := newFlags("sim")
	out := fs.String("out", "", "recording directory to write")
	threads := fs.Int("threads", 1, "worker goroutines finding contacts")
	every := fs.Int("record-every", 1, "record every K-th step")
	substeps := fs.Int("substeps", 0, "solver substeps per step (0: default)")
	contacts := fs.Bool("contacts", false, "write contacts.csv")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress bar")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("sim needs one SCENE_DIR")
	}
	if *out == "" {
		return usagef("sim needs --out REC_DIR")
	}
	if *threads < 1 || *every < 1 || *substeps < 0 {
		return usagef("--threads and --record-every must be at least 1, --substeps at least 0")
	}
	sc, err := simio.ReadScene(pos[0])
	if err != nil {
		return err
	}
	sum, err := simulateScene(e, sc, *out, &sim.Options{Workers: *threads, Substeps: *substeps}, *every, *contacts, *quiet)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, sum)
	}
	fmt.Fprintf(e.stdout, "%s: %d steps, %.0f ns per step (%d thread(s)), %.1f contacts per step, deepest overlap %.3g m; recording in %s\n",
		sum.Scene, sum.Steps, sum.NsPerStep, sum.Threads, sum.ContactsPerStep, sum.MaxDepthM, sum.Out)
	return nil
}

// simulateScene runs a scene and writes its recording to out.
func simulateScene(e *env, sc *simio.Scene, out string, opt *sim.Options, every int, contacts, quiet bool) (simSummary, error) {
	bar := newProgress(e.stderr, quiet, "sim "+sc.Name)
	rec, st, err := sim.Run(sc, opt, &sim.RunOptions{
		RecordEvery: every,
		Contacts:    contacts,
		Progress:    func(done int) { bar.update(done, sc.Steps) },
	})
	bar.done()
	if err != nil {
		return simSummary{}, err
	}
	if err := simio.WriteRecording(out, rec); err != nil {
		return simSummary{}, err
	}
	return simSummary{
		Scene: sc.Name, Steps: st.Steps, Threads: rec.Threads, WallNs: st.WallNs,
		NsPerStep: rec.NsPerStep, ContactsPerStep: st.ContactsPerStep, MaxDepthM: st.MaxDepth, Out: out,
	}, nil
}

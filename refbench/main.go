//go:build refbench

// Command refbench measures established libraries on the benchmark
// workloads through the same harness, timing rules and judge as `collide
// bench` (package bench), beside this library's algorithms, in the same
// run: libccd's MPR for "frames" workloads (narrow), FCL's conservative
// advancement along the screw motion for "motions" workloads (ccd), and
// FCL's collide and distance on BVHModel<OBBRSS> for "placements"
// workloads (meshdist). Each
// round runs every algorithm once over the workload (a warm-up pass and up
// to five timed passes, as bench.Run does); the table gives each
// algorithm's best round and the ratio to the reference library.
//
// It needs cgo, libccd and FCL (Debian: libccd-dev libfcl-dev) and is
// built only with the refbench tag:
//
//	go run -tags refbench ./refbench [-rounds 3] [-task contact] [-algos a,b] WORKLOAD_DIR...
//
// With -task contact it compares signed distances (FORMAT.md Sec. 5) with
// Bullet's btGjkEpaSolver2::SignedDistance (the reference), libccd's MPR
// and GJK+EPA penetration and FCL's EPA (libccd's GJK and its own); that
// needs libbullet-dev as well.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/collide-go/collide/bench"
)

func main() {
	rounds := flag.Int("rounds", 3, "rounds over every algorithm (the best is kept)")
	algos := flag.String("algos", "", "algorithms to run (default: sepvec and libccd-mpr for frames; toc, screw-px12, fcl-sample100 and fcl-ca for motions; meshquery and fcl-obbrss for placements; signed-distance and the five peers for -task contact)")
	task := flag.String("task", "", "the task (default: the workload kind's; contact for signed distances)")
	flag.Parse()
	if flag.NArg() == 0 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: refbench [-rounds N (at least 1)] [-algos a,b] WORKLOAD_DIR...")
		os.Exit(2)
	}
	bench.RegisterNarrow("libccd-mpr", newMPR)
	bench.RegisterCCD("fcl-ca", newFCL)
	bench.RegisterCCD("fcl-sample100", newFCLSample)
	bench.RegisterContact("bullet-gjkepa", contactFactory(ctBullet))
	bench.RegisterContact("libccd-gjkepa", contactFactory(ctCCDGJKEPA))
	bench.RegisterContact("libccd-mpr-pen", contactFactory(ctCCDMPR))
	bench.RegisterContact("fcl-epa-libccd", contactFactory(ctFCLCCD))
	bench.RegisterContact("fcl-epa-indep", contactFactory(ctFCLIndep))
	bench.RegisterMeshDist("fcl-obbrss", newFCLMeshDist)
	for _, dir := range flag.Args() {
		if err := run(dir, *rounds, *algos, *task); err != nil {
			fmt.Fprintln(os.Stderr, "refbench:", err)
			os.Exit(1)
		}
	}
}

func run(dir string, rounds int, algos, task string) error {
	w, err := bench.Load(dir)
	if err != nil {
		return err
	}
	names, ref := []string{"sepvec", "libccd-mpr"}, "libccd-mpr"
	if w.Kind == "motions" {
		names, ref = []string{"toc", "screw-px12", "fcl-sample100", "fcl-ca"}, "fcl-sample100"
	}
	if w.Kind == "placements" {
		names, ref = []string{"meshquery", "fcl-obbrss"}, "fcl-obbrss"
	}
	if task == "contact" {
		names = []string{"signed-distance", "signed-distance-pair", "signed-distance-cold", "bullet-gjkepa", "libccd-mpr-pen", "libccd-gjkepa", "fcl-epa-libccd", "fcl-epa-indep"}
		ref = "bullet-gjkepa"
	}
	if algos != "" {
		names = strings.Split(algos, ",")
	}
	best := map[string]bench.Result{}
	all := map[string][]float64{}
	cpu := map[string]float64{} // least thread CPU time per query over the rounds
	for r := 0; r < rounds; r++ {
		for _, name := range names {
			res, err := bench.Run(w, bench.Options{Task: task, Algos: []string{name}})
			if err != nil {
				return fmt.Errorf("%s: %s: %w", w.Name, name, err)
			}
			x := res[0]
			all[name] = append(all[name], x.NSPerQuery)
			if c, ok := cpu[name]; !ok || x.CPUNSPerQuery < c {
				cpu[name] = x.CPUNSPerQuery
			}
			if b, ok := best[name]; !ok || x.NSPerQuery < b.NSPerQuery {
				best[name] = x
			}
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return best[names[i]].NSPerQuery < best[names[j]].NSPerQuery })
	fmt.Printf("%s (%d queries, best of %d rounds)\n", w.Name, best[names[0]].Queries, rounds)
	for _, name := range names {
		x := best[name]
		verdict := "not judged"
		if x.Verdict != nil {
			verdict = x.Verdict.String()
		}
		ratio := ""
		if r, ok := best[ref]; ok && name != ref {
			// Also the median over rounds of the ratio within a round,
			// which a change of the machine's speed between rounds
			// disturbs less than the ratio of the bests.
			var per []float64
			for k, v := range all[name] {
				per = append(per, all[ref][k]/v)
			}
			sort.Float64s(per)
			ratio = fmt.Sprintf("  %.2fx faster than %s (median of rounds %.2fx; CPU time %.2fx)", r.NSPerQuery/x.NSPerQuery, ref, per[len(per)/2], cpu[ref]/cpu[name])
		}
		var rs []string
		for _, v := range all[name] {
			rs = append(rs, fmt.Sprintf("%.0f", v))
		}
		fmt.Printf("  %-12s %12.1f ns/query  (rounds: %s; CPU %.1f ns/query)%s\n      %s\n", name, x.NSPerQuery, strings.Join(rs, " "), cpu[name], ratio, verdict)
	}
	return nil
}

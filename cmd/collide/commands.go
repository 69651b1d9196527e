package main

import "strings"

// commandTable is every command of collide (help lists them by name); a
// command's flags and run function live in its own file.
var commandTable = []*command{
	{name: "bench", args: "WORKLOAD_DIR --out DIR [--task narrow|broad|ccd|contact|meshdist] [--algo NAME,...] [--passes N] [--json]", summary: "run algorithms on a benchmark workload and write DIR/<algo>/results.csv and timing.json", run: runBench},
	{name: "bench gen", args: "--out DIR [--bodies N] [--verts N] [--frames N] [--shape mixed|ellipsoid|rod|plate] [--density D] [--speed S] [--rot DEG] [--seed N] [--expected] [--max-narrow N]", summary: "generate a frames workload (polytopes moving in a box, Chung-Wang Sec. 6) in the bench format, with reference answers", run: runBenchGen},
	{name: "bench meshpairs", args: "--out DIR --a FILE --b FILE [--scenario approach|fcl] [--queries N] [--rot DEG] [--pass F] [--aim F] [--seed N]", summary: "generate a meshpairs motions workload (B moving by screw motions against A, both triangle soups from model files) with the reference first contacts of the surfaces", run: runBenchMeshPairs},
	{name: "ccd-queries", args: "[--method NAME] [--answers] [--kind vf|ee] [--json] [--quiet] FILE.csv...", summary: "run elementary CCD (vertex-face, edge-edge) on benchmark query files and count false negatives/positives", run: runCCDQueries},
	{name: "demo", args: "[--out DIR]", summary: "run the library's main job on built-in shapes and write pictures to DIR (default demo-out)", run: runDemo},
	{name: "mesh info", args: "[--json] [--drop-degenerate] [--repair] [--split o|g] [--convex] [--density RHO] FILE...", summary: "read meshes (OBJ, STL, OFF, PLY) and print their topology, bounds and mass properties", run: meshInfo},
	{name: "mesh gen", args: "SHAPE [flags] -o FILE   (SHAPE: " + strings.Join(genShapeNames(), ", ") + ")", summary: "write a generated test shape to FILE (.obj, .off, .ply, .stl; - for OBJ on stdout)", run: meshGen},
	{name: "mesh repair", args: "IN -o OUT [--weld TOL] [--weld-abs D] [--split o|g] [--triangulate-all] [--no-orient] [--json]", summary: "weld duplicated vertices, drop degenerate and duplicate faces, split non-planar polygons, orient consistently and outward; write OUT", run: meshRepair},
	{name: "query intersect", args: "[--json] [--pairs N] MESH_A MESH_B --a POSE --b POSE", summary: "do two mesh surfaces intersect at these poses (exact triangle tests), and which triangle pairs", run: runQueryIntersect},
	{name: "query distance", args: "[--json] [--max D] MESH_A MESH_B --a POSE --b POSE", summary: "distance between two mesh surfaces with closest points, triangles and features", run: runQueryDistance},
	{name: "query contacts", args: "[--json] [--margin M] [--max-contacts N] MESH_A MESH_B --a POSE --b POSE", summary: "contact records of two meshes at rest: penetration depths of closed bodies, near and touching features", run: runQueryContacts},
	{name: "screw", args: "[--json] [--pixel P | --ppe N] [--properness T] [--conservative] [--two-sided] [--rest-margin D] [--html FILE] MESH_A MESH_B --a0 POSE --a1 POSE --b0 POSE --b1 POSE", summary: "every collision of two bodies under relative screw motion (Buss): time, point, normal, features, properness", run: runScrew},
	{name: "screen", args: "[--pixel P | --ppe N] MESH_A MESH_B --a0 POSE --a1 POSE --b0 POSE --b1 POSE -o screen.png", summary: "draw the rasterized collision screen of a screw-motion query (Buss Fig. 14) as a PNG", run: runScreen},
	{name: "sim", args: "SCENE_DIR --out REC_DIR [--threads N] [--record-every K] [--substeps N] [--contacts] [--json] [--quiet]", summary: "simulate a rigid-body scene (sim-scene/1) and write its recording (sim-recording/1); prints steps, ns per step, contacts per step and the deepest overlap seen", run: runSim},
	{name: "view", args: "REC_DIR [--scene SCENE_DIR] [--port N] [--html FILE]", summary: "watch a simulation recording in 3D in the browser (served on 127.0.0.1, or written as one self-contained HTML file)", run: runView},
	{name: "experiment polytopes", args: "[--out DIR] [--bodies N] [--frames F] [--n LIST] [--quick] [--json] [--quiet]", summary: "reproduce Chung and Wang's Sec. 6 experiments (iterations k, max k vs n, time vs speed, rotation, density) as SVG plots and a table", run: runExperimentPolytopes},
	{name: "scene bullets", args: "[--json] [--dt 0.1] [--alg 2|3] [--bullets 100] [--seconds 1] [--tol 1e-5] [--restitution 0.2] [--seed 1] [--quiet]", summary: "run the contact paper's 100-bullet scene (time of contact, Algorithms 2/3) and report speed and tunnelling", run: runSceneBullets},
	{name: "scene hoop", args: "[--json] [--steps 600] [--dt 0.002] [--cables 8] [--segments 24] [--method inclusion|cubic] [--seed 1] [--svg FILE] [--quiet]", summary: "drop spring cables through a basketball hoop and net (Jansen's test, Sec. 4) with ccd contacts; report frames per second and crossings", run: runSceneHoop},
	{name: "sim builtin", args: "pile|chain --out SCENE_DIR [--bodies N] [--steps K] [--seed S]", summary: "write a built-in scene (a pile of cubes, cars, tori and polytopes falling into a bin, or a chain of linked tori hanging from a bar) in the simulation format, for collide sim and viewers", run: runSimBuiltin},
	{name: "world", args: "[--bodies 500] [--steps 40] [--kind convex|polyhedron|soup|mixed] [--verts 10] [--broad sweep|sap|tree|brute] [--workers N] [--speed 0.05] [--rot 10] [--density 0.05] [--seed 1] [--contacts] [--json] [--quiet] [--html FILE]", summary: "run a scene of random bodies bouncing in a box through the world pipeline (broad phase, then per pair the fitting narrow phase) and print per-step pairs, contacts and timing", run: runWorld},
}

func init() {
	for _, c := range commandTable {
		register(c)
	}
}

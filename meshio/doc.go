// Package meshio reads and writes polyhedral meshes in the common exchange
// formats: Wavefront OBJ, STL (ASCII and binary), OFF and PLY (ASCII,
// binary little-endian and binary big-endian).
//
// Every reader comes in two layers. The low layer (ReadOBJSoup,
// ReadSTLSoup, ReadOFFSoup, ReadPLYSoup, ReadSoup) returns a Soup: the
// vertices and polygon loops exactly as the file lists them, with the
// source line (text formats) or byte offset (binary formats) of every
// vertex and face. That is the polygon soup the contact paper ("Precise
// Generalized Contact Point and Normal Determination for Rigid Body
// Simulation") works on, and it needs no topology. The high layer
// (ReadOBJ, ..., Read, ReadFile) turns the soup into a *mesh.Mesh with full
// adjacency (Buss, "Collision Detection with Relative Screw Motion", Sec. 6)
// and maps any *mesh.Error that
// mesh.New reports back to the file and line of the offending face or
// vertex, e.g. "torus.obj:17: face 3: has zero area (0)".
//
// Readers reject bad data with an *Error naming the file and the line or
// byte offset: non-numeric or non-finite coordinates, vertex indices out of
// range, faces with fewer than three indices, truncated files and bad
// headers. Element counts in headers are never trusted for allocation: a
// PLY header claiming 2^40 vertices or a binary STL whose triangle count
// does not fit the file size fails cleanly without allocating.
//
// Coordinates beyond ±geom.MaxCoord, directories, and common non-mesh
// files (PNG, JPEG, PDF, ZIP, gzip, ...) are refused with a message that
// says so. PLY triangle strips ("tristrips") are read as triangles; OBJ
// objects and groups are kept as Soup.Objects and Soup.Groups.
//
// Soup.DropDegenerate removes the faces mesh.New would reject as
// degenerate (repeated vertices, zero area), which real-world files often
// contain. Soup.Repair goes further: it welds vertices within a tolerance
// (DefaultWeldTol of the bounding-box diagonal unless told otherwise),
// drops collapsed, degenerate and duplicate faces and unused vertices,
// splits non-planar polygons into triangles and orients every connected
// component consistently, closed ones outward. Soup.Split cuts a soup at
// its OBJ objects or groups; ReadConvexParts reads a convex decomposition
// (V-HACD output) as closed convex meshes.
//
// STL stores every triangle with its own copies of the corner positions;
// the reader merges vertices with bit-identical coordinates so that the
// resulting mesh has adjacency.
//
// The writers (WriteOBJ, WriteOFF, WritePLY, WriteSTL, WriteFile) print
// coordinates with the shortest representation that reads back exactly
// (except STL, which stores float32).
package meshio

// C interface of contact.cpp: signed distance queries of established
// libraries for the contact task.
#ifndef REFBENCH_CONTACT_H
#define REFBENCH_CONTACT_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
// One answer: hit (0 or 1), has_sd (0 when the library gives no signed
// distance), sd, unit n from A towards B.
typedef struct { int32_t hit, has_sd; double sd, n[3]; } ct_answer;
enum { CT_BULLET, CT_CCD_GJK_EPA, CT_CCD_MPR, CT_FCL_CCD, CT_FCL_INDEP };
typedef struct ct_lib ct_lib;
// ct_new prepares the meshes (vertices x y z; faces fv[fstart[f]:fstart[f+1]]
// for FCL) of a workload for one library: nm meshes, mesh m's vertices
// start at voff[m] (in triples) and number nv[m]; its faces start at
// foff[m] in fstart (nf[m] faces).
ct_lib *ct_new(int lib, int nm, const double *verts, const int32_t *voff, const int32_t *nv,
               const int32_t *fv, const int32_t *fstart, const int32_t *foff, const int32_t *nf);
// ct_frame answers np pairs (a, b) of one frame: body i has mesh bm[i];
// tf holds 12 doubles per body (row-major rotation, then translation).
void ct_frame(ct_lib *l, const int32_t *bm, const double *tf, const int32_t *pairs, int np, ct_answer *out);
#ifdef __cplusplus
}
#endif
#endif

// collide view: replays frames of bodies (one draw for all bodies, levels of
// detail chosen per body) with markers (points and normals) and per-frame figures. The frame
// data format is described in package view (Scene.Encode).
import * as THREE from 'three';
import { OrbitControls } from './OrbitControls.js';

const TYPES = { f32: Float32Array, f64: Float64Array, u32: Uint32Array, i32: Int32Array };
const NEEDED = ['mesh_vertex_start', 'vertices', 'mesh_index_start', 'indices', 'times', 'steps',
  'poses', 'marker_start', 'markers', 'marker_ids', 'figures', 'lod_start', 'lod_error', 'lod_vertex_start', 'lod_vertices',
  'lod_index_start', 'lod_indices'];
const BACKGROUND = 0x1d2027;
const FIGURE_COLORS = ['#4fc3f7', '#ff7043', '#aed581', '#ba68c8'];

// parse views the typed arrays of the data in place.
function parse(buf) {
  const magic = new TextDecoder().decode(new Uint8Array(buf, 0, 4));
  if (magic !== 'CVW1') throw new Error('viewer data: bad magic ' + JSON.stringify(magic));
  const n = new DataView(buf).getUint32(4, true);
  const h = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 8, n)));
  const a = {};
  for (const [name, r] of Object.entries(h.sections)) {
    const T = TYPES[r.type];
    if (!T) throw new Error('viewer data: section ' + name + ': unknown type ' + r.type);
    if (r.offset % 8 !== 0 || r.offset + r.count * T.BYTES_PER_ELEMENT > buf.byteLength) {
      throw new Error('viewer data: section ' + name + ' out of range');
    }
    a[name] = new T(buf, r.offset, r.count);
  }
  for (const name of NEEDED) if (!a[name]) throw new Error('viewer data: section ' + name + ' missing');
  const nb = h.bodies.length, nf = h.frames;
  if (a.poses.length !== nf * nb * 7) throw new Error('viewer data: poses hold ' + a.poses.length + ' values for ' + nf + ' frames of ' + nb + ' bodies');
  if (a.times.length !== nf || a.marker_start.length !== nf + 1) throw new Error('viewer data: frame sections disagree with ' + nf + ' frames');
  if (a.figures.length !== nf * h.figures.length) throw new Error('viewer data: figures hold ' + a.figures.length + ' values');
  for (const b of h.bodies) if (!(b.mesh >= 0 && b.mesh < h.meshes.length)) throw new Error('viewer data: body mesh ' + b.mesh);
  const nl = a.lod_error.length;
  if (a.mesh_vertex_start.length !== h.meshes.length + 1 || a.mesh_index_start.length !== h.meshes.length + 1 ||
    a.lod_start.length !== h.meshes.length + 1 || a.lod_start[h.meshes.length] !== nl ||
    a.lod_vertex_start.length !== nl + 1 || a.lod_index_start.length !== nl + 1) {
    throw new Error('viewer data: mesh and level sections disagree with ' + h.meshes.length + ' meshes and ' + nl + ' levels');
  }
  return { h, a };
}

function fmt(x) {
  if (x === 0) return '0';
  const ax = Math.abs(x);
  if (ax >= 1e5 || ax < 1e-3) return x.toExponential(3);
  return x.toPrecision(4).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

export function start(buf, fetchMs) {
  const tParse = performance.now();
  const { h, a } = parse(buf);
  const nb = h.bodies.length, nf = h.frames, nfig = h.figures.length;
  const $ = (id) => document.getElementById(id);

  // Renderer, camera, lights.
  const canvas = $('canvas');
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(BACKGROUND);
  const up = new THREE.Vector3(...h.up);
  const R = h.radius;
  const camera = new THREE.PerspectiveCamera(40, 1, R / 500, R * 200);
  camera.up.copy(up);
  const e = Math.abs(up.x) < 0.9 ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 1, 0);
  const s1 = e.clone().addScaledVector(up, -up.dot(e)).normalize();
  const s2 = new THREE.Vector3().crossVectors(up, s1);
  const viewDir = s1.clone().multiplyScalar(0.5).addScaledVector(s2, -0.85).addScaledVector(up, 0.55).normalize();
  camera.position.copy(viewDir).multiplyScalar(R * 2.7);
  const controls = new OrbitControls(camera, canvas);
  controls.target.set(0, 0, 0);
  controls.update();

  // Bodies. Drawing is one draw call for nearly everything: every body's
  // copy of every level of detail of its mesh lives in one vertex buffer,
  // each vertex carrying its body number, and the vertex shader places it
  // with the body's pose read from a float texture (4 texels a body: three
  // rows of the pose matrix and the colour). Whenever the frame or the
  // camera changes, each body gets the coarsest level whose error is under
  // lodPixels on screen (none when it is outside the view), and an index
  // buffer lists the chosen triangles. Levels too large to copy for every
  // body (mergeVertices; the page address can set it: ?merge=N) are drawn
  // instanced instead, one draw per level.
  // Software WebGL pays per triangle and per instance, a GPU per draw call:
  // both draw few here.
  const ROW = 256, mergeParam = new URLSearchParams(location.search).get('merge');
  const mergeVertices = mergeParam !== null && Number(mergeParam) >= 0 ? Number(mergeParam) : 4e6;
  // Two pixels of the drawing buffer: one CSS pixel on a screen of pixel
  // ratio 2.
  let lodPixels = 2;
  const sunDir = new THREE.Vector3().copy(up).multiplyScalar(3).addScaledVector(s1, 1.2).addScaledVector(s2, -2).normalize();
  const nm = h.meshes.length;
  // Parts: level l of mesh m is part partStart[m] + l; level 0 is the mesh.
  const partStart = new Int32Array(nm + 1);
  for (let m = 0; m < nm; m++) partStart[m + 1] = partStart[m] + 1 + a.lod_start[m + 1] - a.lod_start[m];
  const np = partStart[nm];
  const partMesh = new Int32Array(np), partErr = new Float32Array(np);
  const partVerts = [], partIdx = [];
  for (let m = 0; m < nm; m++) {
    for (let p = partStart[m]; p < partStart[m + 1]; p++) {
      partMesh[p] = m;
      const l = p - partStart[m] - 1 + a.lod_start[m];
      if (p === partStart[m]) {
        partVerts.push(a.vertices.subarray(3 * a.mesh_vertex_start[m], 3 * a.mesh_vertex_start[m + 1]));
        partIdx.push(a.indices.subarray(a.mesh_index_start[m], a.mesh_index_start[m + 1]));
      } else {
        partErr[p] = a.lod_error[l];
        partVerts.push(a.lod_vertices.subarray(3 * a.lod_vertex_start[l], 3 * a.lod_vertex_start[l + 1]));
        partIdx.push(a.lod_indices.subarray(a.lod_index_start[l], a.lod_index_start[l + 1]));
      }
    }
  }
  // Flat faces: each triangle gets a vertex of its own, its last (the
  // provoking vertex, whose value a flat varying takes), carrying the face
  // normal; the other two corners are shared. The vertex shader lights the
  // face, and the fragment shader only writes the colour: cheap where WebGL
  // runs in software, with about one vertex per triangle.
  const partNorm = [];
  for (let p = 0; p < np; p++) {
    const V = partVerts[p], I = partIdx[p], nv = V.length / 3, nt = I.length / 3;
    const pos = new Float32Array(3 * (nv + nt)), nor = new Float32Array(3 * (nv + nt)), idx = new Uint32Array(3 * nt);
    pos.set(V);
    for (let t = 0; t < nt; t++) {
      const i0 = 3 * I[3 * t], i1 = 3 * I[3 * t + 1], i2 = 3 * I[3 * t + 2];
      const ux = V[i1] - V[i0], uy = V[i1 + 1] - V[i0 + 1], uz = V[i1 + 2] - V[i0 + 2];
      const vx = V[i2] - V[i0], vy = V[i2 + 1] - V[i0 + 1], vz = V[i2 + 2] - V[i0 + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const l = Math.hypot(nx, ny, nz) || 1;
      const k = 3 * (nv + t);
      pos[k] = V[i2]; pos[k + 1] = V[i2 + 1]; pos[k + 2] = V[i2 + 2];
      nor[k] = nx / l; nor[k + 1] = ny / l; nor[k + 2] = nz / l;
      idx[3 * t] = I[3 * t]; idx[3 * t + 1] = I[3 * t + 1]; idx[3 * t + 2] = nv + t;
    }
    partVerts[p] = pos; partIdx[p] = idx; partNorm.push(nor);
  }
  // Bounding sphere of each mesh (centre in the mesh's frame).
  const meshCentre = new Float32Array(3 * nm), meshRadius = new Float32Array(nm);
  for (let m = 0; m < nm; m++) {
    const V = partVerts[partStart[m]], lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < V.length; k++) { lo[k % 3] = Math.min(lo[k % 3], V[k]); hi[k % 3] = Math.max(hi[k % 3], V[k]); }
    for (let c = 0; c < 3; c++) meshCentre[3 * m + c] = V.length ? (lo[c] + hi[c]) / 2 : 0;
    let r = 0;
    for (let k = 0; k < V.length; k += 3) {
      r = Math.max(r, Math.hypot(V[k] - meshCentre[3 * m], V[k + 1] - meshCentre[3 * m + 1], V[k + 2] - meshCentre[3 * m + 2]));
    }
    meshRadius[m] = r;
  }
  const bodyMesh = Int32Array.from(h.bodies, (b) => b.mesh);
  const bodyStatic = Uint8Array.from(h.bodies, (b) => (b.static ? 1 : 0));
  const perMesh = new Int32Array(nm);
  for (let b = 0; b < nb; b++) perMesh[bodyMesh[b]]++;
  // Which parts are copied per body: the cheapest first, within the budget.
  const merged = new Uint8Array(np);
  let mergedVerts = 0;
  for (const p of [...Array(np).keys()].sort((x, y) => perMesh[partMesh[x]] * partVerts[x].length - perMesh[partMesh[y]] * partVerts[y].length)) {
    const n = (perMesh[partMesh[p]] * partVerts[p].length) / 3;
    if (mergedVerts + n <= mergeVertices) { merged[p] = 1; mergedVerts += n; }
  }
  const maxLevels = Math.max(1, ...Array.from({ length: nm }, (_, m) => partStart[m + 1] - partStart[m]));
  const base = new Int32Array(nb * maxLevels).fill(-1); // first merged vertex of body b's level l
  const mPos = new Float32Array(3 * mergedVerts), mBody = new Float32Array(mergedVerts), mNorm = new Float32Array(3 * mergedVerts);
  const indexRoom = [0, 0];
  {
    let at = 0;
    for (let b = 0; b < nb; b++) {
      const m = bodyMesh[b];
      let most = 0;
      for (let p = partStart[m]; p < partStart[m + 1]; p++) {
        if (!merged[p]) continue;
        base[b * maxLevels + p - partStart[m]] = at;
        mPos.set(partVerts[p], 3 * at);
        mNorm.set(partNorm[p], 3 * at);
        mBody.fill(b, at, at + partVerts[p].length / 3);
        at += partVerts[p].length / 3;
        most = Math.max(most, partIdx[p].length);
      }
      indexRoom[bodyStatic[b]] += most;
    }
  }
  // Poses and colours of the bodies, 4 texels each.
  const texH = Math.max(1, Math.ceil(nb / ROW));
  const poseData = new Float32Array(ROW * 4 * texH * 4);
  const poseTex = new THREE.DataTexture(poseData, ROW * 4, texH, THREE.RGBAFormat, THREE.FloatType);
  poseTex.needsUpdate = true;
  const grey = '#8a919e';
  for (let b = 0; b < nb; b++) {
    const hex = parseInt((bodyStatic[b] ? grey : h.meshes[bodyMesh[b]].color).slice(1), 16);
    poseData.set([(hex >> 16) / 255, ((hex >> 8) & 255) / 255, (hex & 255) / 255, bodyStatic[b] ? 0.35 : 1], 16 * b + 12);
  }
  // The vertex shader places a vertex by its body's pose and lights the
  // face of its triangle (the sun and sky of the scene).
  function bodyMaterial(translucent) {
    return new THREE.ShaderMaterial({
      glslVersion: THREE.GLSL3,
      uniforms: { poses: { value: poseTex }, sun: { value: sunDir }, sky: { value: up } },
      vertexShader: `
        uniform highp sampler2D poses;
        uniform vec3 sun; uniform vec3 sky;
        in float body;
        flat out vec4 vColor;
        void main() {
          int b = int(body + 0.5);
          ivec2 at = ivec2((b % ${ROW}) * 4, b / ${ROW});
          vec4 r0 = texelFetch(poses, at, 0), r1 = texelFetch(poses, at + ivec2(1, 0), 0), r2 = texelFetch(poses, at + ivec2(2, 0), 0);
          vec4 p = vec4(position, 1.0);
          gl_Position = projectionMatrix * viewMatrix * vec4(dot(r0, p), dot(r1, p), dot(r2, p), 1.0);
          vec3 n = vec3(dot(r0.xyz, normal), dot(r1.xyz, normal), dot(r2.xyz, normal));
          vec4 c = texelFetch(poses, at + ivec2(3, 0), 0);
          vColor = vec4(c.rgb * (0.42 + 0.22 * dot(n, sky) + 0.5 * max(dot(n, sun), 0.0)), c.a);
        }`,
      fragmentShader: `
        flat in vec4 vColor;
        out vec4 fragColor;
        void main() { fragColor = vColor; }`,
      transparent: translucent, depthWrite: !translucent,
    });
  }
  const materials = [bodyMaterial(false), bodyMaterial(true)];
  const bodyDraws = [];
  function addDraw(geom, translucent) {
    const mesh = new THREE.Mesh(geom, materials[translucent]);
    mesh.frustumCulled = false;
    if (translucent) mesh.renderOrder = 1;
    scene.add(mesh);
    bodyDraws.push(mesh);
    return mesh;
  }
  // The merged draws, opaque and translucent, share the vertex buffer.
  const mPosAttr = new THREE.BufferAttribute(mPos, 3), mBodyAttr = new THREE.BufferAttribute(mBody, 1);
  const mNormAttr = new THREE.BufferAttribute(mNorm, 3);
  const mergedDraw = [0, 1].map((translucent) => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', mPosAttr);
    g.setAttribute('body', mBodyAttr);
    g.setAttribute('normal', mNormAttr);
    const index = new THREE.BufferAttribute(new Uint32Array(Math.max(3, indexRoom[translucent])), 1).setUsage(THREE.DynamicDrawUsage);
    g.setIndex(index);
    g.setDrawRange(0, 0);
    addDraw(g, translucent);
    return { g, index, n: 0 };
  });
  // The instanced draws, one per level not merged (and static or not).
  const instDraw = new Map(), instList = [];
  for (let b = 0; b < nb; b++) {
    for (let p = partStart[bodyMesh[b]]; p < partStart[bodyMesh[b] + 1]; p++) {
      const key = 2 * p + bodyStatic[b];
      if (merged[p] || instDraw.has(key)) continue;
      const g = new THREE.InstancedBufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(partVerts[p], 3));
      g.setAttribute('normal', new THREE.BufferAttribute(partNorm[p], 3));
      g.setIndex(new THREE.BufferAttribute(partIdx[p], 1));
      const body = new THREE.InstancedBufferAttribute(new Float32Array(perMesh[bodyMesh[b]]), 1).setUsage(THREE.DynamicDrawUsage);
      g.setAttribute('body', body);
      g.instanceCount = 0;
      addDraw(g, bodyStatic[b]);
      instDraw.set(key, { g, body, n: 0 });
      instList.push(instDraw.get(key));
    }
  }
  // upload sends the first n values of a buffer attribute to the GPU.
  function upload(attr, n) {
    attr.clearUpdateRanges();
    attr.addUpdateRange(0, n);
    attr.needsUpdate = true;
  }

  // Markers: points and normal segments, sized for the busiest frame.
  const ms = a.marker_start;
  let maxMarkers = 0;
  for (let f = 0; f < nf; f++) maxMarkers = Math.max(maxMarkers, ms[f + 1] - ms[f]);
  const ptPos = new Float32Array(Math.max(1, maxMarkers) * 3);
  const lnPos = new Float32Array(Math.max(1, maxMarkers) * 6);
  const ptGeom = new THREE.BufferGeometry();
  ptGeom.setAttribute('position', new THREE.BufferAttribute(ptPos, 3).setUsage(THREE.DynamicDrawUsage));
  const lnGeom = new THREE.BufferGeometry();
  lnGeom.setAttribute('position', new THREE.BufferAttribute(lnPos, 3).setUsage(THREE.DynamicDrawUsage));
  // Points of 7 pixels, smaller when a frame has hundreds of contacts (down
  // to 3 pixels from about 1600): they stay apart, and cost less to draw.
  const pointSize = Math.max(3, Math.min(7, Math.round(7 * Math.sqrt(300 / Math.max(1, maxMarkers)))));
  const points = new THREE.Points(ptGeom, new THREE.PointsMaterial({ color: 0xff2d55, size: pointSize, sizeAttenuation: false, depthTest: false }));
  const lines = new THREE.LineSegments(lnGeom, new THREE.LineBasicMaterial({ color: 0xffb000, depthTest: false }));
  points.renderOrder = lines.renderOrder = 2;
  points.frustumCulled = lines.frustumCulled = false;
  scene.add(lines, points);

  // Side panel.
  $('title').textContent = h.title;
  for (const line of h.info) {
    const d = document.createElement('div');
    d.textContent = line;
    $('info').appendChild(d);
  }
  const used = new Set(h.bodies.filter((b) => !b.static).map((b) => b.mesh));
  const counts = new Map();
  for (const b of h.bodies) if (!b.static) counts.set(b.mesh, (counts.get(b.mesh) || 0) + 1);
  let shown = 0;
  h.meshes.forEach((m, i) => {
    if (!used.has(i)) return;
    if (++shown > 24) return;
    const d = document.createElement('div');
    d.innerHTML = '<span class="key"></span>';
    d.firstChild.style.background = m.color;
    d.append(m.name + ' × ' + counts.get(i));
    $('legend').appendChild(d);
  });
  if (shown > 24) {
    const d = document.createElement('div');
    d.textContent = '… and ' + (shown - 24) + ' more meshes';
    $('legend').appendChild(d);
  }
  const figRows = ['time', 'frame', 'step', ...h.figures].map((name) => {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td></td><td class="v"></td>';
    tr.firstChild.textContent = name;
    $('figures').appendChild(tr);
    return tr.lastChild;
  });
  const markerRows = [];
  if (h.marker_list) {
    const head = document.createElement('h2');
    head.textContent = 'markers (' + ms[nf] + ')';
    $('markers').appendChild(head);
    for (let f = 0; f < nf; f++) {
      for (let k = ms[f]; k < ms[f + 1]; k++) {
        const d = document.createElement('div');
        const label = a.marker_ids[3 * k + 2];
        d.textContent = h.time_unit + ' = ' + fmt(a.markers[8 * k + 7]) + '  ' + (label >= 0 ? h.labels[label] : '');
        d.addEventListener('click', () => { pause(); setFrame(f); });
        $('markers').appendChild(d);
        markerRows.push({ f, d });
      }
    }
  }

  // Chart of the figures over the frames, each scaled to its own maximum.
  // The chart is drawn once; a thin element over it marks the frame.
  const chart = $('chart'), cursor = $('cursor');
  (() => {
    const c = chart.getContext('2d'), W = chart.width, H = chart.height;
    c.font = '20px system-ui, sans-serif';
    for (let k = 0; k < nfig; k++) {
      let mx = 0;
      for (let f = 0; f < nf; f++) mx = Math.max(mx, a.figures[f * nfig + k]);
      c.strokeStyle = c.fillStyle = FIGURE_COLORS[k % FIGURE_COLORS.length];
      c.lineWidth = 2;
      c.beginPath();
      for (let f = 0; f < nf; f++) {
        const x = nf > 1 ? (f / (nf - 1)) * (W - 4) + 2 : W / 2;
        const y = H - 4 - (mx > 0 ? a.figures[f * nfig + k] / mx : 0) * (H - 36);
        if (f === 0) c.moveTo(x, y); else c.lineTo(x, y);
      }
      c.stroke();
      c.fillText(h.figures[k] + ' (max ' + fmt(mx) + ')', 6, 22 + k * 24);
    }
  })();

  // Frames.
  const P = a.poses, times = a.times, steps = a.steps;
  const slider = $('slider');
  slider.max = String(nf - 1);
  let frame = -1, dirty = true;
  function setFrame(f) {
    f = Math.max(0, Math.min(nf - 1, f | 0));
    if (f === frame) return;
    frame = f;
    const o0 = f * nb * 7;
    for (let b = 0; b < nb; b++) {
      const o = o0 + 7 * b, d = 16 * b;
      const w = P[o + 3], x = P[o + 4], y = P[o + 5], z = P[o + 6];
      poseData[d] = 1 - 2 * (y * y + z * z); poseData[d + 1] = 2 * (x * y - w * z); poseData[d + 2] = 2 * (x * z + w * y); poseData[d + 3] = P[o];
      poseData[d + 4] = 2 * (x * y + w * z); poseData[d + 5] = 1 - 2 * (x * x + z * z); poseData[d + 6] = 2 * (y * z - w * x); poseData[d + 7] = P[o + 1];
      poseData[d + 8] = 2 * (x * z - w * y); poseData[d + 9] = 2 * (y * z + w * x); poseData[d + 10] = 1 - 2 * (x * x + y * y); poseData[d + 11] = P[o + 2];
    }
    poseTex.needsUpdate = true;
    const M = a.markers, L = h.normal_length;
    let j = 0;
    for (let k = ms[f]; k < ms[f + 1]; k++, j++) {
      const m = 8 * k;
      ptPos[3 * j] = lnPos[6 * j] = M[m];
      ptPos[3 * j + 1] = lnPos[6 * j + 1] = M[m + 1];
      ptPos[3 * j + 2] = lnPos[6 * j + 2] = M[m + 2];
      lnPos[6 * j + 3] = M[m] + L * M[m + 3];
      lnPos[6 * j + 4] = M[m + 1] + L * M[m + 4];
      lnPos[6 * j + 5] = M[m + 2] + L * M[m + 5];
    }
    ptGeom.setDrawRange(0, j);
    lnGeom.setDrawRange(0, 2 * j);
    upload(ptGeom.attributes.position, 3 * j);
    upload(lnGeom.attributes.position, 6 * j);

    dirty = lodDirty = true;
    panelDirty = true;
  }

  // The panel follows the frame at most 10 times a second while playing
  // (every change when paused): repainting text is not free.
  let panelDirty = true, panelAt = 0;
  function updatePanel(now) {
    if (!panelDirty || (playing && now - panelAt < 100)) return;
    panelDirty = false;
    panelAt = now;
    const f = frame;
    slider.value = String(f);
    $('time').textContent = h.time_unit + ' = ' + fmt(times[f]) + '   (' + (f + 1) + ' / ' + nf + ')';
    figRows[0].textContent = fmt(times[f]) + ' ' + h.time_unit;
    figRows[1].textContent = String(f);
    figRows[2].textContent = steps[f] >= 0 ? String(steps[f]) : '–';
    for (let k = 0; k < nfig; k++) figRows[3 + k].textContent = fmt(a.figures[f * nfig + k]);
    for (const r of markerRows) r.d.classList.toggle('on', r.f === f);
    const x = nf > 1 ? (f / (nf - 1)) * (chart.clientWidth - 2) + 1 : chart.clientWidth / 2;
    cursor.style.transform = 'translateX(' + x.toFixed(1) + 'px)';
  }

  // Playback: simulation time advances by rate × speed per second.
  let playing = false, simTime = 0, last = 0;
  const playBtn = $('play');
  function play() {
    if (frame >= nf - 1) setFrame(0);
    simTime = times[frame];
    playing = true;
    last = 0;
    playBtn.textContent = '❚❚';
  }
  function pause() {
    playing = false;
    panelDirty = true;
    playBtn.textContent = '▶';
  }
  playBtn.addEventListener('click', () => (playing ? pause() : play()));
  $('prev').addEventListener('click', () => { pause(); setFrame(frame - 1); });
  $('next').addEventListener('click', () => { pause(); setFrame(frame + 1); });
  slider.addEventListener('input', () => { pause(); setFrame(Number(slider.value)); });
  const speed = $('speed');
  window.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
    if (ev.key === ' ') { ev.preventDefault(); playing ? pause() : play(); }
    if (ev.key === 'ArrowLeft') { pause(); setFrame(frame - 1); }
    if (ev.key === 'ArrowRight') { pause(); setFrame(frame + 1); }
  });
  controls.addEventListener('change', () => { dirty = lodDirty = true; });
  const showPoints = $('show-points'), showNormals = $('show-normals');
  const showChanged = () => { points.visible = showPoints.checked; lines.visible = showNormals.checked; dirty = true; };
  showPoints.addEventListener('change', showChanged);
  showNormals.addEventListener('change', showChanged);

  // Levels of detail and culling, for the current frame and camera.
  const chosen = new Int32Array(nb).fill(-2); // part drawn for each body, -1: none
  const frustum = new THREE.Frustum(), projView = new THREE.Matrix4(), sphere = new THREE.Sphere();
  let lodDirty = true;
  function chooseLevels() {
    lodDirty = false;
    camera.updateMatrixWorld();
    projView.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    frustum.setFromProjectionMatrix(projView);
    const cam = camera.position;
    // Pixels per unit length at distance 1.
    const scale = renderer.domElement.height / (2 * Math.tan((camera.fov * Math.PI) / 360));
    let changed = false;
    for (let b = 0; b < nb; b++) {
      const m = bodyMesh[b], d = 16 * b, cx = meshCentre[3 * m], cy = meshCentre[3 * m + 1], cz = meshCentre[3 * m + 2];
      sphere.center.set(poseData[d] * cx + poseData[d + 1] * cy + poseData[d + 2] * cz + poseData[d + 3],
        poseData[d + 4] * cx + poseData[d + 5] * cy + poseData[d + 6] * cz + poseData[d + 7],
        poseData[d + 8] * cx + poseData[d + 9] * cy + poseData[d + 10] * cz + poseData[d + 11]);
      sphere.radius = meshRadius[m];
      let p = -1;
      if (frustum.intersectsSphere(sphere)) {
        const px = scale / Math.max(sphere.center.distanceTo(cam) - sphere.radius, camera.near);
        p = partStart[m];
        while (p + 1 < partStart[m + 1] && partErr[p + 1] * px <= lodPixels) p++;
      }
      if (chosen[b] !== p) { chosen[b] = p; changed = true; }
    }
    if (!changed) return;
    for (const md of mergedDraw) md.n = 0;
    for (const id of instList) id.n = 0;
    for (let b = 0; b < nb; b++) {
      const p = chosen[b];
      if (p < 0) continue;
      if (merged[p]) {
        const md = mergedDraw[bodyStatic[b]], I = partIdx[p], at = base[b * maxLevels + p - partStart[bodyMesh[b]]], out = md.index.array;
        for (let k = 0; k < I.length; k++) out[md.n + k] = at + I[k];
        md.n += I.length;
      } else {
        const id = instDraw.get(2 * p + bodyStatic[b]);
        id.body.array[id.n++] = b;
      }
    }
    for (const md of mergedDraw) {
      md.g.setDrawRange(0, md.n);
      upload(md.index, md.n);
    }
    for (const id of instList) {
      id.g.instanceCount = id.n;
      upload(id.body, id.n);
    }
  }

  function resize() {
    const w = canvas.clientWidth, hh = canvas.clientHeight;
    if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(hh * renderer.getPixelRatio())) {
      renderer.setSize(w, hh, false);
      camera.aspect = w / Math.max(1, hh);
      camera.updateProjectionMatrix();
      dirty = lodDirty = true;
    }
  }

  // Frame timing for measure(): intervals between animation frames and the
  // time spent updating and rendering in each.
  let rec = null;
  function tick(now) {
    requestAnimationFrame(tick);
    const w0 = performance.now();
    if (playing) {
      if (last) simTime += ((now - last) / 1000) * h.rate * Number(speed.value);
      last = now;
      let f = frame;
      while (f + 1 < nf && times[f + 1] <= simTime) f++;
      setFrame(f);
      if (f >= nf - 1) {
        if (rec) { setFrame(0); simTime = times[0]; } else pause();
      }
    }
    resize();
    if (dirty && lodDirty) chooseLevels();
    const w1 = performance.now();
    updatePanel(now);
    if (dirty) {
      renderer.render(scene, camera);
      // While measuring, read a pixel back: it waits until the GPU has
      // drawn the frame, so the work time includes the rendering itself.
      if (rec) {
        const gl = renderer.getContext();
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, rec.pixel);
      }
      dirty = false;
    }
    if (rec) {
      if (rec.prev) rec.intervals.push(now - rec.prev);
      rec.prev = now;
      rec.work.push(performance.now() - w0);
      rec.update.push(w1 - w0);
      rec.triangles.push(renderer.info.render.triangles);
    }
  }
  setFrame(0);
  updatePanel(0);
  resize();
  chooseLevels();
  renderer.render(scene, camera);
  const loadMs = fetchMs + (performance.now() - tParse);
  $('status').textContent = '';
  requestAnimationFrame(tick);

  const stat = (xs) => {
    const s = [...xs].sort((p, q) => p - q);
    return { mean: s.reduce((p, q) => p + q, 0) / Math.max(1, s.length), p95: s[Math.floor(0.95 * (s.length - 1))] || 0 };
  };
  window.viewer = {
    ready: true,
    frames: nf,
    bodies: nb,
    loadMs,
    get frame() { return frame; },
    setFrame(f) { pause(); setFrame(f); updatePanel(performance.now()); },
    showMarkers(on, normals = on) { showPoints.checked = on; showNormals.checked = normals; showChanged(); },
    showBodies(on) { for (const d of bodyDraws) d.visible = on; dirty = true; },
    // The largest error on screen, in pixels, of the simplified meshes
    // drawn for bodies small in the picture (0: every body in full).
    get lodPixels() { return lodPixels; },
    set lodPixels(x) { lodPixels = x; dirty = lodDirty = true; },
    // renderTime draws the current frame n times, waiting for each
    // drawing, and returns the median and least time in ms, with the
    // triangles and draw calls of a drawing.
    renderTime(n) {
      if (lodDirty) chooseLevels();
      const gl = renderer.getContext(), px = new Uint8Array(4), ts = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        renderer.render(scene, camera);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
        ts.push(performance.now() - t0);
      }
      ts.sort((p, q) => p - q);
      return { median: ts[n >> 1], min: ts[0], triangles: renderer.info.render.triangles, calls: renderer.info.render.calls };
    },
    play, pause,
    // measure plays for ms milliseconds (looping) and returns, in ms, the
    // animation frame interval, the per-frame work (pose update, render and
    // waiting for the drawing) and the update alone (poses, levels of
    // detail), with the mean triangles drawn.
    measure(ms) {
      return new Promise((resolve) => {
        rec = { prev: 0, intervals: [], work: [], update: [], triangles: [], pixel: new Uint8Array(4) };
        speed.value = '1';
        play();
        setTimeout(() => {
          const r = rec;
          rec = null;
          pause();
          const iv = stat(r.intervals), wk = stat(r.work), up = stat(r.update);
          resolve({ frames: r.intervals.length, interval: iv.mean, intervalP95: iv.p95, work: wk.mean, workP95: wk.p95,
            update: up.mean, updateP95: up.p95, triangles: stat(r.triangles).mean });
        }, ms);
      });
    },
  };
}

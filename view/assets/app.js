// collide view: replays frames of bodies (instanced meshes, one per mesh and
// kind) with markers (points and normals) and per-frame figures. The frame
// data format is described in package view (Scene.Encode).
import * as THREE from 'three';
import { OrbitControls } from './OrbitControls.js';

const TYPES = { f32: Float32Array, f64: Float64Array, u32: Uint32Array, i32: Int32Array };
const NEEDED = ['mesh_vertex_start', 'vertices', 'mesh_index_start', 'indices', 'times', 'steps',
  'poses', 'marker_start', 'markers', 'marker_ids', 'figures'];
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

  // One instanced mesh per (mesh, static) group of bodies.
  const vs = a.mesh_vertex_start, is = a.mesh_index_start;
  // Flat faces: every triangle gets its own three vertices and face normal,
  // so the shader needs no derivatives (cheaper on software renderers).
  const geoms = h.meshes.map((m, i) => {
    const V = a.vertices, I = a.indices.subarray(is[i], is[i + 1]), v0 = vs[i];
    const pos = new Float32Array(I.length * 3);
    for (let k = 0; k < I.length; k++) {
      const v = (v0 + I[k]) * 3;
      pos[3 * k] = V[v];
      pos[3 * k + 1] = V[v + 1];
      pos[3 * k + 2] = V[v + 2];
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
    g.computeVertexNormals();
    return g;
  });
  // Bodies are lit per face in the vertex shader (a fixed sun and sky), so
  // the fragment shader only writes a colour: cheap even where WebGL runs
  // in software.
  const sunDir = new THREE.Vector3().copy(up).multiplyScalar(3).addScaledVector(s1, 1.2).addScaledVector(s2, -2).normalize();
  function faceMaterial(hex, opacity) {
    const c = new THREE.Color();
    c.setHex(typeof hex === 'string' ? parseInt(hex.slice(1), 16) : hex, THREE.LinearSRGBColorSpace);
    return new THREE.ShaderMaterial({
      uniforms: { color: { value: new THREE.Vector3(c.r, c.g, c.b) }, opacity: { value: opacity },
        sun: { value: sunDir }, sky: { value: up } },
      vertexShader: `
        uniform vec3 color; uniform vec3 sun; uniform vec3 sky;
        varying vec3 vColor;
        void main() {
          mat4 m = modelMatrix;
          #ifdef USE_INSTANCING
          m = m * instanceMatrix;
          #endif
          vec3 n = normalize(mat3(m) * normal);
          float light = 0.42 + 0.22 * dot(n, sky) + 0.5 * max(dot(n, sun), 0.0);
          vColor = color * light;
          gl_Position = projectionMatrix * viewMatrix * m * vec4(position, 1.0);
        }`,
      fragmentShader: `
        uniform float opacity;
        varying vec3 vColor;
        void main() { gl_FragColor = vec4(vColor, opacity); }`,
      transparent: opacity < 1, depthWrite: opacity >= 1,
    });
  }
  const groups = new Map();
  h.bodies.forEach((b, i) => {
    const key = b.mesh * 2 + (b.static ? 1 : 0);
    if (!groups.has(key)) groups.set(key, { mesh: b.mesh, static: b.static, bodies: [] });
    groups.get(key).bodies.push(i);
  });
  const instanced = [];
  for (const g of groups.values()) {
    const color = g.static ? 0x8a919e : h.meshes[g.mesh].color;
    const mat = faceMaterial(color, g.static ? 0.35 : 1);
    const im = new THREE.InstancedMesh(geoms[g.mesh], mat, g.bodies.length);
    im.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    im.frustumCulled = false;
    if (g.static) im.renderOrder = 1;
    scene.add(im);
    instanced.push({ im, bodies: Int32Array.from(g.bodies) });
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
  const points = new THREE.Points(ptGeom, new THREE.PointsMaterial({ color: 0xff2d55, size: 7, sizeAttenuation: false, depthTest: false }));
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
  const mat = new THREE.Matrix4(), pos = new THREE.Vector3(), quat = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1);
  const slider = $('slider');
  slider.max = String(nf - 1);
  let frame = -1, dirty = true;
  function setFrame(f) {
    f = Math.max(0, Math.min(nf - 1, f | 0));
    if (f === frame) return;
    frame = f;
    const base = f * nb * 7;
    for (const { im, bodies } of instanced) {
      for (let k = 0; k < bodies.length; k++) {
        const o = base + bodies[k] * 7;
        pos.set(P[o], P[o + 1], P[o + 2]);
        quat.set(P[o + 4], P[o + 5], P[o + 6], P[o + 3]);
        mat.compose(pos, quat, one);
        im.setMatrixAt(k, mat);
      }
      im.instanceMatrix.needsUpdate = true;
    }
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
    ptGeom.attributes.position.needsUpdate = true;
    lnGeom.attributes.position.needsUpdate = true;

    dirty = true;
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
  controls.addEventListener('change', () => { dirty = true; });

  function resize() {
    const w = canvas.clientWidth, hh = canvas.clientHeight;
    if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(hh * renderer.getPixelRatio())) {
      renderer.setSize(w, hh, false);
      camera.aspect = w / Math.max(1, hh);
      camera.updateProjectionMatrix();
      dirty = true;
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
    const w1 = performance.now();
    resize();
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
    }
  }
  setFrame(0);
  updatePanel(0);
  resize();
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
    showMarkers(on) { points.visible = lines.visible = on; dirty = true; },
    showBodies(on) { for (const { im } of instanced) im.visible = on; dirty = true; },
    play, pause,
    // measure plays for ms milliseconds (looping) and returns, in ms, the
    // animation frame interval, the per-frame work (pose update, render and
    // waiting for the drawing) and the pose update alone.
    measure(ms) {
      return new Promise((resolve) => {
        rec = { prev: 0, intervals: [], work: [], update: [], pixel: new Uint8Array(4) };
        speed.value = '1';
        play();
        setTimeout(() => {
          const r = rec;
          rec = null;
          pause();
          const iv = stat(r.intervals), wk = stat(r.work), up = stat(r.update);
          resolve({ frames: r.intervals.length, interval: iv.mean, intervalP95: iv.p95, work: wk.mean, workP95: wk.p95,
            update: up.mean, updateP95: up.p95 });
        }, ms);
      });
    },
  };
}

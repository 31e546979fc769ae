// gameai board widget: draws the `view` trait as SVG and sends clicks to Python.
// Python does every rule check; this file only draws and reports what was clicked.
const NS = "http://www.w3.org/2000/svg";
const CELL = 40, PAD = 46;

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const letter = (c) => String.fromCharCode(97 + c);
const XQ_NAMES = { k: "K", a: "A", b: "E", n: "H", r: "R", c: "C", p: "P" };

function render({ model, el: root }) {
  root.classList.add("gameai-board");
  const wrap = document.createElement("div");
  wrap.className = "gb-wrap";
  const boardBox = document.createElement("div");
  const side = document.createElement("div");
  side.className = "gb-side";
  wrap.append(boardBox, side);
  root.appendChild(wrap);
  let selected = null;

  function point(v, c, r) {
    // screen position of an intersection: column c from the left, row r from the bottom
    return [PAD + c * CELL, PAD + (v.ranks - 1 - r) * CELL];
  }
  const ptName = (v, c, r) => (v.game === "xiangqi" ? `${letter(c)}${r}` : `${letter(c)}${r + 1}`);

  function draw() {
    const v = model.get("view") || {};
    if (!v.files) return;
    const W = PAD * 2 + (v.files - 1) * CELL, H = PAD * 2 + (v.ranks - 1) * CELL;
    const svg = el("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "gb-svg" });
    el("rect", { x: 0, y: 0, width: W, height: H, class: v.game === "xiangqi" ? "gb-bg-xq" : "gb-bg-go" }, svg);
    // grid (the Xiangqi river breaks the inner files)
    for (let r = 0; r < v.ranks; r++) {
      const [x0, y] = point(v, 0, r), [x1] = point(v, v.files - 1, r);
      el("line", { x1: x0, y1: y, x2: x1, y2: y, class: "gb-line" }, svg);
    }
    for (let c = 0; c < v.files; c++) {
      const segs = v.game === "xiangqi" && c > 0 && c < 8 ? [[0, 4], [5, 9]] : [[0, v.ranks - 1]];
      for (const [a, b] of segs) {
        const [x, y0] = point(v, c, a), [, y1] = point(v, c, b);
        el("line", { x1: x, y1: y0, x2: x, y2: y1, class: "gb-line" }, svg);
      }
    }
    if (v.game === "xiangqi") {
      for (const r0 of [0, 7]) {
        const p = (c, r) => point(v, c, r);
        el("line", { x1: p(3, r0)[0], y1: p(3, r0)[1], x2: p(5, r0 + 2)[0], y2: p(5, r0 + 2)[1], class: "gb-line" }, svg);
        el("line", { x1: p(5, r0)[0], y1: p(5, r0)[1], x2: p(3, r0 + 2)[0], y2: p(3, r0 + 2)[1], class: "gb-line" }, svg);
      }
      const [, ry] = point(v, 0, 4.5);
      const t = el("text", { x: W / 2, y: ry + 5, class: "gb-river" }, svg);
      t.textContent = "river";
    }
    // coordinates on every edge
    for (let c = 0; c < v.files; c++) {
      const [x, yb] = point(v, c, 0), [, yt] = point(v, c, v.ranks - 1);
      for (const y of [yb + PAD * 0.75, yt - PAD * 0.6]) el("text", { x, y, class: "gb-coord" }, svg).textContent = letter(c);
    }
    for (let r = 0; r < v.ranks; r++) {
      const [xl, y] = point(v, 0, r), [xr] = point(v, v.files - 1, r);
      const label = v.game === "xiangqi" ? `${r}` : `${r + 1}`;
      for (const x of [xl - PAD * 0.68, xr + PAD * 0.68]) el("text", { x, y: y + 4, class: "gb-coord" }, svg).textContent = label;
    }
    // last move
    if (v.last) {
      const sq = v.game === "xiangqi" ? [[v.last[0], v.last[1], "from"], [v.last[2], v.last[3], "to"]] : [[v.last[0], v.last[1], "to"]];
      for (const [c, r, kind] of sq) {
        const [x, y] = point(v, c, r);
        el("rect", { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, class: "gb-last",
                     "data-last": kind, "data-pt": ptName(v, c, r) }, svg);
      }
    }
    // Renju: black's forbidden points
    for (const [c, r, why] of v.forbidden || []) {
      const [x, y] = point(v, c, r);
      const t = el("text", { x, y: y + 5, class: "gb-forbidden", "data-forbidden": ptName(v, c, r) }, svg);
      t.textContent = "×";
      el("title", {}, t).textContent = why;
    }
    // pieces / stones
    const numbers = {};
    for (const [c, r, n] of v.numbers || []) numbers[`${c},${r}`] = n;
    for (const [c, r, p] of v.pieces || []) {
      const [x, y] = point(v, c, r);
      const g = el("g", { class: "gb-piece", "data-pt": ptName(v, c, r) }, svg);
      if (v.game === "xiangqi") {
        const red = p === p.toUpperCase();
        g.setAttribute("data-side", red ? "0" : "1");
        el("circle", { cx: x, cy: y, r: CELL * 0.44, class: red ? "gb-xq-red" : "gb-xq-black" }, g);
        const t = el("text", { x, y: y + 6, class: red ? "gb-xq-label-red" : "gb-xq-label-black" }, g);
        t.textContent = XQ_NAMES[p.toLowerCase()];
      } else {
        g.setAttribute("data-side", p === "X" ? "0" : "1");
        el("circle", { cx: x, cy: y, r: CELL * 0.45, class: p === "X" ? "gb-stone-black" : "gb-stone-white" }, g);
        const n = numbers[`${c},${r}`];
        if (n) el("text", { x, y: y + 4, class: p === "X" ? "gb-num-on-black" : "gb-num-on-white" }, g).textContent = n;
      }
    }
    // principal variation: arrows (Xiangqi) or numbered ghost stones (Gomoku)
    if (v.game === "xiangqi") {
      const defs = el("defs", {}, svg);
      const mk = el("marker", { id: "gb-arrow", markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: "auto" }, defs);
      el("path", { d: "M0,0 L8,4 L0,8 z", class: "gb-pv-head" }, mk);
      (v.pv || []).forEach(([fc, fr, tc, tr], i) => {
        const [x0, y0] = point(v, fc, fr), [x2, y2] = point(v, tc, tr);
        const len = Math.hypot(x2 - x0, y2 - y0) || 1, back = CELL * 0.5;  // head stops at the piece's edge
        const x1 = x2 - ((x2 - x0) * back) / len, y1 = y2 - ((y2 - y0) * back) / len;
        el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "gb-pv", "marker-end": "url(#gb-arrow)", "data-pv": i + 1 }, svg);
        el("text", { x: (x0 + x1) / 2 + 6, y: (y0 + y1) / 2, class: "gb-pv-num" }, svg).textContent = i + 1;
      });
    } else {
      (v.pv || []).forEach(([c, r], i) => {
        const [x, y] = point(v, c, r);
        el("circle", { cx: x, cy: y, r: CELL * 0.42, class: (v.to_move + i) % 2 ? "gb-ghost-white" : "gb-ghost-black", "data-pv": i + 1 }, svg);
        el("text", { x, y: y + 4, class: "gb-pv-num" }, svg).textContent = i + 1;
      });
    }
    // selection and legal targets (Xiangqi)
    if (selected && v.legal && v.legal[selected]) {
      const [sc, sr] = selected.split(",").map(Number);
      const [x, y] = point(v, sc, sr);
      el("circle", { cx: x, cy: y, r: CELL * 0.48, class: "gb-selected" }, svg);
      for (const [c, r] of v.legal[selected]) {
        const [tx, ty] = point(v, c, r);
        el("circle", { cx: tx, cy: ty, r: CELL * 0.16, class: "gb-target", "data-target": ptName(v, c, r) }, svg);
      }
    }
    // click targets on every intersection, on top of everything
    for (let c = 0; c < v.files; c++) {
      for (let r = 0; r < v.ranks; r++) {
        const [x, y] = point(v, c, r);
        const hit = el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: "gb-hit",
                                 "data-click": ptName(v, c, r) }, svg);
        hit.addEventListener("click", () => clicked(v, c, r));
      }
    }
    boardBox.replaceChildren(svg);
    drawSide(v);
  }

  function clicked(v, c, r) {
    if (v.mode !== "play" || !v.your_turn) return;
    if (v.game !== "xiangqi") {
      model.send({ type: "move", text: ptName(v, c, r) });
      return;
    }
    const key = `${c},${r}`;
    if (selected && (v.legal[selected] || []).some(([tc, tr]) => tc === c && tr === r)) {
      const [sc, sr] = selected.split(",").map(Number);
      selected = null;
      model.send({ type: "move", text: ptName(v, sc, sr) + ptName(v, c, r) });
      return;
    }
    selected = v.legal && v.legal[key] ? key : null;
    draw();
  }

  function button(label, msg, title) {
    const b = document.createElement("button");
    b.textContent = label;
    b.title = title;
    b.className = "gb-button";
    b.dataset.action = msg.type + (msg.to !== undefined ? `-${msg.to}` : "");
    b.addEventListener("click", () => model.send(msg));
    return b;
  }

  function drawSide(v) {
    const stats = model.get("stats") || {};
    const err = model.get("error") || "";
    side.replaceChildren();
    const status = document.createElement("div");
    status.className = "gb-status";
    status.textContent = (v.title ? v.title + " - " : "") + v.status;
    side.appendChild(status);
    const bar = document.createElement("div");
    bar.className = "gb-buttons";
    if (v.mode === "viewer") {
      bar.append(button("⏮", { type: "step", to: 0 }, "start"), button("◀", { type: "step", to: v.ply - 1 }, "back"),
                 button("▶", { type: "step", to: v.ply + 1 }, "forward"), button("⏭", { type: "step", to: v.plies }, "end"));
      const pos = document.createElement("span");
      pos.className = "gb-ply";
      pos.textContent = ` move ${v.ply} / ${v.plies}`;
      bar.appendChild(pos);
    } else {
      bar.append(button("undo", { type: "undo" }, "take back your last move"),
                 button("hint", { type: "hint" }, "search for you and show the line"),
                 button("new", { type: "new" }, "start again"));
    }
    side.appendChild(bar);
    if (err) {
      const e = document.createElement("div");
      e.className = "gb-error";
      e.textContent = err;
      side.appendChild(e);
    }
    const table = document.createElement("table");
    table.className = "gb-stats";
    const labels = [["player", "player"], ["move", "move_str"], ["move", "move"], ["value", "value"], ["depth", "depth"],
                    ["nodes", "nodes"], ["cut-offs", "cutoffs"], ["TT hits", "tt_hits"], ["re-searches", "researches"],
                    ["time (s)", "time_s"], ["PV", "pv_str"]];
    for (const [label, key] of labels) {
      if (stats[key] === undefined || stats[key] === null || stats[key] === "") continue;
      const tr = document.createElement("tr");
      const val = typeof stats[key] === "number" && !Number.isInteger(stats[key]) ? stats[key].toFixed(3)
        : typeof stats[key] === "number" ? stats[key].toLocaleString("en") : String(stats[key]);
      tr.innerHTML = `<th>${label}</th><td data-stat="${key}"></td>`;
      tr.querySelector("td").textContent = val;
      table.appendChild(tr);
    }
    if (stats.thinking) {
      const cap = document.createElement("caption");
      cap.textContent = "thinking...";
      table.appendChild(cap);
    }
    side.appendChild(table);
    const moves = document.createElement("div");
    moves.className = "gb-moves";
    moves.textContent = (v.moves || []).join(" ");
    side.appendChild(moves);
  }

  const redraw = () => draw();
  for (const name of ["change:view", "change:stats", "change:error"]) model.on(name, redraw);
  draw();
  return () => { for (const name of ["change:view", "change:stats", "change:error"]) model.off(name, redraw); };
}

export default { render };

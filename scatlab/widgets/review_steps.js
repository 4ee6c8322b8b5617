
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "scat-review";
  root.tabIndex = 0;
  el.append(root);
  const send = (msg) => model.send(msg);
  root.addEventListener("keydown", (e) => {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key]) { e.preventDefault(); send({ type: keys[e.key] }); }
  });
  // A redraw replaces the buttons: the one that had focus (or the root) gets it back, so the
  // arrow keys keep working after a click on a button or a mark.
  let meter = null;
  let meterLabel = null;
  let busy = false;
  function showProgress() {
    const p = model.get("progress") || {};
    busy = p.total !== undefined;
    if (!meter) return;
    meter.hidden = !busy;
    if (busy) { meter.max = p.total || 1; meter.value = p.done || 0; }
    // what the look is doing, in words, beside its bar (and for a screen reader)
    if (meterLabel) { meterLabel.hidden = !busy; meterLabel.textContent = busy ? (p.what || "Looking deeper") : ""; }
    if (busy) meter.setAttribute("aria-label", p.what || "deeper look under way");
    const deep = root.querySelector('[data-focus="deep"]');
    if (deep) deep.disabled = busy || !!(model.get("state") || {}).looked;
  }
  function draw() {
    const s = model.get("state") || {};
    const active = document.activeElement;
    const hadFocus = active === root ? "root" : (root.contains(active) && active.dataset.focus) || null;
    root.replaceChildren();
    const bar = document.createElement("div");
    bar.className = "scat-review-bar";
    const button = (label, type, title) => {
      const b = document.createElement("button");
      b.textContent = label; b.title = title; b.setAttribute("aria-label", title);
      b.dataset.focus = type;
      b.addEventListener("click", () => send({ type }));
      return b;
    };
    const title = document.createElement("h3");
    title.className = "scat-review-title";
    title.textContent = s.title || "Game review";
    bar.append(button("\u25C0", "prev", "previous decision"));
    const where = document.createElement("span");
    where.textContent = ` ${s.count ? s.step + 1 : 0} / ${s.count || 0} `;
    const deep = button("Look deeper", "deep", "ask the master for a deeper look at this decision");
    deep.disabled = !s.count || !!s.looked || busy;
    bar.append(where, button("\u25B6", "next", "next decision"),
               button("Try it yourself", "try", "play this position again at the table"), deep);
    // The deeper look's progress: a bar while the master searches (updated without a redraw).
    meter = document.createElement("progress");
    meter.className = "scat-review-progress";
    meter.setAttribute("aria-label", "deeper look under way");
    meter.hidden = !busy;
    meterLabel = document.createElement("output");
    meterLabel.className = "scat-review-progress-label";
    meterLabel.setAttribute("role", "status");
    meterLabel.hidden = !busy;
    bar.append(meter, meterLabel);
    showProgress();
    const line = document.createElement("div");
    line.className = "scat-review-timeline";
    line.setAttribute("role", "list");
    for (const m of s.marks || []) {
      const b = document.createElement("button");
      b.className = "scat-review-mark" + (m.step === s.step ? " current" : "");
      b.style.background = (s.colours || {})[m.class] || "#888";
      b.title = m.title; b.setAttribute("aria-label", m.title); b.dataset.class = m.class;
      b.dataset.focus = "mark";
      b.addEventListener("click", () => send({ type: "goto", step: m.step }));
      line.append(b);
    }
    const legend = document.createElement("div");
    legend.className = "scat-review-legend";
    for (const [name, colour] of Object.entries(s.colours || {})) {
      const key = document.createElement("span");
      const swatch = document.createElement("span");
      swatch.className = "scat-review-swatch"; swatch.style.background = colour;
      key.append(swatch, " " + name);
      legend.append(key);
    }
    const page = document.createElement("div");
    page.innerHTML = s.html || "";
    const summary = document.createElement("p");
    summary.className = "scat-review-summary";
    summary.textContent = s.summary || "";
    root.append(title, summary, bar, line, legend, page);
    if (s.trying) {
      const trying = document.createElement("p");
      trying.className = "scat-review-trying";
      trying.setAttribute("role", "status");
      trying.textContent = s.trying;
      root.append(trying);
    }
    if (hadFocus) {
      const again = hadFocus === "root" ? root : hadFocus === "mark" ? root.querySelector(".scat-review-mark.current")
        : root.querySelector(`[data-focus="${hadFocus}"]`);
      (again || root).focus({ preventScroll: true });
    }
  }
  // "Try it yourself" adds the table below the review: bring it into view when it lands
  // off-screen (a phone shows the review's whole height first).
  root.addEventListener("click", (e) => {
    if (!(e.target instanceof HTMLElement) || e.target.dataset.focus !== "try" || !el.parentElement) return;
    const box = el.parentElement;
    const before = new Set(box.children);
    let tries = 0;
    const look = () => {  // the table's view is built asynchronously: wait until it is laid out
      const table = [...box.children].find((c) => !before.has(c) && c.getBoundingClientRect().height > 40);
      if (table) {
        if (table.getBoundingClientRect().top > window.innerHeight * 0.6) table.scrollIntoView({ block: "start" });
      } else if (++tries < 50) {
        setTimeout(look, 200);
      }
    };
    setTimeout(look, 200);
  });
  model.on("change:state", draw);
  model.on("change:progress", showProgress);
  draw();
}
export default { render };

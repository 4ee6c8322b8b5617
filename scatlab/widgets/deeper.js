// scatlab: the master's deeper look in the hand analyzer (DeeperPanel). Draws the kernel's
// `state` (the button's state, the verdict so far, how it was made) and `progress` (a look
// under way); a click sends {type: "deep"}, and the kernel decides everything.
// No imports, nothing from a CDN.

function render({ model, el }) {
  const root = document.createElement("section");
  root.className = "scat-deeper";
  root.setAttribute("aria-label", "a deeper look by the master");
  el.append(root);
  let meter = null;
  let label = null;
  let button = null;

  function make(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // the bar and its words change without a redraw: the verdict below stays readable
  function showProgress() {
    const p = model.get("progress") || {};
    const busy = p.total !== undefined;
    if (!meter) return;
    meter.hidden = !busy;
    label.hidden = !busy;
    if (busy) {
      meter.max = p.total || 1;
      meter.value = p.done || 0;
      meter.setAttribute("aria-label", p.what || "deeper look under way");
    }
    label.textContent = busy ? (p.what || "Looking deeper") : "";
    button.disabled = busy || !(model.get("state") || {}).can;
  }

  function draw() {
    const s = model.get("state") || {};
    const hadFocus = button !== null && document.activeElement === button;
    root.replaceChildren();
    meter = label = button = null;
    root.hidden = s.can === undefined;
    if (root.hidden) return;
    const head = make("div", "scat-deeper-head");
    button = make("button", "scat-deeper-button", "Look deeper");
    button.type = "button";
    button.title = "ask the master, the strongest computer player, to play the best moves out in many deals";
    button.addEventListener("click", (e) => { e.stopPropagation(); model.send({ type: "deep" }); });
    head.append(make("b", "scat-deeper-title", "A second opinion"), " (the master) ", button);
    meter = make("progress", "scat-deeper-progress");
    label = make("output", "scat-deeper-progress-label");
    label.setAttribute("role", "status");
    root.append(head, meter, label);
    const lines = s.lines || [];
    const verdict = make("div", "scat-deeper-verdict" + (s.final ? " scat-deeper-final" : ""));
    verdict.setAttribute("aria-live", "polite");
    for (const line of lines) verdict.append(make("p", "", line));
    if (!lines.length && s.note) verdict.append(make("p", "scat-deeper-note", s.note));
    root.append(verdict);
    if (s.how) {
      const how = make("details", "scat-deeper-how");
      how.append(make("summary", "", "How it looked"), make("p", "", s.how));
      root.append(how);
    }
    showProgress();
    if (hadFocus) button.focus({ preventScroll: true });
  }

  model.on("change:state", draw);
  model.on("change:progress", showProgress);
  draw();
  return () => {
    model.off("change:state", draw);
    model.off("change:progress", showProgress);
  };
}
export default { render };

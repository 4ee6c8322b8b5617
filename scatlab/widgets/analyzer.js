
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "scat-picker";
  root.tabIndex = -1;
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "card picker");
  el.appendChild(root);
  function pick(id, event) {
    if (event) { event.preventDefault(); event.stopPropagation(); }
    model.send({ kind: "pick", card: id });
  }
  function draw() {
    const active = document.activeElement;
    const focusId = active && root.contains(active) ? active.dataset.card : null;
    root.replaceChildren();
    for (const row of model.get("rows")) {
      const line = document.createElement("div");
      line.className = "scat-picker-row";
      line.setAttribute("role", "group");
      line.setAttribute("aria-label", row.label);
      for (const c of row.cards) {
        const b = document.createElement("div");
        b.className = "scat-pick" + (c.zone ? " scat-in-zone" : "") + (c.out ? " scat-out" : "");
        b.tabIndex = 0;
        b.dataset.card = c.id;
        b.setAttribute("role", "button");
        b.setAttribute("aria-label", c.label);
        b.setAttribute("aria-pressed", c.zone ? "true" : "false");
        b.title = c.label;
        b.innerHTML = c.svg;
        if (c.tag) {
          const tag = document.createElement("span");
          tag.className = "scat-pick-tag" + (c.out ? " scat-pick-tag-out" : "");
          tag.textContent = c.tag;
          tag.setAttribute("aria-hidden", "true");
          b.appendChild(tag);
        }
        b.addEventListener("click", (e) => pick(c.id, e));
        b.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") pick(c.id, e);
        });
        line.appendChild(b);
      }
      root.appendChild(line);
    }
    if (focusId) {
      const again = root.querySelector(`[data-card="${focusId}"]`);
      if (again) again.focus();
    }
  }
  // Arrow keys move between cards (Left/Right in a suit, Up/Down across suits). Every key
  // pressed inside the picker stops here, so JupyterLab's command-mode shortcuts ('d','d'
  // deletes a cell) never see it; Tab and Shift+Tab keep moving the focus as usual.
  root.addEventListener("keydown", (e) => {
    if (e.key === "Tab") return;
    e.stopPropagation();
    const card = e.target.closest ? e.target.closest(".scat-pick") : null;
    if (!card) return;
    const line = card.parentElement;
    const cards = Array.from(line.children);
    const lines = Array.from(root.children);
    const i = cards.indexOf(card), r = lines.indexOf(line);
    let next = null;
    if (e.key === "ArrowRight") next = cards[i + 1];
    else if (e.key === "ArrowLeft") next = cards[i - 1];
    else if (e.key === "ArrowDown" && lines[r + 1]) next = lines[r + 1].children[i];
    else if (e.key === "ArrowUp" && lines[r - 1]) next = lines[r - 1].children[i];
    if (next) { e.preventDefault(); next.focus(); }
  });
  model.on("change:rows", draw);
  draw();
}
export default { render };

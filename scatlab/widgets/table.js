// scatlab card table: draws the Python table display (TableDisplay as JSON) and sends every click and key back.
// Python owns all state; this module only renders `state` and calls model.send().
// No imports, nothing from a CDN.

const KEYS = { d: "stock", t: "discard", k: "knock", n: "next", u: "undo" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "html") node.innerHTML = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", "10": "ten", "9": "nine", "8": "eight",
  "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two" };
const SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };

function pretty(code) {
  return code ? code.slice(0, -1) + SUITS[code.slice(-1)] : "";
}
function spoken(code) {
  return code ? `${RANKS[code.slice(0, -1)]} of ${SUIT_NAMES[code.slice(-1)]}` : "face-down card";
}

async function loadFaces(model) {
  // `deck_faces` is a reference ("IPY_MODEL_<id>") to the kernel's one CardFaces model.
  const ref = model.get("deck_faces");
  if (typeof ref !== "string" || !ref.startsWith("IPY_MODEL_")) return {};
  const shared = await model.widget_manager.get_model(ref.slice("IPY_MODEL_".length));
  return shared.get("faces") || {};
}

async function render({ model, el: host }) {
  let faces = await loadFaces(model);
  const root = el("div", { class: "scat-table", tabindex: "-1" });
  host.append(root);
  let showWhy = false;
  let showExact = false;
  let showMore = false;  // the hints' figures behind the chance of winning: on demand
  // the <details> a learner opened stay open when the table is drawn again (a redraw
  // rebuilds them: the Why? button, a computer move)
  const openDetails = new Set();
  const keptOpen = (key) => ({ open: openDetails.has(key),
    ontoggle: (e) => { if (e.target.open) openDetails.add(key); else openDetails.delete(key); } });
  let lastDownload = null;
  let focusAfter = null;  // a key's target to keep focus on after the redraw
  let firstDraw = true;

  const send = (msg) => model.send(msg);

  function face(code, extra) {
    const holder = el("span", { class: "scat-card-face" + (extra ? " " + extra : "") });
    holder.innerHTML = faces[code === null ? "back" : code] || faces.back || "";
    return holder;
  }

  function focusKey(node) {
    while (node && node !== root) {
      if (node.dataset && node.dataset.focus) return node.dataset.focus;
      node = node.parentNode;
    }
    return null;
  }

  // A game key played while the felt is off-screen (the page loaded with the table focused
  // but scrolled to the lesson's text) brings it into view, so the learner sees the move.
  function showFelt() {
    const felt = root.querySelector(".scat-felt");
    if (!felt) return;
    const box = felt.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) felt.scrollIntoView({ block: "nearest" });
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const key = (event.key || "").toLowerCase();
    if (/^[1-9]$/.test(key)) {  // the hand's n-th card: throw it (the engine refuses what is not allowed)
      const s = model.get("state") || {};
      const me = s.seats ? s.seats[s.seat] : null;
      const code = me && me.cards ? me.cards[Number(key) - 1] : null;
      if (code) {
        event.preventDefault();
        event.stopPropagation();
        focusAfter = "card:" + code;
        showFelt();
        send({ type: "card", card: code });
      }
      return;
    }
    if (KEYS[key]) {
      event.preventDefault();
      event.stopPropagation();
      showFelt();
      send({ type: KEYS[key] });
      return;
    }
    if ((key === "enter" || key === " ") && target && target.dataset && target.dataset.card) {
      event.preventDefault();
      event.stopPropagation();
      send({ type: "card", card: target.dataset.card });
      return;
    }
    if ((key === "enter" || key === " ") && target && target.dataset && target.dataset.pile) {
      event.preventDefault();
      event.stopPropagation();
      send({ type: target.dataset.pile });
      return;
    }
    // Enter or Space on the widget's own buttons: let the button act, but keep the key
    // from JupyterLab's notebook shortcuts (Enter would start editing the cell)
    if ((key === "enter" || key === " ") && target && target.tagName === "BUTTON") event.stopPropagation();
  }
  root.addEventListener("keydown", onKey);

  function seatBox(seat, s) {
    const badges = [];
    if (seat.dealer) badges.push(el("span", { class: "scat-badge scat-dealer", title: "dealer" }, "dealer"));
    if (seat.to_move) badges.push(el("span", { class: "scat-badge scat-turn", title: "to move" }, "▶ to move"));
    if (seat.knocker) badges.push(el("span", { class: "scat-badge scat-knocker", title: "knocked" }, "knocked"));
    if (seat.out) badges.push(el("span", { class: "scat-badge scat-out" }, "out"));
    const cards = el("div", { class: "scat-cards scat-small", role: "group",
      "aria-label": `${seat.name}: ${seat.cards.length} cards` });
    for (const code of seat.cards) cards.append(face(code));
    return el("section", { class: "scat-seat" + (seat.to_move ? " scat-active" : "") + (seat.out ? " scat-isout" : ""),
      "aria-label": seat.name },
      el("div", { class: "scat-seat-head" }, el("strong", {}, seat.name), ...badges),
      el("div", { class: "scat-standing" }, seat.standing),
      cards,
      seat.value !== null ? el("div", { class: "scat-value" }, `value ${seat.value}`) : null);
  }

  function button(label, msg, enabled, focus, extraClass) {
    return el("button", { class: "scat-btn" + (extraClass ? " " + extraClass : ""), type: "button",
      disabled: !enabled, "data-focus": focus, onclick: (e) => { e.stopPropagation(); send(msg); } }, label);
  }

  // "New game" in the middle of a game asks once more (the button says so for 5 seconds),
  // so a stray Enter or click on it does not throw the game away.
  let confirmNew = false;
  let confirmTimer = null;
  function newGameButton(s) {
    const inGame = s.phase !== "game_over" && (s.can_undo || s.hand_number > 1);
    const sure = confirmNew && inGame;
    return el("button", { class: "scat-btn" + (sure ? " scat-confirm" : ""), type: "button", "data-focus": "new",
      onclick: (e) => {
        e.stopPropagation();
        clearTimeout(confirmTimer);
        if (!inGame || confirmNew) { confirmNew = false; send({ type: "new" }); draw(); return; }
        confirmNew = true;
        confirmTimer = setTimeout(() => { confirmNew = false; draw(); }, 5000);
        draw();
      } }, sure ? "Start over? Click again" : "New game");
  }

  function hintsPanel(s) {
    const h = s.hints;
    if (!s.hints_on) return el("section", { class: "scat-panel scat-hints" }, el("h3", {}, "Hints"),
      el("p", {}, "Hints are off."));
    if (!h) {
      const text = s.my_turn ? "No decision to weigh." : "Hints appear on your turn.";
      return el("section", { class: "scat-panel scat-hints" }, el("h3", {}, "Hints"), el("p", { class: "scat-muted" }, text),
        s.rule ? ruleBox(s.rule, "The rule now") : null);
    }
    // a long fraction does not fit beside the label: the cell says "exact fraction" and
    // opens on a click, a tap or Enter (a <details>: a phone has no hover), the fraction then
    // wrapping inside the cell; it stays open across redraws. Short ones (21, 1/16) are shown
    // as they are. An estimate (the engine's knock figures against two or more opponents,
    // every change in the chance of winning) has no exact fraction: the cell says so
    const exactCell = (exact, label) => exact === "estimate"
      ? el("td", { class: "scat-exact scat-estimate" }, "an estimate")
      : exact.length > 9
      ? el("td", { class: "scat-exact scat-exact-long" },
          el("details", { class: "scat-exact-more", ...keptOpen(`exact-${label}`) },
            el("summary", { "data-focus": `exact-${label}` }, "exact fraction"),
            el("span", { class: "scat-exact-value" }, exact)))
      : el("td", { class: "scat-exact" }, exact);
    const advice = h.advice_action.replace("_", " ") + (h.advice_discard ? (h.advice_action === "take" ? ` (throw the ${pretty(h.advice_discard)})` : ` the ${pretty(h.advice_discard)}`) : "");
    // first, the one figure the advice decides by: the chance of winning the game, as levels
    // (now, then if you make each move, best first), a close call said as such
    const chances = h.chances && h.chances.length ? el("table", { class: "scat-chances", "aria-label": h.summary },
      el("caption", {}, "Your chance of winning the game"),
      el("tbody", {},
        el("tr", { class: "scat-chance-now" }, el("th", { scope: "row" }, "now"), el("td", {}, h.chance_now), el("td", {})),
        h.chances.map((c) => el("tr", { class: "scat-chance" + (c.advised ? " scat-chance-advised" : "") + (c.close ? " scat-chance-close" : "") },
          el("th", { scope: "row" }, `if you ${c.move}`), el("td", {}, c.level),
          el("td", { class: "scat-chance-note" }, c.advised ? "advice" : c.close ? "a close call" : ""))))) : null;
    // then, on demand, the figures behind it: the advice in full, the draw's odds, the value
    // five turns ahead, a knock's lives, the exact fractions and the chart
    const rows = el("table", { class: "scat-numbers" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "what"), el("th", { scope: "col" }, "about"),
        showExact ? el("th", { scope: "col" }, "exact") : null)),
      el("tbody", {}, h.rows.map(([label, exact, shown]) =>
        el("tr", {}, el("th", { scope: "row" }, label), el("td", {}, shown), showExact ? exactCell(exact, label) : null))));
    const exactToggle = el("button", { class: "scat-btn scat-exact-toggle", type: "button", "data-focus": "exact",
      "aria-expanded": showExact ? "true" : "false",
      onclick: (e) => { e.stopPropagation(); showExact = !showExact; draw(); } },
      showExact ? "Hide the exact numbers" : "Show the exact numbers");
    const moreToggle = el("button", { class: "scat-btn scat-more-toggle", type: "button", "data-focus": "more",
      "aria-expanded": showMore ? "true" : "false",
      onclick: (e) => { e.stopPropagation(); showMore = !showMore; draw(); } },
      showMore ? "Fewer figures" : "More figures: the odds behind the advice");
    const more = showMore ? el("div", { class: "scat-more" },
      el("p", { class: "scat-reason" }, el("b", {}, "The advice in full: "), h.advice_reason),
      h.outs.length ? el("p", { class: "scat-outs" }, "Cards that make 31: ", h.outs.map(pretty).join(" ")) : null,
      rows,
      exactToggle,
      h.chart ? el("div", { class: "scat-chart-box", html: h.chart }) : null) : null;
    return el("section", { class: "scat-panel scat-hints", "aria-label": "hints" },
      el("h3", {}, "Hints"),
      el("p", { class: "scat-advice" }, el("span", { class: "scat-advice-label" }, "Advice: "), el("strong", {}, advice),
        h.close ? " " : null, h.close ? el("span", { class: "scat-badge scat-close-badge" }, "a close call") : null),
      h.thumb ? el("p", { class: "scat-thumb", role: "note" }, h.thumb) : null,
      chances,
      h.close ? el("p", { class: "scat-close" }, h.close) : null,
      moreToggle,
      more,
      ruleBox(h.rule, "The rule now"),
      deeperBox(s.deeper));
  }

  // Below the hints: the master's deeper look (Look deeper). The kernel says whether it can
  // be asked for and what it found so far; the bar shows a look under way (showProgress
  // updates it without a redraw).
  let meter = null;
  let meterLabel = null;
  let deepButton = null;
  function deeperBox(d) {
    meter = meterLabel = deepButton = null;
    if (!d) return null;
    deepButton = el("button", { class: "scat-btn scat-deeper-button", type: "button", "data-focus": "deep",
      title: "ask the master, the strongest computer player, to play the best moves out in many deals",
      onclick: (e) => { e.stopPropagation(); send({ type: "deep" }); } }, "Look deeper");
    deepButton.disabled = !d.can;
    meter = el("progress", { class: "scat-deeper-progress", "aria-label": "deeper look under way" });
    meterLabel = el("output", { class: "scat-deeper-progress-label", role: "status" });
    const lines = d.lines || [];
    return el("div", { class: "scat-deeper", role: "group", "aria-label": "a deeper look by the master" },
      el("div", { class: "scat-deeper-head" }, el("strong", {}, "A second opinion"), " (the master) ", deepButton),
      meter, meterLabel,
      el("div", { class: "scat-deeper-verdict" + (d.final ? " scat-deeper-final" : ""), "aria-live": "polite" },
        lines.length ? lines.map((line) => el("p", {}, line)) : (d.note ? el("p", { class: "scat-muted" }, d.note) : null)),
      d.how ? el("details", { class: "scat-deeper-how", ...keptOpen("deeper-how") },
        el("summary", { "data-focus": "deeper-how" }, "How it looked"), el("p", {}, d.how)) : null);
  }
  function showProgress() {
    const p = model.get("progress") || {};
    const busy = p.total !== undefined;
    if (!meter) return;
    meter.hidden = !busy;
    meterLabel.hidden = !busy;
    if (busy) {
      meter.max = p.total || 1;
      meter.value = p.done || 0;
      meter.setAttribute("aria-label", p.what || "deeper look under way");
    }
    meterLabel.textContent = busy ? (p.what || "Looking deeper") : "";
    const s = model.get("state") || {};
    deepButton.disabled = busy || !(s.deeper && s.deeper.can);
  }

  function ruleBox(rule, heading) {
    return el("div", { class: "scat-rule", role: "note" },
      el("div", { class: "scat-rule-head" }, `${heading}: `, el("strong", {}, `${rule.code} ${rule.title}`)),
      el("p", {}, rule.text));
  }

  function showdownPanel(sd, s) {
    if (!sd) return null;
    const hands = el("ul", { class: "scat-sd-hands" }, sd.hands.map(([seat, cards, value]) => {
      const name = s.seats[seat].name;
      const row = el("div", { class: "scat-cards scat-small" }, cards.map((c) => face(c)));
      return el("li", {}, el("div", {}, el("strong", {}, name), value !== null ? ` — ${value}` : "",
        seat === sd.knocker ? el("span", { class: "scat-badge scat-knocker" }, ({ hammer: "hammered", throw_down: "threw down", bus_stop: "stopped the bus" })[sd.ended] || "knocked") : null), row);
    }));
    return el("section", { class: "scat-panel scat-showdown", "aria-label": `hand ${sd.number} showdown` },
      el("h3", {}, `Hand ${sd.number}: how it ended`),
      hands,
      el("ul", { class: "scat-outcome" }, sd.outcome.map((line) => el("li", {}, line))),
      el("div", { class: "scat-explain" }, sd.explain.split("\n").map((line) => el("p", {}, line))),
      sd.reasons && sd.reasons.length ? el("details", { class: "scat-sd-reasons", ...keptOpen(`reasons-${sd.number}`) },
        el("summary", {}, "The computer players' reasons, now that the cards are face up"),
        el("ol", {}, sd.reasons.map((line) => el("li", {}, line)))) : null,
      sd.rules.map((r) => el("details", { class: "scat-rule-link", ...keptOpen(`rule-${sd.number}-${r.code}`) },
        el("summary", {}, `${r.code} ${r.title}`), el("p", {}, r.text))));
  }

  function draw() {
    const s = model.get("state") || {};
    if (!s.seats) return;
    meter = meterLabel = deepButton = null;  // the hints' deeper look sets them again
    const hadFocus = root.contains(document.activeElement);
    const focused = hadFocus ? focusKey(document.activeElement) : null;
    root.replaceChildren();

    // -- top bar -------------------------------------------------------------------
    const seedInput = el("input", { type: "number", min: "0", class: "scat-seed-input", "aria-label": "seed to replay",
      value: s.seed, "data-focus": "seed-input" });
    const fileInput = el("input", { type: "file", accept: ".json,application/json", class: "scat-file",
      "aria-label": "load a saved game", "data-focus": "load",
      onchange: (e) => {
        const file = e.target.files && e.target.files[0];
        if (!file) return;
        file.text().then((text) => send({ type: "load", text }));
      } });
    const dl = model.get("download") || {};
    let link = null;
    if (dl.text) {
      const href = "data:application/json;charset=utf-8," + encodeURIComponent(dl.text);
      link = el("a", { class: "scat-download", href, download: dl.name, "data-focus": "download" }, `Download ${dl.name}`);
    }
    const full = s.controls !== "beginner";
    const bar = el("div", { class: "scat-bar" },
      el("span", { class: "scat-title" }, full ? `31 · ${s.rules_name} · hand ${s.hand_number} · seed ${s.seed}`
        : `31 · ${s.rules_name} · hand ${s.hand_number}`),
      s.practice ? el("span", { class: "scat-badge scat-practice" }, "practice") : null,
      el("span", { class: "scat-spacer" }),
      button("Undo (U)", { type: "undo" }, s.can_undo, "undo"),
      newGameButton(s),
      full ? el("label", { class: "scat-seed" }, "seed ", seedInput) : null,
      full ? el("button", { class: "scat-btn", type: "button", "data-focus": "seed",
        onclick: (e) => { e.stopPropagation(); send({ type: "seed", seed: seedInput.value }); } }, "Play seed") : null,
      button(s.hints_on ? "Hints: on" : "Hints: off", { type: "hints", on: !s.hints_on }, true, "hints"),
      full ? button("Save", { type: "save" }, true, "save") : null,
      full ? el("label", { class: "scat-load" }, "Load ", fileInput) : null,
      full && s.can_analyze ? button("Analyze this position", { type: "analyze" }, true, "analyze") : null);
    seedInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); send({ type: "seed", seed: seedInput.value }); }
      else e.stopPropagation();
    });
    const downloadRow = link ? el("div", { class: "scat-dl-row" }, link) : null;

    // -- the felt ---------------------------------------------------------------------
    // In the page's order (what Tab and a screen reader follow): your hand, the piles, the
    // other seats, the side panels, then the controls; CSS shows the seats on top and the
    // controls above the table.
    const felt = el("div", { class: "scat-felt" });
    const others = s.seats.filter((seat) => !seat.is_learner);
    const opponents = el("div", { class: "scat-opponents" }, others.map((seat) => seatBox(seat, s)));

    const between = s.phase === "deal" || s.phase === "game_over";
    const stock = between ? null : el("div", { class: "scat-pile" + (s.can_draw ? " scat-live" : ""), role: "button", tabindex: "0",
      "data-pile": "stock", "data-focus": "stock", "aria-disabled": s.can_draw ? "false" : "true",
      "aria-label": `stock, ${s.stock_size} cards` + (s.can_draw ? ": draw (D)" : ""),
      onclick: (e) => { e.stopPropagation(); send({ type: "stock" }); } },
      face(s.stock_size ? null : "empty"), el("div", { class: "scat-pile-label" }, `Stock: ${s.stock_size}`));
    const discard = between ? null : el("div", { class: "scat-pile" + (s.can_take ? " scat-live" : ""), role: "button", tabindex: "0",
      "data-pile": "discard", "data-focus": "discard", "aria-disabled": s.can_take ? "false" : "true",
      "aria-label": s.top_discard ? `discard pile, ${spoken(s.top_discard)} on top` + (s.can_take ? ": take (T)" : "") : "discard pile, empty",
      onclick: (e) => { e.stopPropagation(); send({ type: "discard" }); } },
      s.top_discard ? face(s.top_discard) : face("empty"),
      el("div", { class: "scat-pile-label" }, s.top_discard ? `Discard: ${pretty(s.top_discard)}` : "Discard: empty"));
    const center = (el("div", { class: "scat-center" }, stock, discard,
      el("div", { class: "scat-status", role: "status", "aria-live": "polite" }, s.status),
      s.message ? el("div", { class: "scat-message", role: "alert" }, s.message) : null,
      s.notice ? el("div", { class: "scat-notice", role: "status" }, s.notice) : null));

    // -- the learner ------------------------------------------------------------------
    const me = s.seats[s.seat];
    const hand = el("div", { class: "scat-cards scat-hand", role: "group", "aria-label": "your hand" });
    const cards = me.cards.length ? me.cards : [];
    for (const code of cards) {
      if (code === null) { hand.append(face(null)); continue; }
      const can = s.discardable.includes(code);
      const extra = [code === s.drawn ? "scat-drawn" : "", code === s.taken ? "scat-taken" : "",
        s.hints && s.hints.advice_discard === code && s.hints.advice_action === "discard" ? "scat-advised" : ""].join(" ");
      const holder = el("div", { class: "scat-hand-card " + (can ? "scat-live " : "") + extra, role: "button", tabindex: "0",
        "data-card": code, "data-focus": "card:" + code, "aria-disabled": can ? "false" : "true",
        "aria-label": `${cards.indexOf(code) + 1}: ` + spoken(code) + (can ? `: discard (Enter or ${cards.indexOf(code) + 1})` : "") + (code === s.drawn ? ", just drawn" : "") + (code === s.taken ? ", just taken" : ""),
        onclick: (e) => { e.stopPropagation(); send({ type: "card", card: code }); } }, face(code));
      hand.append(holder);
    }
    const actions = el("div", { class: "scat-actions" },
      // no knock between hands: the hand is over, "Next hand" is the one thing to do
      s.game_over || me.out || s.can_next_hand ? null : button("Knock (K)", { type: "knock" }, s.can_knock, "knock", "scat-knock"),
      s.buttons.map(([action, label]) => button(label, { type: "action", action }, true, "action:" + action)),
      s.can_next_hand && !s.game_over ? button("Next hand (N)", { type: "next" }, true, "next", "scat-next") : null,
      s.can_review ? button("Review this game", { type: "review" }, true, "review", "scat-next scat-review-game") : null);
    felt.append(el("section", { class: "scat-me" + (me.to_move ? " scat-active" : ""), "aria-label": "you" },
      el("div", { class: "scat-seat-head" }, el("strong", {}, me.name),
        me.dealer ? el("span", { class: "scat-badge scat-dealer" }, "dealer") : null,
        me.knocker ? el("span", { class: "scat-badge scat-knocker" }, "knocked") : null,
        el("span", { class: "scat-standing" }, me.standing)),
      hand,
      el("div", { class: "scat-value scat-my-value" }, s.hand_value !== null ? `Your hand: ${s.hand_value}` : (s.hand.length === 4 ? "Your hand: 4 cards, discard one" : "Your hand")),
      actions), center, opponents);

    // -- side panels ------------------------------------------------------------------
    const side = el("div", { class: "scat-side" });
    if (s.showdown) side.append(showdownPanel(s.showdown, s));
    side.append(hintsPanel(s));
    if (s.why) {
      side.append(el("section", { class: "scat-panel scat-why" },
        el("button", { class: "scat-btn", type: "button", "data-focus": "why", "aria-expanded": showWhy ? "true" : "false",
          onclick: (e) => { e.stopPropagation(); showWhy = !showWhy; draw(); } }, showWhy ? "Why? (hide)" : "Why? (last computer move)"),
        showWhy ? el("p", {}, s.why) : null));
    }
    side.append(el("section", { class: "scat-panel scat-log", "aria-label": "log of the hand" },
      el("h3", {}, `Hand ${s.hand_number} so far`),
      s.log.length ? el("ol", {}, s.log.map((line) => el("li", {}, line))) : el("p", { class: "scat-muted" }, "No moves yet.")));

    root.append(el("div", { class: "scat-main" }, felt, side), bar);
    if (downloadRow) root.append(downloadRow);  // DOM append would write a null as the text "null"
    root.append(el("p", { class: "scat-keys" },
      "Keys: 1-4 throw that card · D draw · T take · K knock · N next hand · U undo · Tab reaches your cards first"));

    if (firstDraw) {  // the page's only table takes the keys at once (in Voilà, not in JupyterLab)
      firstDraw = false;
      const voila = document.body && document.body.dataset && document.body.dataset.voila === "voila";
      if (voila) {
        // Voilà shows the page once every cell has run: wait until the table is visible, and
        // leave the focus alone if the learner has put it somewhere already
        const started = Date.now();
        const settle = () => {
          if (Date.now() - started > 60000) return;
          // not yet in the page (a view may draw before it is attached), or not yet shown
          if (!root.isConnected || root.offsetParent === null) { setTimeout(settle, 100); return; }
          const active = document.activeElement;
          const main = document.querySelectorAll(".scat-table").length === 1 || model.get("takes_focus");
          if (main && (!active || active === document.body)) {
            root.focus({ preventScroll: true });
          }
        };
        setTimeout(settle, 0);
      }
    }
    showProgress();
    if (hadFocus || focusAfter) {
      const wanted = focusAfter || focused;
      focusAfter = null;
      let target = wanted ? root.querySelector(`[data-focus="${CSS.escape(wanted)}"]`) : null;
      if (target && target.disabled) target = null;
      if (!target && wanted && wanted.startsWith("card:")) target = root.querySelector(".scat-hand-card");
      (target || root).focus({ preventScroll: true });
    }
  }

  const newFaces = async () => { faces = await loadFaces(model); draw(); };
  model.on("change:state", draw);
  model.on("change:deck_faces", newFaces);
  model.on("change:download", draw);
  model.on("change:progress", showProgress);
  draw();
  return () => {
    model.off("change:state", draw);
    model.off("change:deck_faces", newFaces);
    model.off("change:download", draw);
    model.off("change:progress", showProgress);
  };
}

export default { render };

// Tally dashboard: makes the server-rendered page live. The page works without this
// script (links and forms); with it, browser events go to the server over a WebSocket and
// the server answers with DOM patches. No framework, no build step.
"use strict";
(() => {
  const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';
  const byId = (id) => document.getElementById(id);
  let socket = null;
  let delay = 500; // the next reconnect's base delay, ms: 0.5 s doubling to 10 s
  let retry = null;
  let opener = null; // the control that opened the sheet, to focus again when it closes
  let statusTimer = null;
  // The nonce of the page's Content-Security-Policy, which the server gives this script's
  // element: only <style> elements that carry it apply (no inline style does).
  const styleNonce = document.currentScript?.nonce ?? "";

  // ---- DOM patches (the logic of HTMLRenderer.patchScript, skipping ops on missing nodes)

  // One element from the server's HTML. A section's <style> (its layout) gets the page's
  // nonce, which the server's patch cannot know; nothing else a patch brings does.
  const parse = (html) => {
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const style of template.content.querySelectorAll(".list-component > style")) style.nonce = styleNonce;
    return template.content.firstElementChild;
  };
  const put = (parent, node, index) => parent.insertBefore(node, parent.children[index] || null);

  // The element in `root` that stands for `el` after a re-render: same id, or same kind of
  // control (tag, data-event, data-for, name, type), preferring the same value, then text.
  function twin(el, root) {
    if (el.id) return root.id === el.id ? root : root.querySelector("#" + CSS.escape(el.id));
    let selector = el.tagName;
    for (const name of ["data-event", "data-for", "name", "type"]) {
      if (el.hasAttribute(name)) selector += `[${name}="${CSS.escape(el.getAttribute(name))}"]`;
    }
    const all = [...root.querySelectorAll(selector)];
    return all.find((n) => n.dataset.value === el.dataset.value) ||
      all.find((n) => n.textContent === el.textContent) || all[0] || null;
  }

  // Replaces `old` with `node`, keeping the sideways scroll of item rows and of the paths'
  // columns, the scroll of a sheet drawn again, the menus open (a <details> with an id) and the focus, with what is
  // being typed in a focused search field and where (the server's copy may be a keystroke
  // behind).
  function replace(old, node) {
    const scrolls = [old, ...old.querySelectorAll(".list-items, .path-scroll")]
      .filter((row) => row.id && row.scrollLeft)
      .map((row) => [row.id, row.scrollLeft]);
    const open = [...old.querySelectorAll("details[id][open]")].map((menu) => menu.id);
    const sheet = byId("sheet"), top = sheet && old.contains(sheet) && [sheet.dataset.sheet, sheet.scrollTop];
    const active = document.activeElement;
    const hadFocus = active && active !== document.body && old.contains(active);
    old.replaceWith(node);
    for (const id of open) {
      const menu = byId(id);
      if (menu) menu.open = true;
    }
    for (const [id, left] of scrolls) {
      const row = byId(id);
      if (row) row.scrollLeft = left;
    }
    const again = byId("sheet");
    if (top && again?.dataset.sheet === top[0]) again.scrollTop = top[1];
    if (!hadFocus) return;
    const field = twin(active, node);
    field?.focus({ preventScroll: true });
    if (field?.type === "search" && active.type === "search") {
      field.value = active.value;
      field.setSelectionRange(active.selectionStart, active.selectionEnd);
    }
  }

  function applyOne(op) {
    if (!op || typeof op !== "object") return;
    if (op.op === "insert") {
      const parent = byId(op.parent), node = parse(op.html);
      if (parent && node) put(parent, node, op.index);
    } else if (op.op === "remove") {
      byId(op.id)?.remove();
    } else if (op.op === "move") {
      const node = byId(op.id), parent = byId(op.parent);
      if (!node || !parent || node.contains(parent)) return;
      const active = document.activeElement;
      node.remove();
      node.id = op.newId;
      put(parent, node, op.index);
      if (active && node.contains(active)) active.focus({ preventScroll: true });
    } else if (op.op === "replace") {
      const old = byId(op.id), node = parse(op.html);
      if (old && node) replace(old, node);
    }
  }

  // Applies patches in order; an op that cannot apply (its element is gone) is skipped.
  function applyPatches(ops) {
    if (!Array.isArray(ops)) return;
    for (const op of ops) {
      try {
        applyOne(op);
      } catch (error) {
        console.warn("tally: patch skipped", op, error);
      }
    }
    formatNumbers(document);
  }

  // ---- Numbers in the browser's locale; from 10,000 abbreviated (12.3k), exact on hover

  const plain = new Intl.NumberFormat();
  const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
  const format = (n) => (Math.abs(n) >= 10000 ? compact : plain).format(n);
  function formatNumbers(root) {
    for (const el of root.querySelectorAll("[data-n]")) {
      const n = Number(el.dataset.n);
      if (!Number.isFinite(n)) continue;
      el.textContent = format(n);
      if (Math.abs(n) >= 10000) el.title = plain.format(n);
    }
  }

  // ---- Charts: the date and value under the pointer, or chosen with the arrow keys

  const series = (text) => (text ? text.split(",").map(Number) : []);
  const day = (text) => {
    const date = new Date(text + "T12:00:00Z");
    return isNaN(date) ? text : date.toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  };
  function showPoint(svg, index) {
    const values = series(svg.dataset.values), previous = series(svg.dataset.previous);
    const dates = (svg.dataset.dates || "").split(",");
    if (!values.length) return;
    index = Math.max(0, Math.min(values.length - 1, index));
    svg.dataset.index = index;
    const d = svg.dataset, x = (values.length > 1 ? (index / (values.length - 1)) * 100 : 50) + "%";
    const y = +d.y + +d.height * (1 - Math.max(values[index], 0) / (+d.top || 1));
    const cursor = svg.querySelector(".cursor"), line = cursor?.querySelector("line"), dot = cursor?.querySelector("circle");
    if (!cursor || !line || !dot) return;
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
    dot.setAttribute("cx", x);
    dot.setAttribute("cy", y);
    cursor.setAttribute("visibility", "visible");
    const readout = svg.parentElement.querySelector(".chart-readout");
    if (readout) {
      readout.textContent = `${day(dates[index])}: ${plain.format(values[index])}` +
        (index < previous.length ? ` · previous period ${plain.format(previous[index])}` : "") +
        // An annotation of the day: its marker's title, after the day.
        [...svg.querySelectorAll(".annotation")].filter((note) => note.dataset.day === dates[index])
          .map((note) => " · " + note.querySelector("title").textContent.replace(/^[^:]*: /, "")).join("");
    }
  }
  function hidePoint(svg) {
    svg.querySelector(".cursor")?.setAttribute("visibility", "hidden");
    const readout = svg.parentElement.querySelector(".chart-readout");
    if (readout) readout.textContent = "";
  }
  const chartOf = (target) => target?.closest?.("figure.chart > svg");
  document.addEventListener("pointermove", (event) => {
    const svg = chartOf(event.target);
    if (!svg) return;
    const box = svg.getBoundingClientRect(), count = series(svg.dataset.values).length;
    showPoint(svg, Math.round(((event.clientX - box.left) / (box.width || 1)) * (count - 1)));
  });
  document.addEventListener("pointerleave", (event) => {
    const svg = event.target instanceof Element && event.target.matches("figure.chart > svg") ? event.target : null;
    if (svg && document.activeElement !== svg) hidePoint(svg);
  }, true);
  document.addEventListener("focusin", (event) => {
    const svg = chartOf(event.target);
    if (svg) showPoint(svg, series(svg.dataset.values).length - 1);
  });
  document.addEventListener("focusout", (event) => {
    const svg = chartOf(event.target);
    if (svg) hidePoint(svg);
  });
  window.tallyApplyPatches = applyPatches;

  // ---- Sheets: focus the control that asks for it (or the first) when one opens, the
  // opener again when it closes

  function afterPatches(sheetBefore) {
    const sheet = byId("sheet");
    if (sheet && sheet !== sheetBefore && !sheet.contains(document.activeElement)) {
      (sheet.querySelector("[data-autofocus]") || sheet.querySelector(FOCUSABLE))?.focus();
    } else if (!sheet && sheetBefore) {
      const back = opener && (opener.isConnected ? opener : twin(opener, document.body));
      if (back) back.focus({ preventScroll: true });
      opener = null;
    }
  }

  // ---- Messages from the server

  function showStatus(text) {
    const status = byId("status");
    if (!status) return;
    status.textContent = text;
    clearTimeout(statusTimer);
    if (text) statusTimer = setTimeout(() => { status.textContent = ""; }, 8000);
  }

  function receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    const sheetBefore = byId("sheet");
    applyPatches(message.patches);
    afterPatches(sheetBefore);
    if (typeof message.url === "string") {
      try {
        // A new filter is a new entry of the history, after `back`; the rest replaces it.
        const push = typeof message.back === "string";
        if (push) history.replaceState(null, "", message.back);
        history[push ? "pushState" : "replaceState"](null, "", message.url);
      } catch (error) {
        console.warn("tally: bad url", message.url, error);
      }
    }
    if ("refreshing" in message) {
      const reload = byId("reload");
      if (reload) reload.disabled = !!message.refreshing;
    }
    if (typeof message.error === "string") showStatus(message.error);
  }

  // ---- The connection: reconnects with backoff and jitter; the server resyncs on open

  const isOpen = () => socket !== null && socket.readyState === WebSocket.OPEN;

  function setLive(state) {
    document.body.dataset.live = state;
  }

  function connect() {
    clearTimeout(retry);
    retry = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = location.pathname.replace(/\/$/, "");
    setLive("connecting");
    let ws;
    try {
      ws = new WebSocket(scheme + "//" + location.host + path + "/live" + location.search);
    } catch (error) {
      console.warn("tally: cannot connect", error);
      return scheduleReconnect();
    }
    socket = ws;
    ws.onopen = () => {
      delay = 500;
      setLive("open");
    };
    ws.onmessage = (event) => {
      if (socket === ws) receive(event.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      scheduleReconnect();
    };
  }

  function scheduleReconnect() {
    setLive("closed");
    if (retry !== null) return;
    const wait = delay * (0.5 + Math.random()); // jitter: 50–150 % of the base delay
    delay = Math.min(delay * 2, 10000);
    retry = setTimeout(connect, wait);
  }

  // Sends one browser event; returns false (and sends nothing) when the socket is not open.
  function send(event, el, value) {
    if (!isOpen()) return false;
    const section = el?.dataset.for ?? el?.closest("[data-section]")?.dataset.section ?? null;
    socket.send(JSON.stringify({ event, section, value }));
    return true;
  }

  // ---- Browser events (delegated on the document)

  const isField = (el) => ["INPUT", "SELECT", "TEXTAREA", "FORM"].includes(el.tagName);

  document.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const el = event.target.closest("[data-event]");
    if (!el || isField(el)) return;
    if (send(el.dataset.event, el, el.dataset.value ?? null)) {
      event.preventDefault();
      if (el.dataset.event === "sheet") opener = el;
      // A link chosen in a menu closes it; its buttons (a segment's ×) keep it open.
      if (el.tagName === "A") el.closest("details")?.removeAttribute("open");
    }
  });

  const formValue = (form) => new URLSearchParams(new FormData(form)).toString();

  document.addEventListener("change", (event) => {
    const el = event.target;
    const form = el.form?.matches("form[data-live]") && el.form; // sent whole as it changes
    if (el.matches?.("input[type=checkbox][data-event]")) send(el.dataset.event, el, el.checked ? "on" : "off");
    else if (el.matches?.("select[data-event]")) send(el.dataset.event, el, el.value);
    else if (form) send(form.dataset.event, form, formValue(form));
  });

  document.addEventListener("input", (event) => {
    const el = event.target;
    if (el.matches?.("input[data-event]:not([type=checkbox])")) send(el.dataset.event, el, el.value);
    // A search field of a live form sends the form as you type (the user search).
    else if (el.matches?.("form[data-live] input[type=search]")) send(el.form.dataset.event, el.form, formValue(el.form));
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    // A user's deletion posts itself, once confirmed, with the page's CSRF token.
    if (form.matches?.("form.user-delete")) {
      if (!confirm(form.dataset.confirm)) event.preventDefault();
      else form.elements.csrf.value = document.querySelector("form.signout input[name=csrf]")?.value ?? "";
      return;
    }
    if (!form.matches?.("form[data-event]")) return;
    if (send(form.dataset.event, form, formValue(form))) event.preventDefault();
  });

  document.addEventListener("keydown", (event) => {
    const svg = chartOf(event.target);
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (svg && event.key in moves) {
      event.preventDefault();
      const last = series(svg.dataset.values).length - 1;
      const index = Number(svg.dataset.index ?? last) + moves[event.key];
      showPoint(svg, Number.isFinite(index) ? index : index < 0 ? 0 : last);
      return;
    }
    const sheet = byId("sheet");
    if (!sheet) return;
    if (event.key === "Escape") {
      event.preventDefault();
      const close = sheet.querySelector("a.close");
      if (!send("close-sheet", close, null) && close) location.href = close.href;
    } else if (event.key === "Tab" && sheet.contains(document.activeElement)) {
      // Keep the focus inside the open sheet (it is aria-modal).
      const controls = [...sheet.querySelectorAll(FOCUSABLE)];
      const first = controls[0], last = controls[controls.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  // Back or forward between filters: the server shows the address (or it loads).
  window.addEventListener("popstate", () => {
    if (!send("navigate", null, location.search)) location.reload();
  });

  // Back from the back/forward cache: the old socket is gone, connect again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && socket === null) connect();
  });
  // Network back: skip the rest of the backoff.
  window.addEventListener("online", () => {
    if (!isOpen() && retry !== null) connect();
  });

  // Only a dashboard (its body names the app) has a live feed to connect to.
  const start = () => {
    formatNumbers(document);
    if (document.body.dataset.app) connect();
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

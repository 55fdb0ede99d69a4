// dualtrace inspector: vanilla JavaScript over the /v1 API. Every text from the store goes
// into the page through textContent (never innerHTML), so stored text cannot run as code.
"use strict";

const KEY = "dualtrace.key";
const view = document.getElementById("view");
const MEMORY_KINDS = ["fact", "preference", "event", "episode_chunk", "summary"];
const memoryCache = new Map(); // user + id -> promise of the record in full (GET /v1/memories/id)
const briefs = new Map(); // user + id -> {kind, text}: what the timeline shows of a memory
const cacheKey = (user, id) => `${user}\u0000${id}`;

function forget() {
  memoryCache.clear();
  briefs.clear();
}

// -- DOM -------------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(...nodes) {
  view.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined));
}

function notice(text, kind) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.className = kind || "info";
  box.hidden = !text;
}

// Times as stored: the wall time and offset a record was written with, the offset always
// written ("UTC" for Z, +00:00 or none), so a date here is the date the context names.
const STAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function when(iso) {
  if (!iso) return "—";
  const parts = STAMP.exec(iso);
  if (!parts) return iso;
  const offset = (parts[3] || "Z").toUpperCase();
  const zone = offset === "Z" || /^[+-]00:?00$/.test(offset) ? "UTC" : offset;
  return `${parts[1]} ${parts[2]} ${zone}`;
}

// User text (speakers, memories, ids a client chose) inside a line: isolated, so a
// right-to-left mark or override in it cannot reorder what follows.
const bidi = (text) => el("bdi", {}, text);

function shorten(text, size = 80) {
  const chars = Array.from(text || "");
  return chars.length > size ? `${chars.slice(0, size - 1).join("")}…` : chars.join("");
}

function confirmAction(text) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "cancel";
    dialog.showModal();
  });
}

// -- API -------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

async function api(method, path, { query, body } = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null && one !== "") url.searchParams.append(name, one);
    }
  }
  const headers = { Accept: "application/json" };
  const key = sessionStorage.getItem(KEY);
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(res.status, error.type || "HTTPError", error.message || res.statusText);
  }
  return data;
}

function failure(error) {
  if (error instanceof ApiError && error.status === 401) {
    return el("div", { class: "error" }, "This server needs an API key: paste one above. ",
      el("span", { class: "muted" }, error.message));
  }
  const kind = error instanceof ApiError ? `${error.type} (${error.status})` : "Error";
  return el("div", { class: "error" }, `${kind}: ${error.message}`);
}

async function memory(user, id) {
  const key = cacheKey(user, id);
  if (!memoryCache.has(key)) {
    const pending = api("GET", `/v1/memories/${encodeURIComponent(id)}`, { query: { user_id: user } });
    pending.catch(() => memoryCache.delete(key));
    memoryCache.set(key, pending);
  }
  return memoryCache.get(key);
}

// The timeline needs the text of many memories: a few list pages cost fewer requests (and
// less of the key's rate limit) than one request per memory.
async function loadBriefs(user, ids) {
  let missing = ids.filter((id) => !briefs.has(cacheKey(user, id)));
  let cursor = null;
  for (let round = 0; missing.length > 3 && round < 5; round++) {
    const page = await api("GET", "/v1/memories", { query: {
      user_id: user, kind: MEMORY_KINDS, include_invalid: true, limit: 500, cursor } });
    for (const item of page.items) briefs.set(cacheKey(user, item.id), item);
    missing = missing.filter((id) => !briefs.has(cacheKey(user, id)));
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  await Promise.all(missing.map((id) => memory(user, id).then(
    (m) => briefs.set(cacheKey(user, id), m), () => null)));
}

// -- routes ----------------------------------------------------------------------------

const userHash = (user) => `#/u/${encodeURIComponent(user)}`;
const memoryHash = (user, id) => `${userHash(user)}/m/${encodeURIComponent(id)}`;

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const nav = document.getElementById("nav");
  nav.replaceChildren();
  if (parts[0] !== "u" || !parts[1]) return users();
  const user = parts[1];
  nav.append(
    el("span", { class: "user" }, "user ", el("strong", {}, bidi(user))),
    el("a", { href: userHash(user) }, "Timeline"),
    el("a", { href: `${userHash(user)}/search` }, "Search"),
    el("a", { href: `${userHash(user)}/profile` }, "Profile"),
  );
  if (parts[2] === "m" && parts[3]) return memoryPage(user, parts[3]);
  if (parts[2] === "search") return searchPage(user);
  if (parts[2] === "profile") return profilePage(user);
  return timeline(user, parts[2] === "s" ? parts[3] : null);
}

async function users() {
  show(el("p", { class: "muted" }, "Loading users…"));
  let found;
  try {
    found = (await api("GET", "/v1/users")).users;
  } catch (error) {
    return show(el("h1", {}, "Users"), failure(error));
  }
  if (found.length === 1 && sessionStorage.getItem(KEY)) {
    location.hash = userHash(found[0].user_id);
    return;
  }
  const rows = found.map((u) => el("tr", {},
    el("td", {}, el("a", { href: userHash(u.user_id) }, bidi(u.user_id))),
    el("td", { class: "num" }, u.turns), el("td", { class: "num" }, u.memories)));
  const pick = el("form", { class: "inline", onsubmit: (event) => {
    event.preventDefault();
    const name = event.target.elements.user.value.trim();
    if (name) location.hash = userHash(name);
  } }, el("input", { name: "user", placeholder: "user id", "aria-label": "user id" }),
  el("button", { type: "submit" }, "Open"));
  show(el("h1", {}, "Users"), pick,
    found.length ? el("table", { class: "users" },
      el("thead", {}, el("tr", {}, el("th", {}, "user"), el("th", {}, "turns"),
        el("th", {}, "memories"))), el("tbody", {}, rows))
      : el("p", { class: "muted" }, "No user has stored anything yet."));
}

// -- timeline --------------------------------------------------------------------------

const SUPERSEDED = "dualtrace.superseded"; // this tab shows superseded memories too

async function timeline(user, session) {
  const list = el("div", { class: "timeline" });
  const more = el("button", { type: "button", hidden: true }, "Load more");
  const withOld = sessionStorage.getItem(SUPERSEDED) === "1";
  const toggle = el("label", { class: "toggle" }, el("input", { type: "checkbox",
    id: "show-superseded", checked: withOld, onchange: (event) => {
      if (event.target.checked) sessionStorage.setItem(SUPERSEDED, "1");
      else sessionStorage.removeItem(SUPERSEDED);
      route();
    } }), " show superseded");
  show(el("h1", {}, "Timeline"), session ? el("p", {}, "Session ", el("code", {}, bidi(session)),
    " · ", el("a", { href: userHash(user) }, "all sessions")) : null, toggle, list, more);
  let old = new Map();
  if (withOld) {
    try {
      old = await loadSuperseded(user);
    } catch (error) {
      list.append(failure(error));
    }
  }
  let cursor = null;
  let lastSession;
  let group = null;
  async function page() {
    more.disabled = true;
    let data;
    try {
      data = await api("GET", "/v1/turns",
        { query: { user_id: user, limit: 100, cursor, session_id: session } });
    } catch (error) {
      list.append(failure(error));
      return;
    }
    if (!data.turns.length && !cursor) list.append(el("p", { class: "muted" }, "No turns stored."));
    try {
      await loadBriefs(user, data.turns.flatMap((turn) => turn.memory_ids));
    } catch (error) {
      list.append(failure(error));
    }
    for (const turn of data.turns) {
      if (group === null || turn.session_id !== lastSession) {
        lastSession = turn.session_id;
        group = el("ol", { class: "turns" });
        const title = turn.session_id
          ? el("a", { href: `${userHash(user)}/s/${encodeURIComponent(turn.session_id)}` },
            bidi(turn.session_id))
          : "no session";
        list.append(el("section", { class: "session" },
          el("h2", {}, "Session ", title, el("span", { class: "muted" }, ` · ${when(turn.occurred_at)}`)),
          group));
      }
      group.append(turnItem(user, turn, old.get(turn.id) || []));
    }
    cursor = data.next_cursor;
    more.hidden = !cursor;
    more.disabled = false;
  }
  more.addEventListener("click", page);
  await page();
}

// Memories no longer valid (superseded, or found stale), by the turn each cites: the list
// pages of GET /v1/memories with include_invalid, which also hold what replaced them.
async function loadSuperseded(user) {
  const byTurn = new Map();
  let cursor = null;
  for (let round = 0; round < 40; round++) {
    const page = await api("GET", "/v1/memories", { query: {
      user_id: user, kind: MEMORY_KINDS, include_invalid: true, limit: 500, cursor } });
    for (const item of page.items) {
      briefs.set(cacheKey(user, item.id), item);
      if (!item.invalidated_at && !item.superseded_by) continue;
      for (const source of item.sources || []) {
        if (!byTurn.has(source.episode_id)) byTurn.set(source.episode_id, []);
        byTurn.get(source.episode_id).push(item);
      }
    }
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return byTurn;
}

function memoryLine(user, m) {
  return el("a", { href: memoryHash(user, m.id), class: "memory-link" },
    el("span", { class: `kind ${m.kind}` }, m.kind), " ", bidi(m.text));
}

function supersededItem(user, m) {
  const next = m.superseded_by ? briefs.get(cacheKey(user, m.superseded_by)) : null;
  const by = m.superseded_by ? [" by ", el("a", { href: memoryHash(user, m.superseded_by), class: "successor" },
    next ? bidi(shorten(next.text)) : m.superseded_by)] : [];
  return el("li", { class: "superseded" }, el("del", {}, memoryLine(user, m)),
    el("span", { class: "muted superseded-note" }, m.superseded_by ? " superseded" : " found stale",
      ...by, ` · valid until ${when(m.valid_to || m.invalidated_at)}`));
}

function turnItem(user, turn, old) {
  const derived = el("ul", { class: "derived" });
  for (const id of turn.memory_ids) {
    const m = briefs.get(cacheKey(user, id));
    derived.append(el("li", {}, m ? memoryLine(user, m)
      : el("a", { href: memoryHash(user, id), class: "memory-link missing" }, id)));
  }
  for (const m of old) derived.append(supersededItem(user, m));
  return el("li", { class: `turn ${turn.role}`, "data-id": turn.id },
    el("div", { class: "meta" }, when(turn.occurred_at), " · ",
      el("strong", { class: "speaker" }, bidi(turn.speaker || turn.role)),
      " · ", el("a", { href: memoryHash(user, turn.id), class: "muted" }, "turn")),
    el("div", { class: "text", dir: "auto" }, turn.text),
    derived.children.length ? derived : null);
}

// -- one record ------------------------------------------------------------------------

function field(name, ...value) {
  return [el("dt", {}, name), el("dd", {}, ...value)];
}

async function memoryPage(user, id) {
  show(el("p", { class: "muted" }, "Loading…"));
  let m;
  let history;
  try {
    memoryCache.delete(cacheKey(user, id));
    [m, history] = await Promise.all([memory(user, id),
      api("GET", `/v1/memories/${encodeURIComponent(id)}/history`, { query: { user_id: user } })]);
  } catch (error) {
    return show(el("h1", {}, bidi(id)), failure(error));
  }
  const link = (target) => recordLink(user, target);
  const status = m.archived ? "archived" : (m.valid_to || m.superseded_by ? "no longer valid" : "valid");
  const facts = el("dl", { class: "fields" },
    field("kind", m.kind),
    field("status", el("span", { class: `status ${status.replace(/ /g, "-")}` }, status)),
    m.kind === "episode" ? null : field("fact", el("bdi", { class: "fact" }, m.text)),
    m.scene ? field("scene", el("bdi", { class: "scene" }, m.scene)) : null,
    m.subject || m.predicate || m.object ? field("triple",
      el("span", { class: "triple" }, bidi(m.subject || "?"), " · ", bidi(m.predicate || "?"), " · ",
        bidi(m.object || "?"))) : null,
    m.topic ? field("topic", bidi(m.topic)) : null,
    (m.entities || []).length ? field("entities", el("ul", { class: "tags" },
      m.entities.map((e) => el("li", {}, bidi(e.name), el("span", { class: "muted" }, ` ${e.type}`))))) : null,
    field("valid from", when(m.valid_from)),
    field("valid to", when(m.valid_to)),
    m.invalidated_at ? field("found stale", when(m.invalidated_at)) : null,
    m.superseded_by ? field("superseded by", link(m.superseded_by)) : null,
    (m.supersedes || []).length ? field("supersedes", m.supersedes.map(link)) : null,
    m.importance !== null && m.importance !== undefined ? field("importance", m.importance.toFixed(2)) : null,
    m.session_id ? field("session", bidi(m.session_id)) : null,
    field("recorded", when(m.recorded_at)),
  );
  const chain = el("div", { class: "chain" });
  supersessionChain(user, m, chain);
  const sources = el("ol", { class: "sources" }, (m.sources || []).map((s) => el("li", {},
    el("div", { class: "meta" }, when(s.occurred_at), " · ", el("strong", { class: "speaker" }, bidi(s.speaker || s.role || "?")),
      " · ", el("a", { href: memoryHash(user, s.episode_id), title: s.episode_id }, "turn")),
    el("div", { class: "text", dir: "auto" }, s.text))));
  const links = (m.links || []).length ? el("ul", { class: "links" }, m.links.map((l) =>
    el("li", {}, link(l.id), el("span", { class: "muted" }, ` ${l.kind} ${l.weight.toFixed(2)}`)))) : null;
  show(
    el("h1", {}, m.kind === "episode" ? "Turn " : "Memory ", el("code", {}, bidi(m.id))),
    el("p", { class: "record-text", dir: "auto" }, m.text),
    actions(user, m),
    facts, chain,
    el("h2", {}, "Sources"), sources.children.length ? sources : el("p", { class: "muted" }, "none"),
    links ? el("h2", {}, "Links") : null, links,
    el("h2", {}, "History"), historyTable(user, m, history.entries),
  );
}

// A link to another record that reads as its text (shortened), its id in the title; the
// text arrives with the record (cached), a record gone since keeps the id.
function recordLink(user, id) {
  const link = el("a", { href: memoryHash(user, id), title: id, class: "record-link" }, id);
  memory(user, id).then((r) => link.replaceChildren(bidi(shorten(r.text))),
    () => link.append(el("span", { class: "muted" }, " (gone)")));
  return link;
}

async function supersessionChain(user, m, box) {
  // older values first, then this one, then what replaced it (at most 10 steps each way)
  const before = [];
  const after = [];
  let cursor = m;
  for (let i = 0; i < 10 && cursor.supersedes && cursor.supersedes.length; i++) {
    try { cursor = await memory(user, cursor.supersedes[0]); } catch { break; }
    before.unshift(cursor);
  }
  cursor = m;
  for (let i = 0; i < 10 && cursor.superseded_by; i++) {
    try { cursor = await memory(user, cursor.superseded_by); } catch { break; }
    after.push(cursor);
  }
  if (!before.length && !after.length) return;
  const step = (x) => el("li", { class: x.id === m.id ? "current" : "" },
    x.id === m.id ? el("strong", {}, bidi(x.text)) : el("a", { href: memoryHash(user, x.id) }, bidi(x.text)),
    el("span", { class: "muted" }, ` ${when(x.valid_from)} → ${x.valid_to ? when(x.valid_to) : "now"}`));
  box.append(el("h2", {}, "Supersession chain"), el("ol", {}, [...before, m, ...after].map(step)));
}

function actions(user, m) {
  const path = `/v1/memories/${encodeURIComponent(m.id)}`;
  const query = { user_id: user };
  const editor = el("form", { class: "editor", hidden: true, onsubmit: async (event) => {
    event.preventDefault();
    const text = editor.elements.text.value;
    if (!(await confirmAction(`Replace the text of ${m.id}? The old text stays in its history.`))) return;
    try {
      await api("PATCH", path, { query, body: { text } });
      notice(`Saved the new text of ${m.id}.`, "info");
      memoryPage(user, m.id);
    } catch (error) { notice(error.message, "error"); }
  } }, el("textarea", { name: "text", rows: 3, "aria-label": "new text" }, m.text),
  el("button", { type: "submit" }, "Save"));
  const remove = async () => {
    if (!(await confirmAction(`Delete ${m.id} for good? Its text, search keys and history leave the store; this cannot be undone.`))) return;
    try {
      await api("DELETE", path, { query });
      forget();
      notice(`Deleted ${m.id}: it is gone from the store.`, "info");
      show(el("h1", {}, "Deleted"), el("p", { class: "deleted" }, `${m.id} was deleted.`),
        el("p", {}, el("a", { href: userHash(user) }, "Back to the timeline")));
    } catch (error) { notice(error.message, "error"); }
  };
  const restore = async () => {
    if (!(await confirmAction(`Restore ${m.id} into search?`))) return;
    try {
      await api("POST", `${path}/restore`, { query });
      notice(`Restored ${m.id}.`, "info");
      memoryPage(user, m.id);
    } catch (error) { notice(error.message, "error"); }
  };
  return el("div", { class: "actions" },
    el("button", { type: "button", onclick: () => { editor.hidden = !editor.hidden; } }, "Edit"),
    el("button", { type: "button", class: "danger", onclick: remove }, "Delete"),
    m.archived ? el("button", { type: "button", onclick: restore }, "Restore") : null,
    editor);
}

function historyTable(user, m, entries) {
  if (!entries.length) return el("p", { class: "muted" }, "No changes recorded.");
  const undo = (entry) => async () => {
    if (!(await confirmAction(`Undo the ${entry.event} of ${when(entry.at)}?`))) return;
    try {
      await api("POST", `/v1/history/${entry.id}/revert`, { query: { user_id: user } });
      forget();
      notice(`Undid the ${entry.event}.`, "info");
      memoryPage(user, m.id);
    } catch (error) { notice(error.message, "error"); }
  };
  return el("table", { class: "history" },
    el("thead", {}, el("tr", {}, ["when", "event", "by", "old text", "new text", ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, entries.map((e) => el("tr", {},
      el("td", { class: "when" }, when(e.at)), el("td", {}, e.event), el("td", {}, bidi(e.actor)),
      el("td", { dir: "auto" }, e.old_text || ""), el("td", { dir: "auto" }, e.new_text || ""),
      el("td", {}, el("button", { type: "button", onclick: undo(e) }, "Undo"))))));
}

// -- search ----------------------------------------------------------------------------

function searchPage(user) {
  const results = el("div", { class: "results" });
  const form = el("form", { class: "search", onsubmit: async (event) => {
    event.preventDefault();
    const query = form.elements.query.value.trim();
    const budget = Number(form.elements.budget.value) || 500;
    if (!query) return;
    results.replaceChildren(el("p", { class: "muted" }, "Searching…"));
    try {
      const [ctx, found] = await Promise.all([
        api("POST", "/v1/context", { body: { user_id: user, query, max_tokens: budget } }),
        api("POST", "/v1/search", { body: { user_id: user, query, limit: 20, explain: true } }),
      ]);
      results.replaceChildren(
        el("h2", {}, "Context an agent would get ", el("span", { class: "muted" }, `${ctx.tokens} / ${budget} tokens`)),
        el("pre", { class: "context" }, ctx.text || "(empty)"),
        el("h2", {}, `Hits (${found.hits.length})`), hitsTable(user, found.hits));
    } catch (error) { results.replaceChildren(failure(error)); }
  } },
  el("input", { name: "query", type: "search", placeholder: "What does the agent ask?", "aria-label": "query", required: true }),
  el("label", {}, "budget ", el("input", { name: "budget", type: "number", min: 1, max: 32000, value: 500, "aria-label": "token budget" })),
  el("button", { type: "submit" }, "Search"));
  show(el("h1", {}, "Search"), form, results);
  form.elements.query.focus();
}

function hitsTable(user, hits) {
  if (!hits.length) return el("p", { class: "muted" }, "No hits.");
  return el("table", { class: "hits" },
    el("thead", {}, el("tr", {}, ["#", "score", "when", "kind", "text", "breakdown"].map((h) => el("th", {}, h)))),
    el("tbody", {}, hits.map((h, i) => el("tr", { class: "hit" },
      el("td", { class: "num" }, i + 1), el("td", { class: "num" }, h.score.toFixed(3)),
      el("td", { class: "when" }, when(h.occurred_at)), el("td", {}, el("span", { class: `kind ${h.kind}` }, h.kind)),
      el("td", {}, el("a", { href: memoryHash(user, h.id) }, bidi(h.text)),
        h.valid_to || h.superseded_by ? el("span", { class: "status no-longer-valid" }, " no longer valid") : null),
      el("td", {}, breakdown(h.scores || {}))))));
}

// The score parts of one hit, folded: a table of 20 hits stays about one line a hit.
function breakdown(scores) {
  const parts = Object.entries(scores);
  if (!parts.length) return "—";
  return el("details", { class: "breakdown" }, el("summary", {}, `${parts.length} parts`),
    el("ul", { class: "scores" }, parts.map(([name, value]) =>
      el("li", {}, el("span", {}, name), " ", el("meter", { min: 0, max: 1, value: Math.max(0, Math.min(1, value)) }),
        ` ${value.toFixed(3)}`))));
}

// -- profile ---------------------------------------------------------------------------

// The user's picture now (or as of a time): each attribute's current value with what it
// replaced, back along the chain (GET /v1/profile?history=true), the open goals and tasks,
// the last session's summary, and the context a new session starts with (POST /v1/context
// without a query).
function profilePage(user) {
  const body = el("div", { class: "profile" });
  const form = el("form", { class: "inline", onsubmit: (event) => {
    event.preventDefault();
    loadProfile(user, form.elements.as_of.value.trim(), body);
  } },
  el("label", {}, "as of ", el("input", { name: "as_of", placeholder: "now (or 2026-03-01)",
    "aria-label": "as of", spellcheck: "false" })),
  el("button", { type: "submit" }, "Show"));
  show(el("h1", {}, "Profile"), form, body);
  return loadProfile(user, "", body);
}

async function loadProfile(user, asOf, body) {
  body.replaceChildren(el("p", { class: "muted" }, "Loading…"));
  let found;
  let start;
  try {
    [found, start] = await Promise.all([
      api("GET", "/v1/profile", { query: { user_id: user, history: true, as_of: asOf } }),
      api("POST", "/v1/context", { body: { user_id: user, max_tokens: 1000, reinforce: false,
        ...(asOf ? { as_of: asOf } : {}) } }),
    ]);
  } catch (error) {
    return body.replaceChildren(failure(error));
  }
  const values = found.values.length ? profileTable(user, found.values)
    : el("p", { class: "muted" }, "No value is known yet.");
  const people = found.people.length ? profileTable(user, found.people)
    : el("p", { class: "muted" }, "Nobody else's value is known yet.");
  const plans = [...found.goals.map((g) => ["goal", g]), ...found.tasks.map((t) => ["to do", t])];
  body.replaceChildren(
    found.as_of ? el("p", { class: "muted" }, `As of ${when(found.as_of)}`) : null,
    el("h2", {}, "Current values"), values,
    el("h2", {}, "Open goals and tasks"),
    plans.length ? el("ul", { class: "plans" }, plans.map(([kind, p]) => el("li", { class: "plan" },
      el("span", { class: "kind" }, kind), " ", el("a", { href: memoryHash(user, p.memory_id) }, bidi(p.text)),
      el("span", { class: "muted" }, ` · since ${when(p.since)}`))))
      : el("p", { class: "muted" }, "None open."),
    el("h2", {}, "Last session"),
    found.summary ? el("pre", { class: "summary", dir: "auto" }, found.summary)
      : el("p", { class: "muted" }, "No session summary stored yet."),
    el("h2", {}, "Other people the user spoke of"), people,
    el("h2", {}, "Context a new session starts with ",
      el("span", { class: "muted" }, `${start.tokens} / 1000 tokens`)),
    el("pre", { class: "context start-context" }, start.text || "(empty)"),
  );
}

function profileTable(user, values) {
  return el("table", { class: "profile-values" },
    el("thead", {}, el("tr", {}, ["attribute", "value", "since", "said in", "replaced"].map((h) => el("th", {}, h)))),
    el("tbody", {}, values.map((v) => profileRow(user, v))));
}

function profileRow(user, v) {
  const name = v.attribute.replace(/_/g, " ");
  const whose = v.subject ? [bidi(v.subject), " — "] : [];
  const chain = v.replaced.length ? el("ol", { class: "replaced" }, v.replaced.map((r) =>
    el("li", { class: "replaced-value" }, el("del", {},
      el("a", { href: memoryHash(user, r.memory_id) }, bidi(r.value))),
    el("span", { class: "muted" }, ` ${when(r.since)} → ${r.until ? when(r.until) : "?"}`))))
    : el("span", { class: "muted" }, "—");
  return el("tr", { class: "profile-value", "data-attribute": v.attribute },
    el("td", {}, ...whose, name, v.qualifier ? [" (", bidi(v.qualifier), ")"] : null),
    el("td", { class: "value" }, el("a", { href: memoryHash(user, v.memory_id), title: v.text }, bidi(v.value))),
    el("td", { class: "when" }, when(v.since)),
    el("td", {}, v.sources.map((id, i) => el("a", { href: memoryHash(user, id), class: "source", title: id },
      i ? ` turn ${i + 1}` : "turn"))),
    el("td", {}, chain));
}

// -- key -------------------------------------------------------------------------------

document.getElementById("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("key");
  if (input.value.trim()) sessionStorage.setItem(KEY, input.value.trim());
  input.value = "";
  forget();
  notice("Using the key for this tab.", "info");
  route();
});
document.getElementById("key-forget").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  forget();
  notice("Key forgotten.", "info");
  location.hash = "#/";
  route();
});
window.addEventListener("hashchange", () => { notice(""); route(); });
route();

// Pairing (#/pair): may this tablet change the game, and the way to let it.
// Anyone may watch a game; changing one needs a paired tablet (or the box's
// own browser, which the box trusts). A tablet pairs in one of two ways:
// it asks the box and someone presses PAIR on the box within the time shown,
// as many times in a row as the tablet says (each waiting tablet has its own
// number, so a stranger's request never gets the owner's presses), or it
// types the short code a paired tablet shows. A paired tablet also sees
// every paired tablet, each marked the owner's or a player's, and can unpair
// itself. The owner's tablets (paired with the PAIR button or the box's own
// code, or marked by the owner; the box's own screen too) remove any tablet,
// mark one as the owner's or a player's, and may show a code that pairs an
// owner's tablet; any other code pairs a player's.
// The events are pair_status, pair_request (then the pushed `paired`),
// pair_cancel, pair_code, pair_show_code, pair_devices, pair_revoke and
// pair_set_owner.

import { h } from "./dom.js";
import { getToken, sentence } from "./connection.js";

const TICK_MS = 250;
const HOW = { button: "with the PAIR button", code: "with a code", console: "with the box's own code" };

function fresh() {
  return {
    loading: true,
    name: "Tablet",
    code: "",
    asking: null, // {until, presses}: the box waits for PAIR, pressed `presses` times in a row, until then
    askNote: null, // {kind, text}
    codeNote: null,
    shown: null, // {code, until, owner}: the code this tablet shows for another one
    shownNote: null,
    ownerCode: false, // the owner asks for a code that pairs an owner's tablet
    devices: null,
    devicesNote: null,
    busy: false,
    timer: null,
  };
}

/** Entering the screen (or back after a drop): how this tablet stands, and the paired devices. */
export async function startPairing(app) {
  if (!app.pairing) app.pairing = fresh();
  const state = app.pairing;
  if (!state.timer) state.timer = setInterval(() => tick(app, state), TICK_MS);
  if (!app.conn.connected) { app.render(); return; }
  const reply = await app.conn.request("pair_status", {});
  if (app.pairing !== state) return;
  state.loading = false;
  if (!reply.ok) {
    state.askNote = { kind: "error", text: sentence(reply.error.message) };
    app.render();
    return;
  }
  app.access = reply;
  if (reply.request && !state.asking) {
    state.asking = { until: Date.now() + Number(reply.request.seconds_left) * 1000, presses: Number(reply.request.presses || 1) };
  }
  if (app.mayChange()) app.clearPairBanner();
  if (reply.paired || reply.trusted) await loadDevices(app, state);
  else state.devices = null;
  if (app.pairing === state) app.render();
}

/** Leaving the screen: stop the clock; a request to the box is given up. */
export function stopPairing(app) {
  const state = app.pairing;
  if (!state) return;
  clearInterval(state.timer);
  if (state.asking) app.conn.request("pair_cancel", {});
  app.pairing = null;
}

async function loadDevices(app, state) {
  const reply = await app.conn.request("pair_devices", {});
  if (app.pairing !== state) return;
  if (reply.ok) {
    state.devices = reply.devices || [];
    if (state.devicesNote && state.devicesNote.kind === "error") state.devicesNote = null;
  } else {
    state.devices = null;
    state.devicesNote = { kind: "error", text: sentence(reply.error.message) };
  }
}

function secondsLeft(until) {
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

function clock(seconds) {
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes}:${String(seconds % 60).padStart(2, "0")}` : `${seconds} s`;
}

function timesText(presses) {
  return presses === 1 ? "once" : presses === 2 ? "twice" : `${presses} times in a row`;
}

function askText(state) {
  return `Press PAIR on the box ${timesText(state.asking.presses)} now — ${secondsLeft(state.asking.until)} s`;
}

function shownText(state) {
  return `Type it on the other tablet within ${clock(secondsLeft(state.shown.until))}.`;
}

/** Count down in place (no re-render: a half-typed code stays put); at zero, say so. */
function tick(app, state) {
  if (app.pairing !== state || app.route.name !== "pair") return;
  const ran = countDown(app.screen, state, "asking", "pair-countdown", askText) ||
    countDown(app.screen, state, "shown", "pair-code-countdown", shownText);
  if (ran) app.render();
}

const RAN_OUT = {
  asking: ["askNote", "Nobody pressed PAIR in time, so this tablet is not paired. Ask again when someone is at the box."],
  shown: ["shownNote", "That code has run out. Show a new one if the other tablet still needs it."],
};

/** One countdown (``state[key]`` with its ``until``): update its text, or at zero drop it, leave
 * the note that says so and answer true (the screen must be drawn again). */
function countDown(screen, state, key, testid, text) {
  if (!state[key]) return false;
  if (secondsLeft(state[key].until) <= 0) {
    const [noteKey, note] = RAN_OUT[key];
    state[key] = null;
    state[noteKey] = { kind: "warn", text: note };
    return true;
  }
  const el = screen.querySelector(`[data-testid=${testid}]`);
  if (el) { el.textContent = text(state); el.dataset.seconds = secondsLeft(state[key].until); }
  return false;
}

/** One request at a time from this screen. */
async function send(app, event, payload) {
  const state = app.pairing;
  if (!state || state.busy) return null;
  state.busy = true;
  app.render();
  const reply = await app.conn.request(event, payload);
  if (app.pairing !== state) return null;
  state.busy = false;
  return reply;
}

async function ask(app) {
  const state = app.pairing;
  state.askNote = null;
  state.codeNote = null;
  const reply = await send(app, "pair_request", { name: state.name });
  if (!reply) return;
  if (reply.ok) {
    state.asking = { until: Date.now() + Number(reply.seconds || 30) * 1000, presses: Number(reply.presses || 1) };
  } else {
    state.askNote = { kind: "error", text: sentence(reply.error.message) };
  }
  app.render();
}

async function stopAsking(app) {
  const state = app.pairing;
  state.asking = null;
  state.askNote = { kind: "info", text: "Stopped waiting for the PAIR button." };
  app.render();
  await app.conn.request("pair_cancel", {});
}

async function enterCode(app) {
  const state = app.pairing;
  const code = state.code.replace(/\D/g, "");
  state.askNote = null;
  if (!code) {
    state.codeNote = { kind: "error", text: "Type the code shown on the paired tablet first." };
    app.render();
    return;
  }
  state.codeNote = null;
  const reply = await send(app, "pair_code", { name: state.name, code });
  if (!reply) return;
  if (reply.ok) {
    state.code = "";
    app.acceptPairing(reply);
    return;
  }
  const codes = { "no-code": "There is no open code. Show a new code on a paired tablet, then type it here." };
  state.codeNote = { kind: "error", text: codes[reply.error.code] ? `${sentence(reply.error.message)} ${codes[reply.error.code]}` : sentence(reply.error.message) };
  app.render();
}

async function showCode(app) {
  const state = app.pairing;
  state.shownNote = null;
  const reply = await send(app, "pair_show_code", { owner: Boolean(state.ownerCode && isOwner(app)) });
  if (!reply) return;
  if (reply.ok) {
    state.shown = { code: String(reply.code), until: Date.now() + Number(reply.seconds || 0) * 1000, owner: Boolean(reply.owner) };
  } else {
    state.shown = null;
    state.shownNote = { kind: "error", text: sentence(reply.error.message) };
  }
  app.render();
}

async function removeDevice(app, device) {
  const state = app.pairing;
  const mine = isThisTablet(app, device);
  const reply = await send(app, "pair_revoke", { device_id: device.id });
  if (!reply) return;
  if (!reply.ok) {
    state.devicesNote = { kind: "error", text: sentence(reply.error.message) };
    app.render();
    return;
  }
  const name = (reply.revoked && reply.revoked.name) || device.name;
  state.devicesNote = { kind: "info", text: mine ? "This tablet is no longer paired: it can watch but not change the game."
    : `Removed “${name}”: it can watch but no longer change the game.` };
  if (mine) app.forgetPairing();
  startPairing(app);
}

async function markDevice(app, device, owner) {
  const state = app.pairing;
  const reply = await send(app, "pair_set_owner", { device_id: device.id, owner });
  if (!reply) return;
  state.devicesNote = reply.ok
    ? { kind: "info", text: owner ? `“${device.name}” is now the owner's tablet.` : `“${device.name}” is now a player's tablet.` }
    : { kind: "error", text: sentence(reply.error.message) };
  startPairing(app);
}

/** This tablet speaks for the owner: the box's own screen, or a paired tablet marked as the owner's. */
function isOwner(app) {
  return Boolean(app.access && app.access.owner);
}

function isThisTablet(app, device) {
  return Boolean(app.access && app.access.device && app.access.device.id === device.id);
}

function when(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function note(value, testid) {
  if (!value) return null;
  return h("p", { class: `note note-${value.kind}`, "data-testid": testid, "data-kind": value.kind, role: value.kind === "error" ? "alert" : "status" },
    value.text);
}

// -- the screen -------------------------------------------------------------------------------------
function statusPanel(app) {
  const access = app.access;
  const state = app.pairing;
  if (!access) {
    return h("section", { class: "panel pair-status", "data-testid": "pair-status", "data-paired": "unknown" },
      h("p", {}, state.loading && app.conn.connected ? "Asking the box how this tablet stands…" : "Waiting for the connection to the box…"));
  }
  const device = access.device;
  const lines = [];
  let headline;
  let tone;
  if (access.paired && device) {
    tone = "ok";
    headline = `Paired as “${device.name}”`;
    lines.push(`Paired ${when(device.paired_at)} ${HOW[device.how] || `(${device.how})`}. This tablet can change the game.`);
    lines.push(device.owner ? "It is the owner's tablet: it can download the box's backup and manage the paired tablets."
      : "It is a player's tablet: the box's backup and the other tablets are the owner's to manage.");
  } else if (access.trusted) {
    tone = "ok";
    headline = "This is the box's own browser";
    lines.push("It can change the game without pairing. Use it to show a code for a new tablet.");
  } else if (!access.required) {
    tone = "ok";
    headline = "Pairing is turned off on this box";
    lines.push("Every tablet can change the game. You can still pair this one, for when pairing is turned on.");
  } else {
    tone = "warn";
    headline = "Not paired: this tablet can watch but not change the game";
    if (getToken()) lines.push("It was paired before, but the box no longer knows that pairing (it may have been removed). Pair it again below.");
    else if (access.pair_button) lines.push("Pair it below: with the PAIR button on the box, or with a code from a tablet that is already paired.");
    else lines.push("Pair it below with a code: from a tablet that is already paired, or the code the box prints when it starts "
      + "(this box has no PAIR button wired).");
  }
  return h("section", { class: `panel pair-status pair-status-${tone}`, "data-testid": "pair-status",
                        "data-paired": access.paired ? "yes" : "no", "data-trusted": access.trusted ? "yes" : "no",
                        "data-required": access.required ? "yes" : "no", "data-device-id": device ? device.id : "",
                        "data-owner": access.owner ? "yes" : "no" },
    h("h2", { "data-testid": "pair-headline" }, headline),
    lines.map((line) => h("p", {}, line)));
}

function nameField(app) {
  const state = app.pairing;
  return h("label", { class: "field" }, "A name for this tablet (shown in the list of paired tablets)",
    h("input", { class: "text-input", type: "text", maxlength: 40, autocomplete: "off", "data-testid": "pair-name", value: state.name,
                 oninput: (e) => { state.name = e.target.value; } }));
}

function askPanel(app) {
  const state = app.pairing;
  const body = state.asking
    ? [h("p", { class: "countdown", "data-testid": "pair-countdown", "data-seconds": secondsLeft(state.asking.until), role: "timer" }, askText(state)),
       h("p", { class: "subtle", "data-testid": "pair-presses", "data-presses": state.asking.presses },
         `The PAIR button is on the box. Press it ${timesText(state.asking.presses)}${state.asking.presses > 1 ? " (other tablets are waiting too, each for its own number of presses)" : ""}; this screen changes by itself a moment after.`),
       h("button", { class: "btn", type: "button", "data-testid": "pair-ask-stop", onclick: () => stopAsking(app) }, "Stop waiting")]
    : [h("p", { class: "subtle" }, "Tap below, then press the PAIR button on the box before the time runs out."),
       h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "pair-ask", disabled: state.busy,
                     onclick: () => ask(app) }, state.askNote && state.askNote.kind === "warn" ? "Ask the box again" : "Ask the box")];
  return h("section", { class: "panel pair-way" },
    h("h2", {}, "With the PAIR button on the box"), body, note(state.askNote, "pair-ask-note"));
}

function codePanel(app) {
  const state = app.pairing;
  const input = h("input", { class: "text-input code-input", type: "text", inputmode: "numeric", pattern: "[0-9]*", maxlength: 12,
                             autocomplete: "one-time-code", "data-testid": "pair-code-input", "aria-label": "Pairing code",
                             placeholder: "123456", value: state.code,
                             oninput: (e) => { state.code = e.target.value; },
                             onkeydown: (e) => { if (e.key === "Enter") enterCode(app); } });
  return h("section", { class: "panel pair-way" },
    h("h2", {}, "Enter a code"),
    h("p", { class: "subtle" }, "On a tablet that is already paired, open “Pair” and tap “Show a code for another tablet”. Type the code here."),
    h("div", { class: "code-row" }, input,
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "pair-code-submit", disabled: state.busy,
                    onclick: () => enterCode(app) }, "Pair with this code")),
    note(state.codeNote, "pair-code-note"));
}

function showCodePanel(app) {
  const state = app.pairing;
  const shown = state.shown;
  return h("section", { class: "panel pair-way" },
    h("h2", {}, "Pair another tablet"),
    shown
      ? h("div", { class: "shown-code" },
          h("p", { class: "big-code", "data-testid": "pair-code", "data-code": shown.code, "aria-label": `Code ${shown.code.split("").join(" ")}` },
            shown.code.length === 6 ? `${shown.code.slice(0, 3)} ${shown.code.slice(3)}` : shown.code),
          h("p", { class: "countdown", "data-testid": "pair-code-countdown", "data-seconds": secondsLeft(shown.until), role: "timer" }, shownText(state)),
          h("p", { class: "subtle", "data-testid": "pair-code-kind", "data-owner": shown.owner ? "yes" : "no" },
            `On the other tablet: open “Pair”, tap in “Enter a code” and type these digits. The code pairs one tablet, as ${shown.owner ? "the owner's" : "a player's"}.`))
      : h("p", { class: "subtle" }, "Show a code here, then type it on the new tablet."),
    isOwner(app) ? h("label", { class: "owner-check" },
      h("input", { type: "checkbox", "data-testid": "pair-owner-code", checked: state.ownerCode,
                   onchange: (e) => { state.ownerCode = e.target.checked; } }),
      " The new tablet is the owner's (it may download the backup and manage tablets)") : null,
    h("button", { class: `btn btn-huge${shown ? "" : " btn-primary"}`, type: "button", "data-testid": "pair-show-code", disabled: state.busy,
                  onclick: () => showCode(app) }, shown ? "Show a new code" : "Show a code for another tablet"),
    note(state.shownNote, "pair-show-note"));
}

function ownerBadge(device) {
  return h("span", { class: `badge${device.owner ? " badge-won" : ""}`, "data-testid": "device-role", "data-owner": device.owner ? "yes" : "no" },
    device.owner ? "owner" : "player");
}

/** The owner marks a tablet as the owner's or a player's (one tap: it is undone as easily). */
function markButton(app, device) {
  if (!isOwner(app)) return null;
  return h("button", { class: "btn", type: "button", "data-testid": "device-mark", disabled: app.pairing.busy,
                       onclick: () => markDevice(app, device, !device.owner) },
    device.owner ? "Make it a player's" : "Make it the owner's");
}

function removeButton(app, device) {
  if (!isOwner(app) && !isThisTablet(app, device)) return null; // a player unpairs itself only
  // Two taps: the first asks, the second removes (no hover, no pop-up).
  const mine = isThisTablet(app, device);
  const button = h("button", { class: "btn", type: "button", "data-testid": "device-remove", disabled: app.pairing.busy }, "Remove");
  button.addEventListener("click", () => {
    if (button.dataset.confirm !== "yes") {
      button.dataset.confirm = "yes";
      button.textContent = mine ? "Tap again to unpair this tablet" : "Tap again to remove";
      button.classList.add("btn-warn");
      return;
    }
    button.disabled = true;
    removeDevice(app, device);
  });
  return button;
}

function devicesPanel(app) {
  const state = app.pairing;
  const devices = state.devices;
  return h("section", { class: "panel" },
    h("h2", {}, "Paired tablets"),
    note(state.devicesNote, "devices-note"),
    devices === null ? (state.devicesNote ? null : h("p", { class: "subtle" }, "Loading the list…"))
      : devices.length === 0 ? h("p", { class: "subtle", "data-testid": "no-devices" }, "No tablet is paired yet.")
      : h("ul", { class: "device-list", "data-testid": "device-list" },
          [...devices].sort((a, b) => a.paired_at - b.paired_at).map((device) =>
            h("li", { class: "device-row", "data-testid": "device-row", "data-device-id": device.id, "data-name": device.name,
                      "data-this": isThisTablet(app, device) ? "yes" : "no", "data-owner": device.owner ? "yes" : "no" },
              h("div", { class: "device-info" },
                h("div", { class: "device-name" }, device.name, " ", ownerBadge(device), " ",
                  isThisTablet(app, device) ? h("span", { class: "badge badge-live", "data-testid": "this-tablet" }, "this tablet") : null),
                h("div", { class: "subtle" }, `Paired ${when(device.paired_at)} ${HOW[device.how] || `(${device.how})`}`)),
              h("div", { class: "device-actions" }, markButton(app, device), removeButton(app, device))))),
    h("p", { class: "subtle" }, "A removed tablet can still watch the game. It must pair again to change it."),
    h("p", { class: "subtle" }, isOwner(app) ? "The owner's tablets can download the box's backup (every game's secrets) and manage the tablets; a player's cannot."
      : "Only the owner's tablets can remove other tablets or mark one as the owner's."));
}

/** Over the screen when pairing comes first (a new game asked for on an unpaired tablet). */
function firstNote(app) {
  if (!app.pairReturn) return null;
  return h("section", { class: "panel pair-first", "data-testid": "pair-first", role: "status" },
    h("h2", {}, "First, pair this tablet"),
    h("p", {}, "Only a paired tablet can start a game. Pair it here; then the new game's questions come, "
      + "with everything you already chose still there."));
}

export function renderPairing(app) {
  if (!app.pairing) app.pairing = fresh();
  const access = app.access;
  const back = app.pairReturn
    ? h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => { app.pairReturn = null; app.go("#/"); } }, "◀ Games")
    : h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games");
  const head = h("header", { class: "page-head" }, back, h("h1", {}, "Pairing"), app.connectionPill());
  const known = access && !app.pairing.loading;
  const canPair = known && !access.paired && !access.trusted;
  const manages = known && (access.paired || access.trusted);
  const ways = [access && access.pair_button ? askPanel(app) : null, codePanel(app)];
  return h("div", { class: "page pair-page", "data-testid": "screen-pair" },
    head,
    firstNote(app),
    statusPanel(app),
    canPair ? [nameField(app), h("div", { class: "pair-ways" }, ways)] : null,
    manages ? [showCodePanel(app), devicesPanel(app)] : null,
    known ? null : note(app.pairing.askNote, "pair-ask-note"));
}

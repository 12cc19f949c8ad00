// Dice setup (#/dice): teach the dice camera the owner's tray and dice.
// Steps: a picture from the camera, on which the owner taps the tray's four
// corners (or uses the ArUco markers), or, for a tray of another shape (a
// hexagon, a round tray), taps along its rim, in order, and Use this outline
// (outside it nothing is read); pictures of the empty tray; then, for
// one die kind at a time, each face put on top in the tray and captured, with
// back, retake and progress (a tilted, cut-off or blurred photo is refused with
// why); Finish saves the calibration; then the self-test: a dozen throws, each
// read confirmed or corrected with one tap, and the camera answers rolls of that
// die by itself only if it passed (otherwise it says what to change).
// Export and restore keep a backup (a zip file).
// The setup is for one game's box (#/dice/<pack>): its dice sets are what is taught and
// shown (two boxes' Monster dice are two sets; the camera keeps both, docs/dice.md "Dice sets").
// The camera does not read rolls while a tablet is on this screen.
// The events are in docs/protocol.md ("Dice setup").

import { h } from "./dom.js";

const CORNERS = ["top-left", "top-right", "bottom-right", "bottom-left"];
const MAX_OUTLINE = 64; // taps along a tray's rim (the server takes 3 to 64)
const METHODS = { aruco: "markers", taps: "your taps", outline: "your outline of the tray", "whole-frame": "the whole picture" };
const NAMES = { d20: "d20", monster: "Monster dice", d6: "d6" };
const KINDS = [
  { kind: "d20", label: "d20" },
  { kind: "monster", label: "Monster die" },
  { kind: "d6", style: "numerals", label: "d6 (numbers)" },
  { kind: "d6", style: "pips", label: "d6 (pips)" },
];

/** Entering the screen (or back after a drop): start or carry on with the setup. */
export async function startDiceSetup(app) {
  if (!app.conn.connected) return;
  const pack = app.route.pack;
  const reply = await app.conn.request("dice_setup_start", pack ? { pack } : {});
  if (app.route.name !== "dice") {
    if (reply.ok) app.conn.request("dice_setup_leave", {});
    return;
  }
  if (!reply.ok) {
    app.diceSetup = { setup: null, refused: reply.error.message };
    app.render();
    return;
  }
  app.diceSetup = { setup: reply.setup, snapshot: null, taps: [], outline: false, busy: false, warnings: [], packs: null };
  app.render();
  loadPacks(app);
  if (reply.setup.step === "tray") snapshot(app);
}

/** The box's games, for the "whose dice?" choice. */
async function loadPacks(app) {
  const ds = app.diceSetup;
  try {
    const reply = await fetch("/api/packs").then((r) => r.json());
    if (app.diceSetup === ds) { ds.packs = reply.packs; app.render(); }
  } catch (e) { /* the choice is only missing: the setup works for the pack it opened with */ }
}

/** Leaving the screen: the camera goes back to the game; the setup is kept. */
export function stopDiceSetup(app) {
  app.diceSetup = null;
  app.conn.request("dice_setup_leave", {});
}

/** One request at a time; a refusal is shown as a banner and changes nothing. */
async function send(app, event, payload = {}) {
  const ds = app.diceSetup;
  if (!ds || !ds.setup || ds.busy) return null;
  ds.busy = true;
  app.render();
  const reply = await app.conn.request(event, payload);
  ds.busy = false;
  if (app.diceSetup !== ds) return null;
  if (!reply.ok) {
    app.showBanner("error", reply.error.message);
    app.render();
    return null;
  }
  app.clearBanner("error");
  if (reply.setup) ds.setup = reply.setup;
  app.render();
  return reply;
}

async function snapshot(app) {
  const reply = await send(app, "dice_tray_snapshot");
  if (reply) {
    app.diceSetup.snapshot = reply;
    app.diceSetup.taps = [];
    app.render();
  }
}

async function tapCorner(app, event) {
  const ds = app.diceSetup;
  const box = event.currentTarget.getBoundingClientRect();
  const x = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
  const y = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
  ds.taps = [...ds.taps, [x, y]].slice(0, ds.outline ? MAX_OUTLINE : 4);
  app.render();
  if (!ds.outline && ds.taps.length === 4) {
    await send(app, "dice_tray_corners", { corners: ds.taps });
    ds.taps = []; // taken (the tray is found) or refused (the banner says why): tap again from the first corner
    app.render();
  }
}

/** A tray of any shape: the taps along its rim, in order, are its outline. */
async function useOutline(app) {
  const ds = app.diceSetup;
  if (await send(app, "dice_tray_corners", { outline: ds.taps })) {
    ds.taps = [];
    ds.outline = false;
    app.render();
  }
}

function outlineMode(app, on) {
  app.diceSetup.outline = on;
  app.diceSetup.taps = [];
  app.render();
}

async function finish(app) {
  const reply = await send(app, "dice_finish");
  if (!reply) return;
  const warn = reply.warnings.length ? ` Check: ${reply.warnings.join("; ")}.` : "";
  const dropped = reply.dropped.length ? ` The tray is new: show the camera the faces of ${reply.dropped.join(", ")} again.` : "";
  app.showBanner("info", `Saved: the camera now reads ${reply.name || NAMES[reply.kind] || reply.kind}. Now test it: throw the die a dozen times and say each time which face is up.${warn}${dropped}`);
  if (app.diceSetup) app.diceSetup.warnings = reply.warnings;
  app.render();
}

async function finishSelfTest(app) {
  const reply = await send(app, "dice_selftest_finish");
  if (!reply) return;
  const name = reply.name || NAMES[reply.kind] || reply.kind;
  const change = reply.advice.length ? ` What to change: ${reply.advice.join("; ")}.` : "";
  app.showBanner("info", reply.passed
    ? `Self-test passed (${reply.estimate}): the camera now reads ${name} rolls by itself.${change}`
    : `Self-test not passed (${reply.estimate}): the camera shows what it reads of the ${name} for you to confirm.${change}`);
  const again = await app.conn.request("dice_setup_start", app.route.pack ? { pack: app.route.pack } : {});
  if (again.ok && app.diceSetup) app.diceSetup.setup = again.setup;
  app.render();
}

async function cancel(app) {
  await app.conn.request("dice_cancel", {});
  app.showBanner("info", "Dice setup cancelled: the camera reads the dice as it did before.", { keep: true });
  app.go("#/");
}

async function exportFile(app) {
  const reply = await app.conn.request("dice_export", {});
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  const link = h("a", { href: `data:application/zip;base64,${reply.file}`, download: reply.name, "data-testid": "dice-export-link" });
  document.body.append(link);
  link.click();
  link.remove();
}

async function restoreFile(app, input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const reply = await app.conn.request("dice_restore", { file: btoa(text) });
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  app.showBanner("info", `Restored “${file.name}”: the camera reads ${(reply.names || reply.calibrated).join(", ") || "no dice"} with it now.`);
  startDiceSetup(app);
}

// -- the screen --------------------------------------------------------------------------------------
function trayPanel(app) {
  const { setup, snapshot: snap, taps, busy, outline } = app.diceSetup;
  const next = outline
    ? `Tap along the tray's rim, in order around it (a hexagon: its six corners), then Use this outline (${taps.length} taps).`
    : taps.length < 4 ? `Tap the tray's ${CORNERS[taps.length]} corner.` : "Checking the corners…";
  const dots = taps.map(([x, y], i) => h("span", { class: "dice-tap", "data-testid": "dice-tap",
    style: `left:${x * 100}%;top:${y * 100}%` }, String(i + 1)));
  return h("section", { class: "panel", "data-testid": "dice-tray" },
    h("h2", {}, "1. The tray"),
    h("p", { class: "subtle" }, setup.tray
      ? `Tray found (${METHODS[setup.tray.method] || setup.tray.method}). Tap the picture again to redo it.`
      : "Take a picture, then tap the tray's four corners on it: top-left, top-right, bottom-right, bottom-left. A tray of another shape: tap Outline the tray, then its rim."),
    snap ? h("div", { class: "dice-snap", "data-testid": "dice-snapshot", onclick: (e) => tapCorner(app, e) },
      h("img", { src: snap.image, alt: "The camera's picture of the tray", draggable: "false" }), dots) : null,
    snap && (taps.length || !setup.tray || outline) ? h("p", { "data-testid": "dice-tap-hint" }, next) : null,
    h("div", { class: "cal-buttons" },
      h("button", { class: "btn", type: "button", "data-testid": "dice-snap", disabled: busy, onclick: () => snapshot(app) },
        snap ? "New picture" : "Take a picture"),
      h("button", { class: "btn", type: "button", "data-testid": "dice-auto", disabled: busy,
                    onclick: () => send(app, "dice_tray_corners", { corners: "auto" }) }, "Use the corner markers"),
      snap ? h("button", { class: "btn", type: "button", "data-testid": "dice-outline-mode", disabled: busy,
                           onclick: () => outlineMode(app, !outline) }, outline ? "Four corners instead" : "Outline the tray") : null,
      outline ? h("button", { class: "btn", type: "button", "data-testid": "dice-outline-done", disabled: busy || taps.length < 3,
                              onclick: () => useOutline(app) }, "Use this outline") : null,
      taps.length ? h("button", { class: "btn", type: "button", "data-testid": "dice-clear-taps",
                                  onclick: () => { app.diceSetup.taps = []; app.render(); } }, "Clear taps") : null));
}

function emptyPanel(app) {
  const { setup, busy } = app.diceSetup;
  if (!setup.tray || !setup.tray.new) return null;
  return h("section", { class: "panel", "data-testid": "dice-empty", "data-count": setup.empty },
    h("h2", {}, "2. The empty tray"),
    h("p", { class: "subtle" }, `Take everything out of the tray, then take ${setup.empty_wanted} pictures of it (${setup.empty} taken).`),
    setup.exposure ? h("p", { class: "subtle", "data-testid": "dice-exposure" }, `Camera: ${setup.exposure}.`) : null,
    setup.camera_check ? h("p", { class: "note note-warn", "data-testid": "dice-camera-check" }, `Camera check: ${setup.camera_check}.`) : null,
    h("button", { class: "btn btn-huge", type: "button", "data-testid": "dice-empty-take", disabled: busy,
                  onclick: () => send(app, "dice_tray_empty") }, "Take a picture of the empty tray"));
}

function packPanel(app) {
  const { setup, packs } = app.diceSetup;
  return h("section", { class: "panel", "data-testid": "dice-pack", "data-pack": setup.pack },
    h("h2", {}, `The dice of: ${setup.title}`),
    h("ul", { class: "dice-sets" }, setup.sets.map((s) =>
      h("li", { "data-testid": "dice-set", "data-set": s.id, "data-kind": s.kind, "data-calibrated": s.calibrated ? "yes" : "no" },
        `${s.name}: ${s.calibrated ? "calibrated" : "not calibrated yet"}`))),
    setup.others.length ? h("p", { class: "subtle", "data-testid": "dice-other-sets" },
      `Also kept for other games: ${setup.others.map((o) => o.name).join(", ")}.`) : null,
    packs && packs.length > 1 ? h("div", { class: "cal-buttons" }, packs.filter((p) => p.id !== setup.pack).map((p) =>
      h("button", { class: "btn", type: "button", "data-testid": "dice-pack-choice", "data-pack": p.id,
                    onclick: () => app.go(`#/dice/${encodeURIComponent(p.id)}`) }, `Set up the dice of ${p.title}`))) : null);
}

function kindPanel(app) {
  const { setup, busy } = app.diceSetup;
  if (setup.step !== "ready" && setup.step !== "faces") return null;
  const tests = setup.self_tests || {};
  const known = setup.sets.filter((s) => s.calibrated);
  return h("section", { class: "panel", "data-testid": "dice-kinds" },
    h("h2", {}, "3. Your dice"),
    h("p", { class: "subtle", "data-testid": "dice-calibrated" },
      known.length ? `The camera knows: ${known.map((s) => s.name).join(", ")}.` : "The camera knows none of this game's dice yet: choose one below and show it each face."),
    known.map(({ kind, id, name }) => {
      const test = tests[id];
      const words = !test ? "not tested yet: what it reads is shown for you to confirm"
        : test.passed ? `self-test passed (${test.estimate}): reads rolls by itself`
        : `self-test not passed (${test.estimate}): ${test.advice.join("; ") || "what it reads is shown for you to confirm"}`;
      return h("p", { class: "dice-status", "data-testid": "dice-selftest-status", "data-kind": kind, "data-set": id,
                      "data-passed": test && test.passed ? "yes" : "no" },
        h("span", {}, `${name}: ${words} `),
        h("button", { class: "btn", type: "button", "data-testid": "dice-selftest-again", "data-kind": kind, disabled: busy,
                      onclick: () => send(app, "dice_selftest_start", { kind }) }, "Self-test"));
    }),
    h("div", { class: "cal-buttons" }, KINDS.map((k) =>
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "dice-kind", "data-kind": k.kind, "data-style": k.style || "",
                    disabled: busy, onclick: () => send(app, "dice_faces_start", k.style ? { kind: k.kind, style: k.style } : { kind: k.kind }) },
        k.label))));
}

function selfTestPanel(app) {
  const { setup, busy } = app.diceSetup;
  const test = setup.selftest;
  if (!test) return null;
  const words = (f) => (f === "blank" ? "blank" : String(f).toUpperCase());
  const pending = test.pending;
  const done = test.throws >= test.wanted;
  return h("section", { class: "panel", "data-testid": "dice-selftest", "data-throws": test.throws,
                        "data-pending": pending ? "yes" : "no" },
    h("h2", {}, `Self-test: ${test.throws} of ${test.wanted} throws done`),
    h("progress", { max: test.wanted, value: Math.min(test.throws, test.wanted) }),
    h("p", { class: "subtle", "data-testid": "dice-selftest-tally" },
      `So far: ${test.right} read right, ${test.wrong} read wrong, ${test.refused} not read.`),
    pending ? null : h("p", { class: "hint" }, done
      ? "Enough throws: tap Finish the self-test (or throw a few more)."
      : `Throw the ${NAMES[test.kind] || test.kind} into the tray; when it lies still, tap Read.`),
    pending ? null : h("div", { class: "cal-buttons" },
      h("button", { class: "btn btn-huge btn-primary", type: "button", "data-testid": "dice-selftest-throw", disabled: busy,
                    onclick: () => send(app, "dice_selftest_throw") }, "Read the throw"),
      h("button", { class: `btn btn-huge${done ? " btn-primary" : ""}`, type: "button", "data-testid": "dice-selftest-finish",
                    disabled: busy || !done, onclick: () => finishSelfTest(app) }, "Finish the self-test")),
    pending && setup.shot ? h("img", { class: "dice-shot", src: setup.shot, alt: "The throw just read", "data-testid": "dice-selftest-shot" }) : null,
    pending ? h("p", { class: "hint", "data-testid": "dice-selftest-read", "data-label": pending.label, "data-accepted": pending.accepted ? "yes" : "no" },
      pending.accepted ? `Read: ${words(pending.label)}. Which face is up?` : `Not read (${pending.why}). Which face is up?`) : null,
    pending ? h("div", { class: "cal-buttons" }, test.faces.map((f) =>
      h("button", { class: `btn${pending.accepted && f === pending.label ? " btn-primary" : ""}`, type: "button",
                    "data-testid": "dice-selftest-face", "data-face": f, disabled: busy,
                    onclick: () => send(app, "dice_selftest_answer", { face: f }) },
        pending.accepted && f === pending.label ? `✓ ${words(f)}` : words(f)))) : null);
}

function facesPanel(app) {
  const { setup, busy } = app.diceSetup;
  const faces = setup.faces;
  if (!faces) return null;
  const words = (f) => (f === "blank" ? "blank" : f.toUpperCase());
  return h("section", { class: "panel", "data-testid": "dice-faces", "data-asking": faces.asking ?? "", "data-step": faces.step },
    h("h2", {}, `${faces.step} of ${faces.steps} faces taken`),
    h("progress", { max: faces.steps, value: faces.step, "data-testid": "dice-progress" }),
    h("p", { class: "hint", "data-testid": "dice-ask" }, faces.text),
    h("div", { class: "cal-buttons" },
      h("button", { class: "btn btn-huge btn-primary", type: "button", "data-testid": "dice-capture", disabled: busy || faces.asking === null,
                    onclick: () => send(app, "dice_capture") }, "Take the picture"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "dice-back", disabled: busy || faces.step === 0,
                    onclick: () => send(app, "dice_back") }, "◀ Back one"),
      h("button", { class: `btn btn-huge${faces.asking === null ? " btn-primary" : ""}`, type: "button", "data-testid": "dice-finish",
                    disabled: busy || faces.asking !== null, onclick: () => finish(app) }, "Finish and save")),
    setup.shot ? h("img", { class: "dice-shot", src: setup.shot, alt: "The last face taken", "data-testid": "dice-shot" }) : null,
    h("p", { class: "subtle" }, "Tap a face already taken to take it again."),
    h("div", { class: "cal-buttons" }, faces.faces.map((f) => {
      const done = faces.captured.includes(f);
      return h("button", { class: `btn${f === faces.asking ? " btn-primary" : ""}`, type: "button", "data-testid": "dice-face", "data-face": f,
                           "data-done": done ? "yes" : "no", disabled: busy || !done,
                           onclick: () => send(app, "dice_retake", { label: f }) }, `${done ? "✓ " : ""}${words(f)}`);
    })));
}

function backupPanel(app) {
  const fileInput = h("input", { type: "file", accept: ".zip,application/zip", class: "visually-hidden", id: "dice-restore-file",
                                 "data-testid": "dice-restore-file", onchange: (e) => restoreFile(app, e.target) });
  return h("section", { class: "panel" },
    h("h2", {}, "Backup"),
    h("div", { class: "cal-buttons" },
      h("button", { class: "btn", type: "button", "data-testid": "dice-export", onclick: () => exportFile(app) }, "Save the dice setup to a file"),
      h("label", { class: "btn", for: "dice-restore-file", "data-testid": "dice-restore" }, "Load a saved dice setup file"), fileInput,
      h("button", { class: "btn", type: "button", "data-testid": "dice-cancel", onclick: () => cancel(app) }, "Cancel this setup")));
}

export function renderDiceSetup(app) {
  const head = h("header", { class: "page-head" },
    h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "Dice setup"), app.connectionPill());
  const ds = app.diceSetup;
  if (!ds) return h("div", { class: "page", "data-testid": "screen-dice-loading" }, head, h("p", {}, "Asking the camera…"));
  if (!ds.setup) {
    return h("div", { class: "page", "data-testid": "screen-dice" }, head,
      h("section", { class: "panel" }, h("p", { "data-testid": "dice-refused" }, ds.refused)));
  }
  return h("div", { class: "page cal-page", "data-testid": "screen-dice", "data-step": ds.setup.step },
    head,
    h("div", { class: "cal-body" },
      h("div", { class: "cal-side" }, packPanel(app), emptyPanel(app), kindPanel(app), facesPanel(app), selfTestPanel(app), backupPanel(app)),
      h("div", { class: "cal-main" }, trayPanel(app))));
}

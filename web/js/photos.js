// A photo of the owner's board for a pack's board editor: taken or chosen on the tablet
// (scaled down first: a phone camera's full size is far more than a board needs), or taken
// by the dice camera over the table. The box keeps one photo per game (POST
// /api/data/<game>/photo, data_photo_snapshot); any pack's editor lays it under its drawing.

import { authHeaders, sentence } from "./connection.js";

const PHOTO_MAX_PX = 2400;

async function shrink(file) {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, PHOTO_MAX_PX / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size < 4 * 1024 * 1024 && (file.type === "image/jpeg" || file.type === "image/png")) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve) => canvas.toBlob((blob) => resolve(blob || file), "image/jpeg", 0.88));
  } catch {
    return file;
  }
}

/** Send the file chosen in ``input`` as ``game``'s board photo; true when the box kept it (a refusal is shown). */
export async function sendPhoto(app, game, input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return false;
  const body = await shrink(file);
  let reply;
  try {
    const response = await fetch(`/api/data/${game}/photo`, { method: "POST", body,
      headers: authHeaders({ "Content-Type": body.type === "image/png" ? "image/png" : "image/jpeg" }) });
    reply = await response.json().catch(() => ({ ok: response.ok, error: { message: `the companion answered ${response.status}` } }));
  } catch {
    app.showBanner("error", "Could not reach the companion to send the photo.");
    return false;
  }
  if (reply.ok) return true;
  if (reply.error && reply.error.code === "not-paired") app.notPaired(reply.error.message);
  else app.showBanner("error", `The photo was not kept: ${sentence(reply.error ? reply.error.message : "refused")}`);
  return false;
}

/** The dice camera's picture of the table as ``game``'s board photo; true when the box kept it. */
export async function cameraPhoto(app, game) {
  const reply = await app.conn.request("data_photo_snapshot", { game });
  if (!reply.ok) app.showBanner("error", `No photo from the dice camera: ${sentence(reply.error.message)}`);
  return reply.ok;
}

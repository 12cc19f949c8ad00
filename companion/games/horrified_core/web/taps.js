// Which places on the drawn board answer the question on screen when tapped: a Move of
// the action menu, or an option that names a place. The same for every edition.

/** Tap targets: {location id: {kind, title, run}}; the kind picks the glow. */
export function tapTargets(app) {
  const { view } = app;
  const prompt = view.prompt;
  const targets = {};
  if (!prompt) return targets;
  if (prompt.kind === "action") {
    for (const action of view.actions || []) {
      if (action.action === "move" && !(action.to in targets)) {
        const { label, ...answer } = action;
        targets[action.to] = { kind: "move", title: label, run: () => app.answer(answer) };
      }
    }
  } else if (prompt.kind === "choice") {
    for (const option of prompt.options) {
      const where = option.data && typeof option.data.location === "string" ? option.data.location
        : app.names.locations[option.id] ? option.id : null;
      if (where && !(where in targets)) targets[where] = { kind: "choice", title: option.text, run: () => app.answer(option.id) };
    }
  }
  return targets;
}

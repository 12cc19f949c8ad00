// Board places a finger can hit: a place a tap answers gets a round tap area at least TAP_PX
// across on the screen, however small the board is drawn (a phone shows a 1000-unit board in
// about 360 px). The board's scale is read whenever its size changes, and the tap areas'
// radius (CSS `r` of `.loc-hit`, in board units) is set from it through --hit-r.

export const TAP_PX = 48; // a little over the 44 px the platforms' guides ask, for the ring's edge

/** Keep `svg`'s tap areas at least TAP_PX across on screen and never under `least` board units. */
export function fitTapTargets(svg, least) {
  const fit = () => {
    const matrix = svg.getScreenCTM();
    const scale = matrix ? Math.abs(matrix.a) : 0;
    const radius = scale > 0 ? Math.max(least, TAP_PX / 2 / scale) : least;
    svg.style.setProperty("--hit-r", `${radius.toFixed(1)}px`);
  };
  new ResizeObserver(fit).observe(svg);
  return svg;
}

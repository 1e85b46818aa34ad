/* Never under a finger: a screen to draw while the referee presses a target of the console (a move's answer,
   another device's move) waits until he lets go and his tap has been dispatched; drawn at once, it would
   replace the target between his press and its release, and the tap would be lost. (A press held longer than
   PRESS_MS, or whose release never comes, waits no longer.)

   const held = pressGuard(root, draw);  … in draw(): if (held()) { return; }  // drawn again at the release */
var PRESS_MS = 1000;

export function pressGuard(root, drawAgain) {
  var pressedAt = null;
  var waits = false;
  function released() {
    pressedAt = null;
    if (waits) { waits = false; drawAgain(); }
  }
  function letGo() { window.setTimeout(released, 0); }  // (after the click the release dispatches)
  root.addEventListener("pointerdown", function () { pressedAt = performance.now(); }, true);
  document.addEventListener("pointerup", letGo, true);
  document.addEventListener("pointercancel", letGo, true);
  return function held() {
    if (pressedAt === null || performance.now() - pressedAt >= PRESS_MS) { return false; }
    if (!waits) { window.setTimeout(function () { if (waits) { released(); } }, PRESS_MS); }
    waits = true;
    return true;
  };
}

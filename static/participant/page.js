// A participant's page (participants/page.html) asks by itself whether what it shows changed (htmx, at each
// change its event stream tells: site/live.js; 204 while nothing did). Not while he is filling in a form of it
// (a dispute's reason, a details opened): the new content would take what he typed away; it asks again a few
// seconds later (one request put off at a time, however many changes came meanwhile).
import { followPage, notWhileTyping } from "../site/live.js";

const LATER_MS = 5000;

function me() { return document.getElementById("me"); }

const heldBack = notWhileTyping(me, { until: LATER_MS, busy: function () { return !!me().querySelector("details[open]"); } });

function askAgain() { document.body.dispatchEvent(new CustomEvent("live", { detail: {} })); }

document.addEventListener("htmx:beforeRequest", function (event) {
  const shown = me();
  if (!shown || event.detail.elt !== shown) { return; }
  if (heldBack(askAgain)) { event.preventDefault(); }
});

followPage();

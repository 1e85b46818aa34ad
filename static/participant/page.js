// A participant's page (participants/page.html) asks by itself whether what it shows changed (htmx, at each
// change its event stream tells: live.js; 204 while nothing did). Not while he is filling in a form of it (a
// dispute's reason, a details opened): the new content would take what he typed away; it asks again a few
// seconds later.
var LATER_MS = 5000;
var later = null;  // one request put off at a time, however many changes came meanwhile
document.addEventListener("htmx:beforeRequest", function (event) {
  var me = document.getElementById("me");
  if (!me || event.detail.elt !== me) return;
  var typing = document.activeElement && me.contains(document.activeElement) &&
    document.activeElement.matches("input, textarea, select");
  if (typing || me.querySelector("details[open]")) {
    event.preventDefault();
    if (later === null) {
      later = window.setTimeout(function () {
        later = null;
        document.body.dispatchEvent(new CustomEvent("live", { detail: {} }));
      }, LATER_MS);
    }
  }
});

/* The line above the console: online or not, the moves waiting to be sent, whether the rules run on this
   phone and what an outage would leave it (said before the Wi-Fi goes), and the server's last word.

   phone: {online, waiting (moves not sent), ready (the rules run here), failed (they cannot), survives
   ("reload": a service worker keeps the page; "open": only the open page goes on; null: not known yet), note} */
var _ = window.gettext;

export function drawConnection(el, phone) {
  var parts = [phone.online ? _("Online") : _("Offline: the moves wait on this phone")];
  if (phone.waiting) {
    var text = window.ngettext("%(n)s move waiting to be sent", "%(n)s moves waiting to be sent", phone.waiting);
    parts.push(window.interpolate(text, { n: phone.waiting }, true));
  }
  if (!phone.ready && !phone.failed) { parts.push(_("the rules are starting on this phone")); }
  if (phone.failed) {
    parts.push(_("This phone cannot run the rules: write the moves on paper if the Wi-Fi goes"));
  } else if (phone.ready && phone.survives === "reload") {
    parts.push(_("Ready for an outage"));
  } else if (phone.ready && phone.survives === "open") {
    parts.push(_("Keep this page open during an outage: this address allows no reload without the network"));
  }
  if (phone.note) { parts.push(phone.note); }
  el.textContent = parts.join(" · ");
  // (online, but an outage would be lost on this phone: paper, or this page kept open — said in amber)
  var atRisk = phone.failed || (phone.ready && phone.survives === "open");
  el.className = "connection " + (!phone.online ? "off" : (phone.waiting || atRisk ? "waiting" : "on"));
  el.hidden = false;
}

// The trust page (templates/venue/trust.html): whether this phone trusts the laptop's certificate, found out
// by registering the console's service worker, which a browser refuses over a certificate it does not trust
// (the page itself may be open past a warning); registered, it also keeps the console's files on the phone.
const line = document.getElementById("trust-state");

function say(state) {
  line.textContent = line.dataset[state];
  line.classList.add(state);
}

if (!line) {
  // (not the trust page)
} else if (!window.isSecureContext || !("serviceWorker" in navigator)) {
  say("untrusted");
} else {
  navigator.serviceWorker.register(line.dataset.worker, { scope: "/" }).then(
    () => say("trusted"),
    () => say("untrusted"),
  );
}

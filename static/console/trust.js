// The trust page (templates/venue/trust.html): whether this phone trusts the laptop's certificate, found out
// by registering the console's service worker, which a browser refuses over a certificate it does not trust
// (the page itself may be open past a warning); registered, it also keeps the console's files on the phone.
(function () {
  "use strict";
  const line = document.getElementById("trust-state");
  if (!line) return;
  const say = (state) => {
    line.textContent = line.dataset[state];
    line.classList.add(state);
  };
  if (!window.isSecureContext || !("serviceWorker" in navigator)) {
    say("untrusted");
    return;
  }
  navigator.serviceWorker.register(line.dataset.worker, { scope: "/" }).then(
    () => say("trusted"),
    () => say("untrusted"),
  );
})();

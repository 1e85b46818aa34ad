// The door's check-in page (director/check_in_scan.html): a photo of a participant's slip, its QR code read
// here (jsQR, static/vendor), and the link it holds sent with the page's form. Without scripts the page asks
// for the link to be pasted instead.
var LONGEST_SIDE = 1200; // pixels: a phone's photo is scaled down before it is read (enough for a slip)

function read(file, done) {
  var image = new Image();
  image.onload = function () {
    var scale = Math.min(1, LONGEST_SIDE / Math.max(image.width, image.height));
    var canvas = document.createElement("canvas");
    canvas.width = Math.round(image.width * scale);
    canvas.height = Math.round(image.height * scale);
    var context = canvas.getContext("2d");
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    var pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    var code = window.jsQR(pixels.data, pixels.width, pixels.height);
    done(code ? code.data : null);
  };
  image.onerror = function () { done(null); };
  // as a data: URL (the Content-Security-Policy lets images come from the site and data: only)
  var reader = new FileReader();
  reader.onload = function () { image.src = reader.result; };
  reader.onerror = function () { done(null); };
  reader.readAsDataURL(file);
}

document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form[data-check-in-scan]");
  if (!form || !window.jsQR) return;
  var photo = form.querySelector("[data-scan-photo]");
  var error = form.querySelector("[data-scan-error]");
  form.querySelector("[data-with-script]").hidden = false;
  photo.addEventListener("change", function () {
    if (!photo.files.length) return;
    error.hidden = true;
    read(photo.files[0], function (link) {
      photo.value = "";
      if (!link) {
        error.textContent = form.dataset.notFound;
        error.hidden = false;
        return;
      }
      form.elements.link.value = link;
      form.submit();
    });
  });
});

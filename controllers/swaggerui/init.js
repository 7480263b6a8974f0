// Kept out of the page so the Content-Security-Policy needs no inline script.
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  // Each namespace has its document: ?admin shows the administration's.
  var admin = new URLSearchParams(window.location.search).has("admin");
  var relative = admin ? root.dataset.adminDocument : root.dataset.document;
  document.getElementById(admin ? "show-admin" : "show-events").setAttribute("aria-current", "page");
  window.ui = SwaggerUIBundle({
    url: new URL(relative, document.baseURI).href,
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // The public validator would receive the document; the CSP would block it anyway.
    validatorUrl: null,
  });
});

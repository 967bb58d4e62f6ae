// Open the transcript an in-page link points to, then bring it into view.
(function () {
  function reveal(hash) {
    if (!hash || hash.length < 2) return;
    var target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    target.scrollIntoView({block: "start"});
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) reveal(link.getAttribute("href"));
  });
  window.addEventListener("hashchange", function () { reveal(location.hash); });
  reveal(location.hash);
})();

// What a screen reader would announce from the page's live regions, recorded as it happens
// (an init script: window.__announced, one entry per change). A change counts where a live region
// already in the page gains nodes or text; what it reads is the added nodes' text, leaving out
// aria-hidden and hidden parts (the typed copy of a speech, the streamed words). A live region
// put in whole (a catch-up reading the page again) is not announced, as in Chromium.
(() => {
  const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"]';
  const hidden = (el) => !el || !!el.closest('[aria-hidden="true"], [hidden]');
  const spoken = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return hidden(node.parentElement) ? "" : node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.matches('[aria-hidden="true"], [hidden]')) return "";
    return Array.from(node.childNodes).map(spoken).join(" ");
  };
  window.__announced = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const target = record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement;
      const region = target && target.closest(LIVE);
      if (!region || hidden(target)) continue;
      const relevant = (region.getAttribute("aria-relevant") || "additions text").split(/\s+/);
      const wants = (kind) => relevant.includes(kind) || relevant.includes("all");
      let text = "";
      if (record.type === "childList") {
        text = Array.from(record.addedNodes)
          .filter((node) => (node.nodeType === Node.TEXT_NODE ? wants("text") : wants("additions")))
          .map(spoken).join(" ");
      } else if (record.type === "characterData" && wants("text")) {
        text = spoken(record.target);
      }
      text = text.replace(/\s+/g, " ").trim();
      if (text) window.__announced.push({ region: region.id || region.className, text });
    }
  });
  const start = () => observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();

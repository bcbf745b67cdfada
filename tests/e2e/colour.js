// Elements that show a vote (guilty or not guilty) by the jury's two colours: each must also say
// it in words, a letter or a sign, and a drawing's two kinds of mark must differ by more than hue.
// Returns one line per element that relies on colour alone.
() => {
  const root = getComputedStyle(document.documentElement);
  if (!root.getPropertyValue("--guilty").trim()) return []; // a page without the jury's colours (the admin)
  const probe = document.createElement("span");
  document.body.appendChild(probe);
  const rgb = (name) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const colours = { guilty: rgb("--guilty"), not_guilty: rgb("--not-guilty") };
  probe.remove();
  // Red also means "careful" (a danger button, an error, a turn about to end): not a vote.
  const NOT_A_VOTE = ".danger, .danger-link, .field-error, .has-error, .form-error, .countdown-low, .call-confirm, .error-page";
  const SAYS = /guilty|acquit|convict|defen|prosecut|\bN?G\b|[+\u2212-]\s?\d|towards/i;
  const SHAPES = "path, line, rect, circle, polygon, polyline, ellipse";
  const which = (value) => Object.keys(colours).find((k) => colours[k] === value);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const ownText = (el) => Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  // What a sighted reader sees: text a visually hidden copy carries for screen readers does not count.
  const seen = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const box = node.parentElement.getBoundingClientRect();
      if (box.width > 1 && box.height > 1) text += ` ${node.textContent}`;
    }
    return text;
  };
  const problems = [];
  const patterns = new Map(); // svg -> {guilty: Set(dash), not_guilty: Set(dash)}
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.closest(NOT_A_VOTE)) continue;
    const style = getComputedStyle(el);
    if (el instanceof SVGElement && el.matches(SHAPES)) {
      const vote = which(style.stroke); // a line's colour and its pattern (an arrowhead follows its line)
      if (!vote) continue;
      const svg = el.ownerSVGElement;
      if (!patterns.has(svg)) patterns.set(svg, { guilty: new Set(), not_guilty: new Set() });
      patterns.get(svg)[vote].add(`${style.strokeDasharray}|${style.markerEnd}`);
      continue;
    }
    const borders = ["Top", "Right", "Bottom", "Left"].filter((s) => parseFloat(style[`border${s}Width`]) > 0)
      .map((s) => style[`border${s}Color`]);
    // A text colour counts where it is set, not in every child that inherits it.
    const inherited = el.parentElement && getComputedStyle(el.parentElement).color === style.color;
    const uses = [style.backgroundColor, ...borders].some(which) || (ownText(el) && !inherited && which(style.color));
    if (!uses) continue;
    // The words may sit beside the colour in the same item (a quoted speech and its figures).
    const item = el.closest("li") || el;
    const text = seen(item);
    if (!SAYS.test(text)) problems.push(`${name(el)}: "${text.trim().slice(0, 60)}"`);
  }
  for (const [svg, seen] of patterns) {
    if (!seen.guilty.size || !seen.not_guilty.size) continue;
    const shared = [...seen.guilty].filter((p) => seen.not_guilty.has(p));
    if (shared.length) problems.push(`${name(svg)}: guilty and not guilty marks differ by colour alone (${shared})`);
  }
  return problems;
}

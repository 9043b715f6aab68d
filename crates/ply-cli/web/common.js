// Shared by every page of `ply serve`: the large-text (projector) mode.
// Loaded in <head> before the page draws, so a page opens in the mode the
// reader chose last time (remembered in localStorage) without a flash; the
// toggle is a button at the end of the page's header.
"use strict";
(() => {
  const KEY = "ply-projector";
  const root = document.documentElement;
  const stored = () => {
    try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
  };
  const set = (on) => {
    root.classList.toggle("projector", on);
    try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode: not remembered */ }
    const b = document.getElementById("projector");
    if (b) b.setAttribute("aria-pressed", String(on));
    // Pages that size drawings to the window redraw on resize.
    window.dispatchEvent(new Event("resize"));
  };
  root.classList.toggle("projector", stored());
  const addToggle = () => {
    const header = document.querySelector("header");
    if (!header || document.getElementById("projector")) return;
    const b = document.createElement("button");
    b.id = "projector";
    b.type = "button";
    b.className = "projector-toggle";
    b.dataset.testid = "projector";
    b.textContent = "large text";
    b.title = "Large text and thick lines, for a projector or a class (remembered)";
    b.setAttribute("aria-pressed", String(stored()));
    b.addEventListener("click", () => set(!root.classList.contains("projector")));
    header.append(b);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addToggle);
  else addToggle();
  window.plyProjector = set;
})();

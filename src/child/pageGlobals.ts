/**
 * The few page globals the child's in-page functions use (they run in the browser, passed to
 * `page.evaluate` or serialized into an isolated world). The child's own program is Node code and is
 * type-checked without the DOM library, so a page function names what it touches here, once:
 * `const { document } = globalThis as unknown as PageGlobals;` (a cast, erased from the emitted code).
 */
export interface PageElement {
  id: string;
  tagName: string;
  outerHTML: string;
  textContent: string | null;
  /** Inputs and text areas only. */
  placeholder?: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  appendChild(child: PageElement): void;
  remove(): void;
  closest(selector: string): PageElement | null;
}

export interface PageGlobals {
  document: {
    documentElement: PageElement;
    getElementById(id: string): PageElement | null;
    elementFromPoint(x: number, y: number): PageElement | null;
    createElement(tag: string): PageElement;
    querySelector(selector: string): PageElement | null;
  };
  CSS: { escape(text: string): string };
  /** The viewport's size as the page's script reads it (the person's resize waits until it is the chosen one). */
  innerWidth: number;
  innerHeight: number;
  /** What is on screen, in CSS pixels at its zoom (a mobile page zoomed out to its layout: scale under 1). */
  visualViewport: { width: number; height: number; scale: number };
  requestAnimationFrame(callback: () => void): number;
  location: { href: string; origin: string };
  stop(): void;
  /** The tab's sessionStorage (time travel keeps and puts it back: Playwright's storage state leaves it out). */
  sessionStorage: { setItem(name: string, value: string): void; [name: string]: unknown };
}

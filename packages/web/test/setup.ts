// What jsdom lacks and the app's libraries use: matchMedia (colour scheme, breakpoints), ResizeObserver and
// document.fonts (a textarea's autosize, dropdowns), scrolling (the router, an option scrolled into view), an iframe's
// `sandbox` (rrweb's replayer).
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Files that run in Node (`@vitest-environment node`) have no DOM to complete.
if (typeof window !== 'undefined') {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;

  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });
  Element.prototype.scrollIntoView ??= () => undefined;
  // rrweb's replayer draws only into an iframe sandboxed to `allow-same-origin`, which it checks through `sandbox`.
  if (!('sandbox' in HTMLIFrameElement.prototype))
    Object.defineProperty(HTMLIFrameElement.prototype, 'sandbox', {
      get(this: HTMLIFrameElement) {
        return (this.getAttribute('sandbox') ?? '').split(/\s+/).filter(Boolean);
      },
    });
  window.scrollTo = () => undefined;
}

afterEach(cleanup);

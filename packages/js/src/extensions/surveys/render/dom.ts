/** Attributes of `h`: `on<event>` functions are listeners, `style` is set through the CSSOM, other values are attributes (false and undefined: absent). */
export type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>

/**
 * An element of the survey's shadow tree: `h('button', { type: 'button', onclick: close }, 'Close')`. Text is
 * always text (never parsed as HTML); `svg` children are built in the SVG namespace.
 */
export function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | false | null | undefined)[]): HTMLElement {
  const el =
    tag.startsWith('svg') || /^(path|circle)$/.test(tag)
      ? document.createElementNS('http://www.w3.org/2000/svg', tag.replace('svg:', ''))
      : document.createElement(tag)
  for (const [k, v] of Object.entries(attrs))
    if (typeof v === 'function') el.addEventListener(k.slice(2), v)
    else if (k === 'style') el.style.cssText = String(v ?? '')
    else if (v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : String(v))
  for (const c of children) if (c != null && c !== false) el.append(c)
  return el as HTMLElement
}

let n = 0
/** An id unique in the page (shadow trees of several surveys included). */
export const uid = (prefix: string): string => `svc-${prefix}-${++n}`

/** A description's text: an HTML one is read by an inert parser (no script runs, nothing loads) for its text alone. */
export const plainText = (text: string | null | undefined, html?: boolean): string =>
  html ? (new DOMParser().parseFromString(text ?? '', 'text/html').body.textContent ?? '') : (text ?? '')

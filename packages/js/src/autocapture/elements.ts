import type { Props } from '../core/properties'

/** Card-number-like (13–19 digits with optional spaces/dashes) and SSN-like runs, anywhere in a text. */
const SECRET = /\d(?:[ -]?\d){12,18}|\b\d{3}-?\d{2}-?\d{4}\b/g
/** An attribute value that is a card number or an SSN as a whole. */
const SECRET_VALUE = /^(?:\d(?:[ -]?\d){12,18}|\d{3}-?\d{2}-?\d{4})$/
/** Field names that suggest secrets (PostHog's list): their elements give no text or href. */
const SECRET_NAME = /^cc|cardnum|ccnum|creditcard|csc|cvc|cvv|exp|pass|pwd|routing|seccode|securitycode|securitynum|socialsec|socsec|ssn/i
/** Attributes kept for form fields (whose other attributes may mirror what the user typed). */
const FIELD_ATTRS = ['name', 'id', 'class', 'aria-label']
/** Tags whose own text is recorded in the chain (besides the first element). */
const TEXT_TAGS = /^(a|button|form|input|select|textarea|label)$/

const tag = (el: Element) => el.tagName.toLowerCase()
/** Cleans text: card/SSN-looking tokens removed, whitespace squeezed, at most 255 chars. */
const clean = (s: string) => s.replace(SECRET, '').replace(/\s+/g, ' ').trim().slice(0, 255)

/** Form fields: their attributes may mirror user input, so only FIELD_ATTRS are kept. */
function isField(el: Element): boolean {
  const t = tag(el)
  const type = (el.getAttribute('type') || '').toLowerCase()
  return (
    (t === 'input' && !/^(button|checkbox|submit|reset|image)$/.test(type)) ||
    t === 'select' ||
    t === 'textarea' ||
    el.getAttribute('contenteditable') === 'true'
  )
}

/** False for hidden/password inputs and secret-looking names: no text and no href from them. */
function isSafe(el: Element): boolean {
  const type = (el.getAttribute('type') || '').toLowerCase()
  const name = (el.getAttribute('name') || el.id || '').replace(/[^a-zA-Z0-9]/g, '')
  return type !== 'hidden' && type !== 'password' && !SECRET_NAME.test(name)
}

/** Direct text nodes only (never textContent, never `.value`); for a/button also nested spans. */
function text(el: Element): string {
  if (isField(el) || !isSafe(el)) return ''
  let s = ''
  el.childNodes.forEach((n) => {
    if (n.nodeType === 3) s += n.textContent
    else if (/^(a|button|span)$/.test(tag(el)) && n.nodeType === 1 && tag(n as Element) === 'span') s += ' ' + text(n as Element)
  })
  return clean(s)
}

const esc = (s: string) => s.replace(/"|\\"/g, '\\"')

/** One element of `$elements_chain`: `tag.class1.class2:key="value"...`, classes and keys sorted. */
function describe(el: Element, first: boolean): [string, string] {
  const t = tag(el)
  const attrs: Record<string, string> = {}
  const field = isField(el)
  const txt = first || TEXT_TAGS.test(t) ? text(el) : ''
  if (txt) attrs.text = txt.slice(0, 400)
  for (const a of Array.from(el.attributes)) {
    if ((field && !FIELD_ATTRS.includes(a.name)) || SECRET_VALUE.test(a.value.trim()) || /^_ng(content|host)/.test(a.name)) continue
    if (a.name === 'href' && !isSafe(el)) continue
    attrs['attr__' + a.name] = a.value.slice(0, 1024)
  }
  if (t === 'a' && attrs.attr__href) attrs.href = attrs.attr__href.slice(0, 2048)
  if (attrs.attr__id) attrs.attr_id = attrs.attr__id
  let child = 1
  let ofType = 1
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) {
    child++
    if (s.tagName === el.tagName) ofType++
  }
  attrs['nth-child'] = '' + child
  attrs['nth-of-type'] = '' + ofType
  const classes = (el.getAttribute('class') || '').split(/\s+/).filter(Boolean).sort()
  const kv = Object.keys(attrs)
    .sort()
    .map((k) => `${esc(k)}="${esc(attrs[k])}"`)
    .join('')
  return [t + classes.map((c) => '.' + c.replace(/"/g, '')).join('') + ':' + kv, txt]
}

/** What a click counts for: links, buttons, submit-like inputs, role=button, anything with data-attr. */
const clickable = (el: Element) =>
  /^(a|button)$/.test(tag(el)) ||
  (tag(el) === 'input' && /^(submit|button|reset|image)$/.test((el.getAttribute('type') || '').toLowerCase())) ||
  el.getAttribute('role') === 'button' ||
  el.hasAttribute('data-attr')

/**
 * Properties of a `$autocapture` event for a DOM event, or undefined when it is not captured:
 * nothing from inside a `svc-no-capture` element; clicks count for the nearest clickable element
 * (a span inside a button counts for the button); `change` for form fields, `submit` for forms.
 */
export function autocaptureProps(e: Event): Props | undefined {
  let node = (e.composedPath?.()[0] ?? e.target) as Node | null
  if (node?.nodeType === 3) node = node.parentNode
  const path: Element[] = []
  // Target up to body, crossing shadow roots through their hosts.
  for (let el = node as Element | null; el && el.nodeType === 1; el = el.parentElement ?? ((el.parentNode as ShadowRoot | null)?.host || null)) {
    path.push(el)
    if (tag(el) === 'body') break
  }
  if (path.some((el) => el.classList.contains('svc-no-capture'))) return
  const i = path.findIndex((el) => (e.type === 'submit' ? tag(el) === 'form' : e.type === 'change' ? /^(input|select|textarea)$/.test(tag(el)) : clickable(el)))
  if (i < 0) return
  const els = path.slice(i).map((el, j) => describe(el, !j))
  return {
    $event_type: e.type,
    $ce_version: 1,
    $elements_chain: els.map((d) => d[0]).join(';'),
    ...(els[0][1] ? { $el_text: els[0][1] } : {}),
  }
}

import type { SurveyAppearance, SurveyPosition } from '../../../surveys/types'

/** The text color that reads on `color` (posthog-js's rule: perceived brightness above half gives dark text). */
export function textOn(color: string, probe?: HTMLElement): string {
  let rgb: number[] | undefined
  const hex = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(({ black: '#000', white: '#fff' } as Record<string, string>)[color] ?? color.trim())?.[1]
  if (hex) rgb = (hex.length === 3 ? [...hex].map((c) => c + c) : hex.match(/../g)!).map((x) => parseInt(x, 16))
  else {
    // any other CSS color (a name, hsl(), ...): as the browser computes it
    if (probe) {
      probe.style.color = ''
      probe.style.color = color
    }
    const m = /rgba?\(([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(probe ? getComputedStyle(probe).color : color)
    rgb = m?.slice(1, 4).map(Number)
  }
  if (!rgb) return '#020617'
  const [r, g, b] = rgb
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) > 127.5 ? '#020617' : '#ffffff'
}

/** The CSS variables of a survey's look, from its appearance (posthog-js's defaults for what it leaves out). */
export function appearanceVars(a: SurveyAppearance = {}, probe?: HTMLElement): string {
  const bg = a.backgroundColor || '#eeeded'
  const submit = a.submitButtonColor || 'black'
  const active = a.ratingButtonActiveColor || 'black'
  const input = a.inputBackground || (bg === 'white' || bg === '#ffffff' ? '#f8f8f8' : 'white')
  const widget = a.widgetColor || 'black'
  const vars: Record<string, string> = {
    font: a.fontFamily && a.fontFamily !== 'inherit' ? `${a.fontFamily}, system-ui, sans-serif` : 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    bg,
    text: a.textColor || textOn(bg, probe),
    border: a.borderColor || '#c9c6c6',
    submit,
    'submit-text': a.submitButtonTextColor || textOn(submit, probe),
    rating: a.ratingButtonColor || 'white',
    'rating-text': a.inputTextColor || textOn(a.ratingButtonColor || 'white', probe),
    active,
    'active-text': textOn(active, probe),
    input,
    'input-text': a.inputTextColor || textOn(input, probe),
    widget,
    'widget-text': textOn(widget, probe),
    width: a.maxWidth || '300px',
    z: a.zIndex || '2147483645',
  }
  return Object.entries(vars)
    .map(([k, v]) => `--${k}:${v.replace(/[;{}]/g, '')}`)
    .join(';')
}

/** Where a popover sits, by `appearance.position` (bottom right by default). */
export const POSITIONS: Record<SurveyPosition, string> = {
  top_left: 'top:30px;left:30px',
  top_right: 'top:30px;right:30px',
  top_center: 'top:30px;left:50%;transform:translateX(-50%)',
  middle_left: 'top:50%;left:30px;transform:translateY(-50%)',
  middle_right: 'top:50%;right:30px;transform:translateY(-50%)',
  middle_center: 'top:50%;left:50%;transform:translate(-50%,-50%)',
  left: 'bottom:0;left:30px',
  center: 'bottom:0;left:50%;transform:translateX(-50%)',
  right: 'bottom:0;right:30px',
  next_to_trigger: 'bottom:0;right:30px',
}

/**
 * The stylesheet of a survey's shadow tree. `:host` resets every inherited property with `!important` (an inner
 * `!important` wins over the page's rules for the host), so the page's fonts, colors and sizes never reach in; the
 * rules inside apply to the shadow tree alone, so nothing reaches out.
 */
export const CSS = `:host{all:initial!important;display:contents!important}
*{box-sizing:border-box;margin:0;font:inherit;color:inherit}
.root{font-family:var(--font);font-size:14px;line-height:1.4;color:var(--text)}
.box{position:fixed;z-index:var(--z);width:calc(100vw - 20px);max-width:var(--width);background:var(--bg);border:1.5px solid var(--border);border-radius:10px;box-shadow:0 4px 12px rgba(0,0,0,.15);padding:20px 24px 16px;animation:in .2s ease-out}
.box.bottom{border-bottom:0;border-radius:10px 10px 0 0}
.box.inline{position:relative;z-index:auto;width:100%;transform:none;animation:none;box-shadow:none}
@keyframes in{from{opacity:0;translate:0 12px}}
@media (prefers-reduced-motion:reduce){.box{animation:none}}
.close{position:absolute;top:6px;right:6px;width:30px;height:30px;border:0;border-radius:6px;background:transparent;cursor:pointer;display:grid;place-items:center}
.close:hover{background:rgba(127,127,127,.2)}
.title{display:block;font-size:16px;font-weight:600;margin:0 22px 4px 0;padding:0}
.desc{margin-bottom:8px;white-space:pre-line}
fieldset{border:0;padding:0;min-width:0}
textarea,.other{display:block;width:100%;border:1.5px solid var(--border);border-radius:6px;background:var(--input);color:var(--input-text);padding:8px;margin-top:8px}
textarea{min-height:80px;resize:vertical}
.choices{display:grid;gap:6px;margin-top:8px}
.choice{display:flex;align-items:center;gap:8px;padding:8px 10px;border:1.5px solid var(--border);border-radius:6px;background:var(--input);color:var(--input-text);cursor:pointer}
.choice input{accent-color:var(--active);width:16px;height:16px;margin:0;flex:none}
.choice:has(:checked){border-color:var(--active)}
.rating{display:grid;grid-auto-flow:column;grid-auto-columns:1fr;border:1.5px solid var(--border);border-radius:6px;overflow:hidden;margin-top:8px}
.rating.emoji{border:0;overflow:visible;justify-content:center;grid-auto-columns:min-content;gap:10px}
.opt{position:relative;display:block}
.opt input,.sr{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden;clip-path:inset(50%)}
.opt span{display:grid;place-items:center;min-height:36px;padding:6px 0;background:var(--rating);color:var(--rating-text);cursor:pointer;font-weight:600}
.rating:not(.emoji) .opt+.opt span{border-left:1.5px solid var(--border)}
.opt input:checked+span{background:var(--active);color:var(--active-text)}
.emoji span{background:transparent;color:var(--text);border-radius:50%;padding:2px;min-height:0;opacity:.6}
.emoji input:checked+span{background:transparent;color:var(--text);opacity:1;transform:scale(1.1)}
.opt input:focus-visible+span,:focus-visible{outline:2px solid var(--active);outline-offset:2px}
.bounds{display:flex;justify-content:space-between;gap:12px;margin-top:4px;font-size:12px}
.actions{display:flex;gap:8px;margin-top:14px}
.submit,.back,.tab{border:0;border-radius:6px;padding:10px 12px;font-weight:600;cursor:pointer}
.submit{flex:1;background:var(--submit);color:var(--submit-text)}
.submit:disabled{opacity:.6;cursor:default}
.back{background:transparent;border:1.5px solid var(--border)}
.sr:focus{position:static;width:auto;height:auto;opacity:1;clip-path:none}
.thanks{text-align:center;padding:8px 0}
.thanks .title{margin:0 0 6px}
.tab{position:fixed;z-index:var(--z);top:50%;right:0;transform:rotate(-90deg) translateY(-100%);transform-origin:right top;border-radius:6px 6px 0 0;background:var(--widget);color:var(--widget-text)}
.tab+.box{top:50%;bottom:auto;right:60px;transform:translateY(-50%);border-bottom:1.5px solid var(--border);border-radius:10px}`

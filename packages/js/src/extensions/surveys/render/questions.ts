import type { ChoiceQuestion, RatingQuestion, SurveyAppearance, SurveyQuestion, SurveyResponse } from '../../../surveys/types'
import { h, plainText, uid } from './dom'

/** A question drawn: its element, its answer (undefined while a required one has none) and where focus goes first. */
export interface DrawnQuestion {
  el: HTMLElement
  /** The id of the question's title, which names the survey's dialog while the question shows. */
  titleId: string
  value(): SurveyResponse | undefined
  first(): HTMLElement | null | undefined
}

/** What a question tells the survey: its answer changed (to check the submit button), or it was picked (skip the button). */
export interface QuestionHooks {
  changed(): void
  picked(): void
  /** The answer given before (the user came back to the question, or resumed the survey). */
  initial?: SurveyResponse
  appearance: SurveyAppearance
}

const EMOJI_NAMES: Record<number, string[]> = {
  2: ['Thumbs up', 'Thumbs down'],
  3: ['Dissatisfied', 'Neutral', 'Satisfied'],
  5: ['Very dissatisfied', 'Dissatisfied', 'Neutral', 'Satisfied', 'Very satisfied'],
}
/** Mouths of the faces, from very dissatisfied to very satisfied. */
const MOUTHS = ['M8 18c1-3 7-3 8 0', 'M8.5 17c1-1.6 6-1.6 7 0', 'M8.5 16h7', 'M8.5 15c1 1.6 6 1.6 7 0', 'M8 14.5c1 3.5 7 3.5 8 0']
const THUMB = 'M7 11v9H4v-9zm0 0 4-8c1.5 0 2.5 1 2.2 2.6L12.6 9H18a2 2 0 0 1 2 2.3l-1.2 6.5A2.5 2.5 0 0 1 16.4 20H7'

/** An emoji of a rating: a face (scales 3 and 5) or a thumb (scale 2), drawn in the text's color. */
function emoji(scale: number, i: number): HTMLElement {
  const attrs = {
    viewBox: '0 0 24 24',
    width: 36,
    height: 36,
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': 1.5,
    'stroke-linecap': 'round',
    'aria-hidden': 'true',
  }
  if (scale === 2) return h('svg', { ...attrs, transform: i ? 'rotate(180)' : undefined }, h('path', { d: THUMB }))
  const mouth = scale === 3 ? [1, 2, 3][i] : i
  return h(
    'svg',
    attrs,
    h('circle', { cx: 12, cy: 12, r: 9.5 }),
    h('path', { d: 'M9 9.5h.01M15 9.5h.01', 'stroke-width': 2.5 }),
    h('path', { d: MOUTHS[mouth] }),
  )
}

/** Choices in the order shown: shuffled (never in their own order) with `shuffleOptions`, the open choice staying last. */
export function displayedChoices(q: ChoiceQuestion): string[] {
  const choices = [...(q.choices ?? [])]
  if (!q.shuffleOptions || choices.length < 2) return choices
  const open = q.hasOpenChoice ? choices.pop() : undefined
  const shuffled = [...choices]
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]
  }
  if (shuffled.length > 1 && shuffled.every((c, i) => c === choices[i])) shuffled.reverse()
  return open === undefined ? shuffled : [...shuffled, open]
}

/** The title and description of a question; the title names the question's group or field. */
function header(q: SurveyQuestion, titleId: string, descId: string, tag: 'legend' | 'label' | 'p', forId?: string): HTMLElement[] {
  const desc = plainText(q.description, q.descriptionContentType === 'html')
  return [h(tag, { id: titleId, class: 'title', for: forId }, q.question), ...(desc ? [h('p', { id: descId, class: 'desc' }, desc)] : [])]
}

function open(q: SurveyQuestion, k: QuestionHooks, titleId: string, descId: string): DrawnQuestion {
  const fieldId = uid('field')
  const area = h('textarea', {
    id: fieldId,
    name: 'answer',
    rows: 3,
    placeholder: k.appearance.placeholder || 'Start typing...',
    'aria-describedby': q.description ? descId : undefined,
    'aria-required': q.optional ? undefined : 'true',
    oninput: k.changed,
  }) as HTMLTextAreaElement
  if (typeof k.initial === 'string') area.value = k.initial
  return {
    titleId,
    el: h('div', {}, ...header(q, titleId, descId, 'label', fieldId), area),
    value: () => (area.value.trim() ? area.value.trim() : q.optional ? null : undefined),
    first: () => area,
  }
}

function rating(q: RatingQuestion, k: QuestionHooks, titleId: string, descId: string): DrawnQuestion {
  const scale = [2, 3, 5, 7, 10].includes(q.scale) ? q.scale : 5
  const emojis = q.display === 'emoji' && EMOJI_NAMES[scale]
  const values = Array.from({ length: scale === 10 ? 11 : scale }, (_, i) => (scale === 10 ? i : i + 1))
  const name = uid('rating')
  const inputs = values.map((v, i) => {
    const bound = i === 0 ? q.lowerBoundLabel : i === values.length - 1 ? q.upperBoundLabel : ''
    const label = emojis ? `${emojis[i]} (${v} of ${values.length})` : bound ? `${v}, ${bound}` : String(v)
    return h('input', {
      type: 'radio',
      name,
      value: v,
      'aria-label': label,
      checked: k.initial === v,
      onchange: k.changed,
      // a pointer's pick answers at once when the question skips its button; arrow keys only move the choice
      onclick: (e) => (e as MouseEvent).detail > 0 && q.skipSubmitButton && k.picked(),
    }) as HTMLInputElement
  })
  const group = h(
    'div',
    { class: emojis ? 'rating emoji' : 'rating' },
    ...inputs.map((input, i) => h('label', { class: 'opt' }, input, h('span', { 'aria-hidden': 'true' }, emojis ? emoji(scale, i) : String(values[i])))),
  )
  const bounds =
    !emojis || scale !== 2
      ? h('div', { class: 'bounds', 'aria-hidden': 'true' }, h('span', {}, q.lowerBoundLabel ?? ''), h('span', {}, q.upperBoundLabel ?? ''))
      : null
  const checked = () => inputs.find((i) => i.checked)
  return {
    titleId,
    el: h('fieldset', { role: 'radiogroup', 'aria-describedby': q.description ? descId : undefined }, ...header(q, titleId, descId, 'legend'), group, bounds),
    value: () => (checked() ? Number(checked()!.value) : q.optional ? null : undefined),
    first: () => checked() ?? inputs[0],
  }
}

function choice(q: ChoiceQuestion, k: QuestionHooks, titleId: string, descId: string): DrawnQuestion {
  const multiple = q.type === 'multiple_choice'
  const all = q.choices ?? []
  const openLabel = q.hasOpenChoice ? all[all.length - 1] : undefined
  const name = uid('choice')
  const given = k.initial == null ? [] : ([] as unknown[]).concat(k.initial).map(String)
  const other = given.find((g) => !all.slice(0, openLabel === undefined ? all.length : -1).includes(g))
  let otherInput: HTMLInputElement | undefined
  const boxes = displayedChoices(q).map((c) => {
    const isOpen = c === openLabel && openLabel !== undefined
    const box = h('input', {
      type: multiple ? 'checkbox' : 'radio',
      name,
      value: c,
      checked: isOpen ? other !== undefined : given.includes(c),
      onchange: () => {
        if (isOpen && box.checked) otherInput?.focus()
        k.changed()
      },
      onclick: (e) => !multiple && !isOpen && (e as MouseEvent).detail > 0 && q.skipSubmitButton && k.picked(),
    }) as HTMLInputElement
    const row = h('label', { class: 'choice' }, box, h('span', {}, isOpen ? `${c}:` : c))
    if (!isOpen) return { row, box, c }
    otherInput = h('input', {
      type: 'text',
      class: 'other',
      'aria-label': c,
      value: other,
      oninput: () => {
        box.checked = !!otherInput!.value.trim() || box.checked
        k.changed()
      },
    }) as HTMLInputElement
    return { row: h('div', {}, row, otherInput), box, c, isOpen }
  })
  const picked = () => boxes.filter((b) => b.box.checked).map((b) => (b.isOpen ? otherInput!.value.trim() : b.c))
  return {
    titleId,
    el: h(
      'fieldset',
      { 'aria-describedby': q.description ? descId : undefined },
      ...header(q, titleId, descId, 'legend'),
      h('div', { class: 'choices' }, ...boxes.map((b) => b.row)),
    ),
    value: () => {
      const p = picked()
      // an open choice ticked needs its text
      if (p.includes('')) return undefined
      if (!p.length) return q.optional ? null : undefined
      return multiple ? p : p[0]
    },
    first: () => boxes.find((b) => b.box.checked)?.box ?? boxes[0]?.box,
  }
}

/** Draws one question of any type. A `link` question has no field: its button opens the link. */
export function drawQuestion(q: SurveyQuestion, k: QuestionHooks): DrawnQuestion {
  const titleId = uid('title')
  const descId = uid('desc')
  if (q.type === 'open') return open(q, k, titleId, descId)
  if (q.type === 'rating') return rating(q, k, titleId, descId)
  if (q.type === 'single_choice' || q.type === 'multiple_choice') return choice(q, k, titleId, descId)
  return { titleId, el: h('div', {}, ...header(q, titleId, descId, 'p')), value: () => 'link clicked', first: () => null }
}
